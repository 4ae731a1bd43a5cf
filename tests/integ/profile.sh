#!/bin/bash
# GUARDEXEC_PROFILE=1: where a run's time goes, on stderr, never in the
# record; without it, nothing.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 6

P=$(policy prof <<'EOF2'
version = 1;
name = "prof";
syscalls: { allow = [ "@default" ]; };
audit: { sync = false; };
EOF2
)
GUARDEXEC_PROFILE=1 run_gx -p "$P" -- /bin/true
is "the run succeeds" "$rc" 0
like "a line per phase" "$err" '^guardexec: profile: filter [0-9]+$'
like "and the total" "$err" '^guardexec: profile: total [0-9]+$'
unlike "the record holds no profile" "$rec$(cat "$T/audit.log")" 'profile'
GUARDEXEC_PROFILE=0 run_gx -p "$P" -- /bin/true
unlike "GUARDEXEC_PROFILE=0: no profile" "$err" 'profile'
run_gx -p "$P" -- /bin/true
is "unset: stderr stays empty" "$err" ""
