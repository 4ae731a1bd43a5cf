#!/bin/bash
# Guarantee 1: when the command ends, nothing it started is left running,
# setsid daemons and pipe holders included, and guardexec returns.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 16

P=$(policy family <<'EOF2'
version = 1;
name = "family";
limits: { timeout = 120; kill_grace = 1; };
audit: { sync = false; };
EOF2
)

# A double-forked setsid daemon that closed its output.
run_gx -p "$P" -- "$HELPERS/daemonize" "$T/daemon.pid"
d=$(cat "$T/daemon.pid" 2>/dev/null || echo 0)
track_pid "$d"
is "the daemonizing command exits 0" "$rc" 0
check "the setsid daemon is dead when guardexec returns" sh -c "! test -d /proc/$d || grep -q '^State:.*Z' /proc/$d/status"

# A daemon that holds stdout and stderr open: guardexec must not wait
# for EOF on pipes held by a leftover.
timeout -s KILL 60 "$GUARDEXEC" -l "$T/audit.log" -p "$P" -- \
	"$HELPERS/daemonize" "$T/holder.pid" hold > "$T/out2" 2>&1
rc=$?
h=$(cat "$T/holder.pid" 2>/dev/null || echo 0)
track_pid "$h"
is "returns although a daemon holds the pipes" "$rc" 0
check "the pipe-holding daemon is dead" sh -c "! test -d /proc/$h"

# A background job of a shell (the classic leak).
timeout -s KILL 60 "$GUARDEXEC" -l "$T/audit.log" -p "$P" -- \
	sh -c 'sleep 300 & echo $! > '"$T"'/bg.pid; echo hi' > "$T/out3" 2>&1
rc=$?
b=$(cat "$T/bg.pid" 2>/dev/null || echo 0)
track_pid "$b"
is "sh -c 'sleep 300 & echo hi' returns at once with 0" "$rc" 0
is "its output arrives" "$(cat "$T/out3")" "hi"
check "the background sleep is dead" sh -c "! test -d /proc/$b"

# Deep chain: a grandchild of a grandchild in new sessions.
timeout -s KILL 60 "$GUARDEXEC" -l "$T/audit.log" -p "$P" -- \
	sh -c "setsid sh -c 'setsid sleep 300 & echo \$! > $T/deep.pid' ; sleep 0.2" \
	> /dev/null 2>&1
dp=$(cat "$T/deep.pid" 2>/dev/null || echo 0)
track_pid "$dp"
check "a nested setsid sleep is dead" sh -c "test $dp != 0 && ! test -d /proc/$dp"

# Issue 11, bug 1: a process whose main thread has exited (a zombie
# leader in /proc) while another thread runs is still family.  The
# writing variant kept guardexec from ever returning on the old code.
# zombie_case LABEL RUNNER POLICY: runs both variants through RUNNER.
zombie_case() {
	local label=$1 runner=$2 pol=$3 log=$T/z-$RANDOM.log z
	rm -f "$T/z.pid" "$T/zw.pid" "$T/z.json"
	timeout -s KILL 60 $runner "$GUARDEXEC" -l "$log" -p "$pol" \
		-- "$HELPERS/zombie-leader" "$T/z.pid" > /dev/null 2>&1
	z=$(cat "$T/z.pid" 2>/dev/null || echo 0)
	[ "$z" != 0 ] && track_pid "$z"
	check "$label: a zombie leader with a live thread is killed" \
		sh -c "test $z != 0 && ! test -d /proc/$z"
	timeout -s KILL 60 $runner "$GUARDEXEC" -l "$log" \
		-r "$T/z.json" -p "$pol" \
		-- "$HELPERS/zombie-leader" "$T/zw.pid" write > /dev/null 2>&1
	rc=$?
	z=$(cat "$T/zw.pid" 2>/dev/null || echo 0)
	[ "$z" != 0 ] && track_pid "$z"
	is "$label: guardexec returns though the thread keeps writing" "$rc" 0
	like "$label: and writes the record" "$(cat "$T/z.json" 2>/dev/null)" \
		'"status":"exited"'
	check "$label: the writing thread is dead" \
		sh -c "test $z != 0 && ! test -d /proc/$z"
}
zombie_case "as caller" "" "$P"
if unpriv_setup; then
	chmod 644 "$P"
	if [ "$AS_USER" = " " ]; then zombie_case "unprivileged" "" "$P"
	else zombie_case "uid 65534" "$AS_USER" "$P"; fi
else
	for i in 1 2 3 4; do skip "unprivileged: $UNPRIV_REASON"; done
fi
finish
