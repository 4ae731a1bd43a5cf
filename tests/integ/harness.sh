#!/bin/bash
# examples/guardexec_harness.py, the agent-harness glue, against the real
# binary: the Result fields, the text a model sees (for_model), the
# record on its own descriptor, and that a str command never meets a shell.
. "$TOP_SRCDIR/tests/integ/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 is not installed"
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
	skip_all "python3 is older than 3.9"
fi
plan 62

# The driver: runs one command through the module and writes every
# Result field to a file in $T/res (read back with r FIELD).  All values
# come in as arguments or environment variables, never as Python source.
cp "$TOP_SRCDIR/examples/guardexec_harness.py" "$T/"
chmod 644 "$T/guardexec_harness.py"
cat > "$T/drive.py" <<'PY'
import argparse, os, sys
sys.path.insert(0, os.environ["HARNESS_DIR"])
import guardexec_harness as h

ap = argparse.ArgumentParser()
ap.add_argument("-p", required=True)
ap.add_argument("-C")
ap.add_argument("-s", help="the command as a str")
ap.add_argument("-x", "--extra", dest="x", action="append", default=[], help="extra_args")
ap.add_argument("-i", help="stdin text")
ap.add_argument("-t", type=float, help="timeout")
ap.add_argument("-e", action="append", default=[], help="env NAME=VALUE")
ap.add_argument("-g", default=os.environ["GUARDEXEC"], help="guardexec")
ap.add_argument("-o", required=True, help="result directory")
ap.add_argument("cmd", nargs=argparse.REMAINDER)
ns = ap.parse_args()
cmd = ns.s if ns.s is not None else ns.cmd[1:] if ns.cmd[:1] == ["--"] else ns.cmd
os.makedirs(ns.o, exist_ok=True)
try:
    res = h.run(cmd, ns.p, cwd=ns.C, guardexec=ns.g,
                stdin=None if ns.i is None else ns.i.encode(), extra_args=ns.x,
                timeout=ns.t,
                env=dict(e.split("=", 1) for e in ns.e) if ns.e else None)
except h.GuardexecError as e:
    with open(os.path.join(ns.o, "error"), "w") as f:
        f.write(type(e).__name__ + ": " + e.message)
    sys.exit(0)
rec = res.record or {}
fields = {
    "exit_code": res.exit_code, "status": res.status, "cwd": res.cwd,
    "stdout": res.stdout, "stderr": res.stderr, "truncated": res.truncated,
    "timed_out": res.timed_out, "limit_hit": res.limit_hit,
    "signal": res.signal, "denied": res.denied,
    "advisories": res.advisories, "for_model": res.for_model(),
    "has_record": res.record is not None,
    "stdout_bytes": rec.get("stdout_bytes"),
    "len_stdout": len(res.stdout.encode()),
    "argv": rec.get("argv"),
    "notices": res.notices, "left_running": res.left_running,
    "timeout": res.timeout, "env_dropped": res.env_dropped,
}
for k, v in fields.items():
    with open(os.path.join(ns.o, k), "w") as f:
        f.write(v if isinstance(v, str) else repr(v))
PY
export HARNESS_DIR="$T" GUARDEXEC PYTHONDONTWRITEBYTECODE=1

# hx ARGS...: the driver (stdout/stderr in $T/hx.out, $T/hx.err); r FIELD.
hx() {
	rm -rf "$T/res"
	timeout 60 python3 "$T/drive.py" -o "$T/res" "$@" > "$T/hx.out" 2> "$T/hx.err"
	hx_rc=$?
	if [ "$hx_rc" != 0 ]; then diag "driver exit $hx_rc: $(head -c 600 "$T/hx.err")"; fi
}
r() { cat "$T/res/$1" 2>/dev/null; }

mkdir -p "$T/w"
W=$(cd "$T/w" && pwd -P)

P=$(policy plain <<'EOF2'
version = 1;
name = "plain";
command: { stdin = "inherit"; };
output: { max_bytes = 64; keep = "head"; };
limits: { timeout = 0.5; kill_grace = 0.5; };
advisory: {
  warn = ( { match = "rm -rf /"; reason = "deletes from the root directory"; } );
};
audit: { log = "audit.log"; sync = false; };
EOF2
)

# A normal command.
hx -p "$P" -C "$W" -- sh -c 'echo hello; pwd'
is "normal: exit_code 0" "$(r exit_code)" 0
is "normal: status exited" "$(r status)" exited
is "normal: stdout captured" "$(r stdout)" "hello
$W"
is "normal: stderr empty" "$(r stderr)" ""
is "normal: cwd from the record" "$(r cwd)" "$W"
is "for_model: exit code, cwd, output" "$(r for_model)" "exit code 0
cwd: $W
hello
$W"
is "the record's stdout_bytes matches len(stdout)" "$(r stdout_bytes)" "$(r len_stdout)"
is "no notes, no truncation" "$(r truncated)|$(r timed_out)|$(r denied)|$(r advisories)" "False|False|[]|[]"

# A failing command, with stderr.
hx -p "$P" -C "$W" -- sh -c 'echo out; echo oops >&2; exit 3'
is "failing: exit_code 3" "$(r exit_code)" 3
is "failing: stdout and stderr kept apart" "$(r stdout)|$(r stderr)" "out|oops"
is "failing: for_model" "$(r for_model)" "exit code 3
cwd: $W
out
[stderr]
oops"

# Output over the cap (64 bytes).
hx -p "$P" -C "$W" -- seq 1 1000
is "over the cap: truncated True" "$(r truncated)" True
is "over the cap: 64 bytes kept" "$(r len_stdout)" 64
like "over the cap: the record counts all of it" "$(r stdout_bytes)" '^3893$'
like "over the cap: the note ends the text" "$(r for_model)" '^\[output truncated\]$'
unlike "over the cap: guardexec's marker is not repeated" "$(r for_model)" 'guardexec: output truncated'
like "over the cap: stderr keeps guardexec's marker" "$(r stderr)" '^\[guardexec: output truncated at 64 bytes\]$'

# keep = "head_tail": the marker is on stderr, the note says what it means.
HT=$(policy headtail <<'EOF2'
version = 1;
name = "headtail";
output: { max_bytes = 20; keep = "head_tail"; };
audit: { log = "audit.log"; sync = false; };
EOF2
)
hx -p "$HT" -C "$W" -- seq 1 100
is "head_tail: stdout is what guardexec relayed" "$(r stdout | tr '\n' ' ')" "1 2 3 4 5 98 99 100 "
# The tail's first line may be a piece of one: it goes, and the note
# stands where the cut is, with the bytes left out.
is "head_tail: for_model cuts at lines, the note where the cut is" "$(r for_model)" "exit code 0
cwd: $W
1
2
3
4
5
[output truncated: 275 bytes omitted here]
99
100"
# A traceback-like output: lines cut in the middle on both sides.
HT2=$(policy headtail2 <<'EOF2'
version = 1;
name = "headtail2";
output: { max_bytes = 200; keep = "head_tail"; };
audit: { log = "audit.log"; sync = false; };
EOF2
)
hx -p "$HT2" -C "$W" -- sh -c 'echo "Traceback (most recent"; i=0; while [ $i -lt 50 ]; do echo "  File \"/usr/lib/x$i.py\", line $i"; i=$((i+1)); done; echo "Error: boom"'
like "head_tail: no line is glued from a head and a tail piece" \
	"$(r for_model)" '^Traceback \(most recent$'
is "head_tail: no partial line around the cut" \
	"$(r for_model | sed 1,2d | grep -vE '^(Traceback \(most recent|  File "/usr/lib/x[0-9]+\.py", line [0-9]+|\[output truncated: [0-9]+ bytes omitted here\]|Error: boom)$')" ""
like "head_tail: the note is between head and tail" \
	"$(r for_model | tr '\n' '|')" '^exit code 0\|cwd: [^|]*\|Traceback \(most recent\|(  File [^|]*\|)+\[output truncated: [0-9]+ bytes omitted here\]\|(  File [^|]*\|)+Error: boom\|$'
# A look-alike marker printed by the command is not taken for guardexec's.
hx -p "$HT" -C "$W" -- sh -c 'echo "[guardexec: 5 bytes omitted]" >&2; seq 1 100'
like "head_tail: a forged marker on stderr is left as the command's text" \
	"$(r for_model)" '\[stderr\]'
like "head_tail: the real cut is still found" "$(r for_model)" \
	'\[output truncated: [0-9]+ bytes omitted here\]'

# The timeout (0.5 s).
hx -p "$P" -C "$W" -- sleep 10
is "timeout: exit_code 124, timed_out True" "$(r exit_code)|$(r timed_out)|$(r status)" "124|True|timeout"
like "timeout: for_model says so, and the limit" "$(r for_model)" \
	"^exit code 124 \\(timed out after 0.5 s, the policy's limits.timeout\\)$"
is "timeout: Result.timeout" "$(r timeout)" 0.5

# A per-call timeout, under a policy without one: the harness ends it.
NT=$(policy notimeout <<'EOF2'
version = 1;
name = "notimeout";
command: { stdin = "null"; };
env: { allow = [ "PATH", "HX_*" ]; };
audit: { log = "audit.log"; sync = false; };
EOF2
)
hx -p "$NT" -C "$W" -t 0.5 -- "$HELPERS/spin-until-killed" -i
is "per-call timeout: timed out, 124" "$(r exit_code)|$(r timed_out)|$(r status)" "124|True|timeout"
like "per-call timeout: the note says the limit and whose" "$(r for_model)" \
	"^exit code 124 \\(timed out after 0.5 s, the harness's timeout\\)$"
is "per-call timeout: the command is gone (SIGTERM ignored, guardexec ends it)" \
	"$(count_cmdline "$HELPERS/spin-until-killed -i")" 0
# A per-call env: names the policy allows pass, the others are dropped.
hx -p "$NT" -C "$W" -e HX_ONE=1 -e SECRET_TOKEN=hunter2 -- sh -c 'echo "${HX_ONE-unset} ${SECRET_TOKEN-unset}"'
is "per-call env: allowed name passed, other dropped" "$(r stdout)" "1 unset"
is "per-call env: env_dropped names it" "$(r env_dropped)" "['SECRET_TOKEN']"
# stdin bytes the policy would not pass on: refused, not silently lost.
hx -p "$NT" -C "$W" -i "lost?" -- cat
like "stdin with command.stdin = \"null\": GuardexecError" "$(r error)" \
	'^GuardexecError: stdin given, but policy .* has command.stdin = "null"'

# A signal (not guardexec's timeout).
hx -p "$P" -C "$W" -- sh -c 'kill -9 $$'
is "killed by a signal: 128+9" "$(r exit_code)|$(r status)|$(r signal)" "137|signaled|9"
like "killed by a signal: for_model says which" "$(r for_model)" '^exit code 137 \(killed by signal 9, SIGKILL\)$'

# An advisory match: in the result and the note, not in stderr (-q).
hx -p "$P" -C "$W" -- echo rm -rf /nothing
is "advisory: the command still runs" "$(r stdout)" "rm -rf /nothing"
is "advisory: advisories" "$(r advisories)" "[('rm -rf /', 'deletes from the root directory')]"
like "advisory: the note" "$(r for_model)" '^\[advisory: rm -rf /: deletes from the root directory\]$'
is "advisory: -q keeps it out of stderr" "$(r stderr)" ""

# stdin bytes reach the command (command.stdin = "inherit").
hx -p "$P" -C "$W" -i "from the harness" -- cat
is "stdin: passed to the command" "$(r stdout)" "from the harness"

# A str command is split with shlex, never run by a shell.
hx -p "$P" -C "$W" -s "printf '%s\\n' 'a;b' ; touch pwned \$(id)"
# shellcheck disable=SC2016 # a literal $(id)
is "str command: quotes group, ; is an argument" "$(r stdout)" 'a;b
;
touch
pwned
$(id)'
check "str command: no second command ran" test ! -e "$W/pwned"
is "str command: the argv guardexec ran" "$(r argv)" "['printf', '%s\\\\n', 'a;b', ';', 'touch', 'pwned', '\$(id)']"

# A record larger than a pipe buffer (a long argv) does not block guardexec.
big=$(head -c 100000 /dev/zero | tr '\0' x)
hx -p "$P" -C "$W" -- true "$big" "$big"
is "a 200 KB record: read in full, no hang" "$hx_rc|$(r exit_code)|$(r has_record)" "0|0|True"

# A denied syscall.
S=$(policy sys <<'EOF2'
version = 1;
name = "sys";
syscalls: { default_action = "errno"; allow = [ "@default" ]; };
audit: { log = "audit.log"; sync = false; };
EOF2
)
hx -p "$S" -C "$W" -- "$HELPERS/try-syscall" ptrace
is "denied: the command saw EPERM" "$(r stdout)" "ptrace: EPERM"
like "denied: ('ptrace', 1)" "$(r denied)" "\\('ptrace', 1\\)"
like "denied: the note" "$(r for_model)" '^\[denied syscalls: ptrace x1\]$'

# A broken policy: refused, nothing ran.
B=$(policy broken <<'EOF2'
version = 1;
name = "broken";
limits: { memory = "lots"; };
EOF2
)
hx -p "$B" -C "$W" -- touch ran
like "broken policy: GuardexecError with guardexec's message, no text for the model" \
	"$(r error)|$(r for_model)" '^GuardexecError: guardexec: .*broken\.cfg:3: limits\.memory.*\|$'
check "broken policy: nothing ran" test ! -e "$W/ran"
hx -p "$T/no-such-policy.cfg" -C "$W" -- touch ran
like "missing policy: GuardexecError" "$(r error)" '^GuardexecError: guardexec: .*no-such-policy'
hx -p "$P" -C "$W/no-such-dir" -- true
like "bad cwd: GuardexecError" "$(r error)" "^GuardexecError: cwd '.*no-such-dir' is not a directory"
hx -p "$P" -C "$W" -g no-such-guardexec-binary -- true
like "guardexec not on PATH: GuardexecError" "$(r error)" \
	"^GuardexecError: guardexec not found: 'no-such-guardexec-binary'"
hx -p "$P" -C "$W" --extra=--no-such-option -- true
like "a refusal before any record (a bad option): GuardexecError" "$(r error)" '^GuardexecError: guardexec: '
check "and none of these ran anything" test ! -e "$W/ran"

# Notices and left_running come from the record, not from stderr: a
# stand-in guardexec writes a record that has them, and other text on
# stderr.
cat > "$T/fake-gx" <<'EOF2'
#!/bin/sh
while [ $# -gt 0 ]; do
	[ "$1" = -r ] && out=$2
	shift
done
echo 'guardexec: warning: stderr text, not a notice' >&2
printf '%s\n' '{"v":1,"status":"exited","exit_code":0,"cwd":"/","notices":["cgroup unavailable: limits by rlimit"],"left_running":true}' > "$out"
EOF2
chmod 755 "$T/fake-gx"
hx -p "$P" -C "$W" -g "$T/fake-gx" -- true
is "notices: from the record" "$(r notices)" "['cgroup unavailable: limits by rlimit']"
is "left_running: from the record" "$(r left_running)" True
like "notes: the notice and left running" "$(r for_model | tr '\n' '|')" \
	'\[notice: cgroup unavailable: limits by rlimit\]\|\[left running: some processes of the command could not be killed\]\|$'

# The script form.
(cd "$W" && timeout 60 python3 "$T/guardexec_harness.py" -g "$GUARDEXEC" \
	-p "$P" -- sh -c 'echo script; exit 5') > "$T/cli.out" 2>&1
is "script: exits with the command's status" "$?" 5
is "script: prints for_model()" "$(cat "$T/cli.out")" "exit code 5
cwd: $W
script"

# examples/prefix.sh, sourced under set -u.
PATH="$(dirname "$GUARDEXEC"):$PATH" GUARDEXEC_POLICY="$P" \
	bash -u -c '. "$1"; cd "$2" && guarded sh -c "echo \"\$1\"; exit 6" sh "a b"' \
	sh "$TOP_SRCDIR/examples/prefix.sh" "$W" > "$T/prefix.out" 2>&1
is "prefix.sh: the command's status" "$?" 6
is "prefix.sh: the command's output, arguments intact" "$(cat "$T/prefix.out")" "a b"

# An unprivileged caller.
if unpriv_setup; then
	chmod 1777 "$T" "$W"
	export GUARDEXEC HELPERS
	as_user timeout 60 python3 "$T/drive.py" -o "$T/ures" -p "$P" -C "$W" \
		--extra=-l --extra="$T/u-audit.log" -- sh -c 'id -u; exit 4' > /dev/null 2>&1
	if is_root; then uid=65534; else uid=$(id -u); fi
	is "unprivileged: the harness works" "$(cat "$T/ures/exit_code" 2>/dev/null)|$(cat "$T/ures/stdout" 2>/dev/null)" "4|$uid"
else
	skip "unprivileged: $UNPRIV_REASON"
fi
finish
