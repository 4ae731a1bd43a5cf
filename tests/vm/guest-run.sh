#!/bin/bash
# Runs inside the VM at boot (gxvm.service, a system service): the
# integration tests of the build tree copied into the image, first as
# root from this service, then as the lingering user gxuser inside its
# systemd user manager (systemd-run --user --wait), so the cgroup is the
# one user@1000.service delegates, as on a desktop or a CI runner.
# Results go to /var/lib/gxvm/results/<kernel release>/<root|user>/ and
# as "GXVM-RESULT ..." lines to the console, then the VM powers off.
#
# /etc/gxvm/conf sets TREE (the build tree's absolute path), TIMEOUT
# (seconds per make check) and TESTS_<major>_<minor>_<root|user>: the
# tests for that kernel and user (relative to TREE).  It runs "make
# test-suite.log", automake's harness without the build: the tree was
# built on the host, and the image has no -dev headers its dependency
# files name.
set -u
. /etc/gxvm/conf
rel=$(uname -r)
kv=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1_\2/')
out=/var/lib/gxvm/results/$rel
mkdir -p "$out"
say() { echo "GXVM: $*" > /dev/console; }

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

# summarize WHO DIR: the totals of DIR/test-suite.log on the console.
summarize() {
	local who=$1 dir=$2 p=0 f=0 s=0 e=0
	if [ -f "$dir/test-suite.log" ]; then
		p=$(sed -n 's/^# PASS: *//p' "$dir/test-suite.log")
		f=$(sed -n 's/^# FAIL: *//p' "$dir/test-suite.log")
		e=$(sed -n 's/^# ERROR: *//p' "$dir/test-suite.log")
		s=$(sed -n 's/^# SKIP: *//p' "$dir/test-suite.log")
		f=$(( ${f:-0} + ${e:-0} ))
	else
		f=1
	fi
	say "RESULT kernel=$rel user=$who pass=${p:-0} fail=$f skip=${s:-0} rc=$(cat "$dir/rc" 2>/dev/null)"
	for t in "$dir"/*.log; do
		[ "${t##*/}" = test-suite.log ] && continue
		grep -E '^(not ok|ok .*# SKIP)' "$t" 2>/dev/null |
			sed "s|^|GXVM: $who ${t##*/}: |" > /dev/console
	done
}

# collect DIR RC TESTS...: the logs of one run.
collect() {
	local dir=$1 rc=$2 t; shift 2
	echo "$rc" > "$dir/rc"
	cp "$TREE/test-suite.log" "$dir/" 2>/dev/null
	for t in "$@"; do
		cp "$TREE/${t%.sh}.log" "$dir/" 2>/dev/null
		cp "$TREE/${t%.sh}.trs" "$dir/" 2>/dev/null
	done
}

var=TESTS_${kv}_root
tests=${!var:-}
if [ -n "$tests" ]; then
	say "root: make check ($(echo $tests | wc -w) tests)"
	mkdir -p "$out/root"
	rm -f "$TREE/test-suite.log" "$TREE"/tests/integ/*.log "$TREE"/tests/integ/*.trs
	# shellcheck disable=SC2086
	(cd "$TREE" && timeout -k 10 "$TIMEOUT" make test-suite.log TESTS="$tests") \
		> "$out/root/make.out" 2>&1
	collect "$out/root" $? $tests
	summarize root "$out/root"
fi

var=TESTS_${kv}_user
tests=${!var:-}
if [ -n "$tests" ]; then
	say "user: make check ($(echo $tests | wc -w) tests) in user@1000.service"
	mkdir -p "$out/user"
	chown -R gxuser: "$TREE" "$out/user"
	rm -f "$TREE/test-suite.log" "$TREE"/tests/integ/*.log "$TREE"/tests/integ/*.trs
	# The job: make check in the tree, its output and status in $out/user.
	job="cat /proc/self/cgroup > '$out/user/cgroup'; cd '$TREE' && timeout -k 10 $TIMEOUT make test-suite.log TESTS='$tests' > '$out/user/make.out' 2>&1; echo \$? > '$out/user/rc.job'"
	runuser -u gxuser -- env XDG_RUNTIME_DIR=/run/user/1000 \
		DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus \
		systemd-run --user --wait --collect --quiet \
		--unit=gxvm-tests /bin/bash -c "$job" > "$out/user/systemd-run.out" 2>&1
	src=$?
	journalctl --no-pager -b -u user@1000.service > "$out/user/journal.txt" 2>&1
	say "user: systemd-run status $src"
	# shellcheck disable=SC2086
	collect "$out/user" "$(cat "$out/user/rc.job" 2>/dev/null || echo none)" $tests
	summarize user "$out/user"
fi
sync
say "DONE"
systemctl poweroff
