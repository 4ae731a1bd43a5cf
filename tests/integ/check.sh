#!/bin/bash
# --check validates, prints the effective policy, runs nothing.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 23

P=$(policy chk <<'EOF2'
version = 1;
name = "chk";
command: { user = "nobody"; };
env: { allow = [ "LANG" ]; set = { PATH = "/usr/bin:/bin"; }; };
syscalls: { allow = [ "@default", "ptrace" ]; deny = [ "ptrace" ]; };
advisory: { warn = ( { match = "touch"; reason = "touches"; } ); };
audit: { sync = false; };
EOF2
)
"$GUARDEXEC" -p "$P" --check > "$T/out" 2> "$T/err"
is "--check exits 0" "$?" 0
like "prints the effective policy" "$(cat "$T/out")" '^name = "chk";$'
like "prints the expanded allowlist" "$(cat "$T/out")" 'allow = \[ .*"execve"'
unlike "deny wins: ptrace is not in the allowlist" "$(grep 'allow =' "$T/out" | grep -v env)" '"ptrace"'

export SECRET_TOKEN=abc LANG=C
"$GUARDEXEC" -p "$P" --check -- touch "$T/ran" > "$T/out" 2> "$T/err"
is "--check with a command exits 0" "$?" 0
check "--check runs nothing" test ! -e "$T/ran"
like "shows the resolved path" "$(cat "$T/out")" '^# resolved: /(usr/)?bin/touch$'
like "shows the names that would pass" "$(cat "$T/out")" '^# env passed: LANG PATH$'
like "shows the advisory match" "$(cat "$T/out")" '^# advisory \(not enforced\): touch: touches$'
"$GUARDEXEC" -p "$P" --check > "$T/eff.cfg" 2>/dev/null
"$GUARDEXEC" -p "$T/eff.cfg" --check > /dev/null 2>&1
is "the printed policy is itself a valid policy" "$?" 0
"$GUARDEXEC" -p "$TOP_SRCDIR/policies/agent.cfg" --check > "$T/agent-eff.cfg" 2>/dev/null
"$GUARDEXEC" -p "$T/agent-eff.cfg" --check > /dev/null 2>&1
is "so is agent.cfg's, with sizes of 2^31 and more" "$?" 0

# -p DIR: the repository's own .guardexec/agent.cfg.
mkdir -p "$T/repo/.guardexec"
printf 'version = 1;\nname = "repo-local";\n' > "$T/repo/.guardexec/agent.cfg"
"$GUARDEXEC" -p "$T/repo" --check > "$T/out" 2> /dev/null
is "-p DIR uses DIR/.guardexec/agent.cfg" "$?" 0
like "... and that is the policy loaded" "$(cat "$T/out")" '^name = "repo-local";$'

# --init writes a starter policy that loads, and never overwrites one.
mkdir -p "$T/fresh"
"$GUARDEXEC" --init "$T/fresh" > "$T/out" 2> "$T/err"
is "--init exits 0 and says what it wrote" "$?|$(cat "$T/out")" \
	"0|guardexec: wrote $T/fresh/.guardexec/agent.cfg"
"$GUARDEXEC" -p "$T/fresh" --check > /dev/null 2>&1
is "the starter policy passes --check" "$?" 0
tpl=$(cat "$T/fresh/.guardexec/agent.cfg")
like "the starter's keys come with their one-line doc" "$tpl" \
	'^  # Wall-clock limit.*$'
like "... and its timeout is a duration with a unit" "$tpl" '^  timeout = "10m";$'
echo keep > "$T/fresh/.guardexec/agent.cfg"
"$GUARDEXEC" --init "$T/fresh" > /dev/null 2> "$T/err"
is "--init refuses to overwrite (125)" "$?" 125
is "... and leaves the file alone" "$(cat "$T/fresh/.guardexec/agent.cfg")" keep

printf 'version = 1;\nname = "x";\nlimits: { memory = "lots"; };\n' > "$T/bad.cfg"
(cd "$T" && "$GUARDEXEC" -p bad.cfg --check > "$T/out" 2> "$T/err")
is "--check on a bad policy: 125" "$?" 125
is "the error names file, line and key" "$(cat "$T/err")" \
	'guardexec: bad.cfg:3: limits.memory: expected a size like "512M", got "lots"'
# Durations with units print as seconds; an unknown key names the nearest.
printf 'version = 1;\nname = "d";\nlimits: { timeout = "1h30m"; kill_grace = "1500ms"; };\n' > "$T/dur.cfg"
"$GUARDEXEC" -p "$T/dur.cfg" --check > "$T/out" 2> /dev/null
like "--check prints \"1h30m\" as 5400 seconds" "$(cat "$T/out")" '^  timeout = 5400;$'
printf 'version = 1;\nname = "x";\nlimits: { timout = 5; };\n' > "$T/typo.cfg"
(cd "$T" && "$GUARDEXEC" -p typo.cfg --check > /dev/null 2> "$T/err")
is "an unknown key suggests the nearest known one (125)" "$?|$(cat "$T/err")" \
	'125|guardexec: typo.cfg:3: limits.timout: unknown key (did you mean "timeout"?)'
finish
