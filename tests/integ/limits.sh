#!/bin/bash
# Guarantee 6 (the rlimit part): a fork bomb ends in the process limit, a
# memory hog in the memory limit, and cpu / file_size are reported.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 10

P=$(policy procs <<'EOF2'
version = 1;
name = "procs";
limits: { processes = 20; timeout = 30; kill_grace = 1; };
audit: { sync = false; };
EOF2
)
if unpriv_setup; then
	# The bound inside the helper (1000 forks in all) keeps a failing
	# limit from hurting the machine.
	tag="gxfb-$$-u"
	as_user "$GUARDEXEC" -l "$T/u-audit.log" -r "$T/u.json" -p "$P" -- \
		"$HELPERS/forkbomb" 1000 "$tag" > "$T/fb.out" 2>&1
	rc=$?
	like "fork bomb (unprivileged): forks fail with EAGAIN at the limit" \
		"$(cat "$T/fb.out")" 'forks: [0-9]+ ok, [1-9][0-9]* failed \(EAGAIN\)'
	okn=$(sed -n 's/forks: \([0-9]*\) ok.*/\1/p' "$T/fb.out")
	check "fork bomb (unprivileged): no more than 20 processes ($okn forks)" test "${okn:-999}" -le 20
	is "fork bomb (unprivileged): the helper saw the limit" "$rc" 0
	is "fork bomb: nothing left behind (the family was killed)" \
		"$(count_cmdline "$tag")" 0
else
	skip "fork bomb as an unprivileged user: $UNPRIV_REASON"
	skip "fork bomb as an unprivileged user: $UNPRIV_REASON"
	skip "fork bomb as an unprivileged user: $UNPRIV_REASON"
	skip "fork bomb as an unprivileged user: $UNPRIV_REASON"
fi
if is_root; then
	# RLIMIT_NPROC does not bind root: the policy drops to command.user.
	PU=$(policy procs-user <<'EOF2'
version = 1;
name = "procs-user";
command: { user = "nobody"; };
limits: { processes = 20; timeout = 30; kill_grace = 1; };
audit: { sync = false; };
EOF2
)
	tag="gxfb-$$-r"
	chmod 1777 "$T"
	run_gx -p "$PU" -- "$HELPERS/forkbomb" 1000 "$tag"
	okn=$(sed -n 's/forks: \([0-9]*\) ok.*/\1/p' "$T/stdout")
	check "fork bomb as root with command.user: at most 20 processes ($okn forks)" \
		test "${okn:-999}" -le 20 -a "$rc" = 0
else
	skip "fork bomb as root with command.user: not root"
fi

M=$(policy mem <<'EOF2'
version = 1;
name = "mem";
limits: { memory = "64M"; timeout = 30; };
audit: { sync = false; };
EOF2
)
run_gx -p "$M" -- "$HELPERS/memhog" 1024
like "memory hog: allocation fails at the limit" "$out" '^allocation failed after [0-9]+ MiB$'
n=$(printf '%s\n' "$out" | sed -n 's/.*after \([0-9]*\) MiB/\1/p')
check "memory hog: it got less than 64 MiB ($n MiB)" test "${n:-999}" -lt 64

C=$(policy cpu <<'EOF2'
version = 1;
name = "cpu";
limits: { cpu = 1; timeout = 30; };
audit: { sync = false; };
EOF2
)
run_gx -p "$C" -- sh -c 'while :; do :; done'
is "cpu limit: killed by SIGXCPU (128+24)" "$rc" 152
is "cpu limit: limit_hit cpu" "$(field limit_hit)" '"cpu"'

F=$(policy fsize <<'EOF2'
version = 1;
name = "fsize";
limits: { file_size = "1M"; timeout = 30; };
audit: { sync = false; };
EOF2
)
run_gx -p "$F" -- sh -c "exec $HELPERS/flood 10M 65536 1 > $T/big"
is "file_size: limit_hit file_size (SIGXFSZ)" "$(field limit_hit) $rc" '"file_size" 153'
finish
