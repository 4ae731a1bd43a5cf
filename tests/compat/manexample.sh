#!/bin/bash
# The example policy of guardexec.cfg(5) (EXAMPLES), as a repository
# would check it in: CHECKOUT/.guardexec/agent.cfg, with src/ and tests/
# writable.  make test in a C project and pytest in a Python project must
# work with no denials, as root and as the user (see tests/compat/lib.sh);
# and the policy must not be writable by the command.
. "$TOP_SRCDIR/tests/compat/lib.sh"
setup_whos

# The checkouts live outside /tmp: the example's policy grants /tmp, and
# a policy the command could rewrite runs only once trusted.
C=$(mktemp -d /var/tmp/guardexec-man.XXXXXX) ||
	{ echo "Bail out! mktemp"; exit 1; }
_extra_dirs="$_extra_dirs $C"
chmod 755 "$C"

# checkout DIR: the example's layout in DIR (the workloads of $WR), the
# policy taken from the manual (the first literal block of EXAMPLES,
# mdoc escapes undone).
checkout() {
	local d=$1 w=$WR
	mkdir -p "$d/.guardexec" "$d/src/pkg" "$d/tests"
	awk '/^\.Sh EXAMPLES/ { e = 1 } e && /^\.Bd -literal/ { b = 1; next }
		b && /^\.Ed/ { exit } b { print }' "$TOP_SRCDIR/man/guardexec.cfg.5" |
		sed -e 's/\\e/\\/g' -e 's/\\&//g' > "$d/.guardexec/agent.cfg"
	chmod 644 "$d/.guardexec/agent.cfg"
	cp "$w/c/hello.c" "$w/c/Makefile" "$d/src/"
	cp "$w/py/pkg/__init__.py" "$d/src/pkg/"
	cp "$w/py/test_pkg.py" "$d/tests/"
	printf 'import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))\n' \
		> "$d/tests/conftest.py"
	printf 'test:\n\tpython3 -m pytest -q -p no:cacheprovider --basetemp=.pytest-tmp\n' \
		> "$d/tests/Makefile"
}
checkout "$C/root"
if ! grep -q '^version = 1;' "$C/root/.guardexec/agent.cfg"; then
	echo "Bail out! no example policy in guardexec.cfg(5)"
	exit 1
fi
if echo " $WHOS " | grep -q " user "; then
	checkout "$C/user"
	[ "$AS_USER" != " " ] && chown -R 65534:65534 "$C/user"
fi
need_landlock "$C/root/.guardexec/agent.cfg"
export MAKEFLAGS= MFLAGS= MAKELEVEL=

# example NAME SUBDIR WANT CMD...: as works, with each tree's own policy.
example() {
	local name=$1 sub=$2 who dir
	_want=$3
	shift 3
	for who in root user; do
		if ! echo " $WHOS " | grep -q " $who "; then
			skip "manual example: $name ($who): $(why_not "$who")"
			continue
		fi
		dir=$C/root; [ "$who" = user ] && dir=$C/user
		run_as "$who" "$dir/.guardexec/agent.cfg" "$dir/$sub" "$@"
		works_check "manual example: $name" "$who"
	done
}
example "make test (C project)" src built make -s test
if PATH=/usr/bin:/bin python3 -c 'import pytest' 2>/dev/null; then
	example "make test (Python project, pytest)" tests "2 passed" \
		sh -c 'make -s test | tail -n 1 | sed "s/ in .*//"'
else
	skip "manual example: pytest is not installed (python3-pytest)"
	skip "manual example: pytest is not installed (python3-pytest)"
fi
# Its own policy is out of the command's reach (the point of the layout).
example "the policy cannot be rewritten" src refused \
	sh -c 'if echo x >> ../.guardexec/agent.cfg; then echo written; else echo refused; fi'
echo "1..$_tap_n"
finish
