#!/bin/bash
# Issue 11, bug 4: a command that stops guardexec's output terminal
# (tcflow(TCOOFF) on the pty that is guardexec's stdout and stderr) must
# not stop the clock: the timeout fires, signals are relayed, the run is
# recorded.  tests/helpers/pty-run gives guardexec a pty.
. "$TOP_SRCDIR/tests/integ/lib.sh"
# With its own namespaces the command cannot even reach guardexec or the
# caller's terminal (namespaces.sh attacks that): this is the fallback,
# where the kernel refuses namespaces, forced here.
no_ns_or_skip_all
plan 8

P=$(limits_policy tty 'timeout = 2; kill_grace = 1;')
P_LONG=$(limits_policy tty-long 'timeout = 120; kill_grace = 1;')
ppid() { sed 's/.*) . \([0-9]*\).*/\1/' "/proc/$1/stat" 2>/dev/null; }

tty_cases() {
	local label=$1 runner=$2 c gx
	rm -f "$T/t.json" "$T/t2.json" "$T/t.pid"

	timeout -s KILL 90 $runner "$HELPERS/pty-run" "$T/pty-$RANDOM" \
		$NO_NS "$GUARDEXEC" -l "$T/t-$RANDOM.log" -r "$T/t.json" -p "$P" \
		-- "$HELPERS/tty-stop" @PTY@ > /dev/null 2>&1
	rc=$?
	is "$label: output stopped by the command: the timeout still fires (124)" \
		"$rc" 124
	like "$label: and the run is recorded as a timeout" \
		"$(cat "$T/t.json" 2>/dev/null)" '"status":"timeout"'

	# guardexec's own pid, written by the shell that becomes it (the
	# command's pid is from its own PID namespace: no use here).
	rm -f "$T/gx.pid"
	# shellcheck disable=SC2016
	timeout -s KILL 90 $runner "$HELPERS/pty-run" "$T/pty-$RANDOM" \
		sh -c 'echo $$ > "$0"; exec "$@"' "$T/gx.pid" \
		$NO_NS "$GUARDEXEC" -l "$T/t-$RANDOM.log" -r "$T/t2.json" -p "$P_LONG" \
		-- "$HELPERS/tty-stop" @PTY@ "$T/t.pid" > /dev/null 2>&1 &
	wait_for test -s "$T/t.pid"
	c=$(cat "$T/t.pid" 2>/dev/null || echo 0)
	gx=$(cat "$T/gx.pid" 2>/dev/null || echo 0)
	if [ "$c" != 0 ] && [ "${gx:-0}" -gt 1 ]; then
		# Let it fill the pipe and get stuck on the stopped terminal.
		sleep 1
		kill -TERM "$gx"
		wait
		like "$label: SIGTERM is relayed while output is stuck" \
			"$(cat "$T/t2.json" 2>/dev/null)" '"status":"signaled"'
		like "$label: and recorded" "$(cat "$T/t2.json" 2>/dev/null)" \
			'"signal":15'
	else
		not_ok "$label: the command did not start"
		not_ok "$label: (with the above)"
		wait
	fi
}

tty_cases "as caller" ""
if unpriv_setup; then
	# From $T: uid 65534 may not enter the checkout (a home under /root).
	cd "$T" || exit 1
	chmod 644 "$P" "$P_LONG"
	if [ "$AS_USER" = " " ]; then tty_cases "unprivileged" ""
	else tty_cases "uid 65534" "$AS_USER"; fi
else
	for i in 1 2 3 4; do skip "unprivileged: $UNPRIV_REASON"; done
fi
finish
