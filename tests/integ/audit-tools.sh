#!/bin/bash
# guardexec-audit show / summary / verify across rotation and the head
# anchor; the record schema against real records; the shipped rsyslog
# and logrotate snippets.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 24

A=$GUARDEXEC_AUDIT
P=$(policy tools <<'EOF2'
version = 1;
name = "tools";
limits: { timeout = 0.5; kill_grace = 0.2; };
output: { max_bytes = 10; };
syscalls: { allow = [ "@default", "@process", "@signal", "@file-read", "@ipc", "@time" ]; };
advisory: { warn = ( { match = "danger"; reason = "looks dangerous"; } ); };
audit: { sync = false; };
EOF2
)
L=$T/audit.log
run_gx -p "$P" -- true
run_gx -p "$P" -- sh -c 'exit 3'
run_gx -q -p "$P" -- "$HELPERS/try-syscall" ptrace ptrace
run_gx -q -p "$P" -- echo danger
run_gx -p "$P" -- "$HELPERS/spin-until-killed" -i
run_gx -p "$P" -- "$HELPERS/flood" 100
run_gx -p "$P" -- no-such-command-gx

out=$("$A" show "$L")
is "show: a header and one row per record" "$(printf '%s\n' "$out" | wc -l)" 8
like "show: the header" "$out" '^START \(UTC\) +USER +POLICY +STATUS +EXIT +MS +COMMAND$'
like "show: a row" "$out" ' tools +exited +3 +[0-9.]+ +sh -c exit 3$'
is "show --status timeout" "$("$A" show --status timeout "$L" | tail -n +2 | wc -l)" 1
is "show --denied" "$("$A" show --denied "$L" | tail -n +2 | wc -l)" 1
is "show --advisory" "$("$A" show --advisory "$L" | tail -n +2 | grep -c 'echo danger')" 1
is "show --command" "$("$A" show --command flood "$L" | tail -n +2 | wc -l)" 1
is "show --policy other: nothing" "$("$A" show --policy other "$L" | tail -n +2 | wc -l)" 0
is "show --since the future: nothing" "$("$A" show --since 2999-01-01 "$L" | tail -n +2 | wc -l)" 0
is "show --json: the log's own lines" "$("$A" show --json --status exec_failed "$L")" "$(grep '"status":"exec_failed"' "$L")"

s=$("$A" summary "$L")
like "summary: totals" "$s" '^runs: 7   timeouts: 1   truncated output: 2$'
like "summary: by policy" "$s" '^ +7  tools$'
like "summary: denied syscalls counted" "$s" '^ +2  ptrace$'
like "summary: advisories" "$s" '^ +1  danger$'
like "summary: exit codes" "$s" '^ +1  127$'

# Rotation as logrotate does it: rename, the next run creates the file.
"$A" verify "$L" > /dev/null
is "verify before rotation" "$?" 0
mv "$L" "$L.1"
run_gx -p "$P" -- true
"$A" verify "$L.1" "$L" > "$T/v" 2>&1
is "verify across the rotation (old file first)" "$?|$(cat "$T/v")" "0|8 records, chain intact"
"$A" verify --no-rotated "$L" > /dev/null 2>&1
is "the new file alone does not start a chain" "$?" 1
"$A" verify --no-rotated --partial "$L" > /dev/null 2>&1
is "--partial accepts it" "$?" 0

# The head anchor: cutting the last line off is detected.
run_gx -p "$P" -- true
head -n 1 "$L" > "$T/cut" && cat "$T/cut" > "$L"
"$A" verify "$L.1" "$L" > "$T/v" 2>&1
rc=$?
is "a log cut short fails verify" "$rc" 1
like "and says why" "$(cat "$T/v")" 'head anchor'

# The schema, against real records.
py=""
for c in /usr/bin/python3 python3; do
	if command -v "$c" > /dev/null 2>&1 && "$c" -c 'import jsonschema' 2>/dev/null; then py=$c; break; fi
done
if [ -n "$py" ]; then
	"$py" - "$TOP_SRCDIR/audit/record.schema.json" "$L.1" > "$T/schema.out" 2>&1 <<'EOF2'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
n = 0
for line in open(sys.argv[2]):
    v.validate(json.loads(line))
    n += 1
print(n)
EOF2
	is "every real record validates against record.schema.json" "$?|$(cat "$T/schema.out")" "0|7"
else
	skip "python3 with jsonschema is not installed"
fi

if command -v rsyslogd > /dev/null 2>&1; then
	rsyslogd -N1 -f "$TOP_SRCDIR/audit/rsyslog/guardexec.conf" > "$T/rs" 2>&1
	is "rsyslog snippet: rsyslogd -N1 accepts it" "$?" 0
else
	skip "rsyslogd is not installed"
fi
if command -v logrotate > /dev/null 2>&1; then
	logrotate -d -s "$T/lr.state" "$TOP_SRCDIR/audit/logrotate/guardexec" > "$T/lr" 2>&1
	is "logrotate snippet: logrotate -d accepts it" "$?" 0
else
	skip "logrotate is not installed"
fi
finish
