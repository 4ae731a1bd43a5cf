#!/bin/bash
# Guarantee 1: when the command ends, nothing it started is left running,
# setsid daemons and pipe holders included, and guardexec returns.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 8

P=$(policy family <<'EOF2'
version = 1;
name = "family";
limits: { timeout = 120; kill_grace = 1; };
audit: { sync = false; };
EOF2
)

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
finish
