#!/bin/bash
# make compat: a slice of CPython's regression suite (Debian's
# libpython3.11-testsuite) unguarded, under agent.cfg and under
# python-test.cfg (python-eval.cfg with a suite's timeout); prints per
# module the counts and every test that passes unguarded but fails
# guarded.  Exit 1 when a test fails under agent.cfg that passes
# unguarded and is not listed, with its reason, in
# tests/compat/cpython-refusals.txt (the README's list).
#
#   COMPAT_MODULES="test_os test_json" make compat     # another slice
#   COMPAT_POLICIES="agent"                            # fewer columns
set -u
: "${GUARDEXEC:?}" "${TOP_SRCDIR:?}"
PY=/usr/bin/python3
MODULES=${COMPAT_MODULES:-"test_os test_subprocess test_shutil test_tempfile
	test_pathlib test_json test_signal test_threading
	test_multiprocessing_spawn test_socket test_selectors test_io test_mmap
	test_zipfile"}
POLICIES=${COMPAT_POLICIES:-"agent python-test"}
REFUSALS=$TOP_SRCDIR/tests/compat/cpython-refusals.txt

if ! [ -f /usr/lib/python3.11/test/test_os.py ]; then
	echo "make compat: SKIP: libpython3.11-testsuite is not installed"
	exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/guardexec-compat.XXXXXX")
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT

# Only a slice of test_multiprocessing_spawn: all of it takes 20 minutes
# on two cores.  The processes' locks, semaphores, queues, pipes, a pool.
kflags() {
	case $1 in
	test_multiprocessing_spawn)
		echo "-k WithProcessesTestLock -k WithProcessesTestSemaphore" \
			"-k WithProcessesTestQueue.test_put -k WithProcessesTestConnection.test_connection" \
			"-k WithProcessesTestPool.test_map -k WithProcessesTestPool.test_apply" \
			"-k WithProcessesTestSharedMemory.test_shared_memory_basics" ;;
	# AF_VSOCK tests wait forever for a peer in some virtual machines.
	test_socket) echo "-x VSOCK" ;;
	esac
}

run_one() {         # CONFIG MODULE
	local cfg=$1 mod=$2 d=$T/$1-$2 start
	mkdir -p "$d"
	cp "$TOP_SRCDIR/tests/compat/cpython-run.py" "$d/"
	start=$(date +%s)
	if [ "$cfg" = unguarded ]; then
		# A bound like the policies' own: a test that hangs (as the
		# AF_VSOCK ones did) must not hang make compat.
		(cd "$d" && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 \
			timeout -k 5 600 "$PY" cpython-run.py "$mod" result.json $(kflags "$mod")) \
			> "$d/out" 2> "$d/err"
	else
		"$GUARDEXEC" -q -l "$T/audit.log" -r "$d/record" \
			-p "$TOP_SRCDIR/policies/$cfg.cfg" -C "$d" -- \
			python3 cpython-run.py "$mod" result.json $(kflags "$mod") \
			> "$d/out" 2> "$d/err"
	fi
	echo "$(( $(date +%s) - start ))" > "$d/secs"
}

for mod in $MODULES; do
	for cfg in unguarded $POLICIES; do
		run_one "$cfg" "$mod"
	done
done

"$PY" - "$T" "$REFUSALS" "$POLICIES" $MODULES <<'PYEOF'
import fnmatch, json, os, sys
T, refusals_path, policies = sys.argv[1], sys.argv[2], sys.argv[3].split()
modules = sys.argv[4:]
refusals = []
for line in open(refusals_path):
    line = line.rstrip("\n")
    if line and not line.startswith("#"):
        pat, _, why = line.partition("\t")
        refusals.append((pat, why))

def load(cfg, mod):
    d = os.path.join(T, "%s-%s" % (cfg, mod))
    try:
        with open(os.path.join(d, "result.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

def counts(r):
    if r is None:
        return "no result"
    n = lambda w: sum(1 for v in r.values() if v == w)
    return "%d ok %d fail %d skip" % (n("ok"), n("fail"), n("skip"))

def secs(cfg, mod):
    try:
        return open(os.path.join(T, "%s-%s" % (cfg, mod), "secs")).read().strip() + "s"
    except OSError:
        return "?"

bad = 0
cols = ["unguarded"] + policies
print("%-28s " % "module" + " ".join("%-30s" % c for c in cols))
diffs = []
for mod in modules:
    base = load("unguarded", mod)
    row = []
    for cfg in cols:
        r = load(cfg, mod)
        row.append("%s (%s)" % (counts(r), secs(cfg, mod)))
        if cfg == "unguarded" or base is None:
            continue
        if r is None:
            diffs.append((cfg, mod, "the whole module", "no result: " +
                          open(os.path.join(T, "%s-%s" % (cfg, mod), "err")).read()[-300:]))
            if cfg == "agent":
                bad += 1
            continue
        for tid, v in sorted(base.items()):
            if v == "ok" and r.get(tid, "missing") != "ok":
                why = next((w for p, w in refusals if fnmatch.fnmatch(tid, p)), None)
                if cfg == "agent" and why is None:
                    bad += 1
                diffs.append((cfg, mod, tid, r.get(tid, "missing") + (": " + why if why else "")))
    print("%-28s " % mod + " ".join("%-30s" % c for c in row))
print()
for cfg in policies:
    ds = [d for d in diffs if d[0] == cfg]
    print("passes unguarded, not under %s.cfg: %d" % (cfg, len(ds)))
    for _, mod, tid, what in ds:
        print("  %s: %s" % (tid, what))
print()
print("undocumented regressions under agent.cfg: %d" % bad)
sys.exit(1 if bad else 0)
PYEOF
