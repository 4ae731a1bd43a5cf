#!/bin/bash
# make check-valgrind: guardexec and guardexec-audit under valgrind's
# memcheck, exiting 99 on any memory error or definite leak.  valgrind
# cannot run the seccomp and Landlock system calls, so guardexec runs
# policies without syscalls and filesystem groups here (those paths run
# under ASan+UBSan in CI instead); --check covers every shipped policy.
. "$TOP_SRCDIR/tests/integ/lib.sh"
command -v valgrind > /dev/null 2>&1 || skip_all "valgrind is not installed"
plan 14

VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite"
vg() {   # vg DESC EXPECTED-RC CMD...: memcheck clean and the expected status
	local desc=$1 want=$2; shift 2
	$VG "$@" > "$T/vg.out" 2> "$T/vg.err"
	local rc=$?
	if [ "$rc" = "$want" ]; then ok "$desc"; else
		not_ok "$desc (status $rc, want $want)"
		sed 's/^/# /' "$T/vg.err" | head -n 30
	fi
}
P=$(policy vg <<EOF2
version = 1;
name = "vg";
env: { allow = [ "LANG" ]; set = { PATH = "/usr/bin:/bin"; }; };
limits: { timeout = 2; kill_grace = 0.5; cpu = 10; };
output: { max_bytes = 1000; keep = "head_tail"; };
advisory: { warn = ( { match = "danger"; reason = "test"; } ); };
audit: { log = "$T/audit.log"; sync = false; syslog = true; };
EOF2
)
vg "guardexec: a run (fails closed: no seccomp, no namespace mounts under valgrind)" 125 "$GUARDEXEC" -p "$P" -- echo hello
# valgrind knows neither seccomp nor the new mount API: the namespace
# init (or, without namespaces, the seccomp guard) fails, and says so.
like "... and says why" "$(cat "$T/vg.err")" '^guardexec: setting up the command: (namespace init: |.*loading the seccomp filter)'
vg "guardexec: command not found" 127 "$GUARDEXEC" -p "$P" -- no-such-command-gx
vg "guardexec: an advisory match and -r" 125 "$GUARDEXEC" -p "$P" -r "$T/r.json" -- echo danger
is "... the refusal is recorded in --result" "$(grep -c '"status":"refused"' "$T/r.json")" 1
vg "guardexec: -C to a missing directory" 125 "$GUARDEXEC" -p "$P" -C "$T/nope" -- true
printf 'version = 1;\nname = "x";\nlimits: { memory = "lots"; };\n' > "$T/bad.cfg"
vg "guardexec: a policy error" 125 "$GUARDEXEC" -p "$T/bad.cfg" -- true
vg "guardexec: a usage error" 125 "$GUARDEXEC" --bogus
bad=0
for pol in "$TOP_SRCDIR"/policies/*.cfg; do
	$VG "$GUARDEXEC" -p "$pol" --check -- ls > /dev/null 2> "$T/vg.err" || { bad=1; sed 's/^/# /' "$T/vg.err" | head; }
done
is "guardexec --check of every shipped policy" "$bad" 0
vg "guardexec --init" 0 "$GUARDEXEC" --init "$T"
vg "guardexec-audit verify" 0 "$GUARDEXEC_AUDIT" verify "$T/audit.log"
vg "guardexec-audit show" 0 "$GUARDEXEC_AUDIT" show --status exited "$T/audit.log"
vg "guardexec-audit summary" 0 "$GUARDEXEC_AUDIT" summary "$T/audit.log"
vg "guardexec-audit report" 0 "$GUARDEXEC_AUDIT" report -o "$T/report.html" "$T/audit.log"
finish
