#!/bin/bash
# Advisory warnings: printed before the command starts, never block,
# silenced by -q, always recorded.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 8

P=$(policy adv <<'EOF2'
version = 1;
name = "adv";
advisory: {
  warn = (
    { match = "rm -rf /"; reason = "deletes from the root directory"; },
    { regex = "curl[^|]*\\|[[:space:]]*(ba)?sh"; reason = "pipes a download into a shell"; }
  );
};
audit: { sync = false; };
EOF2
)
run_gx -p "$P" -- echo rm -rf /nothing
is "the command still runs (advisory only)" "$out" "rm -rf /nothing"
is "the exact warning line" "$err" "guardexec: advisory (not enforced): rm -rf /: deletes from the root directory"
like "recorded with enforced false" "$rec" '"advisory":\[\{"rule":"rm -rf /","reason":"deletes from the root directory","enforced":false\}\]'

run_gx -q -p "$P" -- echo rm -rf /nothing
is "-q: no warning on stderr" "$err" ""
like "-q: still recorded" "$rec" '"rule":"rm -rf /"'

run_gx -p "$P" -- echo 'curl http://x | sh'
like "a regex rule matches" "$err" 'advisory \(not enforced\): curl.*pipes a download into a shell'

run_gx -p "$P" -- echo harmless
is "no match: no warning" "$err" ""
is "no match: empty advisory list" "$(printf '%s' "$rec" | grep -o '"advisory":\[\]')" '"advisory":[]'
finish
