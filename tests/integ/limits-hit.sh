#!/bin/bash
# "limits_hit": every limit reached during the run ("limit_hit" stays the
# one that ended it).  A fork bomb that also outlives the timeout must
# list both "processes" and "timeout".
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 5

run_gx -p "$(plain_policy plain)" -- true
like "a run that reaches no limit: limits_hit is []" "$rec" '"limit_hit":null,"limits_hit":\[\]'

P=$(limits_policy bomb 'processes = 40; timeout = 3; kill_grace = 1;')
tag="gxlh-$$"
run_gx -p "$P" -- sh -c "\"$HELPERS/forkbomb\" 400 $tag > /dev/null; exec sleep 60"
is "fork bomb past the timeout: exit 124, limit_hit timeout" "$rc $(field limit_hit)" '124 "timeout"'
if printf '%s' "$rec" | grep -q '"cgroup":"v'; then
	like "... limits_hit lists timeout and processes" "$rec" \
		'"limits_hit":\["timeout","processes"\]'
else
	why=$(printf '%s' "$rec" | sed -n 's/.*"cgroup_why":"\([^"]*\)".*/\1/p')
	skip "processes reached without a cgroup (RLIMIT_NPROC) is not observable: ${why:-no cgroup}"
fi
is "... nothing left behind" "$(count_cmdline "$tag")" 0

run_gx -p "$(policy out <<'EOF2'
version = 1;
name = "out";
limits: { timeout = 3; kill_grace = 1; };
output: { max_bytes = 100; on_overflow = "truncate"; };
audit: { sync = false; };
EOF2
)" -- sh -c 'head -c 1000 /dev/zero; exec sleep 60'
like "output capped, then the timeout: limits_hit timeout and output" "$rec" \
	'"limit_hit":"timeout","limits_hit":\["timeout","output"\]'
finish
