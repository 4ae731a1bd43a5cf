#!/bin/bash
# Central collection with two real rsyslogd on loopback: the local one
# (guardexec's /dev/log, the shipped audit/rsyslog/guardexec.conf) and a
# collector (the shipped guardexec-collector.conf), forwarding over TCP.
# Each record reaches both byte for byte, so its hash checks; a record
# too long for syslog arrives marked "syslog_truncated"; records sent
# while the collector is down are queued and delivered when it is back;
# "guardexec-audit crosscheck" finds records deleted, rewritten or lost
# on either side.  Both daemons are started and stopped by PID; they
# listen on 127.0.0.1 only, on a port picked at random.
. "$TOP_SRCDIR/tests/integ/lib.sh"

RSYSLOGD=$(command -v rsyslogd || echo /usr/sbin/rsyslogd)
[ -x "$RSYSLOGD" ] || skip_all "rsyslogd is not installed"
A=$GUARDEXEC_AUDIT
SNIP=$TOP_SRCDIR/audit/rsyslog

# guardexec's syslog(3) writes to /dev/log.  In a mount namespace of its
# own, /dev is a fresh tmpfs with the host's null, zero, full, random and
# urandom bound in (as bubblewrap's --dev does) and a /dev/log that is
# the local rsyslogd's socket; the host's /dev is not touched.
# Unprivileged, a user namespace makes those mounts possible (guardexec
# then runs as uid 0 inside it).
if is_root; then
	NS=(unshare --mount --propagation private)
else
	NS=(unshare --user --map-root-user --mount --propagation private)
fi
mkdir -p "$T/olddev"
gx_ns() {
	"${NS[@]}" /bin/sh -c 'set -e
		mount --rbind /dev "$0/olddev"
		mount -t tmpfs -o mode=755 tmpfs /dev
		for n in null zero full random urandom; do
			touch "/dev/$n"
			mount --bind "$0/olddev/$n" "/dev/$n"
		done
		ln -s /proc/self/fd /dev/fd
		ln -s "$0/local.sock" /dev/log
		exec "$@"' "$T" "$@"
}
if ! gx_ns true 2> "$T/ns.err"; then
	skip_all "cannot give guardexec a /dev/log of the test's own: $(head -n 1 "$T/ns.err")"
fi
plan 26

# A TCP port nobody listens on (IPv4 or IPv6), picked at random.
listening() {
	local hex
	hex=$(printf '%04X' "$1")
	grep -qE "^ *[0-9]+: [0-9A-F]+:$hex [0-9A-F]+:[0-9A-F]+ 0A " \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null
}
PORT=""
for i in $(seq 1 50); do
	p=$((20000 + RANDOM % 40000))
	if ! listening "$p"; then PORT=$p; break; fi
done
[ -n "$PORT" ] || { for i in $(seq 1 26); do skip "no free port found"; done; finish; }

# The collector: the shipped snippet, its paths and port the test's own.
mkdir -p "$T/c/work" "$T/l/work"
sed -e "s|/var/log/guardexec/|$T/c/|g" -e "s|port=\"514\"|port=\"$PORT\"|" \
	"$SNIP/guardexec-collector.conf" > "$T/c/snippet.conf"
cat > "$T/c/rsyslog.conf" <<EOF2
global(workDirectory="$T/c/work")
include(file="$T/c/snippet.conf")
EOF2
# The local one: the shipped snippet with its forwarding block enabled.
sed -e "s|/var/log/guardexec/|$T/l/|g" \
	-e '/^# BEGIN central/,/^# END central/s/^#\t/\t/' \
	-e "s|target=\"logs.example.org\" port=\"514\"|target=\"127.0.0.1\" port=\"$PORT\"|" \
	"$SNIP/guardexec.conf" > "$T/l/snippet.conf"
cat > "$T/l/rsyslog.conf" <<EOF2
global(workDirectory="$T/l/work")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$T/local.sock")
include(file="$T/l/snippet.conf")
EOF2
for d in c l; do
	"$RSYSLOGD" -N1 -f "$T/$d/rsyslog.conf" > "$T/$d/check.out" 2>&1 ||
		diag "rsyslogd -N1 ($d): $(cat "$T/$d/check.out")"
done

# bounded DESC SECONDS CMD...: poll CMD for at most SECONDS.
bounded() {
	local n=$(( $1 * 10 )); shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
start_rsyslogd() {  # c | l; sets CPID or LPID
	"$RSYSLOGD" -n -f "$T/$1/rsyslog.conf" -i "$T/$1/pid" \
		>> "$T/$1/stderr" 2>&1 &
	track_pid $!
	if [ "$1" = c ]; then CPID=$!; else LPID=$!; fi
}
stop_rsyslogd() {  # PID
	kill -TERM "$1" 2>/dev/null
	bounded 30 eval "! alive $1" || kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }
has_lines() { [ "$(lines "$1")" -ge "$2" ]; }

start_rsyslogd c
check "the collector listens on 127.0.0.1:$PORT" \
	bounded 30 listening "$PORT"
hex=$(printf '%04X' "$PORT")
is "and on nothing but loopback" \
	"$(grep -hE "^ *[0-9]+: [0-9A-F]+:$hex [0-9A-F]+:[0-9A-F]+ 0A " /proc/net/tcp /proc/net/tcp6 | awk '{print $2}' | sort -u)" \
	"0100007F:$hex"
start_rsyslogd l
check "the local rsyslogd made its socket" bounded 30 test -S "$T/local.sock"

P=$(policy coll <<'EOF2'
version = 1;
name = "coll";
audit: { syslog = true; facility = "user"; sync = false; };
EOF2
)
L=$T/audit.log
C=$T/c/central.jsonl
LS=$T/l/syslog.jsonl
gx() { gx_ns "$GUARDEXEC" -q -p "$P" -l "$L" -- "$@" > /dev/null 2>&1; }
gx true
gx echo 'a "quoted" \back\slash' "$(printf 'tab\there é \xe2\x80\xae rtl')" '</x>&'
gx sh -c 'exit 3'
gx echo "$(head -c 6000 /dev/zero | tr '\0' x)"
is "four records in the local log" "$(lines "$L")" 4
check "all four reach the collector" bounded 120 has_lines "$C" 4
check "and the local syslog file" bounded 30 has_lines "$LS" 4
is "the three short records are stored byte for byte at the collector" \
	"$(head -n 3 "$L" | grep -cxFf - "$C")" 3
is "and in the local syslog file" \
	"$(head -n 3 "$L" | grep -cxFf - "$LS")" 3
head -n 3 "$C" > "$T/c3"
"$A" verify "$T/c3" > "$T/out" 2>&1
is "the collector's copies verify as a chain" "$?" 0
big=$(grep -F '"syslog_truncated":true' "$C")
like "the long record is cut in syslog and says \"syslog_truncated\": true" \
	"$big" '"syslog_truncated":true'
is "its cut copy is at most 4 KiB" "$(( ${#big} <= 4096 ))" 1
is "and holds the full record's hash" \
	"$(printf '%s' "$big" | grep -o '"hash":"[0-9a-f]*"')" \
	"$(tail -n 1 "$L" | grep -o '"hash":"[0-9a-f]*"')"
unlike "the local log keeps the record whole" "$(tail -n 1 "$L")" \
	'syslog_truncated|compacted'
"$A" crosscheck "$L" "$C" > "$T/out" 2>&1
is "crosscheck: both sides agree" "$?|$(tail -n 1 "$T/out")" \
	"0|4 local records, 4 central copies: 3 identical, 1 cut for syslog and consistent, 0 missing centrally, 0 missing locally, 0 different"

"$A" report -o "$T/central.html" "$C" 2> "$T/err"
like "report on the collector's file: chained, the cut copy named, not \"broken\"" \
	"$(sed -n '/id="chain-status"/,/<\/section>/p' "$T/central.html")" \
	'<span class="chain chained">chained</span> <span class="tag adv">1 cut for syslog: only their prev and hash are checked'

# An outage: the collector stops; two records are queued, then delivered.
stop_rsyslogd "$CPID"
check "the collector is down" eval "! listening $PORT"
gx echo during the outage
gx echo still down
check "the local syslog file still gets them" bounded 60 has_lines "$LS" 6
is "the collector has not" "$(lines "$C")" 4
start_rsyslogd c
if bounded 30 listening "$PORT"; then
	check "after the outage, the queued records are delivered" \
		bounded 180 has_lines "$C" 6
	"$A" crosscheck "$L" "$C" > "$T/out" 2>&1
	is "crosscheck after the outage: all six agree" "$?|$(tail -n 1 "$T/out")" \
		"0|6 local records, 6 central copies: 5 identical, 1 cut for syslog and consistent, 0 missing centrally, 0 missing locally, 0 different"
else
	skip "the collector could not listen again on $PORT: $(tail -n 1 "$T/c/stderr")"
	skip "the collector could not listen again on $PORT"
fi

# Attacks on the local log, which the central copy exposes.
id2=$(sed -n 2p "$L" | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4)
sed 2d "$L" > "$T/deleted.log"
"$A" crosscheck "$T/deleted.log" "$C" > "$T/out" 2>&1
is "a record deleted locally: exit 1" "$?" 1
like "and named as missing from the local log" "$(cat "$T/out")" \
	"central.jsonl:2: record $id2: missing from the local log"
# Rewrite the last record (exit_code) and recompute its hash: the local
# chain still verifies, the collector's copy does not agree.
last=$(tail -n 1 "$L")
body=$(printf '%s' "$last" | sed 's/,"hash":"[0-9a-f]*"}$//; s/"exit_code":0/"exit_code":7/')
h=$(printf '%s' "$body" | sha256sum | cut -c1-64)
{ sed '$d' "$L"; printf '%s,"hash":"%s"}\n' "$body" "$h"; } > "$T/forged.log"
"$A" verify "$T/forged.log" > /dev/null 2>&1
vr=$?
"$A" crosscheck "$T/forged.log" "$C" > "$T/out" 2>&1
is "a local record rewritten with a recomputed hash: verify passes, crosscheck fails" \
	"$vr|$?" "0|1"
like "and names the field that differs" "$(cat "$T/out")" '"exit_code" differs'
sed '$d' "$C" > "$T/lost.jsonl"
"$A" crosscheck "$L" "$T/lost.jsonl" > "$T/out" 2>&1
like "a record the collector never got: exit 1, missing from the central copy" \
	"$?|$(cat "$T/out")" "^1\|.*missing from the central copy"

# One collector file serves many hosts: another host's records are not
# "missing from the local log".
other=$(head -n 1 "$C" | sed 's/"host":"[^"]*"/"host":"other-host.example"/; s/"id":"[0-9a-f]*"/"id":"00000000000000000000000000000000"/; s/,"hash":"[0-9a-f]*"}$//')
h=$(printf '%s' "$other" | sha256sum | cut -c1-64)
{ cat "$C"; printf '%s,"hash":"%s"}\n' "$other" "$h"; } > "$T/two-hosts.jsonl"
"$A" crosscheck "$L" "$T/two-hosts.jsonl" > "$T/out" 2>&1
is "another host's records at the collector are not reported" "$?" 0

stop_rsyslogd "$LPID"
stop_rsyslogd "$CPID"
finish
