#!/bin/bash
# guardexec-audit report: a self-contained HTML page from a real log.
# Hostile argv only ever appears escaped, nothing is fetched, every
# section is there; rendered in headless Chromium when it is installed.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 28

A=$GUARDEXEC_AUDIT
P=$(policy rep <<'EOF2'
version = 1;
name = "rep";
limits: { timeout = 0.5; kill_grace = 0.2; };
syscalls: { allow = [ "@default", "@process", "@signal", "@file-read", "@ipc", "@time" ]; };
advisory: { warn = ( { match = "danger"; reason = "looks dangerous"; } ); };
audit: { sync = false; };
EOF2
)
L=$T/audit.log
R=$T/report.html
run_gx -p "$P" -- true
run_gx -p "$P" -- echo hello
run_gx -p "$P" -- sh -c 'exit 3'
run_gx -p "$P" -- "$HELPERS/spin-until-killed" -i
run_gx -q -p "$P" -- "$HELPERS/try-syscall" ptrace
# An advisory match, with hostile arguments: the run is a suspicious
# one, so its command is on the page.
run_gx -p "$P" -- echo danger '<script>alert(1)</script>' 'x"y' "it's" \
	"$(printf 'esc\033[31m\ttab')"
run_gx -p "$T/no-such-policy.cfg" -- true
is "the log has 7 records" "$(wc -l < "$L")" 7

"$A" report -o "$R" "$L" > "$T/out" 2> "$T/err"
is "report exits 0, quietly" "$?|$(cat "$T/out" "$T/err")" "0|"
page=$(cat "$R" 2>/dev/null)
like "it is an HTML5 page" "$(head -n 1 "$R")" '^<!DOCTYPE html>$'
for id in summary runs-over-time outcomes-by-policy top-denied \
	advisories-timeouts suspicious-runs; do
	like "section id \"$id\"" "$page" "id=\"$id\""
done
is "the script tag from argv never appears raw" \
	"$(grep -cF '<script>alert' "$R")" 0
check "it appears escaped" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$R"
is "a double quote from argv appears only escaped" \
	"$(grep -cF 'x"y' "$R")|$(grep -oF 'x&quot;y' "$R" | wc -l)" "0|2"
check "control characters are shown as \\uXXXX" \
	grep -qF 'esc\u001B[31m\u0009tab' "$R"
is "no URL but the SVG namespace" \
	"$(grep -oE 'https?://[^"<> ]*' "$R" | grep -cvxF 'http://www.w3.org/2000/svg')" 0
is "nothing to fetch: no script, src, url(), @import, or href but data:" \
	"$(grep -ciE '<script|src=|url\(|@import|href="[^d]' "$R")" 0
denied=$(sed -n '/id="top-denied"/,/<\/section>/p' "$R")
like "the denied syscall is in top-denied" "$denied" '>ptrace<'
like "header: 7 runs" "$page" '<span>Runs</span><b>7</b>'
like "header: 1 timeout" "$page" '<span>Timeouts</span><b>1</b>'
adv=$(sed -n '/id="advisories-timeouts"/,/<\/section>/p' "$R")
like "the advisory rule is counted" "$adv" '>danger</code></td><td>looks dangerous</td><td class="n">1<'
susp=$(sed -n '/id="suspicious-runs"/,/<\/section>/p' "$R")
is "suspicious runs: timeout, denial, advisory, refused" \
	"$(printf '%s\n' "$susp" | grep -c '^<tr><td')" 4

"$A" report -o - "$L" > "$T/stdout.html" 2> /dev/null
is "-o - writes the same page to stdout" "$?|$(cmp -s "$R" "$T/stdout.html" && echo same)" "0|same"
{ cat "$L"; echo 'not a record'; echo '{"torn":'; } > "$T/bad.log"
"$A" report -o "$T/bad.html" "$T/bad.log" 2> "$T/err"
is "unparsable lines: still exit 0" "$?|$(cat "$T/err")" "0|"
check "and the header counts them" \
	grep -qF '2 lines were not records: run verify' "$T/bad.html"
"$A" report -o "$T/none.html" 2> "$T/err"
is "no LOG: usage error 2" "$?|$(head -n 1 "$T/err")" \
	"2|guardexec-audit: report: no LOG given"
"$A" report -o "$T/none.html" "$T/missing.log" 2> "$T/err"
is "a missing LOG: 2, named, and no page written" \
	"$?|$(cat "$T/err")|$(test -e "$T/none.html" || echo none)" \
	"2|guardexec-audit: $T/missing.log: No such file or directory|none"

# Rendering, when a headless Chromium is there.  Its profile, cache and
# temporary files stay in $T; every process it starts dies with it.
if command -v chromium > /dev/null 2>&1; then
	mkdir -p "$T/home"
	# Live processes with $T in their command line: Chromium's helpers
	# (zygote, crash handler) may outlive the browser for a moment.
	t_pids() {
		local f p
		for f in /proc/[0-9]*/cmdline; do
			p=${f#/proc/}
			p=${p%/cmdline}
			if tr '\0' ' ' < "$f" 2>/dev/null | grep -qF -- "$T/"; then
				echo "$p"
			fi
		done
	}
	chrome() {
		local p
		HOME=$T/home XDG_CONFIG_HOME=$T/home/.config \
		XDG_CACHE_HOME=$T/home/.cache TMPDIR=$T \
		timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu \
			--disable-quic --no-first-run --disable-background-networking \
			--disable-component-update --disable-sync \
			--user-data-dir="$T/chrome" --enable-logging=stderr --v=0 \
			"$@" "file://$R" &
		track_pid $!
		wait $!
		if ! wait_for test -z "$(t_pids)"; then
			for p in $(t_pids); do
				track_pid "$p"
				kill -9 "$p" 2>/dev/null
			done
		fi
	}
	chrome --screenshot="$T/shot.png" --window-size=1280,2000 \
		> /dev/null 2> "$T/chrome.err"
	size=$(stat -c %s "$T/shot.png" 2>/dev/null || echo 0)
	check "chromium renders a screenshot of more than 10 KB ($size bytes)" \
		test "$size" -gt 10240
	chrome --dump-dom > "$T/dom.html" 2> "$T/chrome2.err"
	ids='summary|runs-over-time|outcomes-by-policy|top-denied'
	ids="$ids|advisories-timeouts|suspicious-runs"
	is "the rendered DOM has the six sections" \
		"$(grep -oE "id=\"($ids)\"" "$T/dom.html" | sort -u | wc -l)" 6
	# With --enable-logging, console messages (script errors, fetches
	# the page's policy refused) are lines like
	# [pid:tid:time:INFO:CONSOLE:1] "Uncaught ...", source: file:///...
	cons=$(cat "$T/chrome.err" "$T/chrome2.err" | grep -E 'CONSOLE|Uncaught')
	is "no console messages while rendering" "$cons" ""
else
	skip "chromium is not installed"
	skip "chromium is not installed"
	skip "chromium is not installed"
fi
finish
