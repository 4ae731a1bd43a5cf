# shellcheck shell=bash
# Shared TAP helpers for the integration tests (bubblewrap's libtest.sh
# is the model).  Each test script sources this, calls plan N, and uses
# ok / not_ok / skip / is / like.  A temporary directory $T is removed on
# exit, and every process the test started by pid (track_pid) is killed.
set -u

: "${GUARDEXEC:?GUARDEXEC must point to the built binary}"
: "${HELPERS:?HELPERS must point to tests/helpers}"

T=$(mktemp -d "${TMPDIR:-/tmp}/guardexec-test.XXXXXX")
chmod 755 "$T"
_tap_n=0
_tap_failed=0
_tracked=""

_extra_dirs=""
cleanup() {
	for p in $_tracked; do
		kill -9 "$p" 2>/dev/null || true
	done
	rm -rf "$T"
	[ -z "$_extra_dirs" ] || rm -rf $_extra_dirs
}
trap cleanup EXIT

plan() { echo "1..$1"; }
ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() {
	_tap_n=$((_tap_n + 1)); _tap_failed=1
	echo "not ok $_tap_n - $*"
}
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
diag() { echo "# $*"; }

# check DESC CMD...: ok when CMD succeeds.
check() {
	local desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
# is DESC GOT WANT
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		not_ok "$1"; diag "got:  '$2'"; diag "want: '$3'"; fi
}
# like DESC TEXT REGEX (grep -E)
like() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"; else
		not_ok "$1"; diag "text: '$(printf '%s' "$2" | head -c 600)'"
		diag "does not match: $3"; fi
}
unlike() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		not_ok "$1"; diag "text: '$(printf '%s' "$2" | head -c 600)'"
		diag "matches: $3"; else ok "$1"; fi
}

# Only real pids: a pid file that was never written gives 0, and
# "kill -9 0" would kill the test's whole process group (make included).
track_pid() {
	local p
	for p in "$@"; do
		case $p in '' | 0 | 1 | *[!0-9]*) ;; *) _tracked="$_tracked $p" ;; esac
	done
}

# Pid files written inside a run: with its own PID namespace (guardexec
# makes one where the kernel allows), the pid is the command's view and
# means nothing here; the writer then leaves FILE.ns, its namespace
# (see tests/helpers/daemonize.c), or a shell writes it with
# "readlink /proc/self/ns/pid > FILE.ns".
_own_pidns=$(readlink /proc/self/ns/pid 2>/dev/null)
in_own_ns() { [ -s "$1.ns" ] && [ "$(cat "$1.ns")" != "$_own_pidns" ]; }
# ns_alive NS PID: a process with PID in PID namespace NS still runs
# (namespace inode numbers are reused: both must match).  A thread of
# it counts (a zombie leader's own links are gone).
ns_alive() {
	local f c l
	for f in $(grep -l -E "^NSpid:.*[[:space:]]$2\$" /proc/[0-9]*/status \
		2> /dev/null); do
		c=${f#/proc/}
		c=${c%/status}
		for l in /proc/"$c"/task/*/ns/pid; do
			[ "$(readlink "$l" 2> /dev/null)" = "$1" ] && return 0
		done
	done
	return 1
}
# gone PIDFILE: the process that wrote PIDFILE no longer runs (inside a
# PID namespace: nothing runs in that namespace any more).
gone() {
	[ -s "$1" ] || return 1
	if in_own_ns "$1"; then
		! ns_alive "$(cat "$1.ns")" "$(cat "$1")"
	else
		! alive "$(cat "$1" 2>/dev/null || echo 0)"
	fi
}

# ns_wrapper FILE SYSCTL VALUE: writes FILE, a command prefix that runs
# its command in a user namespace of the caller's own ids whose parent
# set /proc/sys/user/SYSCTL to VALUE (max_user_namespaces 1: no new
# namespace at all; max_net_namespaces 0: no network namespace).
#
# In there an unprivileged caller sees root's files, like those of every
# user it does not map, as uid 65534: an owner guardexec cannot vouch
# for, so the policy runs only once trusted by hash (guardexec(1),
# "Trusted policies").  The script trusts the -p POLICY of an unprivileged
# caller first, in a store of its own outside /tmp and the test directory
# (outside every write path of a test policy).
ns_wrapper() {
	if [ -z "${_ns_store:-}" ]; then
		_ns_store=$(mktemp -d /var/tmp/guardexec-nsw.XXXXXX) || return 1
		_extra_dirs="$_extra_dirs $_ns_store"
		chmod 1777 "$_ns_store"
	fi
	cat > "$1" <<EOF2
#!/bin/sh
if [ "\$(id -u)" != 0 ]; then
	GUARDEXEC_TRUST_STORE=$_ns_store/\$(id -u)/trusted
	export GUARDEXEC_TRUST_STORE
	prev=
	for a in "\$@"; do
		[ "\$a" = -- ] && break
		[ "\$prev" = -p ] && "\$1" --trust "\$a" > /dev/null 2>&1
		prev=\$a
	done
fi
GX_U=\$(id -u) GX_G=\$(id -g) exec unshare --user --map-root-user sh -c '
echo $3 > /proc/sys/user/$2 || exit 125
exec unshare --user --map-user="\$GX_U" --map-group="\$GX_G" "\$@"' sh "\$@"
EOF2
	chmod 755 "$1"
}

# no_ns_or_skip_all: no_ns_setup, or the whole script is skipped.
no_ns_or_skip_all() {
	no_ns_setup || skip_all "the fallback cannot be forced: $NO_NS_REASON"
}

# no_ns_setup: $NO_NS, a command prefix that runs guardexec where the
# kernel refuses new namespaces (ns_wrapper): to test the fallback (the
# sentinel, the /proc walk, the record's "missing").  Empty, with
# $NO_NS_REASON, where that cannot be made.  Nothing outside the test
# changes.
no_ns_setup() {
	NO_NS=""
	NO_NS_REASON=""
	if ! ns_wrapper "$T/no-ns" max_user_namespaces 1; then
		NO_NS_REASON="no directory for the wrapper's trust store"
		return 1
	fi
	if ! command -v unshare > /dev/null 2>&1; then
		NO_NS_REASON="no unshare(1)"
	elif ! "$T/no-ns" true 2> /dev/null; then
		NO_NS_REASON="cannot make a user namespace that refuses namespaces"
	elif "$T/no-ns" unshare --user true 2> /dev/null; then
		NO_NS_REASON="max_user_namespaces does not hold here"
	else
		NO_NS="$T/no-ns"
	fi
	[ -n "$NO_NS" ]
}

# track_pidfile PIDFILE: track_pid, for a pid that is ours to kill.
track_pidfile() {
	in_own_ns "$1" || track_pid "$(cat "$1" 2>/dev/null || echo 0)"
}

# count_cmdline WORD: live processes whose command line contains WORD.
count_cmdline() {
	local n=0 f
	for f in /proc/[0-9]*/cmdline; do
		if tr '\0' ' ' < "$f" 2>/dev/null | grep -q -- "$1"; then
			n=$((n + 1))
		fi
	done
	echo "$n"
}

# alive PID: true when PID exists and is not a zombie.
alive() {
	local st
	[ -r "/proc/$1/stat" ] || return 1
	st=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ]
}

# wait_for COND_CMD...: poll up to 10 s for a condition (not a timing test).
wait_for() {
	local i
	for i in $(seq 1 200); do
		if "$@"; then return 0; fi
		sleep 0.05
	done
	return 1
}

is_root() { [ "$(id -u)" = 0 ]; }

# A policy file: policy NAME <<EOF ... EOF; prints its path.
# Every test policy logs to $T/audit.log without fsync unless it says so.
policy() {
	local f="$T/$1.cfg"
	cat > "$f"
	chmod 644 "$f"
	echo "$f"
}

# plain_policy NAME: policy NAME with nothing but its name (and no fsync).
plain_policy() {
	policy "$1" <<EOF2
version = 1;
name = "$1";
audit: { sync = false; };
EOF2
}

# limits_policy NAME 'KEY = VALUE; ...': plain_policy NAME with that
# limits group.
limits_policy() {
	policy "$1" <<EOF2
version = 1;
name = "$1";
limits: { $2 };
audit: { sync = false; };
EOF2
}

# run_gx ARGS...: runs guardexec with -r $T/result.json -l $T/audit.log,
# sets $rc, $out (stdout), $err (stderr), $rec (the record line).
run_gx() { run_gx_log "$T/audit.log" "$@"; }

# run_gx_log LOG ARGS...: run_gx with another log path.
run_gx_log() {
	local log=$1
	shift
	rm -f "$T/result.json"
	"$GUARDEXEC" -l "$log" -r "$T/result.json" "$@" \
		> "$T/stdout" 2> "$T/stderr"
	rc=$?
	out=$(cat "$T/stdout")
	err=$(cat "$T/stderr")
	rec=$(cat "$T/result.json" 2>/dev/null || true)
}

# field NAME [RECORD]: a top-level scalar of the compact JSON record.
field() {
	printf '%s\n' "${2:-$rec}" | sed -n "s/.*\"$1\":\(\"[^\"]*\"\|[^,}]*\).*/\1/p" | head -n 1
}

# whos_setup: $WHOS, "root" when running as root, and "user" when
# unpriv_setup can make an unprivileged user (else a diag says why).
whos_setup() {
	WHOS=""
	if is_root; then WHOS="root"; fi
	if unpriv_setup; then WHOS="$WHOS user"; else
		diag "no unprivileged runs: $UNPRIV_REASON"; fi
}

# as WHO CMD...: CMD as root (WHO=root, from $T) or as the unprivileged
# user (as_user).
as() {
	local who=$1; shift
	if [ "$who" = root ]; then (cd "$T" && "$@"); else as_user "$@"; fi
}

# g WHO POLICY ARGS...: guardexec as WHO with a log and a result file of
# WHO's own; sets rc, out, err, rec.
g() {
	local who=$1 pol=$2; shift 2
	rm -f "$T/res-$who.json"
	as "$who" "$GUARDEXEC" -p "$pol" -l "$T/log-$who.log" \
		-r "$T/res-$who.json" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
	rec=$(cat "$T/res-$who.json" 2>/dev/null)
}

# line OP: the first line of $out for operation OP (ns-attack's "OP: ...").
line() { printf '%s\n' "$out" | grep "^$1:" | head -n 1; }

# sys_reads [DIR...]: $READS, the system directories that exist here and
# the DIRs, each quoted and followed by ", " (for filesystem.read).
sys_reads() {
	local d
	READS=""
	for d in /usr /bin /sbin /lib /lib32 /lib64 /libx32 /etc "$@"; do
		if [ -e "$d" ]; then READS="$READS\"$d\", "; fi
	done
}

# A user for the unprivileged runs, and a command prefix to become it.
# Sets $AS_USER ("" when not possible) and $UNPRIV_REASON.  When uid
# 65534 cannot reach the build tree (a checkout under /root, mode 700),
# guardexec and the helpers are copied into $T and used from there.
unpriv_setup() {
	AS_USER=""
	UNPRIV_REASON=""
	if ! is_root; then
		AS_USER=" "   # already unprivileged: run directly
		return 0
	fi
	if ! command -v setpriv >/dev/null 2>&1; then
		UNPRIV_REASON="setpriv (util-linux) is not installed"
		return 1
	fi
	chmod 1777 "$T"
	if ! setpriv --reuid=65534 --regid=65534 --clear-groups \
		test -x "$HELPERS/try-syscall" -a -x "$GUARDEXEC" 2>/dev/null; then
		mkdir -p "$T/ubin/helpers"
		cp "$GUARDEXEC" "$T/ubin/guardexec"
		for h in "$HELPERS"/*; do
			[ -f "$h" ] && [ -x "$h" ] && cp "$h" "$T/ubin/helpers/"
		done
		chmod -R a+rX "$T/ubin"
		GUARDEXEC=$T/ubin/guardexec
		HELPERS=$T/ubin/helpers
		if ! setpriv --reuid=65534 --regid=65534 --clear-groups \
			test -x "$GUARDEXEC" 2>/dev/null; then
			UNPRIV_REASON="uid 65534 cannot execute from $T either"
			return 1
		fi
	fi
	AS_USER="setpriv --reuid=65534 --regid=65534 --clear-groups --"
	return 0
}

# Runs "$@" as the unprivileged user (see unpriv_setup).
as_user() {
	# From $T: the caller's directory may be closed to uid 65534.
	if [ "$AS_USER" = " " ]; then "$@"; else
		(cd "$T" && $AS_USER env HOME=/nonexistent "$@"); fi
}

finish() {
	exit "$_tap_failed"
}

# shipped_policies: $POL, a copy of the shipped policies outside every
# write path they grant ("." and /tmp): a policy the command could
# rewrite runs only once trusted (guardexec(1), --trust), and the tree
# itself may lie under /tmp (a clone for CI).  Removed on exit.
shipped_policies() {
	POL=$(mktemp -d /var/tmp/guardexec-pol.XXXXXX) || return 1
	_extra_dirs="$_extra_dirs $POL"
	cp "$TOP_SRCDIR"/policies/*.cfg "$POL/" && chmod 755 "$POL" &&
		chmod 644 "$POL"/*.cfg
}
