#!/bin/bash
# Review of issue 13 (namespaces): holes a hostile command still gets
# through.  Each test fails while the hole is open.
. "$TOP_SRCDIR/tests/integ/lib.sh"

A="$HELPERS/ns-attack"
whos_setup
NW=$(echo $WHOS | wc -w)
plan $((NW + 12))
chmod 1777 "$T"
sys_reads "$HELPERS"
have_ns() {
	command -v unshare > /dev/null 2>&1 &&
	as "$1" unshare --user --pid --mount --ipc --net --fork true 2> /dev/null
}

# ---- root without a filesystem group: "not host root" (--check) ----------
# The command is uid 0 of a user namespace mapped 0->0: no capability,
# but every check that looks at the uid, not at a capability, still
# sees host root.  The fresh /proc's sysctls (test_perm: euid ==
# GLOBAL_ROOT_UID) and the host's /sys (cgroupfs) are writable.
if is_root && have_ns root; then
	NOFS=$(policy nofs <<'EOF2'
version = 1;
name = "rev-nofs";
limits: { timeout = 60; kill_grace = 1; processes = 64; };
audit: { sync = false; syslog = false; };
EOF2
)
	# 1. kernel.core_pattern: "|/path" runs /path as full host root on
	#    the next crash.  Written back unchanged here.
	g root "$NOFS" -- sh -c \
		'cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern && echo wrote'
	unlike "root, no filesystem group: /proc/sys/kernel/core_pattern is not writable (host root via the core handler)" \
		"$out" '^wrote'
	# 2. The run's cgroup: the command moves itself to the root cgroup,
	#    out of the processes/memory limits (RLIMIT_NPROC does not bind
	#    uid 0, so a fork bomb is then unbounded).
	# shellcheck disable=SC2016
	#    v2 (/sys/fs/cgroup/cgroup.procs), v1 and hybrid
	#    (/sys/fs/cgroup/*/cgroup.procs: pids, memory, unified...).
	g root "$NOFS" -- sh -c 'for f in /sys/fs/cgroup/cgroup.procs \
		/sys/fs/cgroup/*/cgroup.procs; do
		[ -e "$f" ] && echo $$ > "$f" 2>/dev/null && echo "escaped: $f"; done; true'
	if printf '%s' "$rec" | grep -q '"cgroup":null'; then
		skip "root: no cgroup for the run here"
	else
		unlike "root, no filesystem group: the command cannot leave the run's cgroup" \
			"$out" '^escaped:'
	fi
	# 2b. Control: /proc/sys and /sys still read.
	g root "$NOFS" -- sh -c 'cat /proc/sys/kernel/ostype && test -r /sys/kernel/uevent_seqnum && echo read'
	is "root, no filesystem group: /proc/sys and /sys are still readable" \
		"$(printf '%s\n' "$out" | tail -n 1)" "read"
	# 2c. A filesystem group that lists /proc and even writes /sys: the
	#     kernel's files stay read-only there too.
	FSYS=$(policy fsys <<EOF2
version = 1;
name = "rev-fsys";
filesystem: { read = [ $READS"/proc" ]; write = [ "/sys" ]; };
limits: { timeout = 60; kill_grace = 1; };
audit: { sync = false; syslog = false; };
EOF2
)
	# shellcheck disable=SC2016
	g root "$FSYS" -- sh -c 'cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern && echo wrote
		for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/*/cgroup.procs; do
		[ -e "$f" ] && echo $$ > "$f" 2>/dev/null && echo "escaped: $f"; done; true'
	unlike "root, /proc listed, /sys write-listed: no sysctl written, no cgroup left" \
		"$out" '^(wrote|escaped:)'
	like "root: --check says what uid 0 mapped to host 0 still means" \
		"$("$GUARDEXEC" -p "$NOFS" --check 2>/dev/null)" \
		'^# user: uid 0 .*owns root.s files'
else
	for _i in 1 2 3 4 5; do skip "root only, with user namespaces"; done
fi

for who in $WHOS; do
	if ! have_ns "$who"; then
		skip "$who: no user namespaces"
		continue
	fi
	TTY=$(policy "tty-$who" <<'EOF2'
version = 1;
name = "rev-tty";
command: { stdin = "inherit"; };
limits: { timeout = 60; };
audit: { sync = false; syslog = false; };
EOF2
)
	# 3. (network "none" and a pathname AF_UNIX listener in a read-listed
	#    directory: a known gap, written in guardexec.cfg(5) network.)
	# 4. stdin "inherit" of a terminal that is no session's controlling
	#    terminal (a harness's openpty): the command takes it as its
	#    controlling terminal with TIOCSCTTY (guarantee 4: none).
	if command -v python3 > /dev/null 2>&1; then
		out=$(as "$who" python3 -c '
import os, subprocess, sys
m, s = os.openpty()
r = subprocess.run(sys.argv[1:], stdin=s, capture_output=True, text=True)
print(r.stdout, end="")' "$GUARDEXEC" -p "$TTY" -l "$T/log-$who.log" -- \
			"$A" tiocsctty 2>&1)
		like "$who, stdin an openpty terminal: TIOCSCTTY fails (no controlling terminal)" \
			"$(line tiocsctty)" '^tiocsctty: E[A-Z]+$'
	else
		skip "$who: needs python3 for openpty"
	fi
done
# ---- root where namespaces are refused (a container's seccomp profile) ----
# clone/unshare with CLONE_NEWUSER fail EPERM, clone3 ENOSYS, as
# Docker's default profile does.  guardexec falls back and says so, but
# as root a device node made in the write tree opens and the metadata
# of a read-only file changes (guarantee 11 is unconditional "as root";
# the fallback should refuse a filesystem group as root, or close these).
nons() {
	python3 -c '
import ctypes, os, struct, sys
NR_clone, NR_unshare, NR_clone3 = 56, 272, 435
def stmt(code, k): return struct.pack("HBBI", code, 0, 0, k)
def jump(code, k, jt, jf): return struct.pack("HBBI", code, jt, jf, k)
LD, JEQ, JSET, RET = 0x20, 0x15, 0x45, 0x06
f = [stmt(LD, 0), jump(JEQ, NR_clone3, 0, 1), stmt(RET, 0x00050000 | 38),
     jump(JEQ, NR_clone, 1, 0), jump(JEQ, NR_unshare, 0, 3),
     stmt(LD, 16), jump(JSET, 0x10000000, 0, 1), stmt(RET, 0x00050000 | 1),
     stmt(RET, 0x7fff0000)]
buf = ctypes.create_string_buffer(b"".join(f))
class P(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("f", ctypes.c_void_p)]
prog = P(len(f), ctypes.addressof(buf))
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(prog), 0, 0):
    sys.exit(125)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
if is_root && command -v python3 > /dev/null 2>&1 && [ "$(uname -m)" = x86_64 ]; then
	R="$T/fb-r" W="$T/fb-w"
	mkdir -p "$R" "$W"
	chmod 755 "$R"
	chmod 777 "$W"
	echo data > "$R/f"
	FB=$(policy fb <<EOF2
version = 1;
name = "rev-fb";
filesystem: { read = [ $READS"$R" ]; write = [ "$W" ]; };
limits: { timeout = 60; };
audit: { sync = false; syslog = false; };
EOF2
)
	FBU=$(policy fbu <<EOF2
version = 1;
name = "rev-fbu";
command: { user = "nobody"; };
filesystem: { read = [ $READS"$R" ]; write = [ "$W" ]; };
limits: { timeout = 60; };
audit: { sync = false; syslog = false; };
EOF2
)
	before=$(stat -c '%a %u %g %Y' "$R/f")
	rm -f "$T/res-fb.json"
	(cd "$T" && nons "$GUARDEXEC" -p "$FB" -l "$T/log-fb.log" \
		-r "$T/res-fb.json" -- "$A" \
		mknod-chr "$W/kmsg" chmod "$R/f" chown "$R/f" utimes "$R/f" \
		> "$T/out" 2> "$T/err")
	rc=$?
	out=$(cat "$T/out") err=$(cat "$T/err")
	is "root, namespaces refused: no device node opens and nothing outside the write tree changes (or it refuses)" \
		"$(printf '%s\n' "$out" | grep -c ': ok')/$(stat -c '%a %u %g %Y' "$R/f")" "0/$before"
	is "root, namespaces refused, filesystem group, no command.user: exit 125" "$rc" 125
	like "root: ... one line says a mount namespace or command.user is needed, and why" \
		"$err" '^guardexec: filesystem: a root caller.s filesystem group needs a mount namespace \(the kernel refused it: [^)]+\) or command\.user$'
	like "root: ... and the refusal is recorded" "$(cat "$T/res-fb.json" 2>/dev/null)" \
		'"status":"refused".*"exit_code":125'
	(cd "$T" && nons "$GUARDEXEC" -p "$FB" --check > "$T/out" 2> /dev/null)
	like "root: ... --check says a run would be refused" "$(cat "$T/out")" \
		'^# run: refused: filesystem: a root caller'
	# A non-root command keeps the fallback: command.user, uid 65534.
	(cd "$T" && nons "$GUARDEXEC" -q -p "$FBU" -l "$T/log-fb.log" -- "$A" \
		chmod "$R/f" > "$T/out" 2> "$T/err")
	rc=$?
	out=$(cat "$T/out")
	like "root with command.user, namespaces refused: runs (Landlock fallback), nothing changes" \
		"$rc/$(line chmod)/$(stat -c '%a %u %g %Y' "$R/f")" "^1/chmod: E[A-Z]+/$before\$"
	if [ -n "$AS_USER" ]; then
		as_user env "PATH=$PATH" bash -c "$(declare -f nons); nons \"\$@\"" nons \
			"$GUARDEXEC" -q -p "$FB" -l "$T/log-fbuser.log" -- "$A" \
			chmod "$R/f" > "$T/out" 2> "$T/err"
		rc=$?
		out=$(cat "$T/out")
		like "uid 65534, namespaces refused: runs (Landlock fallback), nothing changes" \
			"$rc/$(line chmod)/$(stat -c '%a %u %g %Y' "$R/f")" "^1/chmod: E[A-Z]+/$before\$"
	else
		skip "no unprivileged runs here"
	fi
else
	for _i in 1 2 3 4 5 6 7; do skip "root on x86_64 with python3 only"; done
fi
finish
