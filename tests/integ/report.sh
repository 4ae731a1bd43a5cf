#!/bin/bash
# guardexec-audit report: a self-contained HTML page from a real log.
# Hostile argv only ever appears escaped, nothing is fetched, the one
# inline script is the one the page's CSP names by hash, every section is
# there (the full run list, policies by path and sha256, per user, the
# policy changes, each file's chain); rendered in headless Chromium when
# it is installed, where the run list's filter and sort are driven.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 58

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
	"$(printf 'esc\033[31m\ttab')" "$(printf 'rtl\xe2\x80\xaeevil')"
run_gx -p "$T/no-such-policy.cfg" -- true
# The same policy file rewritten (it keeps its name), and another file
# that declares the same name: three policies, not one "rep".
sha_old=$(sha256sum < "$P" | cut -c1-64)
sed -i 's/timeout = 0.5/timeout = 5/' "$P"
sha_new=$(sha256sum < "$P" | cut -c1-64)
run_gx -p "$P" -- true
mkdir "$T/other"
P2=$(cp "$P" "$T/other/rep.cfg" && echo "$T/other/rep.cfg")
echo '# another' >> "$P2"
run_gx -p "$P2" -- true
is "the log has 9 records" "$(wc -l < "$L")" 9

"$A" report -o "$R" "$L" > "$T/out" 2> "$T/err"
is "report exits 0, quietly" "$?|$(cat "$T/out" "$T/err")" "0|"
page=$(cat "$R" 2>/dev/null)
like "it is an HTML5 page" "$(head -n 1 "$R")" '^<!DOCTYPE html>$'
for id in summary chain-status runs-over-time outcomes-by-policy top-denied \
	advisories-timeouts per-user policy-changes runs; do
	like "section id \"$id\"" "$page" "id=\"$id\""
done
is "the script tag from argv never appears raw" \
	"$(grep -cF '<script>alert' "$R")" 0
check "it appears escaped" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$R"
is "a double quote from argv appears only escaped" \
	"$(grep -cF 'x"y' "$R")|$(grep -oF 'x&quot;y' "$R" | wc -l)" "0|2"
is "a bidi override (U+202E) is shown as \\u202E, never raw" \
	"$(grep -c "$(printf '\xe2\x80\xae')" "$R")|$(grep -c 'rtl\\u202Eevil' "$R")" "0|1"
check "control characters are shown as \\uXXXX" \
	grep -qF 'esc\u001B[31m\u0009tab' "$R"
is "no URL but the SVG namespace" \
	"$(grep -oE 'https?://[^"<> ]*' "$R" | grep -cvxF 'http://www.w3.org/2000/svg')" 0
is "nothing to fetch: no src, url(), @import, or href but data:" \
	"$(grep -ciE 'src=|url\(|@import|href="[^d]' "$R")" 0
is "exactly one script element, inline" "$(grep -oiE '<script[^>]*>' "$R")" \
	"<script>"
# The CSP names that script by the sha256 of its text, and nothing else.
script=$(sed -n '/<script>/,/<\/script>/p' "$R")
script=${script#<script>}
script=${script%</script>}
want=$(printf '%s' "$script" | sha256sum | cut -c1-64 | sed 's/../\\x&/g')
want=$(printf "$want" | base64)
csp=$(grep -o 'Content-Security-Policy" content="[^"]*"' "$R")
like "the CSP allows exactly that script by its hash" "$csp" \
	"default-src 'none'; script-src 'sha256-${want//+/\\+}'; style-src"
unlike "and no 'unsafe-inline' or other source for scripts" \
	"$(printf '%s' "$csp" | grep -o "script-src[^;]*")" "unsafe|self|http|data:|\\*"
denied=$(sed -n '/id="top-denied"/,/<\/section>/p' "$R")
like "the denied syscall is in top-denied" "$denied" '>ptrace<'
like "header: 9 runs" "$page" '<span>Runs</span><b>9</b>'
like "header: 1 timeout" "$page" '<span>Timeouts</span><b>1</b>'
adv=$(sed -n '/id="advisories-timeouts"/,/<\/section>/p' "$R")
like "advisories are labelled by their reason, the rule beside it" "$adv" \
	'<td>looks dangerous</td><td><code class="cmd">danger</code></td><td class="n">1<'
runs=$(sed -n '/id="runs"/,/<\/section>/p' "$R")
is "the run list has every record" "$(printf '%s\n' "$runs" | grep -c '^<tr><td')" 9
like "a run row: id, time, host, user, cwd, policy path, sha256, trust" \
	"$runs" "^<tr><td class=\"mono\" title=\"[0-9a-f]{32}\">[0-9a-f]{8}&hellip;</td><td class=\"nw\" data-k=\"20[0-9-]+T[0-9:.]+Z\">[^<]+</td><td>$(hostname)</td><td>$(id -un)</td><td class=\"cmd\">$(pwd)</td><td class=\"cmd\">$P</td><td><code class=\"sha\" title=\"$sha_old\">"
like "the advisory run is tagged by its reason" "$runs" \
	'<span class="tag adv" title="rule: danger">advisory: looks dangerous</span>'
like "the timeout run: status and limit" "$runs" \
	'<span class="badge b3">timeout</span> 124</td><td>timeout</td>'
like "the denied run: ptrace and its count" "$runs" \
	'<td class="deny mono" data-k="[1-9][0-9]*">ptrace&nbsp;&times;[1-9]'
pol=$(sed -n '/id="outcomes-by-policy"/,/<\/section>/p' "$R")
is "policies by path and sha256: the rewritten file and the other file are rows of their own" \
	"$(printf '%s\n' "$pol" | grep -c '^<tr><td')" 4
like "the rewritten policy keeps its name but is a row of its own" \
	"$pol" "$P <code class=\"sha\" title=\"sha256 $sha_new\">"
chg=$(sed -n '/id="policy-changes"/,/<\/section>/p' "$R")
like "the policy change timeline lists both versions of the path, oldest first" \
	"$(printf '%s\n' "$chg" | grep -F "<tr class=\"changed\"><td>$P" | grep -o 'class="sha">[0-9a-f]*' | tr '\n' ' ')" \
	"^class=\"sha\">$sha_old class=\"sha\">$sha_new \$"
like "and marks the second as a change" "$chg" \
	"$P <span class=\"tag adv\">changed</span></td><td><code class=\"sha\">$sha_new<"
usr=$(sed -n '/id="per-user"/,/<\/section>/p' "$R")
like "per-user view: $(id -un) with 9 runs" "$usr" \
	"<tr><td>$(id -un)</td><td class=\"n\"><b>9</b>"
chain=$(sed -n '/id="chain-status"/,/<\/section>/p' "$R")
like "chain status at the top: the log is intact" "$chain" \
	'<span class="chain intact">intact</span>.*starts a new chain'
check "chain status comes before the charts" test \
	"$(grep -n 'id="chain-status"' "$R" | cut -d: -f1)" -lt \
	"$(grep -n 'id="runs-over-time"' "$R" | cut -d: -f1)"
# Two files, a tampered one, a process substitution named with --name.
head -n 4 "$L" > "$T/part1.log"
tail -n +5 "$L" > "$T/part2.log"
sed '2s/"exit_code":0/"exit_code":1/' "$L" > "$T/tampered.log"
"$A" report -o "$T/two.html" "$T/part1.log" "$T/part2.log" 2> "$T/err"
chain=$(sed -n '/id="chain-status"/,/<\/section>/p' "$T/two.html")
like "the second file continues the first" "$chain" \
	'part2.log</code></td><td class="n">5</td><td><span class="chain intact">intact</span></td><td>continues the file before'
"$A" report -o "$T/two.html" "$T/part2.log" 2> "$T/err"
like "a file whose start was rotated away says so" \
	"$(cat "$T/two.html")" 'continues records not given'
"$A" report -o "$T/tampered.html" "$T/tampered.log" 2> "$T/err"
like "a tampered line: broken, at that line" "$(cat "$T/tampered.html")" \
	'<span class="chain broken">broken</span> at line 2: '
"$A" report -n audit.log -o "$T/named.html" <(cat "$L") 2> "$T/err"
like "--name: the title shows the log's real name" \
	"$(grep -o '<title>.*</title>' "$T/named.html")" \
	'^<title>guardexec audit report: audit.log</title>$'
unlike "and not /dev/fd/N" "$(cat "$T/named.html")" '/dev/fd/|/proc/self/fd'

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
			"$@" "$URL" &
		track_pid $!
		wait $!
		if ! wait_for test -z "$(t_pids)"; then
			for p in $(t_pids); do
				track_pid "$p"
				kill -9 "$p" 2>/dev/null
			done
		fi
	}
	URL="file://$R"
	chrome --screenshot="$T/shot.png" --window-size=1280,2000 \
		> /dev/null 2> "$T/chrome.err"
	size=$(stat -c %s "$T/shot.png" 2>/dev/null || echo 0)
	check "chromium renders a screenshot of more than 10 KB ($size bytes)" \
		test "$size" -gt 10240
	chrome --dump-dom > "$T/dom.html" 2> "$T/chrome2.err"
	ids='summary|chain-status|runs-over-time|outcomes-by-policy|top-denied'
	ids="$ids|advisories-timeouts|per-user|policy-changes|runs"
	is "the rendered DOM has the nine sections" \
		"$(grep -oE "id=\"($ids)\"" "$T/dom.html" | sort -u | wc -l)" 9
	like "the script ran (the CSP let it)" \
		"$(grep -o '<body[^>]*>' "$T/dom.html")" 'data-ready="yes"'
	URL="file://$R#q=ptrace"
	chrome --dump-dom > "$T/dom-q.html" 2> "$T/chrome3.err"
	is "filter #q=ptrace: 1 of 9 runs shown" \
		"$(grep -o '<span id="run-count">[0-9]*</span>' "$T/dom-q.html")" \
		'<span id="run-count">1</span>'
	is "the other 8 rows are hidden" \
		"$(grep -c '^<tr hidden=""><td class="mono"' "$T/dom-q.html")" 8
	like "the row shown is the ptrace one" \
		"$(grep '^<tr><td class="mono"' "$T/dom-q.html")" 'ptrace&nbsp;'
	URL="file://$R#q=looks%20DANGEROUS&sort=-denials"
	chrome --dump-dom > "$T/dom-s.html" 2> "$T/chrome4.err"
	is "two words, any case: only the advisory run" \
		"$(grep -o '<span id="run-count">[0-9]*</span>' "$T/dom-s.html")" \
		'<span id="run-count">1</span>'
	like "sort=-denials: the ptrace run comes first" \
		"$(grep -m1 '^<tr[^>]*><td class="mono"' "$T/dom-s.html")" 'ptrace&nbsp;'
	like "and its column is marked sorted descending" \
		"$(cat "$T/dom-s.html")" 'data-col="denials" data-num="" aria-sort="descending"'
	cat "$T/chrome3.err" "$T/chrome4.err" >> "$T/chrome2.err"
	# With --enable-logging, console messages (script errors, fetches
	# the page's policy refused) are lines like
	# [pid:tid:time:INFO:CONSOLE:1] "Uncaught ...", source: file:///...
	cons=$(cat "$T/chrome.err" "$T/chrome2.err" | grep -E 'CONSOLE|Uncaught')
	is "no console messages while rendering" "$cons" ""
else
	for i in $(seq 1 10); do skip "chromium is not installed"; done
fi
finish
