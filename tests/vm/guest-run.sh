#!/bin/bash
# Runs inside the VM at boot (gxvm.service, a system service): the
# integration tests of the build tree copied into the image, first as
# root, then as the lingering user gxuser inside its systemd user manager
# (user@1000.service, whose cgroup systemd delegates, as on a desktop or
# a CI runner).
#
# Each test script runs alone in a transient service of its own
# (systemd-run --wait; --user for gxuser) with RuntimeMaxSec: a test that
# hangs is stopped, its whole unit cgroup killed, and it counts as failed
# (result=TIMEOUT), named; the run goes on with the next one.  As each
# script ends, one line goes to the serial console:
#
#   GXVM: TEST kernel=REL user=WHO test=NAME.sh result=R pass=N fail=N skip=N secs=N
#
# (R: PASS, FAIL, SKIP, ERROR, TIMEOUT), followed by its "not ok" lines,
# so vm.sh reads the results from the serial log even when the VM never
# finishes.  The TAP logs also go to /var/lib/gxvm/results/<release>/<who>/
# (synced after each script), for table.py.
#
# /etc/gxvm/conf sets TREE (the build tree's absolute path), TEST_TIMEOUT
# (seconds per script) and TESTS_<major>_<minor>_<root|user>: the tests
# for that kernel and user (relative to TREE).  Each runs as
# "make tests/integ/NAME.log", automake's harness without the build: the
# tree was built on the host.
set -u
. /etc/gxvm/conf
rel=$(uname -r)
kv=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1_\2/')
out=/var/lib/gxvm/results/$rel
mkdir -p "$out"
say() { echo "GXVM: $*" > /dev/console; }
ulib="XDG_RUNTIME_DIR=/run/user/1000 DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"

# Wait for the user manager that lingering starts at boot.
for _i in $(seq 1 300); do
	systemctl is-active -q user@1000.service && break
	sleep 1
done
{
	echo "kernel=$rel"
	echo "cgroup=$(stat -fc %T /sys/fs/cgroup)"
	echo "controllers=$(cat /sys/fs/cgroup/cgroup.controllers 2>/dev/null)"
	echo "user_controllers=$(cat /sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/cgroup.controllers 2>/dev/null)"
	echo "lsm=$(cat /sys/kernel/security/lsm 2>/dev/null)"
	echo "systemd=$(systemctl --version | head -n 1)"
	echo "user_manager=$(systemctl is-active user@1000.service)"
} > "$out/env"
say "kernel $rel, $(tr '\n' ' ' < "$out/env")"

# run_one WHO TEST N: one script in its own transient unit; its result
# on the console and its logs in $out/WHO.
run_one() {
	local who=$1 t=$2 n=$3 name=${2##*/} base=${2%.sh} unit t0 rc r
	local p=0 f=0 s=0
	unit=gxvm-t$n
	rm -f "$TREE/$base.log" "$TREE/$base.trs"
	t0=$(date +%s)
	if [ "$who" = root ]; then
		timeout -k 10 $(( TEST_TIMEOUT + 60 )) \
			systemd-run --wait --collect --quiet --unit="$unit" \
			-p RuntimeMaxSec="$TEST_TIMEOUT" -p WorkingDirectory="$TREE" \
			/usr/bin/make -s "$base.log" TESTS="$t" \
			> "$out/$who/$name.unit" 2>&1
	else
		# shellcheck disable=SC2086
		timeout -k 10 $(( TEST_TIMEOUT + 60 )) \
			runuser -u gxuser -- env $ulib \
			systemd-run --user --wait --collect --quiet --unit="$unit" \
			-p RuntimeMaxSec="$TEST_TIMEOUT" -p WorkingDirectory="$TREE" \
			/usr/bin/make -s "$base.log" TESTS="$t" \
			> "$out/$who/$name.unit" 2>&1
	fi
	rc=$?
	cp "$TREE/$base.log" "$out/$who/" 2>/dev/null
	cp "$TREE/$base.trs" "$out/$who/" 2>/dev/null
	if [ -f "$TREE/$base.trs" ]; then
		p=$(grep -c '^:test-result: PASS' "$TREE/$base.trs")
		f=$(grep -Ec '^:test-result: (FAIL|XPASS)' "$TREE/$base.trs")
		s=$(grep -c '^:test-result: SKIP' "$TREE/$base.trs")
		r=$(sed -n 's/^:global-test-result: *//p' "$TREE/$base.trs")
		# tap-driver's ERROR (a bad exit, a wrong plan) is a failure.
		if grep -q '^:test-result: ERROR' "$TREE/$base.trs"; then
			r=ERROR
			[ "$f" != 0 ] || f=1
		fi
	else
		# No .trs: the unit was stopped (RuntimeMaxSec) or never ran.
		r=TIMEOUT
		[ "$rc" = 0 ] && r=ERROR
		f=1
		p=$(grep -c '^ok' "$TREE/$base.log" 2>/dev/null)
		echo "$name: result $r (unit status $rc)" > "$out/$who/$name.missing"
	fi
	say "TEST kernel=$rel user=$who test=$name result=${r:-ERROR} pass=${p:-0} fail=${f:-0} skip=${s:-0} secs=$(( $(date +%s) - t0 ))"
	grep -E '^not ok' "$TREE/$base.log" 2>/dev/null | head -n 20 |
		sed "s|^|GXVM: $who $name: |" > /dev/console
	if [ ! -f "$TREE/$base.trs" ]; then
		# The last lines the script wrote: where it hung.
		tail -n 5 "$TREE/$base.log" 2>/dev/null |
			sed "s|^|GXVM: $who $name (tail): |" > /dev/console
	fi
	sync
}

# run_all WHO: every test of this kernel for WHO, then its totals.
run_all() {
	local who=$1 var tests t n=0 P=0 F=0 S=0
	var=TESTS_${kv}_$who
	tests=${!var:-}
	[ -n "$tests" ] || return 0
	mkdir -p "$out/$who"
	say "$who: $(echo $tests | wc -w) tests, at most $TEST_TIMEOUT s each"
	if [ "$who" = user ]; then
		chown -R gxuser: "$TREE" "$out/$who"
		runuser -u gxuser -- env $ulib systemctl --user show-environment \
			> "$out/$who/user-environment" 2>&1
	fi
	for t in $tests; do
		n=$(( n + 1 ))
		run_one "$who" "$t" "$n"
	done
	for t in $tests; do
		if [ -f "$TREE/${t%.sh}.trs" ]; then
			P=$(( P + $(grep -c '^:test-result: PASS' "$TREE/${t%.sh}.trs") ))
			S=$(( S + $(grep -c '^:test-result: SKIP' "$TREE/${t%.sh}.trs") ))
			F=$(( F + $(grep -Ec '^:test-result: (FAIL|XPASS|ERROR)' "$TREE/${t%.sh}.trs") ))
		else
			F=$(( F + 1 ))
		fi
	done
	say "RESULT kernel=$rel user=$who pass=$P fail=$F skip=$S"
	if [ "$who" = user ]; then
		journalctl --no-pager -b -u user@1000.service > "$out/$who/journal.txt" 2>&1
	fi
}

run_all root
run_all user
sync
say "DONE kernel=$rel"
systemctl poweroff
