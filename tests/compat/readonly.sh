#!/bin/bash
# readonly.cfg: inspecting a tree (see tests/compat/lib.sh).
. "$TOP_SRCDIR/tests/compat/lib.sh"
P=$POL/readonly.cfg
setup_whos
need_landlock "$P"
# A repository to inspect, made outside the policy.
for d in "$WR" "$WU"; do
	[ -d "$d" ] || continue
	chown -R 0:0 "$d/txt" 2>/dev/null
	(cd "$d/txt" && git init -q && git add -A && git -c user.name=gx \
		-c user.email=gx@x commit -q -m one && echo more >> a.txt) \
		> /dev/null 2>&1
	[ "$d" = "$WU" ] && chown -R 65534:65534 "$d/txt" 2>/dev/null
done

works "$P" "ls, cat, head, wc, du" txt "3" sh -c \
	'ls > /dev/null && cat a.txt | head -n 1 > /dev/null && du -s . > /dev/null && cat a.txt | wc -l'
works "$P" "find" txt "./sub/b.txt" find . -name b.txt
works "$P" "grep -r" txt "2" sh -c 'grep -r needle --exclude-dir=.git . | wc -l'
works "$P" "tar to stdout" txt "./sub/b.txt" sh -c 'tar cf - --exclude=.git . | tar tf - | grep b.txt'
works "$P" "git log, git diff, git status (no optional locks)" txt " M a.txt" sh -c \
	'git log --oneline | wc -l > /dev/null && git diff --stat > /dev/null && git --no-optional-locks status --short'
works "$P" "python3 reading files and /proc/self" py self python3 -B probe.py procself

# What readonly.cfg refuses by design.
copy_helper try-syscall
start_listener
refuses "$P" "sed -i" txt 'Permission denied|Operation not permitted|Read-only file system' sed -i s/a/b/ a.txt
refuses "$P" "make (it writes)" c 'Permission denied|Operation not permitted|Read-only file system|Error' make
refuses "$P" "rm" txt 'Permission denied|Operation not permitted|Read-only file system' rm a.txt
refuses "$P" "the network" . 'connect-tcp: E' ./try-syscall connect-tcp "$TCP"
refuses "$P" "ptrace" . 'ptrace: EPERM' ./try-syscall ptrace
# A rule for a process's own /proc directory would be opened by guardexec
# and grant guardexec's /proc/PID: refused at load, whatever the spelling.
for p in /proc/self /proc/thread-self /dev/fd; do
	PS=$(policy procself <<EOF2
version = 1;
name = "procself";
filesystem: { read = [ "/usr", "/lib", "/lib64", "/bin", "/etc", "$p" ]; write = [ ]; };
audit: { sync = false; };
EOF2
)
	run_as root "$PS" "$WR" cat /proc/self/status
	like "a filesystem rule for $p is refused (exit 125, says why)" "$rc|$err" \
		"^125\|guardexec: filesystem: $p: a process's own /proc directory.*list \"/proc\" instead"
done
echo "1..$_tap_n"
finish
