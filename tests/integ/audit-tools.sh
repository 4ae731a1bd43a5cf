#!/bin/bash
# guardexec-audit show / summary / verify across rotation and the head
# anchor; the record schema against real records; the shipped rsyslog
# and logrotate snippets.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 66

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
# ---- rotation: verify LOG finds LOG.1, LOG.2.gz, ... (issue 17) ---------
R=$T/rot
mkdir -m 700 "$R"
RL=$R/audit.log
rg() { "$GUARDEXEC" -l "$RL" -p "$P" -- true > /dev/null 2>&1; }
if command -v logrotate > /dev/null 2>&1; then
	# The shipped snippet, pointed at $RL (no "create": guardexec creates
	# the log itself, and an unprivileged run cannot chown to root).
	sed -e "s|/var/log/guardexec/audit.log|$RL|" -e '/create /d' \
		-e '/weekly/d' "$TOP_SRCDIR/audit/logrotate/guardexec" > "$R/lr.conf"
	rot() { logrotate -f -s "$R/lr.state" "$R/lr.conf" > "$R/lr.out" 2>&1; }
else
	# What the snippet does: shift, compress all but .1 (delaycompress).
	rot() {
		local i
		for i in 3 2; do
			[ -e "$RL.$i.gz" ] && mv "$RL.$i.gz" "$RL.$((i + 1)).gz"
		done
		[ -e "$RL.1" ] && mv "$RL.1" "$RL.2" && gzip "$RL.2"
		mv "$RL" "$RL.1"
	}
fi
rg; rg; rot; rg; rg; rot; rg; rot; rg; rg
is "rotated as the logrotate snippet names them" \
	"$(cd "$R" && ls audit.log*)" \
	"$(printf '%s\n' audit.log audit.log.1 audit.log.2.gz audit.log.3.gz audit.log.head)"
"$A" verify "$RL" > "$T/v" 2>&1
is "verify LOG after rotations: the chain across all files" "$?|$(tail -n 1 "$T/v")" "0|7 records, chain intact"
like "... checks the rotated files first, oldest first" "$(cat "$T/v")" \
	"checking the rotated files first: $RL.3.gz $RL.2.gz $RL.1\$"
"$A" verify "$RL.3.gz" "$RL.2.gz" "$RL.1" "$RL" > "$T/v" 2>&1
is "verify reads .gz files given by name" "$?|$(tail -n 1 "$T/v")" "0|7 records, chain intact"
is "show reads a .gz file" "$("$A" show "$RL.3.gz" | tail -n +2 | wc -l)" 2
# report and crosscheck read the log through the same reader (.gz too).
"$A" report -o "$T/rot.html" "$RL.3.gz" "$RL.2.gz" "$RL.1" "$RL" 2> "$T/err"
is "report reads .gz files: 7 runs, 4 intact files" \
	"$?|$(cat "$T/err")|$(grep -o '<span>Runs</span><b>[0-9]*</b>' "$T/rot.html")|$(grep -o '<span class="chain [a-z]*">' "$T/rot.html" | sort | uniq -c | tr -s ' ')" \
	'0||<span>Runs</span><b>7</b>| 4 <span class="chain intact">'
{ zcat "$RL.3.gz" "$RL.2.gz"; cat "$RL.1" "$RL"; } > "$T/rot.plain"
"$A" crosscheck "$RL.3.gz" "$RL.2.gz" "$RL.1" "$RL" "$T/rot.plain" > "$T/out" 2>&1
is "crosscheck reads .gz LOCAL files" "$?|$(tail -n 1 "$T/out")" \
	"0|7 local records, 7 central copies: 7 identical, 0 cut for syslog and consistent, 0 missing centrally, 0 missing locally, 0 different"
"$A" verify --no-rotated "$RL" > /dev/null 2>&1
is "--no-rotated: the log alone does not start a chain" "$?" 1

# Attacks on the rotated files, each on a copy.
attack() {
	rm -rf "$T/atk"; cp -a "$R" "$T/atk"
	AL=$T/atk/audit.log
}
# verify_says STATUS DESC REGEX DESC2: verify $AL exits STATUS (test
# DESC), and what it says matches REGEX (test DESC2).
verify_says() {
	"$A" verify "$AL" > "$T/v" 2>&1
	is "$2" "$?" "$1"
	like "$4" "$(cat "$T/v")" "$3"
}
attack
zcat "$AL.2.gz" | sed '1s/"exit_code":0/"exit_code":1/' | gzip > "$AL.2.gz.new"
mv "$AL.2.gz.new" "$AL.2.gz"
verify_says 1 "a record edited inside a .gz: verify exits 1" \
	"^$AL.2.gz:1: hash does not match" \
	"... and names the file and line"
attack
rm "$AL.2.gz"
verify_says 1 "a rotated file deleted from the middle: verify exits 1" \
	"^$AL.1:1: \"prev\" does not match the last line of $AL.3.gz" \
	"... and says which file breaks the chain"
attack
head -c 40 "$AL.2.gz" > "$AL.cut" && mv "$AL.cut" "$AL.2.gz"
verify_says 1 "a truncated .gz: verify exits 1" \
	"^$AL.2.gz:1: not a valid compressed file" \
	"... and names it"
attack
rm "$AL.3.gz"
verify_says 1 "the oldest rotation removed: verify exits 1 (as for lines deleted at the start)" \
	"^$AL.2.gz:1: the chain starts after a record that is not here .*--partial accepts that" \
	"... and says where the chain starts"
"$A" verify --partial "$AL" > "$T/v" 2>&1
is "... --partial accepts it (rotate N removed older files)" "$?|$(tail -n 1 "$T/v")" "0|5 records, chain intact"
like "... with a note where the chain starts" "$(cat "$T/v")" \
	"^$AL.2.gz:1: note: the chain starts after a record that is not here"
attack
rm "$AL" "$AL.head" && gzip "$AL.1"
"$GUARDEXEC" -l "$AL" -p "$P" -- true > /dev/null 2>&1
verify_says 1 "LOG.1 compressed before the next run (no delaycompress): verify exits 1" \
	"^$AL:1: starts a new chain .* instead of continuing $AL.1.gz" \
	"... and says the log started a new chain"
attack
rm "$AL.head"
verify_says 0 "no head anchor: verify still exits 0" \
	"^warning: no head anchor $AL.head: the end of the log is unchecked" \
	"... but warns that the end of the log is unchecked"
attack
: > "$AL"
verify_says 1 "the log emptied to zero bytes: verify exits 1 (the anchor)" \
	"^$AL: the last line is not the one the head anchor" \
	"... and says why"
attack
rm "$AL"
"$A" verify "$AL" > "$T/v" 2>&1
is "the log deleted: its rotations are checked against its anchor" "$?|$(cat "$T/v" | tail -n 1)" \
	"1|$AL: the last line is not the one the head anchor $AL.head names (lines were deleted from the end, or appended by hand)"
attack
for i in 3 2; do mv "$AL.$i.gz" "$AL.$((i + 1)).gz"; done
gzip < "$AL.1" > "$AL.2.gz" && rm "$AL.1" && mv "$AL" "$AL.1"
"$A" verify "$AL" > "$T/v" 2>&1
is "rotated again and no run since (no LOG): the rotations verify" "$?|$(tail -n 1 "$T/v")" "0|7 records, chain intact"
unlike "with the anchor: no warning" "$("$A" verify "$RL" 2>&1)" 'warning'
"$GUARDEXEC" -l "$T/one.log" -p "$P" -- true > /dev/null 2>&1
is "one record: \"1 record\"" "$("$A" verify "$T/one.log")" "1 record, chain intact"

# ---- show: what a hostile command puts in its argv or policy name ------
C1=$(printf '\302\233')          # U+009B CSI: a terminal escape by itself
RLO=$(printf '\342\200\256')     # U+202E RIGHT-TO-LEFT OVERRIDE
LRI=$(printf '\342\201\246')     # U+2066 LEFT-TO-RIGHT ISOLATE
PB=$(policy "bidi" <<EOF2
version = 1;
name = "a${RLO}b";
audit: { sync = false; };
EOF2
)
"$GUARDEXEC" -l "$T/esc.log" -p "$PB" -- echo "${C1}2J" "x${RLO}fdp.exe" "${LRI}y" > /dev/null 2>&1
s=$("$A" show "$T/esc.log" | tail -n 1)
unlike "show: no raw C1 control" "$s" "$C1"
unlike "show: no raw bidi override or isolate" "$s" "$RLO|$LRI"
like "show: they are escaped as \\uXXXX" "$s" 'a\\u202Eb .* echo \\u009B2J x\\u202Efdp\.exe \\u2066y$'
s=$("$A" summary "$T/esc.log")
unlike "summary: no raw C1 or bidi either" "$s" "$C1|$RLO|$LRI"

# show without LOG reads the default log (as the user, from XDG_STATE_HOME).
if unpriv_setup; then
	mkdir -p "$T/state/guardexec"
	cp "$RL" "$T/state/guardexec/audit.log"
	chmod -R a+rX "$T/state"
	cp "$A" "$T/gxaudit" && chmod a+rx "$T/gxaudit"
	d=$(as_user env XDG_STATE_HOME="$T/state" "$T/gxaudit" show 2>&1)
	is "show without LOG: the default log" "$d" "$("$A" show "$T/state/guardexec/audit.log")"
else
	skip "$UNPRIV_REASON"
fi

# ---- summary names the policy of refused runs ---------------------------
printf 'version = 1;\nname = "bad"\nnope\n' > "$T/broken.cfg"
"$GUARDEXEC" -l "$T/ref.log" -p "$T/broken.cfg" -- true > /dev/null 2>&1
"$GUARDEXEC" -l "$T/ref.log" -p "$P" -- true > /dev/null 2>&1
s=$("$A" summary "$T/ref.log")
like "summary: a refused run's policy is named by its path" "$s" "^ +1  $T/broken.cfg\$"
like "summary: refused runs by policy" "$(printf '%s\n' "$s" | sed -n '/^refused runs by policy/,$p')" "^ +1  $T/broken.cfg\$"

# ---- guardexec-audit's own errors: 2, never guardexec's 125 -------------
"$A" summary --top abc "$L" > /dev/null 2> "$T/e"
is "summary --top abc: usage error, exit 2" "$?" 2
like "... which says what is wrong" "$(head -n 1 "$T/e")" '^guardexec-audit: --top: expected a number'
"$A" summary --top 99999999999999999999999 "$L" > /dev/null 2>&1
is "summary --top with a number too big: exit 2" "$?" 2
"$A" show --no-such-option "$L" > /dev/null 2> "$T/e"
is "show with an unknown option: exit 2" "$?|$(head -n 1 "$T/e")" \
	"2|guardexec-audit: show: --no-such-option: unknown option or missing argument"
"$A" verify "$T/no-such.log" > /dev/null 2> "$T/e"
is "verify of a missing file: exit 2, guardexec-audit's message" "$?|$(cat "$T/e")" \
	"2|guardexec-audit: $T/no-such.log: No such file or directory"
# Out of memory (a 64 MB line under a 60 MB address space): still the
# tool's own exit status and name, not guardexec's 125.
if ldd "$A" 2>/dev/null | grep -q libasan; then
	skip "ASan needs more address space than the limit"
else
	head -c $((64 << 20)) /dev/zero | tr '\0' a | sed 's/^/{"argv":["/; s/$/"]}/' > "$T/huge.log"
	(ulimit -v 60000; "$A" show "$T/huge.log" > /dev/null 2> "$T/e")
	is "out of memory: exit 2 and guardexec-audit's message" "$?|$(cat "$T/e")" \
		"2|guardexec-audit: out of memory"
	rm -f "$T/huge.log"
fi
if command -v ldd > /dev/null 2>&1; then
	unlike "guardexec-audit links neither libseccomp nor libconfig" \
		"$(ldd "$A" 2>&1)" 'libseccomp|libconfig'
else
	skip "ldd is not installed"
fi
finish
