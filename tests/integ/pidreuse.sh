#!/bin/bash
# Issue 11, bug 2: the family kill never signals a recycled pid.  In a
# PID namespace of its own (where the command may set ns_last_pid), the
# command has a child B listed after 150 siblings; on the timeout's
# SIGTERM it kills and reaps B and has a process outside the family
# forked with B's pid while guardexec is still signalling the siblings.
# Signalling by a pid looked up again at kill time hits that outsider;
# a pidfd pinned when B was found does not.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 4

# The part that runs inside the namespaces: $1 guardexec, $2 helper, $3 dir.
cat > "$T/inner.sh" <<'EOF2'
GX=$1; H=$2; D=$3
cat > "$D/reuse.cfg" <<'E3'
version = 1;
name = "reuse";
limits: { timeout = 2; kill_grace = 2; };
audit: { sync = false; };
E3
chmod 644 "$D/reuse.cfg"
# Inside this user namespace the test directory's owner is unmapped, so
# the policy needs the caller's trust, given the documented way.
export GUARDEXEC_TRUST_STORE="$D/trusted"
"$GX" --trust "$D/reuse.cfg" > /dev/null 2>&1
rm -f "$D/fifo" "$D/victim.pid" "$D/reuse.json"
mkfifo "$D/fifo" || exit 3
"$H" spawn "$D/fifo" "$D/victim.pid" &
sp=$!
"$GX" -l "$D/reuse.log" -r "$D/reuse.json" -p "$D/reuse.cfg" \
	-- "$H" attack "$D/fifo" 150 > /dev/null 2> "$D/gx.err"
echo "rc=$?"; cat "$D/gx.err"
for i in $(seq 1 100); do [ -s "$D/victim.pid" ] && break; sleep 0.05; done
v=$(cat "$D/victim.pid" 2>/dev/null)
sleep 0.2
if [ -n "$v" ] && [ -d "/proc/$v" ] && ! grep -q '^State:.*Z' "/proc/$v/status"
then echo "victim alive"; else echo "victim dead"; fi
kill -9 "$sp" "$v" 2>/dev/null
EOF2

# reuse_case LABEL RUNNER DIR
reuse_case() {
	local label=$1 runner=$2 d=$3 o
	mkdir -p "$d"
	chmod 755 "$d"
	# The policy's directory belongs to whoever runs guardexec, so the
	# trust check (policy and directory owned by root or the caller)
	# holds inside the user namespace too.
	if [ -n "$runner" ] && [ "$runner" != " " ]; then chown 65534:65534 "$d"; fi
	if ! $runner unshare -Urpf --mount-proc true 2>/dev/null; then
		skip "$label: no user+PID namespace here (unshare -Urpf refused)"
		skip "$label: (with the above)"
		return
	fi
	o=$(timeout -s KILL 120 $runner unshare -Urpf --mount-proc \
		bash "$T/inner.sh" "$GUARDEXEC" "$HELPERS/pid-reuse" "$d" 2>&1)
	like "$label: the attacked run ends in the timeout" "$o" 'rc=124'
	like "$label: the process that took a family member's pid lives" \
		"$o" 'victim alive'
}

reuse_case "as caller" "" "$T/root"
if unpriv_setup; then
	if [ "$AS_USER" = " " ]; then reuse_case "unprivileged" "" "$T/user"
	else reuse_case "uid 65534" "$AS_USER" "$T/user"; fi
else
	skip "unprivileged: $UNPRIV_REASON"
	skip "unprivileged: $UNPRIV_REASON"
fi
finish
