#!/bin/bash
# Guarantees 1 and 10, issue 11 bugs 1 and 3: the sentinel.  If
# guardexec is killed, the sentinel kills the command's session, a
# process whose main thread has exited included; the sentinel is not a
# victim of the family kill (it outlives the timeout's SIGKILL); and a
# process outside the family that was handed the output pipe cannot keep
# guardexec from returning and recording.
. "$TOP_SRCDIR/tests/integ/lib.sh"
# The sentinel is the fallback where the kernel refuses namespaces (with
# them, the init's PR_SET_PDEATHSIG ends the family): force that here.
no_ns_or_skip_all
plan 10

P=$(limits_policy sentinel 'timeout = 1; kill_grace = 1;')
P_LONG=$(limits_policy sentinel-long 'timeout = 120;')

# ppid PID: the parent of PID.
ppid() { sed 's/.*) . \([0-9]*\).*/\1/' "/proc/$1/stat" 2>/dev/null; }
# children PID: the children of PID, from /proc.
children() { cat /proc/"$1"/task/*/children 2>/dev/null; }
gone() { ! test -d "/proc/$1"; }
has_children() { [ -n "$(children "$1")" ]; }

# sentinel_cases LABEL RUNNER: each case through RUNNER ("" or setpriv).
sentinel_cases() {
	local label=$1 runner=$2 c gx l o s

	# 1. guardexec killed while a zombie leader's thread runs.
	rm -f "$T/cmd.pid" "$T/zl.pid"
	$runner $NO_NS "$GUARDEXEC" -l "$T/s-$RANDOM.log" -p "$P_LONG" -- sh -c \
		"echo \$\$ > $T/cmd.pid; $HELPERS/zombie-leader $T/zl.pid; sleep 100" \
		> /dev/null 2>&1 &
	wait_for test -s "$T/zl.pid"
	c=$(cat "$T/cmd.pid" 2>/dev/null || echo 0)
	l=$(cat "$T/zl.pid" 2>/dev/null || echo 0)
	[ "$l" != 0 ] && track_pid "$l"
	gx=$(ppid "$c")
	if [ "$c" != 0 ] && [ "$l" != 0 ] && [ "${gx:-0}" -gt 1 ]; then
		kill -9 "$gx"
		check "$label: guardexec killed: the sentinel kills a zombie leader's thread" \
			wait_for gone "$l"
	else
		not_ok "$label: the command did not start (c=$c l=$l gx=$gx)"
	fi
	wait 2>/dev/null

	# 2. The output pipe handed to a process outside the family, which
	# writes to it forever; the command ignores SIGTERM.
	rm -f "$T/sock" "$T/out.pid" "$T/cmd.pid" "$T/s.json"
	$runner "$HELPERS/pass-fd" listen "$T/sock" "$T/out.pid" &
	wait_for test -S "$T/sock"
	o=$(cat "$T/out.pid" 2>/dev/null || echo 0)
	[ "$o" != 0 ] && track_pid "$o"
	$runner $NO_NS "$GUARDEXEC" -l "$T/s-$RANDOM.log" -r "$T/s.json" -p "$P" \
		-- "$HELPERS/pass-fd" send "$T/sock" "$T/cmd.pid" > /dev/null 2>&1 &
	wait_for test -s "$T/cmd.pid"
	c=$(cat "$T/cmd.pid" 2>/dev/null || echo 0)
	gx=$(ppid "$c")
	if [ "$c" = 0 ] || [ "${gx:-0}" -le 1 ]; then
		not_ok "$label: the command did not start"
		not_ok "$label: (skipped with the above)"
		not_ok "$label: (skipped with the above)"
		not_ok "$label: (skipped with the above)"
		return
	fi
	track_pid "$gx"
	wait_for gone "$c"
	s=$(children "$gx")
	if gone "$gx"; then
		ok "$label: (guardexec already returned: the sentinel check is moot)"
	else
		check "$label: the sentinel outlives the timeout's SIGKILL" \
			test -n "$s"
	fi
	check "$label: guardexec returns though an outsider writes to its pipe" \
		wait_for gone "$gx"
	like "$label: the run is recorded as a timeout" \
		"$(cat "$T/s.json" 2>/dev/null)" '"status":"timeout"'
	check "$label: the sentinel is gone too" sh -c "for p in $s; do ! test -d /proc/\$p || exit 1; done"
	[ "$o" != 0 ] && kill -9 "$o" 2>/dev/null
	wait 2>/dev/null
}

sentinel_cases "as caller" ""
if unpriv_setup; then
	# From $T: uid 65534 may not enter the checkout (a home under /root).
	cd "$T" || exit 1
	chmod 644 "$P" "$P_LONG"
	if [ "$AS_USER" = " " ]; then sentinel_cases "unprivileged" ""
	else sentinel_cases "uid 65534" "$AS_USER"; fi
else
	for i in 1 2 3 4 5; do skip "unprivileged: $UNPRIV_REASON"; done
fi
finish
