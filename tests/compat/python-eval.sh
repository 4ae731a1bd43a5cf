#!/bin/bash
# python-eval.cfg (and python-test.cfg, its long-timeout variant for test
# suites): model-written Python (see tests/compat/lib.sh).
. "$TOP_SRCDIR/tests/compat/lib.sh"
setup_whos
# python-eval.cfg as shipped but for its 10 s wall-clock and CPU limits:
# this suite runs on loaded machines, and a time limit is not what it
# tests (python-test.cfg, run below as shipped, has the suite's limits).
P=$T/python-eval.cfg
sed -e 's/^  timeout = 10;/  timeout = 300;/' -e 's/^  cpu = 10;/  cpu = 300;/' \
	"$POL/python-eval.cfg" > "$P"
chmod 644 "$P"
grep -q '^  timeout = 300;' "$P" && grep -q '^  cpu = 300;' "$P" ||
	{ not_ok "python-eval.cfg: the timeout and cpu lines moved"; }
need_landlock "$P"

python_tools "$P"
works "$P" "find" txt "./sub/b.txt" find . -name b.txt
works "$P" "grep -r" txt "2" sh -c 'grep -r needle . | wc -l'
works "$P" "sed -i" txt "NEEDLE one" sh -c \
	'cp a.txt s.txt && sed -i s/needle/NEEDLE/ s.txt && grep NEEDLE s.txt && rm s.txt'
if PATH=/usr/bin:/bin python3 -c 'import pytest' 2>/dev/null; then
	works "$POL/python-test.cfg" "pytest" py "2 passed" sh -c \
		'python3 -m pytest -q -p no:cacheprovider --basetemp=.pytest-tmp | tail -n 1 | sed "s/ in .*//"'
	works "$POL/python-test.cfg" "make test (Python project, pytest)" py "2 passed" sh -c \
		'make -s test | tail -n 1 | sed "s/ in .*//"'
else
	for i in 1 2 3 4; do skip "python-eval: pytest is not installed (python3-pytest)"; done
fi
have python3 && python_tools "$POL/python-test.cfg"

# What python-eval.cfg refuses by design.
copy_helper try-syscall
start_listener
refuses "$P" "the network (a listener on the host's loopback)" py \
	'ConnectionRefused|OSError|PermissionError|Network is unreachable' python3 -c \
	"import socket; socket.create_connection(('127.0.0.1', $TCP), timeout=5)"
refuses "$P" "ptrace" . 'ptrace: EPERM' ./try-syscall ptrace
refuses "$P" "mount" . 'mount: EPERM' ./try-syscall mount
refuses "$P" "writing outside the work dir" py 'PermissionError|Read-only file system|FileNotFoundError' \
	python3 -c 'open("/tmp/gx-compat-should-not-exist", "w")'
refuses "$P" "reading the home directory" py 'PermissionError|FileNotFoundError' \
	python3 -c 'import os; os.listdir("/root" if os.getuid() == 0 else "/home")'
# guardexec's environment (and its parent's) stay out of reach.
for who in $WHOS; do
	dir=$WR; [ "$who" = user ] && dir=$WU
	GX_COMPAT_SECRET=hunter2-compat run_as "$who" "$P" "$dir/py" python3 -c '
import os
for pid in (os.getppid(), os.getpid() - 1, 1):
    try:
        print(open("/proc/%d/environ" % pid, "rb").read())
    except OSError as e:
        print(type(e).__name__)'
	unlike "python-eval: guardexec's environment is not readable ($who)" \
		"$out$err" 'hunter2-compat'
done
echo "1..$_tap_n"
finish
