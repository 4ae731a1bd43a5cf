#!/bin/bash
# agent.cfg: an agent's tool commands in a project (see tests/compat/lib.sh).
. "$TOP_SRCDIR/tests/compat/lib.sh"
P=$POL/agent.cfg
setup_whos
run_as root "$P" "$WR" true
if [ "$rc" = 125 ] && printf '%s' "$err" | grep -q Landlock; then
	skip_all "Landlock is not available: $err"
fi
export MAKEFLAGS= MFLAGS= MAKELEVEL=

works "$P" "make test (C project)" c built make -s test
works "$P" "cc" c built sh -c 'cc -o h2 hello.c && ./h2 && rm h2'
works "$P" "git init/add/commit/diff/log/status/stash/worktree" . 2 sh -c "$GITCMD"
# The identity passes through env.allow (HOME is /tmp: no ~/.gitconfig).
GIT_AUTHOR_NAME=gx GIT_AUTHOR_EMAIL=gx@example.invalid \
GIT_COMMITTER_NAME=gx GIT_COMMITTER_EMAIL=gx@example.invalid \
	works "$P" "git commit with GIT_AUTHOR_*/GIT_COMMITTER_* identity" . "gx" \
	sh -c 'git init -q id && cd id && git commit -q --allow-empty -m x && git log -1 --format=%an'
shell_tools "$P"
python_tools "$P"
if PATH=/usr/bin:/bin python3 -c 'import pytest' 2>/dev/null; then
	works "$P" "make test (Python project, pytest)" py "2 passed" sh -c \
		'make -s test | tail -n 1 | sed "s/ in .*//"'
else
	skip "agent: pytest is not installed (python3-pytest)"
	skip "agent: pytest is not installed (python3-pytest)"
fi
if have node && have npm; then
	works "$P" "node -e" js 2 node -e 'console.log(1 + 1)'
	works "$P" "npm test" js "js ok" npm test --silent
else
	for i in 1 2 3 4; do skip "agent: node is not installed"; done
fi

# What agent.cfg refuses by design.
copy_helper try-syscall
refuses "$P" "ptrace" . 'ptrace: EPERM' ./try-syscall ptrace
refuses "$P" "mount" . 'mount: EPERM' ./try-syscall mount
# A real id change stays refused (and counted), root or not.
for who in $WHOS; do
	dir=$WR; [ "$who" = user ] && dir=$WU
	run_as "$who" "$P" "$dir/py" python3 probe.py setuid
	is "agent: changing ids is refused and reported ($who)" \
		"$out|$(denials | grep -o '"syscall":"setresuid"')" 'refused|"syscall":"setresuid"'
done
# openpty: with a mount namespace the run has a devpts of its own, so a
# pty works and the caller's terminals stay out of reach; without one,
# /dev/pts would open every terminal, and it is refused.
for who in $WHOS; do
	dir=$WR; [ "$who" = user ] && dir=$WU
	run_as "$who" "$P" "$dir/py" python3 probe.py openpty
	if printf '%s' "$rec" | grep -q '"namespaces":\[[^]]*"mount"'; then
		is "agent: openpty works on the run's own devpts ($who)" "$rc|$out" "0|pty"
	else
		like "agent: openpty refused without a mount namespace ($who)" \
			"$out$err" 'PermissionError'
	fi
done
refuses "$P" "writing outside the work dir and /tmp" . 'Permission denied|Read-only file system' \
	sh -c 'echo x > /etc/gx-compat-should-not-exist'
echo "1..$_tap_n"
finish
