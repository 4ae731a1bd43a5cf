#!/bin/bash
# Guarantee 3: SIGINT, SIGTERM and SIGHUP sent to guardexec reach the
# whole command and are recorded; if guardexec is killed, the command
# dies with it.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 13

P=$(limits_policy signals 'timeout = 60; kill_grace = 1;')

for sig in TERM INT HUP; do
	rm -f "$T/sig.txt" "$T/result.json"
	"$GUARDEXEC" -l "$T/audit.log" -r "$T/result.json" -p "$P" -- \
		"$HELPERS/report-signals" "$T/sig.txt" -c > /dev/null 2>&1 &
	g=$!
	track_pid "$g"
	wait_for sh -c "[ \"\$(grep -c ready $T/sig.txt 2>/dev/null)\" = 2 ]"
	kill -s "$sig" "$g"
	wait "$g"
	rc=$?
	rec=$(cat "$T/result.json" 2>/dev/null)
	n=$(grep -c "SIG$sig" "$T/sig.txt" 2>/dev/null)
	if [ "$sig" = TERM ]; then
		is "SIG$sig reaches the command and its setsid child" "$n" 2
		like "SIG$sig is recorded" "$rec" "\"signals_received\":\\[\"SIG$sig\"\\]"
		is "the command's own exit status (0) is returned" "$rc" 0
	else
		is "SIG$sig reaches the command and its setsid child" "$n" 2
		like "SIG$sig is recorded" "$rec" "\"signals_received\":\\[\"SIG$sig\"\\]"
	fi
done

# A caller that ignores SIGINT (as a script's background job does):
# guardexec still takes it and relays it.
rm -f "$T/sig.txt"
sh -c 'trap "" INT; exec "$@"' sh "$GUARDEXEC" -l "$T/audit.log" -p "$P" -- \
	"$HELPERS/report-signals" "$T/sig.txt" > /dev/null 2>&1 &
g=$!
track_pid "$g"
wait_for grep -q ready "$T/sig.txt"
kill -s INT "$g"
wait "$g"
is "SIGINT reaches the command even when the caller ignored it" \
	"$(grep -c SIGINT "$T/sig.txt" 2>/dev/null)" 1

# guardexec SIGKILLed: the command dies too (PR_SET_PDEATHSIG).
"$GUARDEXEC" -l "$T/audit.log" -p "$P" -- "$HELPERS/spin-until-killed" -i "$T/orphan.pid" > /dev/null 2>&1 &
g=$!
track_pid "$g"
wait_for test -s "$T/orphan.pid"
track_pidfile "$T/orphan.pid"
kill -9 "$g"
wait "$g" 2>/dev/null
check "guardexec SIGKILLed: the command dies with it" wait_for gone "$T/orphan.pid"

# guardexec SIGKILLed: what the command started dies too (the sentinel
# kills the command's session, and its cgroup when there is one).
"$GUARDEXEC" -l "$T/audit.log" -p "$P" -- sh -c "readlink /proc/self/ns/pid | tee $T/bg1.pid.ns > $T/bg2.pid.ns; sleep 300 & echo \$! > $T/bg1.pid; sleep 301 & echo \$! > $T/bg2.pid; wait" > /dev/null 2>&1 &
g=$!
track_pid "$g"
wait_for test -s "$T/bg2.pid"
track_pidfile "$T/bg1.pid"
track_pidfile "$T/bg2.pid"
kill -9 "$g"
wait "$g" 2>/dev/null
check "guardexec SIGKILLed: a background job of the command dies" wait_for gone "$T/bg1.pid"
check "guardexec SIGKILLed: its other job dies too" wait_for gone "$T/bg2.pid"

# A signal to the command itself (not through guardexec) is its own.
run_gx -p "$P" -- sh -c 'kill -TERM $$'
is "a command killing itself with SIGTERM: 143, not 124" "$rc" 143
unlike "and no signal is recorded as received" "$rec" 'signals_received'
finish
