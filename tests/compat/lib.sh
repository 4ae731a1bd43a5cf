# shellcheck shell=bash
# The compatibility suite's workloads: the programs the shipped policies'
# users run, each run under a policy as root and as uid 65534.  A workload
# passes when it exits 0, prints what it should, and the record lists no
# denied syscall (a denial is noise in the model's notes at best, a
# broken program at worst).  Each policy's script (agent.sh, ...) says
# which workloads are its purpose and which refusals must still hold.
# The README's "What runs under each policy" table is this suite's
# result; keep them in step.
. "$TOP_SRCDIR/tests/integ/lib.sh"

shipped_policies || { echo "Bail out! cannot copy the shipped policies"; exit 1; }
unpriv_setup || true
# The work trees live in $T (1777 after unpriv_setup): one for root, one
# owned by the unprivileged user.
WR=$T/root-work
WU=$T/user-work

# Workload files, written once per work tree.
make_tree() {
	local d=$1
	mkdir -p "$d/c" "$d/py/pkg" "$d/js" "$d/txt/sub"
	printf '#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n' \
		> "$d/c/hello.c"
	printf 'hello: hello.c\n\tcc -O0 -o hello hello.c\ntest: hello\n\t./hello\n' \
		> "$d/c/Makefile"
	printf 'def add(a, b):\n    return a + b\n' > "$d/py/pkg/__init__.py"
	printf 'from pkg import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_tmp(tmp_path):\n    (tmp_path / "x").write_text("y")\n    assert (tmp_path / "x").read_text() == "y"\n' \
		> "$d/py/test_pkg.py"
	printf 'test:\n\tpython3 -m pytest -q -p no:cacheprovider --basetemp=.pytest-tmp\n' > "$d/py/Makefile"
	printf '{"name":"t","version":"1.0.0","private":true,"scripts":{"test":"node test.js"}}\n' \
		> "$d/js/package.json"
	printf 'const assert = require("assert");\nassert.strictEqual(1 + 1, 2);\nconsole.log("js ok");\n' \
		> "$d/js/test.js"
	printf 'alpha\nneedle one\n' > "$d/txt/a.txt"
	printf 'needle two\n' > "$d/txt/sub/b.txt"
	cat > "$d/py/probe.py" <<'EOF'
import sys
what = sys.argv[1]
if what == "pool":
    import multiprocessing as mp
    with mp.Pool(2) as p:
        print(sum(p.map(abs, range(-5, 5))))
elif what == "asyncio":
    import asyncio
    async def main():
        await asyncio.sleep(0)
        return 42
    print(asyncio.run(main()))
elif what == "threads":
    import threading
    done = []
    ev = threading.Event()
    def work(i):
        ev.wait()
        done.append(i)
    ts = [threading.Thread(target=work, args=(i,)) for i in range(32)]
    for t in ts: t.start()
    ev.set()
    for t in ts: t.join()
    print(len(done))
elif what == "subprocess":
    import subprocess
    print(subprocess.run(["echo", "sub"], capture_output=True, text=True,
                         check=True).stdout.strip())
elif what == "tempfile":
    import tempfile, os
    with tempfile.TemporaryDirectory() as d:
        with tempfile.NamedTemporaryFile(dir=d, delete=False) as f:
            f.write(b"x")
        print(os.path.getsize(f.name))
elif what == "sqlite3":
    import sqlite3
    c = sqlite3.connect("t.db")
    c.execute("create table if not exists t (x)")
    c.execute("insert into t values (7)")
    c.commit()
    print(c.execute("select sum(x) from t").fetchone()[0] % 7)
    c.close()
    import os; os.unlink("t.db")
elif what == "procself":
    import os
    st = open("/proc/self/status").read()
    assert "\nPid:\t%d\n" % os.getpid() in st, st[:200]
    assert os.readlink("/proc/self/exe").startswith("/usr/bin/python3")
    assert len(os.listdir("/proc/self/fd")) >= 3
    print("self")
elif what == "socketpair":
    import socket
    a, b = socket.socketpair()
    a.send(b"ipc"); print(b.recv(3).decode())
elif what == "devices":
    import os
    assert open("/dev/zero", "rb").read(4) == b"\0" * 4
    assert len(open("/dev/urandom", "rb").read(4)) == 4
    open("/dev/null", "w").write("x")
    print("dev")
elif what == "openpty":
    import os
    m, s = os.openpty()
    os.write(s, b"pty\n"); print(os.read(m, 3).decode())
elif what == "setids":
    import os
    # The no-op id calls spawning code makes (make, POSIX_SPAWN_RESETIDS).
    os.setresuid(-1, os.geteuid(), -1)
    os.setresgid(-1, os.getegid(), -1)
    os.setreuid(-1, -1)
    os.setuid(os.getuid())
    os.setgid(os.getgid())
    os.setgroups(os.getgroups())
    print("noop")
elif what == "setuid":
    import os
    other = 4242 if os.getuid() == 0 else 0
    try:
        os.setresuid(other, other, other)
    except PermissionError:
        print("refused")
    else:
        print("changed")
        raise SystemExit(1)
elif what == "listroot":
    import os
    print("usr" in os.listdir("/"))
EOF
}

# run_as WHO POLICY DIR CMD...: runs guardexec as root (WHO=root) or as
# the unprivileged user (WHO=user) in DIR; sets $rc $out $err $rec.
run_as() {
	local who=$1 pol=$2 dir=$3 tag
	shift 3
	tag=$T/$who
	rm -f "$tag.result"
	if [ "$who" = root ]; then
		"$GUARDEXEC" -q -l "$tag.log" -r "$tag.result" -p "$pol" -C "$dir" \
			-- "$@" > "$tag.out" 2> "$tag.err"
	else
		as_user "$GUARDEXEC" -q -l "$tag.log" -r "$tag.result" -p "$pol" \
			-C "$dir" -- "$@" > "$tag.out" 2> "$tag.err"
	fi
	rc=$?
	out=$(cat "$tag.out")
	err=$(cat "$tag.err")
	rec=$(cat "$tag.result" 2>/dev/null || true)
}

# denials: the record's denied list, "" when empty.
denials() {
	printf '%s' "$rec" | sed -n 's/.*"denied":\[\([^]]*\)\].*/\1/p'
}

WHOS=""
why_not() {
	if [ "$1" = root ]; then echo "the suite is not running as root"
	else echo "no unprivileged user: $UNPRIV_REASON"; fi
}
setup_whos() {
	WHOS="root"
	make_tree "$WR"
	if [ -n "$AS_USER" ]; then
		WHOS="$WHOS user"
		if [ "$AS_USER" = " " ]; then
			make_tree "$WU"
		else
			make_tree "$WU"
			chown -R 65534:65534 "$WU"
		fi
	fi
	if ! is_root; then WHOS="user"; fi
}

# each_who POLICY NAME SUBDIR CHECK CMD...: runs CMD in SUBDIR under
# POLICY as root and as the user (skipping whichever cannot be), then
# CHECK NAME WHO judges $rc $out $err $rec.
each_who() {
	local pol=$1 name=$2 sub=$3 check=$4 who dir
	shift 4
	for who in root user; do
		if ! echo " $WHOS " | grep -q " $who "; then
			skip "$(basename "$pol" .cfg): $name ($who): $(why_not "$who")"
			continue
		fi
		dir=$WR; [ "$who" = user ] && dir=$WU
		run_as "$who" "$pol" "$dir/$sub" "$@"
		"$check" "$(basename "$pol" .cfg): $name" "$who"
	done
}

# works POLICY NAME SUBDIR WANT CMD...: the workload must exit 0, print
# WANT as its last line, and be denied nothing; as root and as the user.
works() {
	_want=$4
	each_who "$1" "$2" "$3" works_check "${@:5}"
}
works_check() {
	local last d
	last=$(printf '%s\n' "$out" | tail -n 1)
	d=$(denials)
	if [ "$rc" = 0 ] && [ "$last" = "$_want" ] && [ -z "$d" ]; then
		ok "$1 works ($2)"
	else
		not_ok "$1 works ($2)"
		diag "rc=$rc last='$last' want='$_want' denied=[$d]"
		diag "stderr: $(printf '%s' "$err" | tail -n 5 | tr '\n' '|')"
	fi
}

# refuses POLICY NAME SUBDIR REGEX CMD...: the workload must fail, and
# its output, stderr or record match REGEX; as root and as the user.
refuses() {
	_re=$4
	each_who "$1" "refuses $2" "$3" refuses_check "${@:5}"
}
refuses_check() {
	if [ "$rc" != 0 ] && printf '%s\n%s\n%s\n' "$out" "$err" "$rec" |
		grep -Eq -- "$_re"; then
		ok "$1 ($2)"
	else
		not_ok "$1 ($2)"
		diag "rc=$rc out='$(printf '%s' "$out" | tail -n 2)' err='$(printf '%s' "$err" | tail -n 3)'"
	fi
}

have() { command -v "$1" > /dev/null 2>&1; }

# need_landlock POLICY: skips the whole script when POLICY cannot run
# here for want of Landlock (after setup_whos).
need_landlock() {
	run_as root "$1" "$WR" true
	if [ "$rc" = 125 ] && printf '%s' "$err" | grep -q Landlock; then
		skip_all "Landlock is not available: $err"
	fi
}

# Shared workload sets.
GITCMD='git init -q r && cd r && git config user.name gx && git config user.email gx@example.invalid && echo a > f && git add f && git commit -qm one && echo b >> f && git diff --stat | tail -n 1 && git stash -q && git stash pop -q && git commit -qam two && git log --oneline | wc -l && git status --short && git worktree add -q ../wt2 && git worktree list | wc -l'

shell_tools() {
	local pol=$1
	works "$pol" "tar" txt "./sub/b.txt" sh -c \
		'tar cf ../t.tar . && mkdir -p ../x && tar xf ../t.tar -C ../x && rm -rf ../x ../t.tar && tar cf - . | tar tf - | grep b.txt'
	works "$pol" "sed -i" txt "NEEDLE one" sh -c \
		'cp a.txt s.txt && sed -i s/needle/NEEDLE/ s.txt && grep NEEDLE s.txt && rm s.txt'
	works "$pol" "find" txt "./sub/b.txt" find . -name b.txt
	works "$pol" "grep -r" txt "2" sh -c 'grep -r needle . | wc -l'
}

python_tools() {
	local pol=$1 w
	have python3 || { for w in 1 2 3 4 5 6 7 8 9 10; do skip "python3 is not installed"; skip "python3 is not installed"; done; return; }
	works "$pol" "multiprocessing.Pool" py 25 python3 probe.py pool
	works "$pol" "asyncio.run" py 42 python3 probe.py asyncio
	works "$pol" "socketpair (AF_UNIX IPC)" py ipc python3 probe.py socketpair
	works "$pol" "32 threads" py 32 python3 probe.py threads
	works "$pol" "subprocess" py sub python3 probe.py subprocess
	works "$pol" "tempfile" py 1 python3 probe.py tempfile
	works "$pol" "sqlite3" py 0 python3 probe.py sqlite3
	works "$pol" "/proc/self" py self python3 probe.py procself
	works "$pol" "no-op id calls (setresuid to the same ids, setgroups)" py noop python3 probe.py setids
	works "$pol" "/dev/zero, /dev/urandom, /dev/null" py dev python3 probe.py devices
}

# project_tools POLICY: what a policy for work on a checked-out project
# must run: make and cc on a C project, git, the shell and Python tools,
# pytest, node and npm.
project_tools() {
	local pol=$1 n i
	n=$(basename "$pol" .cfg)
	export MAKEFLAGS= MFLAGS= MAKELEVEL=
	works "$pol" "make test (C project)" c built make -s test
	works "$pol" "cc" c built sh -c 'cc -o h2 hello.c && ./h2 && rm h2'
	works "$pol" "git init/add/commit/diff/log/status/stash/worktree" . 2 \
		sh -c "$GITCMD"
	shell_tools "$pol"
	python_tools "$pol"
	if PATH=/usr/bin:/bin python3 -c 'import pytest' 2>/dev/null; then
		works "$pol" "make test (Python project, pytest)" py "2 passed" \
			sh -c 'make -s test | tail -n 1 | sed "s/ in .*//"'
	else
		skip "$n: pytest is not installed (python3-pytest)"
		skip "$n: pytest is not installed (python3-pytest)"
	fi
	if have node && have npm; then
		works "$pol" "node -e" js 2 node -e 'console.log(1 + 1)'
		works "$pol" "npm test" js "js ok" npm test --silent
	else
		for i in 1 2 3 4; do skip "$n: node is not installed"; done
	fi
}

# project_refusals POLICY: what a policy for work on a checked-out
# project refuses by design, whatever else it allows: ptrace, mount and
# writing outside the work tree and /tmp (needs copy_helper try-syscall).
project_refusals() {
	local P=$1
	refuses "$P" "ptrace" . 'ptrace: EPERM' ./try-syscall ptrace
	refuses "$P" "mount" . 'mount: EPERM' ./try-syscall mount
	refuses "$P" "writing outside the work dir and /tmp" . 'Permission denied|Read-only file system' \
		sh -c 'echo x > /etc/gx-compat-should-not-exist'
}

# A TCP listener on the host's loopback, for the network refusals; $TCP.
TCP=9
start_listener() {
	"$HELPERS/netlisten" tcp "$T/tcp.port" 300 > "$T/tcp.out" &
	track_pid $!
	disown $! 2>/dev/null
	if wait_for test -s "$T/tcp.port"; then TCP=$(cat "$T/tcp.port"); fi
}

# copy_helper NAME: the helper into both work trees (the policies reach
# only the work dir and the system directories).
copy_helper() {
	cp "$HELPERS/$1" "$WR/"
	if [ -d "$WU" ]; then
		cp "$HELPERS/$1" "$WU/"
		chown 65534 "$WU/$1" 2>/dev/null || true
	fi
}
