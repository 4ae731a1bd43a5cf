#!/bin/bash
# agent.cfg: an agent's tool commands in a project (see tests/compat/lib.sh).
. "$TOP_SRCDIR/tests/compat/lib.sh"
P=$POL/agent.cfg
setup_whos
need_landlock "$P"
project_tools "$P"
# The identity passes through env.allow (HOME is /tmp: no ~/.gitconfig).
GIT_AUTHOR_NAME=gx GIT_AUTHOR_EMAIL=gx@example.invalid \
GIT_COMMITTER_NAME=gx GIT_COMMITTER_EMAIL=gx@example.invalid \
	works "$P" "git commit with GIT_AUTHOR_*/GIT_COMMITTER_* identity" . "gx" \
	sh -c 'git init -q id && cd id && git commit -q --allow-empty -m x && git log -1 --format=%an'

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
