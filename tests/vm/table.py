#!/usr/bin/env python3
"""Render the README's "Where it runs" table from the VM lane's results.

    table.py DIR... [native:BUILDDIR]

Each DIR holds one run's TAP logs (tests/integ/NAME.log, NAME.trs as
automake's tap-driver writes them) and an "env" file (key=value: kernel,
cgroup, systemd, who), in DIR or its parent: tests/vm/vm.sh leaves them
in _vm/results/<kernel release>/<root|user>/.  Prints Markdown: one row
per run, one column per guarantee of CONTRACT.md, then every failing
test by name.  native:BUILDDIR adds this machine's own make check
(BUILDDIR/tests/integ/*.log) as a row.
"""
import os
import re
import sys

# (column, script, regex on the test's description or None for all)
AREAS = [
    ("family killed (1, 10)", [("family.sh", None), ("signals.sh", "SIGKILLed"),
                               ("limits-family.sh", "SIGKILLed")]),
    ("timeout (2)", [("timeout.sh", None)]),
    ("signals (3)", [("signals.sh", "^(?!.*SIGKILLed)")]),
    ("fds, env (4)", [("fds.sh", None), ("env.sh", None)]),
    ("seccomp (5)", [("seccomp.sh", None)]),
    ("limits (6)", [("limits.sh", None), ("limits-family.sh", "^(?!.*SIGKILLed)"),
                    ("limits-hit.sh", None)]),
    ("output (7)", [("output.sh", None)]),
    ("audit, syslog (9)", [("audit.sh", None), ("audit-tools.sh", None)]),
    ("isolation (10, 11)", [("isolation.sh", None)]),
    ("namespaces", [("namespaces.sh", None)]),
    ("systemd scope", [("scope.sh", None)]),
    ("as a user", [("unprivileged.sh", None)]),
]
TAP = re.compile(r"^(ok|not ok) +\d+ *(?:- *)?(.*)$")


def read_env(d):
    for f in (os.path.join(d, "env"), os.path.join(d, "..", "env")):
        if os.path.exists(f):
            with open(f, encoding="utf-8", errors="replace") as fh:
                return dict(l.rstrip("\n").split("=", 1) for l in fh if "=" in l)
    return {}


def read_run(d):
    """{script: [(result, description)]}: PASS FAIL SKIP, ERROR for a
    script that did not finish cleanly."""
    res = {}
    for name in sorted(os.listdir(d)):
        if name.endswith(".sh.missing"):
            # tests/vm/guest-run.sh: the script was stopped (TIMEOUT) or
            # never reported: a failure, named.
            if not os.path.exists(os.path.join(d, name[:-11] + ".trs")):
                with open(os.path.join(d, name), encoding="utf-8") as fh:
                    why = fh.read().strip()
                res[name[:-8]] = [("ERROR", why)]
            continue
        if not name.endswith(".trs"):
            continue
        script = name[:-4] + ".sh"
        tests = []
        log = os.path.join(d, name[:-4] + ".log")
        if os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    m = TAP.match(line.rstrip("\n"))
                    if not m:
                        continue
                    desc = m.group(2)
                    if m.group(1) == "not ok":
                        tests.append(("FAIL", desc))
                    elif re.match(r"^# *SKIP", desc):
                        tests.append(("SKIP", desc))
                    else:
                        tests.append(("PASS", desc))
        with open(os.path.join(d, name), encoding="utf-8") as fh:
            trs = fh.read()
        # tap-driver also reports a script's non-zero exit as an ERROR:
        # a separate failure only when no test of it failed.
        if ":test-result: ERROR" in trs and not any(r == "FAIL" for r, _ in tests):
            tests.append(("ERROR", "the script did not finish cleanly"))
        # A whole script skipped (1..0 # SKIP): say so, not "not run".
        if not tests and ":global-test-result: SKIP" in trs:
            tests.append(("SKIP", "the script skipped"))
        res[script] = tests
    return res


def cell(run, parts):
    got = []
    for script, rx in parts:
        for r, desc in run.get(script, []):
            if rx is None or re.search(rx, desc) or r == "ERROR":
                got.append(r)
    if not got:
        return "not run"
    bad = sum(1 for r in got if r in ("FAIL", "ERROR"))
    skipped = sum(1 for r in got if r == "SKIP")
    if bad:
        return "**fails** (%d of %d)" % (bad, len(got))
    if skipped == len(got):
        return "skipped"
    return "holds" + (" (%d skipped)" % skipped if skipped else "")


def describe(env, d):
    who = env.get("who") or os.path.basename(os.path.normpath(d))
    who = {"root": "root (system service)",
           "user": "user (systemd --user, user@1000)"}.get(who, who)
    cg = env.get("cgroup", "?")
    cg = {"cgroup2fs": "v2", "tmpfs": "v1 (hybrid)"}.get(cg, cg)
    sysd = env.get("systemd", "")
    sysd = sysd.split()[1] if sysd.startswith("systemd ") else (sysd or "no")
    return [env.get("kernel", "?"), cg, "systemd " + sysd if sysd != "no" else "no", who]


def native_env():
    """This machine, for a native make check's results."""
    cg = "cgroup2fs" if os.path.exists("/sys/fs/cgroup/cgroup.controllers") and \
        not os.path.exists("/sys/fs/cgroup/unified") else "tmpfs"
    with open("/proc/1/comm") as fh:
        init = fh.read().strip()
    return {"kernel": os.uname().release, "cgroup": cg,
            "systemd": "systemd" if init == "systemd" else "no",
            "who": "root (native make check; user cases via setpriv)"}


def main(dirs):
    rows, failures = [], {}
    for d in dirs:
        if d.startswith("native:"):
            d = os.path.join(d[len("native:"):], "tests", "integ")
            env = native_env()
        else:
            env = read_env(d)
        run = read_run(d)
        head = describe(env, d)
        tot = [r for ts in run.values() for r, _ in ts]
        rows.append(head + ["%d/%d" % (tot.count("PASS"), len(tot))] +
                    [cell(run, parts) for _, parts in AREAS])
        for script, ts in sorted(run.items()):
            for r, desc in ts:
                if r in ("FAIL", "ERROR"):
                    key = "`%s`: %s" % (script, desc)
                    if key not in failures:
                        failures[key] = []
                    where = "%s %s" % (head[0], head[3].split()[0])
                    if where not in failures[key]:
                        failures[key].append(where)
    cols = ["kernel", "cgroup", "init", "runs as", "passed"] + [a for a, _ in AREAS]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    if failures:
        print("\nFailing there:\n")
        for f, where in failures.items():
            print("- %s (%s)" % (f, ", ".join(where)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
