#!/bin/bash
# The audit record and the local log (guarantee 9 and the "Audit record"
# section of the contract): every field with its JSON type, --result is
# the log's line, the hash chain and guardexec-audit verify, tampering,
# concurrent appends, log injection, the refusals around an unusable log,
# secrets, refused and failed runs, and the syslog copy.
# No python3 or jq: the record is compact JSON, checked with grep, and
# checked for validity by guardexec-audit (jansson) itself.
. "$TOP_SRCDIR/tests/integ/lib.sh"
: "${GUARDEXEC_AUDIT:?GUARDEXEC_AUDIT must point to guardexec-audit}"
plan 111

# ---- cleanup beyond lib.sh's: an immutable file, a mount, /dev/log ----
IMMUTABLE=""
MOUNTED=""
SYSLOG_PID=""
DEVLOG_CREATED=""
audit_cleanup() {
	if [ -n "$SYSLOG_PID" ]; then
		kill "$SYSLOG_PID" 2>/dev/null
		wait "$SYSLOG_PID" 2>/dev/null
	fi
	# The helper unlinks its socket; remove it only if we created it and
	# it is still our socket.
	if [ -n "$DEVLOG_CREATED" ] && [ -S /dev/log ]; then
		rm -f /dev/log
	fi
	if [ -n "$IMMUTABLE" ]; then chattr -i "$IMMUTABLE" 2>/dev/null; fi
	if [ -n "$MOUNTED" ]; then umount "$MOUNTED" 2>/dev/null; fi
	cleanup
}
trap audit_cleanup EXIT

NUM='-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?'
HEX64='[0-9a-f]{64}'
TS='"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z"'

# verify_ok DESC FILE...: guardexec-audit verify exits 0.
verify_ok() {
	local desc=$1 vout vrc
	shift
	vout=$("$GUARDEXEC_AUDIT" verify "$@" 2>&1)
	vrc=$?
	if [ "$vrc" = 0 ]; then ok "$desc"; else
		not_ok "$desc"; diag "verify exit $vrc: $vout"; fi
}

# tampered DESC FILE LINE: verify exits 1 and names LINE.
tampered() {
	local vout vrc
	vout=$("$GUARDEXEC_AUDIT" verify "$2" 2>&1)
	vrc=$?
	is "$1: verify exits 1" "$vrc" 1
	like "$1: verify names line $3" "$vout" ":$3:( |$)|line $3([^0-9]|$)"
}

# The value of "hash" (or "prev") of a record line, without quotes.
hash_of() { printf '%s\n' "$1" | sed -n 's/.*,"hash":"\([0-9a-f]*\)"}$/\1/p'; }
prev_of() { printf '%s\n' "$1" | sed -n 's/.*"prev":"\([0-9a-f]*\)".*/\1/p'; }

mkdir -p "$T/work"
WORK=$(cd "$T/work" && pwd -P)

P=$(policy audit <<'EOF'
version = 1;
name = "audit-basic";
env: {
  allow = [ "GX_AUDIT_SECRET" ];
  set = { PATH = "/usr/bin:/bin"; };
};
advisory: {
  warn = ( { match = "printenv"; reason = "prints the environment"; } );
};
audit: { sync = false; syslog = false; };
EOF
)

# ---- 1. one run: every contract field, with its JSON type ------------
export GX_AUDIT_SECRET=s3cr3t-value GX_DROPPED_SECRET=dr0pped-value
run_gx -p "$P" -C "$T/work" -- printenv GX_AUDIT_SECRET
unset GX_AUDIT_SECRET GX_DROPPED_SECRET
rec1=$rec
is "the command ran and saw the allowed variable" "$rc:$out" "0:s3cr3t-value"
is "--result holds exactly one line" "$(wc -l < "$T/result.json")" 1
like "the record is one JSON object ending in the hash" "$rec" "^\\{.*,\"hash\":\"$HEX64\"\\}\$"
like 'v is the integer 1' "$rec" '^\{"v":1,'
like 'id is 128 bits of hex' "$rec" '"id":"[0-9a-f]{32}"'
like 'start is an ISO 8601 UTC time' "$rec" "\"start\":$TS"
like 'end is an ISO 8601 UTC time' "$rec" "\"end\":$TS"
like 'duration_ms is a number' "$rec" "\"duration_ms\":${NUM}[,}]"
like 'host is a non-empty string' "$rec" '"host":"[^"]+"'
like 'uid is our uid, an integer' "$rec" "\"uid\":$(id -u)[,}]"
like 'user is our user name' "$rec" "\"user\":\"$(id -un)\""
like 'pid is an integer' "$rec" '"pid":[0-9]+[,}]'
like 'cwd is the run directory' "$rec" "\"cwd\":\"$WORK\""
like 'argv is the array of arguments' "$rec" '"argv":\["printenv","GX_AUDIT_SECRET"\]'
like 'policy has name, absolute path and sha256' "$rec" \
	"\"policy\":\\{\"name\":\"audit-basic\",\"path\":\"$P\",\"sha256\":\"$HEX64\"[,}]"
is 'policy.sha256 is the sha256 of the policy file' \
	"$(printf '%s\n' "$rec" | sed -n 's/.*"policy":{[^}]*"sha256":"\([0-9a-f]*\)".*/\1/p')" \
	"$(sha256sum < "$P" | cut -d' ' -f1)"
like 'env.passed is an array of names with the allowed one' "$rec" \
	'"env":\{"passed":\[[^]]*"GX_AUDIT_SECRET"[^]]*\],"dropped":\['
like 'env.dropped names the dropped variable' "$rec" \
	'"dropped":\[[^]]*"GX_DROPPED_SECRET"'
like 'advisory is an array of {rule, reason, enforced:false}' "$rec" \
	'"advisory":\[\{"rule":"printenv","reason":"prints the environment","enforced":false\}\]'
like 'status is "exited"' "$rec" '"status":"exited"'
like 'exit_code is the integer 0' "$rec" '"exit_code":0[,}]'
like 'signal is null' "$rec" '"signal":null'
like 'timed_out is false' "$rec" '"timed_out":false'
like 'stdout_bytes counts what the command wrote' "$rec" '"stdout_bytes":13[,}]'
like 'stderr_bytes is the integer 0' "$rec" '"stderr_bytes":0[,}]'
like 'truncated is false' "$rec" '"truncated":false'
like 'seccomp is {action, denied:[...]}' "$rec" \
	'"seccomp":\{"action":(null|"(errno|kill|log)"),"denied":\['
like 'rusage has user_ms, sys_ms (numbers) and max_rss_kb (integer)' "$rec" \
	"\"rusage\":\\{\"user_ms\":$NUM,\"sys_ms\":$NUM,\"max_rss_kb\":[0-9]+\\}"
like 'limit_hit is null' "$rec" '"limit_hit":null'
like 'isolation has filesystem, network, cgroup, user' "$rec" \
	'"isolation":\{"filesystem":(null|"[^"]*"),"network":(null|"[^"]*"),"cgroup":(null|"[^"]*"),"user":(null|"[^"]*")(,"[a-z_]+":(null|"[^"]*"|\[[^]]*\]))*\}'
like 'prev of the first record in a log is 64 zeros' "$rec" '"prev":"0{64}"'
like 'hash is the last key' "$rec" "\"prev\":\"$HEX64\",\"hash\":\"$HEX64\"\\}\$"
pre=${rec%,\"hash\":\"*}
is 'hash is the sha256 of the bytes before ,"hash":"' "$(hash_of "$rec")" \
	"$(printf '%s' "$pre" | sha256sum | cut -d' ' -f1)"
verify_ok 'the record is valid JSON with a good hash (verify --partial)' \
	--partial "$T/result.json"
if tail -n 1 "$T/audit.log" | cmp -s - "$T/result.json"; then
	ok "--result is byte for byte the log's last line"
else
	not_ok "--result is byte for byte the log's last line"
fi

# ---- 2. more runs: the chain --------------------------------------------
run_gx -p "$P" -- false
is "false: exit 1" "$rc" 1
like 'exit_code 1 is recorded' "$rec" '"status":"exited","exit_code":1,'
is 'prev is the hash of the line before' "$(prev_of "$rec")" "$(hash_of "$rec1")"
if tail -n 1 "$T/audit.log" | cmp -s - "$T/result.json"; then
	ok "--result is the log's last line (second run)"
else
	not_ok "--result is the log's last line (second run)"
fi
run_gx -p "$P" -- sh -c 'echo err >&2; exit 3'
is "exit 3 is passed on" "$rc" 3
like 'exit_code 3 and stderr_bytes 4 are recorded' "$rec" \
	'"exit_code":3,.*"stderr_bytes":4,'

# Command not found.
run_gx -p "$P" -- gx-no-such-command-4711
is "command not found: exit 127" "$rc" 127
like 'not found: "status":"exec_failed","exit_code":127' "$rec" \
	'"status":"exec_failed","exit_code":127[,}]'
like 'not found: an error on stderr' "$err" '^guardexec: .*gx-no-such-command-4711'
if tail -n 1 "$T/audit.log" | cmp -s - "$T/result.json"; then
	ok "the not-found record is in the log"
else
	not_ok "the not-found record is in the log"
fi

# ---- 3. log injection ---------------------------------------------------
lines_before=$(wc -l < "$T/audit.log")
# shellcheck disable=SC1003
run_gx -p "$P" -- true $'x\n{"v":1,"id":"forged","hash":"0"}\n' $'a\rb' '%n%s%x' \
	'q"uo\"te\\' $'\xff\xfe'
is "injection run exits 0" "$rc" 0
is "exactly one line was appended" "$(wc -l < "$T/audit.log")" "$((lines_before + 1))"
is "--result is one line" "$(wc -l < "$T/result.json")" 1
is "no carriage return in the log" "$(tr -cd '\r' < "$T/audit.log" | wc -c)" 0
like 'the newline is escaped' "$rec" '"x\\n\{\\"v\\":1,\\"id\\":\\"forged\\"'
like 'the carriage return is escaped' "$rec" '"a\\rb"'
like 'printf directives are kept literally' "$rec" '"%n%s%x"'
like 'quotes and backslashes are escaped' "$rec" '"q\\"uo\\\\\\"te\\\\\\\\"'
like 'argv_hex holds the invalid UTF-8 argument' "$rec" '"argv_hex":\{"5":"fffe"\}'
verify_ok 'the injection record is valid JSON with a good hash' --partial "$T/result.json"
if tail -n 1 "$T/audit.log" | cmp -s - "$T/result.json"; then
	ok "--result is the log's last line (injection)"
else
	not_ok "--result is the log's last line (injection)"
fi

# ---- 4. verify the chain, then tamper with copies ------------------------
nrec=$(wc -l < "$T/audit.log")
verify_ok "verify passes after $nrec runs" "$T/audit.log"
like "verify counts the records" "$("$GUARDEXEC_AUDIT" verify "$T/audit.log" 2>&1)" \
	"(^|[^0-9])$nrec records"
is "no unfinished line in the log" "$(grep -c '"}$' "$T/audit.log")" "$nrec"

sed '3s/"v":1,/"v":2,/' "$T/audit.log" > "$T/t-edit.log"
tampered "one byte edited in line 3" "$T/t-edit.log" 3
sed '3d' "$T/audit.log" > "$T/t-del.log"
tampered "line 3 deleted" "$T/t-del.log" 3
awk 'NR == 2 { h = $0; next } NR == 3 { print; print h; next } { print }' \
	"$T/audit.log" > "$T/t-swap.log"
tampered "lines 2 and 3 swapped" "$T/t-swap.log" 2
cp "$T/audit.log" "$T/t-add.log"
printf '{"v":1,"id":"forged","status":"exited","exit_code":0}\n' >> "$T/t-add.log"
tampered "a line appended by hand" "$T/t-add.log" "$((nrec + 1))"
cp "$T/audit.log" "$T/t-replay.log"
tail -n 1 "$T/audit.log" >> "$T/t-replay.log"
tampered "the last line replayed" "$T/t-replay.log" "$((nrec + 1))"
cp "$T/audit.log" "$T/t-forge.log"
tail -n 1 "$T/audit.log" | sed 's/"exit_code":0,/"exit_code":1,/' >> "$T/t-forge.log"
tampered "an appended record with a changed exit code" "$T/t-forge.log" "$((nrec + 1))"

# ---- 5. concurrent appends --------------------------------------------------
PAR=$(policy par <<'EOF'
version = 1;
name = "par";
audit: { sync = false; syslog = false; };
EOF
)
pids=""
for _i in $(seq 1 50); do
	"$GUARDEXEC" -q -p "$PAR" -l "$T/par.log" -- true \
		> /dev/null 2>> "$T/par.err" &
	pids="$pids $!"
done
failed_runs=0
for p in $pids; do
	wait "$p" || failed_runs=$((failed_runs + 1))
done
is "50 parallel runs all exit 0" "$failed_runs" 0
is "50 parallel runs: exactly 50 lines" "$(wc -l < "$T/par.log")" 50
is "50 parallel runs: every line ends with \"}" "$(grep -c '"}$' "$T/par.log")" 50
is "50 parallel runs: 50 distinct ids" \
	"$(grep -o '"id":"[0-9a-f]*"' "$T/par.log" | sort -u | wc -l)" 50
verify_ok "50 parallel runs: verify passes" "$T/par.log"

# ---- 6. a symlinked log is refused ----------------------------------------
printf 'original\n' > "$T/target.log"
cp "$T/target.log" "$T/target.orig"
ln -s "$T/target.log" "$T/link.log"
run_gx_log "$T/link.log" -p "$P" -- touch "$T/ran-symlink"
is "symlinked log: exit 125" "$rc" 125
check "symlinked log: the command did not run" test ! -e "$T/ran-symlink"
check "symlinked log: the target is untouched" cmp -s "$T/target.log" "$T/target.orig"
like "symlinked log: an error on stderr" "$err" '^guardexec: .*link\.log'
ln -s "$T/dangling-target.log" "$T/dangling.log"
run_gx_log "$T/dangling.log" -p "$P" -- touch "$T/ran-dangling"
is "dangling symlinked log: exit 125" "$rc" 125
check "dangling symlinked log: the command did not run" test ! -e "$T/ran-dangling"
check "dangling symlinked log: its target was not created" \
	test ! -e "$T/dangling-target.log"

# ---- 7. on_log_failure ----------------------------------------------------
REFUSE=$(policy refuse <<'EOF'
version = 1;
name = "refuse";
audit: { on_log_failure = "refuse"; sync = false; syslog = false; };
EOF
)
WARN=$(policy warn <<'EOF'
version = 1;
name = "warn";
audit: { on_log_failure = "warn"; sync = false; syslog = false; };
EOF
)
run_gx_log "$T/no/such/dir/audit.log" -p "$REFUSE" -- touch "$T/ran-refuse"
is "missing log directory, refuse: exit 125" "$rc" 125
check "missing log directory, refuse: the command did not run" test ! -e "$T/ran-refuse"
like "missing log directory, refuse: the error names the log" "$err" \
	'^guardexec: .*no/such/dir/audit\.log'
like "missing log directory, refuse: --result says refused" "$rec" \
	'"status":"refused","exit_code":125[,}]'
run_gx_log "$T/no/such/dir/audit.log" -p "$WARN" -- touch "$T/ran-warn"
is "missing log directory, warn: the command's exit status" "$rc" 0
check "missing log directory, warn: the command ran" test -e "$T/ran-warn"
like "missing log directory, warn: a warning on stderr" "$err" \
	'^guardexec: .*no/such/dir/audit\.log'
check "missing log directory: nothing was created" test ! -e "$T/no"

# A log guardexec may not write to.
mkdir -p "$T/ro"
if is_root && touch "$T/ro/audit.log" && chattr +i "$T/ro/audit.log" 2>/dev/null; then
	IMMUTABLE="$T/ro/audit.log"
	run_gx_log "$T/ro/audit.log" -p "$REFUSE" -- touch "$T/ran-ro"
	is "immutable log (chattr +i), refuse: exit 125" "$rc" 125
	check "immutable log, refuse: the command did not run" test ! -e "$T/ran-ro"
	like "immutable log, refuse: the error names the log" "$err" '^guardexec: .*ro/audit\.log'
	chattr -i "$T/ro/audit.log"
	IMMUTABLE=""
elif unpriv_setup; then
	# A file we may not write: root's 0644 file for uid 65534, or our
	# own 0444 file when the test already runs unprivileged.
	U="$T/u"
	mkdir -p "$U"
	if is_root; then chown 65534:65534 "$U"; fi
	: > "$T/ro/audit.log"
	chmod 444 "$T/ro/audit.log"
	as_user "$GUARDEXEC" -p "$REFUSE" -l "$T/ro/audit.log" -- touch "$U/ran-ro" \
		> "$T/stdout" 2> "$T/stderr"
	rc=$?
	err=$(cat "$T/stderr")
	is "read-only log (unprivileged), refuse: exit 125" "$rc" 125
	check "read-only log, refuse: the command did not run" test ! -e "$U/ran-ro"
	like "read-only log, refuse: the error names the log" "$err" '^guardexec: .*ro/audit\.log'
else
	skip "read-only log: chattr +i failed here and $UNPRIV_REASON"
	skip "read-only log: the command did not run"
	skip "read-only log: the error"
fi

# A full file system (root: a tiny tmpfs).
if ! is_root; then
	skip "full disk: not root (mounting a tmpfs needs root)"
	skip "full disk: the command did not run"
	skip "full disk: the error"
elif mkdir -p "$T/full" && mount -t tmpfs -o size=64k,mode=0755 gx-test-full \
	"$T/full" 2> "$T/mount.err"; then
	MOUNTED="$T/full"
	dd if=/dev/zero of="$T/full/fill" bs=4096 2> /dev/null
	run_gx_log "$T/full/audit.log" -p "$REFUSE" -- touch "$T/ran-full"
	is "full disk, refuse: exit 125" "$rc" 125
	check "full disk, refuse: the command did not run" test ! -e "$T/ran-full"
	like "full disk, refuse: the error names the log" "$err" '^guardexec: .*full/audit\.log'
	umount "$T/full" && MOUNTED=""
else
	skip "full disk: cannot mount a tmpfs: $(head -n 1 "$T/mount.err")"
	skip "full disk: the command did not run"
	skip "full disk: the error"
fi

# ---- 8. a policy error still leaves a record ---------------------------------
BAD=$(policy bad <<'EOF'
version = 1;
name = "bad";
limits: { memory = "lots"; };
EOF
)
run_gx -p "$BAD" -- touch "$T/ran-bad"
is "policy error: exit 125" "$rc" 125
check "policy error: the command did not run" test ! -e "$T/ran-bad"
like "policy error: names the file and line" "$err" '^guardexec: [^ ]*bad\.cfg:3: limits\.memory'
like 'policy error: --result has "status":"refused"' "$rec" \
	'"status":"refused","exit_code":125[,}]'
like "policy error: the record names the policy path" "$rec" '"policy":\{[^}]*bad\.cfg'
verify_ok "policy error: the record is valid JSON with a good hash" \
	--partial "$T/result.json"

# ---- 9. secrets: names only -------------------------------------------------
check "the allowed variable's value is not in the log" \
	test "$(grep -c 's3cr3t-value' "$T/audit.log")" = 0
check "the dropped variable's value is not in the log" \
	test "$(grep -c 'dr0pped-value' "$T/audit.log")" = 0
like "the allowed variable's name is in the log" "$(head -n 1 "$T/audit.log")" \
	'"passed":\[[^]]*"GX_AUDIT_SECRET"'

# ---- 10. syslog -------------------------------------------------------------
SYS=$(policy syslog <<'EOF'
version = 1;
name = "syslog";
audit: { syslog = true; facility = "user"; sync = false; };
EOF
)
# journald_devlog: /dev/log is journald's (systemd machines): the record
# must arrive in the journal, which root reads, and a user reads where
# the journal is persistent (its lines land in its own journal file).
journald_devlog() {
	[ -S /dev/log ] && command -v journalctl > /dev/null 2>&1 &&
		[ "$(readlink -f /dev/log)" = /run/systemd/journal/dev-log ]
}
if journald_devlog; then
	since=@$(date +%s)
	jget() {  # jget ID [MATCH...]: the journal's message with that id
		journalctl -q --no-pager -t guardexec --since "$since" -o cat "${@:2}" \
			2> "$T/journal.err" | grep -F '@cee: {' | grep -F "\"id\":\"$1\"" | head -n 1
	}
	run_gx -p "$SYS" -- true
	id=$(field id)
	id=${id//\"/}
	in_journal() { [ -n "$(jget "$id")" ]; }
	if [ -n "$id" ] && wait_for in_journal; then
		ok "syslog (journald): the record with the run's id arrived in the journal"
		sysline=$(jget "$id")
		check "syslog (journald): the message fits 4 KiB" test "${#sysline}" -le 4096
		check "syslog (journald): sent with the policy's facility (user)" \
			test -n "$(jget "$id" SYSLOG_FACILITY=1)"
		big=$(head -c 2000 /dev/zero | tr '\0' A)
		# shellcheck disable=SC2046
		run_gx -p "$SYS" -- true $(for _i in $(seq 1 20); do echo "$big"; done)
		id2=$(field id)
		id2=${id2//\"/}
		in_journal2() { [ -n "$(jget "$id2")" ]; }
		wait_for in_journal2
		line2=$(jget "$id2")
		if [ -n "$line2" ] && [ "${#line2}" -le 4096 ] && [ "${#rec}" -gt 40000 ]; then
			ok "syslog (journald): a 40 KB argv is compacted to at most 4 KiB (the log keeps it)"
		else
			not_ok "syslog (journald): a 40 KB argv is compacted to at most 4 KiB (the log keeps it)"
			diag "journal message: ${#line2} bytes; local record: ${#rec} bytes"
		fi
	elif ! is_root && grep -qi 'permission' "$T/journal.err"; then
		skip "syslog (journald): this user cannot read the journal: $(head -n 1 "$T/journal.err")"
		skip "syslog (journald): the message fits 4 KiB (journal unreadable)"
		skip "syslog (journald): the facility (journal unreadable)"
		skip "syslog (journald): compaction (journal unreadable)"
	else
		not_ok "syslog (journald): the record with the run's id arrived in the journal"
		diag "rc=$rc err=$err journalctl: $(head -c 300 "$T/journal.err")"
		skip "syslog (journald): the message fits 4 KiB (no record)"
		skip "syslog (journald): the facility (no record)"
		skip "syslog (journald): compaction (no record)"
	fi
	skip "syslog: the listener removed /dev/log (journald owns /dev/log)"
elif ! is_root; then
	skip "syslog: not root (cannot create /dev/log)"
	skip "syslog: the message fits 4 KiB"
	skip "syslog: the facility"
	skip "syslog: compaction to 4 KiB"
	skip "syslog: the listener removed /dev/log"
elif [ -e /dev/log ] || [ -L /dev/log ]; then
	skip "syslog: /dev/log exists, owned by a running syslog daemon"
	skip "syslog: the message fits 4 KiB"
	skip "syslog: the facility"
	skip "syslog: compaction to 4 KiB"
	skip "syslog: the listener removed /dev/log"
else
	"$HELPERS/syslog-listen" /dev/log "$T/syslog.txt" 1000 60 > "$T/syslog.ready" &
	SYSLOG_PID=$!
	listener_up() { grep -q '^ready$' "$T/syslog.ready" || ! alive "$SYSLOG_PID"; }
	wait_for listener_up
	if grep -q '^ready$' "$T/syslog.ready"; then
		DEVLOG_CREATED=1
		run_gx -p "$SYS" -- true
		id=$(field id)
		id=${id//\"/}
		found_in_syslog() { grep -F '@cee: {' "$T/syslog.txt" 2>/dev/null |
			grep -qF "\"id\":\"$id\""; }
		if [ -n "$id" ] && wait_for found_in_syslog; then
			ok "syslog: a line with '@cee: {' and the run's id arrived"
		else
			not_ok "syslog: a line with '@cee: {' and the run's id arrived"
			diag "rc=$rc err=$err"
			diag "syslog: $(head -c 600 "$T/syslog.txt" 2>/dev/null)"
		fi
		sysline=$(grep -F "\"id\":\"$id\"" "$T/syslog.txt" 2>/dev/null | head -n 1)
		check "syslog: the message fits 4 KiB" test -n "$sysline" -a "${#sysline}" -le 4200
		like "syslog: sent with the policy's facility (user)" "$sysline" '^<(8|9|1[0-5])>'
		# 40 KB of arguments: the local record keeps them, syslog gets
		# at most 4 KiB.
		big=$(head -c 2000 /dev/zero | tr '\0' A)
		# shellcheck disable=SC2046
		run_gx -p "$SYS" -- true $(for _i in $(seq 1 20); do echo "$big"; done)
		id2=$(field id)
		id2=${id2//\"/}
		found2_in_syslog() { grep -qF "\"id\":\"$id2\"" "$T/syslog.txt" 2>/dev/null; }
		wait_for found2_in_syslog
		line2=$(grep -F "\"id\":\"$id2\"" "$T/syslog.txt" 2>/dev/null | head -n 1)
		body2=${line2#*]: }
		if [ -n "$line2" ] && [ "${#body2}" -le 4096 ] && [ "${#rec}" -gt 40000 ]; then
			ok "syslog: a 40 KB argv is compacted to at most 4 KiB (the log keeps it)"
		else
			not_ok "syslog: a 40 KB argv is compacted to at most 4 KiB (the log keeps it)"
			diag "syslog message: ${#body2} bytes; local record: ${#rec} bytes"
		fi
	elif [ -e /dev/log ]; then
		# Someone else bound /dev/log between our check and the bind.
		skip "syslog: /dev/log appeared meanwhile (another syslog listener)"
		skip "syslog: the message fits 4 KiB (no listener)"
		skip "syslog: the facility (no listener)"
		skip "syslog: compaction (no listener)"
	else
		not_ok "syslog: the listener did not start"
		skip "syslog: the message fits 4 KiB (no listener)"
		skip "syslog: the facility (no listener)"
		skip "syslog: compaction (no listener)"
	fi
	kill -TERM "$SYSLOG_PID" 2>/dev/null
	wait "$SYSLOG_PID" 2>/dev/null
	SYSLOG_PID=""
	if [ -n "$DEVLOG_CREATED" ]; then
		check "syslog: the listener removed /dev/log" test ! -e /dev/log
	else
		skip "syslog: the listener removed /dev/log (it never bound it)"
	fi
	DEVLOG_CREATED=""
fi

finish
