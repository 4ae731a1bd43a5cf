#!/bin/bash
# build.cfg: building a checked-out project without the network
# (see tests/compat/lib.sh).
. "$TOP_SRCDIR/tests/compat/lib.sh"
P=$POL/build.cfg
setup_whos
run_as root "$P" "$WR" true
if [ "$rc" = 125 ] && printf '%s' "$err" | grep -q Landlock; then
	skip_all "Landlock is not available: $err"
fi
export MAKEFLAGS= MFLAGS= MAKELEVEL=

works "$P" "make test (C project)" c built make -s test
works "$P" "cc" c built sh -c 'cc -o h2 hello.c && ./h2 && rm h2'
works "$P" "git init/add/commit/diff/log/status/stash/worktree" . 2 sh -c "$GITCMD"
shell_tools "$P"
python_tools "$P"
if PATH=/usr/bin:/bin python3 -c 'import pytest' 2>/dev/null; then
	works "$P" "make test (Python project, pytest)" py "2 passed" sh -c \
		'make -s test | tail -n 1 | sed "s/ in .*//"'
else
	skip "build: pytest is not installed (python3-pytest)"
	skip "build: pytest is not installed (python3-pytest)"
fi
if have node && have npm; then
	works "$P" "node -e" js 2 node -e 'console.log(1 + 1)'
	works "$P" "npm test" js "js ok" npm test --silent
else
	for i in 1 2 3 4; do skip "build: node is not installed"; done
fi

# What build.cfg refuses by design.
copy_helper try-syscall
start_listener
refuses "$P" "the network (a listener on the host's loopback)" . \
	'connect-tcp: E' ./try-syscall connect-tcp "$TCP"
refuses "$P" "ptrace" . 'ptrace: EPERM' ./try-syscall ptrace
refuses "$P" "mount" . 'mount: EPERM' ./try-syscall mount
refuses "$P" "writing outside the work dir and /tmp" . 'Permission denied|Read-only file system' \
	sh -c 'echo x > /etc/gx-compat-should-not-exist'
echo "1..$_tap_n"
finish
