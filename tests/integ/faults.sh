#!/bin/bash
# Fault injection: the log deleted or rotated during a run, a child that
# closes stdout early, a slow reader, a storm of signals, the policy file
# replaced while runs read it.  Expected: no lost or torn record, and the
# run's own result unchanged.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 14

L=$T/audit.log
P=$(policy faults <<EOF2
version = 1;
name = "faults";
limits: { timeout = 30; };
audit: { log = "$L"; sync = false; };
EOF2
)
A=$GUARDEXEC_AUDIT

# The log deleted while the command runs: the record goes to a new file.
"$GUARDEXEC" -p "$P" -- true
"$GUARDEXEC" -p "$P" -- sh -c "rm -f '$L' '$L.head'; echo gone"
is "log deleted during the run: the run's status" "$?" 0
is "... its record is in the new log (one line)" "$(wc -l < "$L" 2>/dev/null)" 1
like "... which says where the chain restarted" "$(cat "$L")" '"prev":"0{64}"'

# Rotated during the run (logrotate's rename): the record goes to the new
# file, chained onto the rotated one.
rm -f "$L" "$L".*
"$GUARDEXEC" -p "$P" -- true
"$GUARDEXEC" -p "$P" -- true
"$GUARDEXEC" -p "$P" -- sh -c "mv '$L' '$L.1'"
is "rotated during the run: old file keeps its 2 lines" "$(wc -l < "$L.1")" 2
is "... the record went to the new file" "$(wc -l < "$L")" 1
"$A" verify "$L.1" "$L" > "$T/v" 2>&1
is "... and the chain verifies across the rotation" "$?|$(cat "$T/v")" "0|3 records, chain intact"

# A child that closes its stdout early, then writes on stderr.
run_gx -p "$P" -- sh -c 'exec >&-; sleep 0.2; echo late >&2; exit 4'
is "stdout closed early: the status and the later stderr arrive" "$rc|$err" "4|late"

# A slow reader on our stdout: nothing lost, no hang.
"$GUARDEXEC" -p "$P" -- "$HELPERS/flood" 8M | (sleep 1; wc -c) > "$T/slow"
is "slow reader: all 8 MiB arrive" "$(tr -d ' ' < "$T/slow")" 8388608

# A storm of signals guardexec does not act on (SIGCHLD, SIGWINCH,
# SIGURG) during a flood: the run and its record are unaffected.
"$GUARDEXEC" -p "$P" -r "$T/storm.json" -- "$HELPERS/flood" 200M > "$T/storm.out" &
g=$!
track_pid "$g"
for i in $(seq 1 300); do
	kill -CHLD "$g" 2>/dev/null; kill -WINCH "$g" 2>/dev/null; kill -URG "$g" 2>/dev/null
done
wait "$g"
is "signal storm: the run's status" "$?" 0
is "... every byte relayed" "$(wc -c < "$T/storm.out")" 209715200
like "... and counted" "$(cat "$T/storm.json")" '"stdout_bytes":209715200'

# The policy replaced (by rename) while runs read it: every record holds
# the sha256 of one complete version, and the name that version has.
printf 'version = 1;\nname = "one";\naudit: { log = "%s"; sync = false; };\n' "$T/p.log" > "$T/v1.cfg"
printf 'version = 1;\nname = "two";\n# a longer version\naudit: { log = "%s"; sync = false; };\n' "$T/p.log" > "$T/v2.cfg"
h1=$(sha256sum < "$T/v1.cfg" | cut -d' ' -f1)
h2=$(sha256sum < "$T/v2.cfg" | cut -d' ' -f1)
cp "$T/v1.cfg" "$T/live.cfg"
( for i in $(seq 1 200); do cp "$T/v$((i % 2 + 1)).cfg" "$T/tmp.cfg"; mv "$T/tmp.cfg" "$T/live.cfg"; done ) &
flip=$!
track_pid "$flip"
for i in $(seq 1 40); do "$GUARDEXEC" -q -p "$T/live.cfg" -- true > /dev/null 2>&1; done
wait "$flip"
bad=$(grep -v -e "\"name\":\"one\",\"path\":\"[^\"]*\",\"sha256\":\"$h1\"" \
	-e "\"name\":\"two\",\"path\":\"[^\"]*\",\"sha256\":\"$h2\"" "$T/p.log" | wc -l)
is "policy replaced while read: 40 records" "$(wc -l < "$T/p.log")" 40
is "... each with the name and sha256 of one whole version" "$bad" 0
"$A" verify "$T/p.log" > /dev/null
is "... and the chain verifies" "$?" 0
finish
