#!/bin/bash
# The shipped policies against real programs: what each is for works,
# what each refuses is refused (and reported by name).
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 20

shipped_policies || { echo "Bail out! cannot copy the shipped policies"; exit 1; }
W=$T/work
mkdir -p "$W"
# The helpers must be inside the policies' reach: the working directory.
cp "$HELPERS/try-syscall" "$W/"
chmod 755 "$W/try-syscall"
cd "$W" || exit 1
# A peer on the host's loopback, for the network refusals.
TCP=9
"$HELPERS/netlisten" tcp "$T/tcp.port" 300 > "$T/tcp.out" &
track_pid $!
disown $! 2>/dev/null
wait_for test -s "$T/tcp.port" && TCP=$(cat "$T/tcp.port")

# Landlock is needed by every shipped policy.
run_gx -p "$POL/agent.cfg" -C "$W" -- true
if [ "$rc" = 125 ] && printf '%s' "$err" | grep -q Landlock; then
	skip_all "Landlock is not available: $err"
fi

# ---- agent.cfg ----------------------------------------------------------
run_gx -q -p "$POL/agent.cfg" -C "$W" -- sh -c \
	'echo needle > f.txt && grep -c needle f.txt && find . -name f.txt && ls f.txt && wc -l < f.txt'
is "agent: a shell with grep, find, ls, wc works in the work dir" "$rc|$out" \
	"0|$(printf '1\n./f.txt\nf.txt\n1')"
run_gx -q -p "$POL/agent.cfg" -C "$W" -- ./try-syscall ptrace mount unshare keyctl bpf
is "agent: ptrace, mount, unshare, keyctl and bpf are refused" "$out" \
	"$(printf 'ptrace: EPERM\nmount: EPERM\nunshare: EPERM\nkeyctl: EPERM\nbpf: EPERM')"
for sc in ptrace mount unshare keyctl bpf; do
	like "agent: $sc is reported in the record" "$rec" "\"denied\":\\[[^]]*\"syscall\":\"$sc\""
done
run_gx -q -p "$POL/agent.cfg" -C "$W" -- sh -c 'echo x > /etc/gx-should-not-exist'
check "agent: writing outside the work dir and /tmp fails" test "$rc" != 0 -a ! -e /etc/gx-should-not-exist
if command -v git > /dev/null 2>&1; then
	run_gx -q -p "$POL/agent.cfg" -C "$W" -- sh -c 'git init -q repo && cd repo && git status --short && echo ok'
	is "agent: git init and git status work" "$rc|$out" "0|ok"
else
	skip "agent: git is not installed"
fi

# ---- python-eval.cfg ----------------------------------------------------
if command -v python3 > /dev/null 2>&1; then
	run_gx -q -p "$POL/python-eval.cfg" -C "$W" -- python3 -c 'print(sum(range(10)))'
	is "python-eval: model-written code runs" "$rc|$out" "0|45"
	# network = "none" removes the network, not the socket syscalls:
	# a peer on the host's loopback is out of reach, AF_UNIX IPC works.
	run_gx -q -p "$POL/python-eval.cfg" -C "$W" -- python3 -c \
		"import socket; socket.create_connection(('127.0.0.1', $TCP), timeout=5)"
	like "python-eval: the host's loopback is out of reach" \
		"$rc|$(printf '%s' "$err" | tail -n 1)" \
		'^1\|(PermissionError|ConnectionRefusedError|OSError)'
	run_gx -q -p "$POL/python-eval.cfg" -C "$W" -- python3 -c \
		'import socket; a, b = socket.socketpair(); a.send(b"x"); print(b.recv(1).decode())'
	is "python-eval: AF_UNIX socketpair works, nothing denied" "$rc|$out|$(printf '%s' "$rec" | grep -o '"denied":\[[^]]*\]')" '0|x|"denied":[]'
	run_gx -q -p "$POL/python-eval.cfg" -C "$W" -- python3 -c 'open("/tmp/gx-pe","w")'
	like "python-eval: writing outside the work dir fails" "$err" 'PermissionError|Read-only file system|No such file or directory'
	run_gx -q -p "$POL/python-eval.cfg" -C "$W" -- python3 -c 'print("x" * 100000)'
	like "python-eval: output is capped at 20000 bytes, head and tail" "$err" '^\[guardexec: [0-9]+ bytes omitted\]$'
else
	for i in 1 2 3 4 5; do skip "python-eval: python3 is not installed"; done
fi

# ---- build.cfg ------------------------------------------------------------
if command -v cc > /dev/null 2>&1 && command -v make > /dev/null 2>&1; then
	printf '#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n' > "$W/hello.c"
	printf 'hello: hello.c\n\tcc -o hello hello.c\n' > "$W/Makefile"
	# Not the make check's own MAKEFLAGS (-j, -w) that build.cfg passes on.
	MAKEFLAGS= MFLAGS= MAKELEVEL= run_gx -q -p "$POL/build.cfg" -C "$W" -- sh -c 'make -s --no-print-directory && ./hello'
	is "build: make and cc build and run a program" "$rc|$out" "0|built"
	run_gx -q -p "$POL/build.cfg" -C "$W" -- ./try-syscall connect-tcp "$TCP"
	like "build: no network (the host's loopback is out of reach)" "$rc|$out" '^1\|connect-tcp: E'
else
	skip "build: cc or make is not installed"
	skip "build: cc or make is not installed"
fi

# ---- readonly.cfg ---------------------------------------------------------
printf 'alpha\nbeta\ngamma\n' > "$W/r.txt"
run_gx -q -p "$POL/readonly.cfg" -C "$W" -- sh -c \
	'ls r.txt && cat r.txt | head -n 1 && grep -c a r.txt && find . -name r.txt && wc -l < r.txt'
is "readonly: ls, cat, head, grep, find, wc work" "$rc|$out" \
	"0|$(printf 'r.txt\nalpha\n3\n./r.txt\n3')"
run_gx -q -p "$POL/readonly.cfg" -C "$W" -- sh -c 'rm r.txt'
check "readonly: rm fails and the file stays" test "$rc" != 0 -a -e "$W/r.txt"
run_gx -q -p "$POL/readonly.cfg" -C "$W" -- sh -c 'mkdir newdir'
check "readonly: mkdir fails" test "$rc" != 0 -a ! -e "$W/newdir"
run_gx -q -p "$POL/readonly.cfg" -C "$W" -- sh -c 'echo x > new.txt'
check "readonly: creating a file fails" test "$rc" != 0 -a ! -e "$W/new.txt"
finish
