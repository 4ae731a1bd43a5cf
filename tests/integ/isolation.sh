#!/bin/bash
# Isolation: the filesystem group (Landlock), the network group (network
# namespace as root, the seccomp socket guard otherwise) and command.user.
# Each case attacks the restriction with the try-syscall helper and has a
# control that shows the same operation works where it is allowed.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 42

TRY="$HELPERS/try-syscall"
# Denied by the mount namespace view (ENOENT: not there, EROFS: read-only)
# or by Landlock where namespaces are refused (EACCES): all read EACCES.
norm() { printf '%s\n' "$1" | sed -E 's/: E(NOENT|ROFS)$/: EACCES/'; }

# ---- layout ---------------------------------------------------------------
#   $T/work     the run's working directory (write ".")
#   $T/wdir     another write directory
#   $T/inside   readable only
#   $T/outside  not listed at all
mkdir -p "$T/work" "$T/wdir" "$T/inside" "$T/outside"
echo inside > "$T/inside/file.txt"
echo secret > "$T/outside/secret.txt"

# filesystem.read: the system directories that exist here, and the build
# tree (the helpers live there).
sys_reads "$TOP_BUILDDIR"

FS_REASON=""
for d in /usr /bin /sbin /lib /lib32 /lib64 /libx32 /etc "$TOP_BUILDDIR"; do
	case "$(cd "$T" && pwd -P)/" in
	"$d"/*) FS_REASON="the test directory $T lies below the readable $d (set TMPDIR)" ;;
	esac
done

FS=$(policy fs <<EOF
version = 1;
name = "iso-fs";
filesystem: {
  read = [ $READS"$T/inside" ];
  write = [ ".", "$T/wdir" ];
};
audit: { sync = false; syslog = false; };
EOF
)
PLAIN=$(policy plain <<'EOF'
version = 1;
name = "iso-plain";
audit: { sync = false; syslog = false; };
EOF
)

# Is Landlock there?  guardexec refuses (125, naming Landlock) if not.
ABI=0
if [ -z "$FS_REASON" ]; then
	run_gx -p "$FS" -C "$T/work" -- true
	if [ "$rc" = 125 ] && printf '%s\n' "$err" | grep -qi landlock; then
		FS_REASON="Landlock is not available: $err"
	else
		ABI=$(printf '%s\n' "$rec" |
			sed -n 's/.*"filesystem":"landlock-\([0-9]*\)".*/\1/p')
		probe_rc=$rc probe_rec=$rec
	fi
fi

# ---- filesystem -----------------------------------------------------------
ABI=${ABI:-0}
FS_N=16
if [ -n "$FS_REASON" ]; then
	for _i in $(seq 1 $FS_N); do skip "filesystem: $FS_REASON"; done
else
	is "a filesystem policy runs a command" "$probe_rc" 0
	like 'the record says "filesystem":"landlock-N"' "$probe_rec" \
		'"isolation":\{"filesystem":"landlock-[0-9]+"'

	run_gx -p "$FS" -C "$T/work" -- "$TRY" read-file "$T/inside/file.txt"
	is "reading a file inside filesystem.read works" "$out" "read-file: ok"
	run_gx -p "$FS" -C "$T/work" -- "$TRY" read-file "$T/outside/secret.txt"
	is "reading a file outside filesystem.read fails (ENOENT, EROFS or EACCES)" "$(norm "$out")" \
		"read-file: EACCES"

	run_gx -p "$FS" -C "$T/work" -- "$TRY" write-file "$T/outside/new.txt"
	is "writing outside filesystem.write fails (ENOENT, EROFS or EACCES)" "$(norm "$out")" \
		"write-file: EACCES"
	check "... and creates nothing" test ! -e "$T/outside/new.txt"
	run_gx -p "$FS" -C "$T/work" -- "$TRY" write-file "$T/inside/new.txt"
	is "writing below a read-only directory fails (ENOENT, EROFS or EACCES)" "$(norm "$out")" \
		"write-file: EACCES"

	run_gx -p "$FS" -C "$T/work" -- "$TRY" write-file made-in-cwd.txt
	is "writing in \".\" (the -C directory) works" "$out" "write-file: ok"
	check "... and the file is there" test -f "$T/work/made-in-cwd.txt"
	run_gx -p "$FS" -C "$T/work" -- "$TRY" write-file "$T/wdir/made.txt"
	is "writing in another filesystem.write directory works" "$out" \
		"write-file: ok"

	# .. does not lead out.
	run_gx -p "$FS" -C "$T/work" -- "$TRY" write-file ../outside/dotdot1.txt \
		write-file "$T/wdir/../outside/dotdot2.txt" \
		read-file ../outside/secret.txt
	is ".. out of a write directory does not escape" "$(norm "$out")" \
		"$(printf 'write-file: EACCES\nwrite-file: EACCES\nread-file: EACCES')"
	check "... and creates nothing" test ! -e "$T/outside/dotdot1.txt" -a \
		! -e "$T/outside/dotdot2.txt"

	# Symlinks planted in write directories before the run.
	ln -s "$T/outside" "$T/wdir/escape"
	ln -s "$T/outside/secret.txt" "$T/work/secret-link"
	run_gx -p "$FS" -C "$T/work" -- "$TRY" write-file "$T/wdir/escape/sym.txt" \
		read-file "$T/wdir/escape/secret.txt" read-file secret-link
	is "a symlink in a write directory pointing outside does not escape" "$(norm "$out")" \
		"$(printf 'write-file: EACCES\nread-file: EACCES\nread-file: EACCES')"
	check "... and creates nothing" test ! -e "$T/outside/sym.txt"

	# A symlink (and a hard link) the command plants itself.
	# shellcheck disable=SC2016
	run_gx -p "$FS" -C "$T/work" -- sh -c \
		'ln -s "$1" planted; echo pwned > planted/planted.txt' sh "$T/outside"
	if [ -L "$T/work/planted" ] && [ ! -e "$T/outside/planted.txt" ] &&
		[ "$rc" != 0 ]; then
		ok "a symlink the command plants does not escape"
	else
		not_ok "a symlink the command plants does not escape"
		diag "rc=$rc out=$out err=$err"
		diag "planted link: $(ls -l "$T/work/planted" 2>&1)"
		diag "outside: $(ls "$T/outside")"
	fi
	run_gx -p "$FS" -C "$T/work" -- ln "$T/outside/secret.txt" hardlink
	check "a hard link to a file outside cannot be made" \
		test "$rc" != 0 -a ! -e "$T/work/hardlink"
fi

# A path that does not exist is a policy error with its line; no Landlock
# needed to find that.
NOFS=$(policy nofs <<EOF
version = 1;
name = "nofs";
filesystem: { read = [ "/usr", "$T/does-not-exist" ]; };
EOF
)
run_gx -p "$NOFS" -- touch "$T/ran-nofs"
is "a filesystem path that does not exist: exit 125" "$rc" 125
like "... the error names the file, line and key" "$err" \
	'^guardexec: [^ ]*nofs\.cfg:3: filesystem\.read: .*does-not-exist'
check "... and nothing ran" test ! -e "$T/ran-nofs"

# Landlock ABI 6 scopes signals: no kill(2) out of the sandbox.
sleep 300 &
SLEEP_PID=$!
track_pid "$SLEEP_PID"
if [ -n "$FS_REASON" ]; then
	skip "signal scoping: $FS_REASON"
	skip "signal scoping control: $FS_REASON"
elif [ "$ABI" -lt 6 ]; then
	skip "signal scoping needs Landlock ABI 6, the kernel has $ABI"
	skip "signal scoping control: Landlock ABI $ABI"
else
	# With a PID namespace the sleep is not even there (ESRCH).
	run_gx -p "$PLAIN" -- "$TRY" kill "$SLEEP_PID"
	like "without a filesystem group, kill(pid, 0) of our sleep: ok, or ESRCH in a PID namespace" "$out" "^kill: (ok|ESRCH)$"
	run_gx -p "$FS" -C "$T/work" -- "$TRY" kill "$SLEEP_PID"
	like "with Landlock ABI >= 6, signalling a process outside fails" "$out" \
		"^kill: (EPERM|ESRCH)$"
fi

# ---- network --------------------------------------------------------------
NONE=$(policy netnone <<'EOF'
version = 1;
name = "net-none";
network: { mode = "none"; };
audit: { sync = false; syslog = false; };
EOF
)
ALL=$(policy netall <<'EOF'
version = 1;
name = "net-all";
network: { mode = "all"; };
audit: { sync = false; syslog = false; };
EOF
)
"$HELPERS/netlisten" tcp "$T/tcp.port" 300 > "$T/tcp.out" &
track_pid $!
"$HELPERS/netlisten" udp "$T/udp.port" 300 > "$T/udp.out" &
track_pid $!
if wait_for test -s "$T/tcp.port" && wait_for test -s "$T/udp.port"; then
	TCP=$(cat "$T/tcp.port")
	UDP=$(cat "$T/udp.port")

	run_gx -p "$NONE" -- "$TRY" connect-tcp "$TCP"
	like 'mode "none": a TCP connect to 127.0.0.1 fails' "$out" '^connect-tcp: E[A-Z]+$'
	if is_root; then
		like 'mode "none" as root: the record says "network":"netns"' "$rec" \
			'"isolation":\{[^}]*"network":"netns"'
	elif printf '%s' "$rec" | grep -q '"namespaces":\[[^]]*"net"'; then
		# A user whose kernel allows user namespaces (the VM lane's
		# systemd user): the run's own network namespace.
		like 'mode "none" unprivileged, in a network namespace: the record says "network":"netns"' \
			"$rec" '"isolation":\{[^}]*"network":"netns"'
	else
		like 'mode "none" unprivileged: the record says "network":"seccomp"' "$rec" \
			'"isolation":\{[^}]*"network":"seccomp"'
	fi
	run_gx -p "$ALL" -- "$TRY" connect-tcp "$TCP"
	is 'mode "all": a TCP connect to 127.0.0.1 works' "$out" "connect-tcp: ok"
	wait_for grep -q accepted "$T/tcp.out"
	is "the TCP listener saw exactly the one allowed connection" \
		"$(grep -c accepted "$T/tcp.out")" 1

	run_gx -p "$NONE" -- "$TRY" send-udp "$UDP"
	like 'mode "none": a UDP sendto 127.0.0.1 fails' "$out" '^send-udp: E[A-Z]+$'
	run_gx -p "$ALL" -- "$TRY" send-udp "$UDP"
	is 'mode "all": a UDP sendto 127.0.0.1 works' "$out" "send-udp: ok"
	wait_for grep -q received "$T/udp.out"
	is "the UDP listener got exactly the one allowed datagram" \
		"$(grep -c received "$T/udp.out")" 1
else
	not_ok "netlisten did not start: $(cat "$T/tcp.out" "$T/udp.out")"
	for _i in 1 2 3 4 5 6; do skip "network: no listener"; done
	TCP=9 UDP=9
fi

# Unprivileged: a network namespace inside the run's own user namespace;
# where the kernel refuses that, the seccomp socket guard refuses every
# family but AF_UNIX (namespaces.sh forces that fallback).
U="$T/u"
mkdir -p "$U"
if unpriv_setup; then
	TRY=$HELPERS/try-syscall
	if is_root; then chown 65534:65534 "$U"; fi
	as_user "$GUARDEXEC" -p "$NONE" -l "$U/audit.log" -r "$U/result.json" -- \
		"$TRY" connect-tcp "$TCP" socket-inet socket-unix \
		> "$T/stdout" 2> "$T/stderr"
	rc=$?
	out=$(cat "$T/stdout")
	rec=$(cat "$U/result.json" 2>/dev/null)
	like 'unprivileged, mode "none": the record says "network":"netns" (or "seccomp")' "$rec" \
		'"isolation":\{[^}]*"network":"(netns|seccomp)"'
	like 'unprivileged, mode "none": a TCP connect fails' \
		"$(printf '%s\n' "$out" | grep '^connect-tcp:')" "^connect-tcp: E[A-Z]+$"
	if printf '%s' "$rec" | grep -q '"network":"seccomp"'; then
		is 'unprivileged, mode "none" (seccomp guard): socket(AF_INET) fails with EACCES' \
			"$(printf '%s\n' "$out" | grep '^socket-inet:')" "socket-inet: EACCES"
	else
		like 'unprivileged, mode "none" (netns): the record lists the "net" namespace' \
			"$rec" '"namespaces":\[[^]]*"net"'
	fi
	like 'unprivileged, mode "none": socket(AF_UNIX) still works' "$out" \
		'^socket-unix: ok$'
else
	for _i in 1 2 3 4; do skip "seccomp network fallback: $UNPRIV_REASON"; done
fi

# ---- command.user -----------------------------------------------------------
USERPOL=$(policy user <<'EOF'
version = 1;
name = "iso-user";
command: { user = "nobody"; };
audit: { sync = false; syslog = false; };
EOF
)
NOBODY_UID=$(id -u nobody 2>/dev/null)
if ! is_root; then
	for _i in 1 2 3 4; do skip "command.user: not root"; done
elif [ -z "$NOBODY_UID" ]; then
	for _i in 1 2 3 4; do skip "command.user: no user \"nobody\" here"; done
else
	# nobody must reach the helper (a checkout under /root is 0700).
	unpriv_setup > /dev/null || true
	TRY=$HELPERS/try-syscall
	echo root-only > "$T/rootonly"
	chmod 600 "$T/rootonly"
	run_gx -p "$PLAIN" -- "$TRY" read-file "$T/rootonly"
	is "control: root reads the 0600 root file" "$out" "read-file: ok"
	run_gx -p "$USERPOL" -- "$TRY" read-file "$T/rootonly"
	is "command.user = nobody: the 0600 root file is unreadable" "$out" \
		"read-file: EACCES"
	run_gx -p "$USERPOL" -- id -u
	is "command.user = nobody: id -u prints nobody's uid" "$out" "$NOBODY_UID"
	like 'command.user = nobody: the record says "user":"nobody"' "$rec" \
		'"isolation":\{[^}]*"user":"nobody"'
fi

# Unprivileged, a policy with command.user is refused.
if [ -z "$NOBODY_UID" ]; then
	for _i in 1 2 3; do skip "command.user refusal: no user \"nobody\" here"; done
elif unpriv_setup; then
	if is_root; then chown 65534:65534 "$U"; fi
	as_user "$GUARDEXEC" -p "$USERPOL" -l "$U/audit.log" -- touch "$U/ran-user" \
		> "$T/stdout" 2> "$T/stderr"
	rc=$?
	err=$(cat "$T/stderr")
	is "unprivileged with command.user: exit 125" "$rc" 125
	like "... the error names command.user" "$err" '^guardexec: .*command\.user'
	check "... and nothing ran" test ! -e "$U/ran-user"
else
	for _i in 1 2 3; do skip "command.user refusal: $UNPRIV_REASON"; done
fi

# isolation.require: the namespaces run where the kernel allows them (the
# refusal where it does not is in namespaces.sh).
REQ=$(policy require <<'EOF2'
version = 1;
name = "require";
isolation: { require = [ "user" ]; };
audit: { sync = false; };
EOF2
)
run_gx -p "$REQ" -- touch "$T/ran-require"
if "$GUARDEXEC" -p "$REQ" --check | grep -q '^# namespaces: user pid mount'; then
	is "isolation.require = user, where the kernel allows it: runs" "$rc" 0
	like "... the record lists the user namespace" "$rec" '"namespaces":\["user"'
	check "... and the command ran" test -e "$T/ran-require"
else
	is "isolation.require of a missing mechanism: exit 125" "$rc" 125
	like "... the error names the key and the mechanism" "$err" '^guardexec: .*isolation\.require: "user"'
	check "... and nothing ran" test ! -e "$T/ran-require"
fi

finish
