# SPDX-License-Identifier: ISC
"""Run one module of CPython's regression suite (Debian's
libpython3.11-testsuite) and write each test's outcome as JSON.

    python3 cpython-run.py MODULE OUT.json [-k PATTERN]... [-x PATTERN]...

Used by tests/compat/cpython.sh (make compat), unguarded and under the
shipped policies.  Resources are off, as with regrtest without -u, so no
test reaches the internet.  Outcomes: "ok" (passed or expected failure),
"fail" (failure, error, unexpected success) and "skip"."""
import json
import sys
import unittest

from test import support

support.use_resources = []      # regrtest's default: no -u resources

mod, out = sys.argv[1], sys.argv[2]
patterns = [a for i, a in enumerate(sys.argv) if i > 3 and sys.argv[i - 1] == "-k"]
excludes = [a for i, a in enumerate(sys.argv) if i > 3 and sys.argv[i - 1] == "-x"]


class Result(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.outcome = {}

    def _set(self, test, what):
        tid = test.id()
        if self.outcome.get(tid) != "fail":
            self.outcome[tid] = what

    def addSuccess(self, test):
        self._set(test, "ok")

    def addFailure(self, test, err):
        self._set(test, "fail")
        self.why(test, err)

    def addError(self, test, err):
        self._set(test, "fail")
        self.why(test, err)

    def addSkip(self, test, reason):
        self._set(test, "skip")

    def addExpectedFailure(self, test, err):
        self._set(test, "ok")

    def addUnexpectedSuccess(self, test):
        self._set(test, "fail")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._set(test, "fail")
            self.why(test, err)

    def why(self, test, err):
        line = "".join(str(err[1]).splitlines()[:1])[:200]
        print("FAIL %s: %s: %s" % (test.id(), err[0].__name__, line),
              file=sys.stderr, flush=True)


loader = unittest.TestLoader()
if patterns:
    loader.testNamePatterns = ["*%s*" % p if "*" not in p else p
                               for p in patterns]
suite = loader.loadTestsFromName("test." + mod)


def leave_out(s):
    """The suite without the tests whose id contains an exclude pattern."""
    out = unittest.TestSuite()
    for t in s:
        if isinstance(t, unittest.TestSuite):
            out.addTest(leave_out(t))
        elif not any(x in t.id() for x in excludes):
            out.addTest(t)
    return out


if excludes:
    suite = leave_out(suite)
res = Result()
suite.run(res)
with open(out, "w") as f:
    json.dump(res.outcome, f, sort_keys=True)
n = lambda w: sum(1 for v in res.outcome.values() if v == w)
print("%s: %d ok, %d fail, %d skip" % (mod, n("ok"), n("fail"), n("skip")))
