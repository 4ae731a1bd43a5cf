#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Golden policy tests, in the style of OpenBSD's regress/usr.bin/doas:
#  - every tests/policies/good-*.cfg passes "guardexec -p FILE --check"
#    with exit 0 and nothing at all on stderr;
#  - every tests/policies/bad-*.cfg fails with exit 125, and its stderr is
#    exactly bad-*.expected.err (file names and line numbers included);
#  - every shipped policy in policies/*.cfg passes --check (exit 0).
# The policies are checked from their own directory and named by their
# bare file name, so the expected diagnostics do not depend on where the
# source tree is.
#
# Environment: GUARDEXEC, TOP_SRCDIR (set by make check).

set -u

: "${GUARDEXEC:?GUARDEXEC is not set (run through make check)}"
: "${TOP_SRCDIR:?TOP_SRCDIR is not set (run through make check)}"

golden="$TOP_SRCDIR/tests/policies"
shipped="$TOP_SRCDIR/policies"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gx-policies.XXXXXX") || {
	echo "Bail out! mktemp -d failed"
	exit 1
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

cd "$golden" || {
	echo "Bail out! cannot cd to $golden"
	exit 1
}

n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $1"
}

# Print a file as TAP diagnostics.
diag_file() {
	sed 's/^/#   /' "$1"
}

# Count before running anything: the plan comes first.
count() {
	c=0
	for f in "$@"; do
		[ -e "$f" ] && c=$((c + 1))
	done
	echo "$c"
}

n_good=$(count good-*.cfg)
n_bad=$(count bad-*.cfg)
n_shipped=$(count "$shipped"/*.cfg)
echo "1..$((n_good + n_bad + n_shipped + 2))"

# The golden set itself must not shrink unnoticed.
if [ "$n_good" -ge 3 ] && [ "$n_bad" -ge 12 ]; then
	ok "golden set: $n_good good and $n_bad bad policies"
else
	not_ok "golden set: $n_good good and $n_bad bad policies (want >= 3, >= 12)"
fi

for f in good-*.cfg; do
	[ -e "$f" ] || continue
	"$GUARDEXEC" -p "$f" --check >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then
		ok "$f: --check exits 0 with an empty stderr"
	else
		not_ok "$f: --check exits 0 with an empty stderr (exit $rc)"
		diag_file "$tmp/err"
	fi
done

for f in bad-*.cfg; do
	[ -e "$f" ] || continue
	want="${f%.cfg}.expected.err"
	if [ ! -f "$want" ]; then
		not_ok "$f: $want is missing"
		continue
	fi
	"$GUARDEXEC" -p "$f" --check >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 125 ] && cmp -s "$want" "$tmp/err"; then
		ok "$f: exit 125, stderr as $want"
	else
		not_ok "$f: exit 125, stderr as $want (exit $rc)"
		diff -u "$want" "$tmp/err" >"$tmp/diff" 2>&1
		diag_file "$tmp/diff"
	fi
done

# Every line of every expected.err is a "guardexec: " diagnostic that
# names its file and line.
bad_lines=0
for want in bad-*.expected.err; do
	[ -e "$want" ] || continue
	f="${want%.expected.err}.cfg"
	while IFS= read -r line; do
		case $line in
		"guardexec: $f:"[0-9]*": "*) ;;
		*)
			echo "#   $want: $line"
			bad_lines=$((bad_lines + 1))
			;;
		esac
	done <"$want"
done
if [ "$bad_lines" -eq 0 ]; then
	ok "every expected diagnostic reads \"guardexec: FILE:LINE: ...\""
else
	not_ok "every expected diagnostic reads \"guardexec: FILE:LINE: ...\""
fi

for f in "$shipped"/*.cfg; do
	[ -e "$f" ] || continue
	"$GUARDEXEC" -p "$f" --check >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "shipped policies/${f##*/}: --check exits 0"
	else
		not_ok "shipped policies/${f##*/}: --check exits 0 (exit $rc)"
		diag_file "$tmp/err"
	fi
done

[ "$failed" -eq 0 ]
