#!/bin/bash
# The core guarantees hold for an unprivileged caller too (CI runs as
# root: this script becomes uid 65534 with setpriv).
. "$TOP_SRCDIR/tests/integ/lib.sh"
if ! unpriv_setup; then
	skip_all "$UNPRIV_REASON"
fi
plan 9

P=$(policy unpriv <<'EOF2'
version = 1;
name = "unpriv";
limits: { timeout = 1; kill_grace = 0.5; processes = 64; };
syscalls: { allow = [ "@default", "@process", "@signal", "@file-read", "@file-write", "@ipc", "@time" ]; };
audit: { sync = false; };
EOF2
)
chmod 777 "$T"
u() {
	rm -f "$T/u.json"
	as_user "$GUARDEXEC" -l "$T/u-audit.log" -r "$T/u.json" -p "$P" "$@" \
		> "$T/u.out" 2> "$T/u.err"
	rc=$?
	out=$(cat "$T/u.out")
	rec=$(cat "$T/u.json" 2>/dev/null)
}
u -- sh -c 'exit 7'
is "exit status passed on" "$rc" 7
u -- no-such-command-gx
is "not found: 127" "$rc" 127
u -- "$HELPERS/spin-until-killed" -i
is "timeout of a SIGTERM-ignoring command: 124" "$rc" 124
u -- "$HELPERS/daemonize" "$T/udaemon.pid"
track_pidfile "$T/udaemon.pid"
check "setsid daemon dead after return" gone "$T/udaemon.pid"
GX_SECRET_MARKER=unpriv-secret u -- "$HELPERS/fds"
like "only fds 0 1 2" "$out" '^fds: 0 1 2$'
like "guardexec's environment unreadable" "$out" '^parent_environ_secret: no$'
like "no_new_privs" "$out" '^nnp: 1$'
u -- "$HELPERS/try-syscall" mount
is "default deny as a user" "$out" "mount: EPERM"
# uid 65534 through setpriv as root; the caller's own uid when a user
# runs the suite (the VM lane's gxuser).
if is_root; then want_uid=65534; else want_uid=$(id -u); fi
is "the record names the user's uid" "$(field uid)" "$want_uid"
finish
