#!/bin/bash
# Under systemd with cgroup v2 (issue 14; the VM lane, tests/vm/): a run
# with processes/memory limits gets a transient scope of its own with
# Delegate=yes, from the system manager as root and from the user's own
# manager (user@UID.service) as a user; the record's isolation.cgroup
# names it; it is gone after the run, and after guardexec is SIGKILLed
# mid-run (with the command's whole family).  Runs as whoever runs make
# check: root, or the VM lane's lingering user.  Skips where PID 1 is
# not systemd or the hierarchy is not the unified v2 one (this
# project's hosts: limits-family.sh covers their cgroups).
. "$TOP_SRCDIR/tests/integ/lib.sh"

if [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ]; then
	skip_all "PID 1 is not systemd"
fi
if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" != cgroup2fs ]; then
	skip_all "not the unified cgroup v2 hierarchy"
fi
SYSTEMCTL="systemctl"
if ! is_root; then
	SYSTEMCTL="systemctl --user"
	# A user under systemd has a manager of its own (a login session,
	# a lingering user's service): not reaching it is a failure here.
	if ! $SYSTEMCTL show -p Version --value > /dev/null 2>&1; then
		plan 1
		not_ok "the user's systemd manager is reachable (XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-unset})"
		finish
	fi
fi
plan 8
who=$(id -un)

LIM=$(policy lim <<'EOF2'
version = 1;
name = "lim";
limits: { processes = 64; memory = "128M"; timeout = 60; kill_grace = 1; };
audit: { sync = false; };
EOF2
)

# unit_of RECORD: the scope's unit name in the record's isolation.cgroup.
unit_of() {
	printf '%s' "$1" | grep -o '"cgroup":"[^"]*"' |
		grep -oE 'guardexec-[0-9]+-[0-9a-f]+\.scope' | head -n 1
}
# unit_gone UNIT: the manager no longer has it loaded, and no cgroup of
# that name is left.
unit_gone() {
	! $SYSTEMCTL list-units --all --no-legend --plain "$1" 2>/dev/null | grep -q . &&
		[ -z "$(find /sys/fs/cgroup -maxdepth 8 -type d -name "$1" 2>/dev/null)" ]
}

# ---- a run: its scope, named in the record, gone afterwards --------------
run_gx -C "$T" -p "$LIM" -- sh -c 'cat /proc/self/cgroup'
unit=$(unit_of "$rec")
like "$who: the record's isolation.cgroup names a transient scope" \
	"$(printf '%s' "$rec" | grep -o '"cgroup":"[^"]*"')" \
	'"cgroup":"v2:/sys/fs/cgroup/[^"]*/guardexec-[0-9]+-[0-9a-f]+\.scope/command"'
[ -n "$unit" ] || diag "isolation: $(printf '%s' "$rec" | grep -o '"isolation":{[^}]*}') $err"
if is_root; then
	like "root: the scope is the system manager's (system.slice)" \
		"$(printf '%s' "$rec" | grep -o '"cgroup":"[^"]*"')" '/system\.slice/'
else
	like "$who: the scope is the user's manager's (user@$(id -u).service)" \
		"$(printf '%s' "$rec" | grep -o '"cgroup":"[^"]*"')" "/user@$(id -u)\\.service/"
fi
is "$who: the command ran, exit 0" "$rc" 0
if [ -n "$unit" ]; then
	check "$who: $unit is gone after the run (unit and cgroup)" wait_for unit_gone "$unit"
else
	not_ok "$who: the scope is gone after the run (there was none)"
fi

# ---- guardexec SIGKILLed mid-run: scope, cgroup and family gone ------------
rm -f "$T/gx.pid" "$T/d.pid" "$T/d.pid.ns" "$T/started"
# shellcheck disable=SC2016
(cd "$T" && sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$T/gx.pid" \
	"$GUARDEXEC" -l "$T/audit.log" -r "$T/k.json" -p "$LIM" -- sh -c \
	"$HELPERS/daemonize $T/d.pid; touch $T/started; sleep 300") > /dev/null 2>&1 &
wait_for test -s "$T/d.pid"
wait_for test -e "$T/started"
g=$(cat "$T/gx.pid" 2>/dev/null || echo 0)
track_pid "$g"
track_pidfile "$T/d.pid"
kunit=$(find /sys/fs/cgroup -maxdepth 8 -type d -name "guardexec-$g-*.scope" 2>/dev/null |
	head -n 1)
kunit=${kunit##*/}
check "$who: the running command is in a scope of guardexec $g ($kunit)" test -n "$kunit"
[ "$g" != 0 ] && kill -9 "$g"
check "$who: guardexec SIGKILLed: the command's setsid daemon dies" wait_for gone "$T/d.pid"
if [ -n "$kunit" ]; then
	check "$who: guardexec SIGKILLed: $kunit is gone (unit and cgroup)" \
		wait_for unit_gone "$kunit"
else
	not_ok "$who: guardexec SIGKILLed: the scope is gone (there was none)"
fi
check "$who: no guardexec scope of guardexec $g is left at all" \
	wait_for unit_gone "guardexec-$g-*.scope"
finish
