#!/bin/bash
# Output relay: separation, order, the cap with its exact marker lines,
# head_tail, on_overflow kill, and guardexec's own memory under a flood.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 22

P=$(plain_policy plain)
run_gx -p "$P" -- sh -c 'echo out1; echo err1 >&2; echo out2; echo err2 >&2'
is "stdout arrives on stdout, in order" "$out" "$(printf 'out1\nout2')"
is "stderr arrives on stderr, in order" "$err" "$(printf 'err1\nerr2')"
is "bytes counted per stream" "$(field stdout_bytes) $(field stderr_bytes)" "10 10"

# Streaming, not buffered to the end: the first line is readable while
# the command still runs.
"$GUARDEXEC" -l "$T/audit.log" -p "$P" -- sh -c 'echo early; sleep 30' > "$T/stream" 2>&1 &
g=$!
track_pid "$g"
check "output is relayed while the command runs" wait_for grep -q early "$T/stream"
kill -TERM "$g"; wait "$g" 2>/dev/null

C=$(policy cap <<'EOF2'
version = 1;
name = "cap";
output: { max_bytes = 1024; };
audit: { sync = false; };
EOF2
)
# A 1 GiB flood under a 1 KiB cap; sample guardexec's own peak memory.
"$GUARDEXEC" -l "$T/audit.log" -r "$T/flood.json" -p "$C" -- "$HELPERS/flood" 1G \
	> "$T/flood.out" 2> "$T/flood.err" &
g=$!
track_pid "$g"
hwm=0
while alive "$g"; do
	v=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$g/status" 2>/dev/null)
	[ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
	sleep 0.05
done
wait "$g"
rc=$?
rec=$(cat "$T/flood.json")
is "flood: the command's status" "$rc" 0
is "flood: exactly max_bytes reach stdout" "$(wc -c < "$T/flood.out")" 1024
is "flood: the marker, exactly once, alone on stderr" "$(cat "$T/flood.err")" \
	"[guardexec: output truncated at 1024 bytes]"
is "flood: stdout_bytes counts everything written" "$(field stdout_bytes)" 1073741824
is "flood: truncated in the record" "$(field truncated)" true
diag "guardexec peak RSS during a 1 GiB flood: ${hwm} kB"
check "flood: guardexec's own memory stayed bounded (< 32 MiB)" test "$hwm" -lt 32768

# The cap covers stdout and stderr together.
run_gx -p "$C" -- sh -c "$HELPERS/flood 1000 100 1; $HELPERS/flood 1000 100 2"
is "the cap counts both streams: 1000 on stdout, 24 on stderr" \
	"$(wc -c < "$T/stdout") $(head -n 1 "$T/stderr" | tr -d '\n' | wc -c)" "1000 24"
like "the marker ends stderr" "$(tail -n 1 "$T/stderr")" '^\[guardexec: output truncated at 1024 bytes\]$'

# A partial line before the marker: the marker still stands on its own line.
run_gx -p "$C" -- sh -c "printf partial >&2; $HELPERS/flood 5000 5000 2"
like "the marker is on a line of its own" "$err" $'\n\\[guardexec: output truncated at 1024 bytes\\]$'

HT=$(policy headtail <<'EOF2'
version = 1;
name = "headtail";
output: { max_bytes = 100; keep = "head_tail"; };
audit: { sync = false; };
EOF2
)
run_gx -p "$HT" -- sh -c 'seq 1 1000; echo THE-ERROR-AT-THE-END >&2'
is "head_tail: the head is the first 50 bytes" "$(head -c 50 "$T/stdout" | head -n 1)" "1"
like "head_tail: the tail keeps the end (the error)" "$err" 'THE-ERROR-AT-THE-END'
total=$(( $(seq 1 1000 | wc -c) + 21 ))
like "head_tail: the marker says how many bytes were left out" "$err" "^\\[guardexec: $((total - 100)) bytes omitted\\]\$"
marker=$(grep omitted "$T/stderr")
is "head_tail: kept bytes add up to max_bytes" \
	"$(( $(wc -c < "$T/stdout") + $(wc -c < "$T/stderr") - ${#marker} - 1 ))" 100

run_gx -p "$HT" -- sh -c 'echo short'
is "head_tail under the cap: all output, no marker" "$out|$err" "short|"

K=$(policy kill <<'EOF2'
version = 1;
name = "kill";
output: { max_bytes = 1000; on_overflow = "kill"; };
limits: { timeout = 60; };
audit: { sync = false; };
EOF2
)
run_gx -p "$K" -- "$HELPERS/flood" 100G
is "on_overflow kill: the command is killed (SIGKILL)" "$rc" 137
is "on_overflow kill: limit_hit output" "$(field limit_hit)" '"output"'
is "on_overflow kill: the first max_bytes were passed on" "$(wc -c < "$T/stdout")" 1000

# A reader that closed its end does not hang or kill guardexec.
"$GUARDEXEC" -l "$T/audit.log" -p "$P" -- "$HELPERS/flood" 10M | head -c 10 > /dev/null
is "a closed stdout on the caller's side: guardexec still finishes" "$?" 0
finish
