#!/bin/bash
# Issue 11, bug 7: once the command runs, guardexec never exits 125
# without a record.  The attack: the command lowers guardexec's
# RLIMIT_NOFILE (prlimit on its parent, allowed to the same user), so
# guardexec's poll() fails mid-run.
. "$TOP_SRCDIR/tests/integ/lib.sh"
# With its own namespaces the command cannot even reach guardexec or the
# caller's terminal (namespaces.sh attacks that): this is the fallback,
# where the kernel refuses namespaces, forced here.
no_ns_or_skip_all
plan 8

P=$(limits_policy midrun 'timeout = 60;')

midrun_case() {
	local label=$1 runner=$2 c
	rm -f "$T/m.json" "$T/m.pid"
	# Under ASan, LeakSanitizer's exit check needs descriptors the
	# command has just taken away from guardexec: it is off here.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	timeout -s KILL 60 $runner $NO_NS "$GUARDEXEC" -l "$T/m-$RANDOM.log" \
		-r "$T/m.json" -p "$P" -- "$HELPERS/prlimit-parent" "$T/m.pid" \
		> /dev/null 2> "$T/m.err"
	rc=$?
	c=$(cat "$T/m.pid" 2>/dev/null || echo 0)
	[ "$c" != 0 ] && track_pid "$c"
	is "$label: guardexec's own failure mid-run: exit 125" "$rc" 125
	like "$label: the run is recorded, with the error" \
		"$(cat "$T/m.json" 2>/dev/null)" '"error":"supervising the command: poll: '
	like "$label: the error is on stderr" "$(cat "$T/m.err")" \
		'^guardexec: .*poll'
	check "$label: the command is dead" sh -c "test $c != 0 && ! test -d /proc/$c"
}

midrun_case "as caller" ""
if unpriv_setup; then
	# From $T: uid 65534 may not enter the checkout (a home under /root).
	cd "$T" || exit 1
	chmod 644 "$P"
	if [ "$AS_USER" = " " ]; then midrun_case "unprivileged" ""
	else midrun_case "uid 65534" "$AS_USER"; fi
else
	for i in 1 2 3 4; do skip "unprivileged: $UNPRIV_REASON"; done
fi
finish
