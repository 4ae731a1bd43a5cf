#!/bin/bash
# Guarantee 2: a timeout sends SIGTERM to everything, then SIGKILL after
# kill_grace; a command that ignores SIGTERM still dies.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 9

P=$(limits_policy timeout 'timeout = 0.5; kill_grace = 0.5;')

run_gx -p "$P" -- "$HELPERS/spin-until-killed" -i "$T/spin.pid"
track_pidfile "$T/spin.pid"
is "a SIGTERM-ignoring command: exit 124" "$rc" 124
check "it is dead" gone "$T/spin.pid"
is "record: status timeout" "$(field status)" '"timeout"'
is "record: timed_out, limit_hit timeout" "$(field timed_out) $(field limit_hit)" 'true "timeout"'
is "record: it was killed by SIGKILL" "$(field signal)" 9

# A family: a setsid child that ignores SIGTERM, under a parent that
# handles it.
run_gx -p "$P" -- sh -c "setsid $HELPERS/spin-until-killed -i $T/kid.pid & exec $HELPERS/spin-until-killed $T/parent.pid"
track_pidfile "$T/kid.pid"
is "family under timeout: 124" "$rc" 124
# On a slow machine (the VM lane's TCG) the timeout may fire before the
# child wrote its pid file: then no process of that command line may
# be left either (a child killed while starting is dead too).
kid_dead() {
	[ "$(count_cmdline "$T/kid.pid")" = 0 ] &&
		{ [ ! -s "$T/kid.pid" ] || gone "$T/kid.pid"; }
}
[ -s "$T/kid.pid" ] || diag "the setsid child had not written its pid file"
check "the SIGTERM-ignoring setsid child is dead" kid_dead
is "the parent ended by SIGTERM" "$(field signal)" 15

# timeout = 0 means none.
P0=$(limits_policy notimeout 'timeout = 0;')
run_gx -p "$P0" -- sh -c 'sleep 1; exit 5'
is "timeout 0: no timeout" "$rc" 5
finish
