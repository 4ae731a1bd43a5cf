#!/bin/bash
# Guarantee 1: when the command ends, nothing it started is left running,
# setsid daemons and pipe holders included, and guardexec returns.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 16

P=$(limits_policy family 'timeout = 120; kill_grace = 1;')

# A double-forked setsid daemon that closed its output.
run_gx -p "$P" -- "$HELPERS/daemonize" "$T/daemon.pid"
track_pidfile "$T/daemon.pid"
is "the daemonizing command exits 0" "$rc" 0
check "the setsid daemon is dead when guardexec returns" gone "$T/daemon.pid"

# A daemon that holds stdout and stderr open: guardexec must not wait
# for EOF on pipes held by a leftover.
timeout -s KILL 60 "$GUARDEXEC" -l "$T/audit.log" -p "$P" -- \
	"$HELPERS/daemonize" "$T/holder.pid" hold > "$T/out2" 2>&1
rc=$?
track_pidfile "$T/holder.pid"
is "returns although a daemon holds the pipes" "$rc" 0
check "the pipe-holding daemon is dead" gone "$T/holder.pid"

# A background job of a shell (the classic leak).
timeout -s KILL 60 "$GUARDEXEC" -l "$T/audit.log" -p "$P" -- \
	sh -c 'readlink /proc/self/ns/pid > '"$T"'/bg.pid.ns; sleep 300 & echo $! > '"$T"'/bg.pid; echo hi' > "$T/out3" 2>&1
rc=$?
track_pidfile "$T/bg.pid"
is "sh -c 'sleep 300 & echo hi' returns at once with 0" "$rc" 0
is "its output arrives" "$(cat "$T/out3")" "hi"
check "the background sleep is dead" gone "$T/bg.pid"

# Deep chain: a grandchild of a grandchild in new sessions.
timeout -s KILL 60 "$GUARDEXEC" -l "$T/audit.log" -p "$P" -- \
	sh -c "readlink /proc/self/ns/pid > $T/deep.pid.ns; setsid sh -c 'setsid sleep 300 & echo \$! > $T/deep.pid' ; sleep 0.2" \
	> /dev/null 2>&1
track_pidfile "$T/deep.pid"
check "a nested setsid sleep is dead" gone "$T/deep.pid"

# Issue 11, bug 1: a process whose main thread has exited (a zombie
# leader in /proc) while another thread runs is still family.  The
# writing variant kept guardexec from ever returning on the old code.
# zombie_case LABEL RUNNER POLICY: runs both variants through RUNNER.
zombie_case() {
	local label=$1 runner=$2 pol=$3 log=$T/z-$RANDOM.log z
	rm -f "$T/z.pid" "$T/zw.pid" "$T/z.json" "$T/z.pid.ns" "$T/zw.pid.ns"
	timeout -s KILL 60 $runner "$GUARDEXEC" -l "$log" -p "$pol" \
		-- "$HELPERS/zombie-leader" "$T/z.pid" > /dev/null 2>&1
	track_pidfile "$T/z.pid"
	check "$label: a zombie leader with a live thread is killed" \
		gone "$T/z.pid"
	timeout -s KILL 60 $runner "$GUARDEXEC" -l "$log" \
		-r "$T/z.json" -p "$pol" \
		-- "$HELPERS/zombie-leader" "$T/zw.pid" write > /dev/null 2>&1
	rc=$?
	track_pidfile "$T/zw.pid"
	is "$label: guardexec returns though the thread keeps writing" "$rc" 0
	like "$label: and writes the record" "$(cat "$T/z.json" 2>/dev/null)" \
		'"status":"exited"'
	check "$label: the writing thread is dead" gone "$T/zw.pid"
}
zombie_case "as caller" "" "$P"
if unpriv_setup; then
	# From $T: uid 65534 may not enter the checkout (a home under /root).
	cd "$T" || exit 1
	chmod 644 "$P"
	if [ "$AS_USER" = " " ]; then zombie_case "unprivileged" "" "$P"
	else zombie_case "uid 65534" "$AS_USER" "$P"; fi
else
	for i in 1 2 3 4; do skip "unprivileged: $UNPRIV_REASON"; done
fi
finish
