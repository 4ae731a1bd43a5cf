#!/bin/bash
# Every exit status of guardexec(1), and the record's status for each.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 21

P=$(policy basic <<'EOF2'
version = 1;
name = "exit";
limits: { timeout = 2; kill_grace = 1; };
audit: { sync = false; };
EOF2
)

run_gx -p "$P" -- true
is "true exits 0" "$rc" 0
is "status exited" "$(field status)" '"exited"'

run_gx -p "$P" -- sh -c 'exit 3'
is "the command's own status is passed on" "$rc" 3
is "record exit_code 3" "$(field exit_code)" 3

run_gx -p "$P" -- sh -c 'kill -9 $$'
is "killed by SIGKILL: 128+9" "$rc" 137
is "status signaled, signal 9" "$(field status) $(field signal)" '"signaled" 9'

run_gx -p "$P" -- sh -c 'kill -SEGV $$'
is "killed by SIGSEGV: 128+11" "$rc" 139

run_gx -p "$P" -- "$HELPERS/spin-until-killed" -i
is "timeout: 124" "$rc" 124
is "status timeout, timed_out true" "$(field status) $(field timed_out)" '"timeout" true'

run_gx -p "$P" -- no-such-command-gx
is "not found: 127" "$rc" 127
is "status exec_failed" "$(field status)" '"exec_failed"'
like "not found is reported with the guardexec prefix" "$err" '^guardexec: no-such-command-gx: command not found'

printf '#!/bin/sh\necho hi\n' > "$T/noexec.sh"
chmod 644 "$T/noexec.sh"
run_gx -p "$P" -- "$T/noexec.sh"
# (root passes access(X_OK) only when some x bit is set: 644 has none)
is "not executable: 126" "$rc" 126
run_gx -p "$P" -- "$T"
is "a directory: 126" "$rc" 126

printf '#!/nonexistent/interpreter\n' > "$T/badinterp"
chmod 755 "$T/badinterp"
run_gx -p "$P" -- "$T/badinterp"
is "missing interpreter (execve ENOENT): 127" "$rc" 127

printf 'version = 1;\nname = "x";\nlimits: { memory = "lots"; };\n' > "$T/bad.cfg"
run_gx -p "$T/bad.cfg" -- touch "$T/ran"
is "policy error: 125" "$rc" 125
check "policy error: nothing was run" test ! -e "$T/ran"
is "policy error: record status refused" "$(field status)" '"refused"'

"$GUARDEXEC" --no-such-option > /dev/null 2>&1
is "usage error: 125" "$?" 125

run_gx -p "$P" -C "$T/missing-dir" -- true
is "-C to a missing directory: 125" "$rc" 125

# rusage is the command's, not what the process that exec'd guardexec
# had waited for before (a shell that ran a busy child first).
bash -c 'sh -c "i=0; while [ \$i -lt 300000 ]; do i=\$((i+1)); done"; exec "$@"' sh \
	"$GUARDEXEC" -l "$T/audit.log" -r "$T/ru.json" -p "$P" -- true > /dev/null 2>&1
ums=$(sed -n 's/.*"user_ms":\([0-9.]*\).*/\1/p' "$T/ru.json")
check "rusage counts the command only (user_ms $ums for true)" \
	awk -v u="${ums:-9999}" 'BEGIN { exit !(u < 50) }'
finish
