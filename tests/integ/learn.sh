#!/bin/bash
# --learn: run with every syscall allowed but recorded, write a complete
# policy; the command then runs under the learned policy.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 15

mkdir -p "$T/pol"
cat > "$T/pol/start.cfg" <<'EOF2'
version = 1;
name = "learn";
syscalls: { allow = [ "@default" ]; };
audit: { log = "learn-audit.log"; sync = false; };
EOF2
cmd='ls / > /dev/null; cat /etc/hostname'
run_gx -p "$T/pol/start.cfg" -- sh -c "$cmd"
diag "before learning: rc=$rc $err"
check "the short policy alone is not enough for sh + ls" test "$rc" != 0 -o -n "$err"

run_gx -p "$T/pol/start.cfg" --learn "$T/learned.cfg" -- sh -c "$cmd"
is "the learning run succeeds" "$rc" 0
is "it prints the command's output" "$out" "$(cat /etc/hostname)"
like "the record says learn and lists what was used" "$rec" '"action":"learn","used":\[\{"syscall":'
check "OUT was written" test -s "$T/learned.cfg"
like "OUT keeps the old list and adds what was used" "$(cat "$T/learned.cfg")" 'allow = \[ "@default", ".*(clone|fork|wait4)'
like "relative paths were made absolute" "$(cat "$T/learned.cfg")" "log = \"$T/pol/learn-audit.log\""
(cd / && run_gx -p "$T/learned.cfg" -- sh -c "$cmd")
run_gx -p "$T/learned.cfg" -- sh -c "$cmd"
is "the command runs under the learned policy with no denials" "$rc|$err" "0|"

# The deny list holds while learning: denied calls stay refused and unlearned.
cat > "$T/pol/deny.cfg" <<'EOF2'
version = 1;
name = "learn-deny";
syscalls: { allow = [ "@default" ]; deny = [ "ptrace" ]; };
audit: { log = "learn-audit.log"; sync = false; };
EOF2
run_gx -p "$T/pol/deny.cfg" --learn "$T/deny-out.cfg" -- "$HELPERS/try-syscall" ptrace getpid
is "while learning, a denied syscall is still refused" "$(printf '%s\n' "$out" | head -n 1)" "ptrace: EPERM"
unlike "and it is not added to the learned allowlist" "$(grep 'allow' "$T/deny-out.cfg")" 'ptrace'

# Bug 6: the learned policy comes from the policy guardexec loaded (and
# checked), not from the file as the command left it.  A command that may
# write its own policy rewrites it during the learning run, opening the
# filesystem and the network: none of that may reach OUT.
cat > "$T/pol/self.cfg" <<'EOF2'
version = 1;
name = "learn-self";
syscalls: { allow = [ "@default" ]; };
network: { mode = "none"; };
audit: { log = "learn-audit.log"; sync = false; };
EOF2
cat > "$T/pol/rewrite.sh" <<EOF2
cat > "$T/pol/self.cfg" <<'EOF3'
version = 1;
name = "learn-self";
syscalls: { allow = [ "@default", "ptrace" ]; };
network: { mode = "all"; };
filesystem: { read = [ "/" ]; write = [ "/" ]; };
audit: { log = "learn-audit.log"; sync = false; };
EOF3
EOF2
run_gx -p "$T/pol/self.cfg" --learn "$T/self-out.cfg" -- sh "$T/pol/rewrite.sh"
is "the rewriting learning run succeeds (and rewrote its policy)" "$rc|$(grep -c 'write = \[ "/" \]' "$T/pol/self.cfg")" "0|1"
learned=$(cat "$T/self-out.cfg" 2>/dev/null)
like "OUT keeps the network closed as loaded" "$learned" 'mode = "none";'
unlike "OUT has none of the command's edits" "$learned" '^filesystem|write = |"all"|ptrace'
"$GUARDEXEC" -p "$T/self-out.cfg" --check > /dev/null 2>&1
is "OUT passes --check" "$?" 0

if command -v python3 >/dev/null 2>&1; then
	run_gx -p "$T/pol/start.cfg" --learn "$T/py.cfg" -- python3 -c 'print(1)'
	run_gx -p "$T/py.cfg" -- python3 -c 'print(1)'
	is "python3 -c 'print(1)' under its learned policy" "$rc|$out|$err" "0|1|"
else
	skip "python3 is not installed"
fi
finish
