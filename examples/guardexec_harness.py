#!/usr/bin/env python3
"""Run an agent's tool commands under guardexec and report them to a model.

guardexec runs one command under a declarative policy that the kernel
enforces (a clean environment, rlimits, a seccomp allowlist, Landlock, a
network namespace, a timeout that kills the whole process family, an
output cap) and writes a JSON audit record.
This module is the glue an agent harness needs around it:

    from guardexec_harness import run

    result = run("git status --short", policy="agent", cwd="/work/repo")
    tool_message = result.for_model()     # what the model sees
    result.record                         # the audit record, a dict

The command is never given to a shell: a str is split with shlex.split,
so quotes group words, but ``;``, ``|``, ``&&``, ``$(...)`` and
redirections are passed to the command as plain arguments.  If the model
needs a shell, say so explicitly with ``["sh", "-c", script]`` and let
the policy decide what the shell may do.

guardexec runs with ``-q`` (advisory warnings go to the record, not into
the command's stderr) and ``-r /dev/fd/N``, N being the write end of a
pipe, so the record arrives on its own descriptor and cannot be confused
with, or forged by, the command's output.  The command itself does not
inherit that descriptor.

Python 3.9 or later, standard library only.  As a script:

    python3 guardexec_harness.py -p POLICY [-C DIR] [-g GX] -- cmd [arg...]
    python3 guardexec_harness.py -p POLICY [-C DIR] -c 'cmd "quoted arg"'

prints for_model() and exits with the command's exit status (guardexec's:
124 timed out, 126/127 not executable/not found), or 125 with guardexec's
message on stderr when the configuration is wrong.

Configuration errors (a missing or invalid policy, a working directory
that does not exist, guardexec not on PATH, stdin bytes the policy would
not pass on) raise GuardexecError: they are the harness's problem, not
text for the model.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import selectors
import shlex
import signal as _signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__all__ = ["GuardexecError", "Result", "run", "main"]

# The line guardexec writes to stderr when the output cap cuts the output:
# at the end with output.keep = "head", between the head and the tail with
# "head_tail".  for_model() replaces it with its own note.
_TRUNC_MARKER = re.compile(
    r"\[guardexec: (?:output truncated at [0-9]+ bytes"
    r"|([0-9]+) bytes omitted)\]")


# The marker guardexec writes to stderr between the head and the tail with
# output.keep = "head_tail".
_OMIT_MARKER = re.compile(rb"\[guardexec: ([0-9]+) bytes omitted\]\n")

# Seconds from the harness's SIGTERM (per-call timeout) to its SIGKILL;
# guardexec relays the SIGTERM to the whole command and, killed, takes
# the command with it.
_KILL_GRACE = 5.0


class GuardexecError(RuntimeError):
    """guardexec could not run the command because of its configuration.

    Raised for a missing or invalid policy, a bad working directory,
    guardexec not found, stdin bytes the policy would not pass on, and
    every other refusal (guardexec's exit status 125: nothing ran).
    message is guardexec's own error text when there is one; stderr and
    record (a dict or None) are what guardexec left.
    """

    def __init__(self, message: str, stderr: str = "",
                 record: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.message = message
        self.stderr = stderr
        self.record = record


@dataclass
class Result:
    """One command run under guardexec.

    exit_code   guardexec's exit status: the command's own, 128+N when
                signal N killed it, 124 timed out, 125 guardexec refused
                (nothing ran), 126 not executable, 127 not found.
    status      the record's status: "exited", "signaled", "timeout",
                "exec_failed" or "refused"; without a record, "refused"
                when guardexec exited 125, else "unknown".
    cwd         the directory the command ran in (from the record; the
                requested one when the record has none).
    stdout, stderr
                what guardexec relayed, decoded as UTF-8 with errors
                replaced.  stderr also holds guardexec's own lines (its
                error message on refusal, the truncation marker).
    truncated   output.max_bytes was reached and the rest discarded.
    timed_out   guardexec's wall-clock timeout fired.
    signal      the signal number that ended the command, or None.
    limit_hit   None or the limit the record names ("timeout", "memory",
                "processes", "cpu", "file_size", "output").
    denied      [(syscall, count), ...] refused by the seccomp filter.
    advisories  [(rule, reason), ...] advisory rules that matched (not
                enforced: warnings only).
    notices     guardexec's own warnings for the run, from the record
                (not from stderr, which -q keeps them out of).
    left_running
                some processes of the command could not be killed.
    timeout     the limit that fired, in seconds, when timed_out (None
                when unknown); timeout_source says whose: "policy"
                (limits.timeout) or "harness" (run(timeout=...)).
    env_dropped the names of run(env=...) that the policy did not pass.
    record      the parsed audit record, or None if there was none.
    """

    exit_code: int
    status: str
    cwd: Optional[str]
    stdout: str
    stderr: str
    truncated: bool = False
    timed_out: bool = False
    signal: Optional[int] = None
    limit_hit: Optional[str] = None
    denied: List[Tuple[str, int]] = field(default_factory=list)
    advisories: List[Tuple[str, str]] = field(default_factory=list)
    notices: List[str] = field(default_factory=list)
    left_running: bool = False
    timeout: Optional[float] = None
    timeout_source: Optional[str] = None
    env_dropped: List[str] = field(default_factory=list)
    record: Optional[Dict[str, Any]] = None
    # head_tail: stdout and stderr cut at line boundaries, the note
    # where the cut is (set by run()).
    _cut: Optional[Tuple[str, str]] = field(default=None, repr=False)

    def for_model(self) -> str:
        """The text to hand back to the model as the tool result.

        First line ``exit code N``, with `` (timed out after 30 s, the
        policy's limits.timeout)`` (or ``the harness's timeout``),
        `` (killed by signal S)`` or `` (refused by guardexec, nothing
        ran)`` where it applies; then ``cwd: DIR``; then stdout, then
        stderr after a ``[stderr]`` line; then short notes:
        ``[output truncated]``, ``[denied syscalls: ptrace x1, ...]``,
        ``[limit hit: memory]``, one ``[advisory: RULE: REASON]`` per
        advisory match, one ``[notice: ...]`` per notice of the record,
        ``[left running: ...]``.  With ``keep = "head_tail"`` the output
        is cut at line boundaries and ``[output truncated: N bytes
        omitted here]`` stands where the cut is.

        The first line is always the harness's own; the notes are too,
        but a command can print look-alike lines.  Code that decides
        anything should read the fields, not this text.
        """
        head = f"exit code {self.exit_code}"
        if self.timed_out:
            head += " (timed out" + _timeout_words(self) + ")"
        elif self.status == "signaled" and self.signal is not None:
            head += f" (killed by signal {_signame(self.signal)})"
        elif self.status == "refused":
            head += " (refused by guardexec, nothing ran)"
        lines = [head, f"cwd: {self.cwd if self.cwd is not None else '?'}"]

        if self._cut is not None:
            out, err = self._cut
        else:
            out, err = self.stdout, _drop_marker(self.stderr, self.truncated)
        body = ""
        if out:
            body += out if out.endswith("\n") else out + "\n"
        if err:
            body += "[stderr]\n" + (err if err.endswith("\n") else err + "\n")
        text = "\n".join(lines) + "\n" + body

        notes = []
        if self.truncated and self._cut is None:
            notes.append("[output truncated]")
        if self.denied:
            notes.append("[denied syscalls: " + ", ".join(
                f"{n} x{c}" for n, c in self.denied) + "]")
        if self.limit_hit not in (None, "timeout", "output"):
            notes.append(f"[limit hit: {self.limit_hit}]")
        for rule, reason in self.advisories:
            notes.append(f"[advisory: {rule}: {reason}]")
        for notice in self.notices:
            # The cut is already marked where it is (or noted above).
            if self.truncated and notice.startswith("output truncated"):
                continue
            notes.append(f"[notice: {notice}]")
        if self.left_running:
            notes.append("[left running: some processes of the command "
                         "could not be killed]")
        if notes:
            text += "\n".join(notes) + "\n"
        return text


def _timeout_words(res: Result) -> str:
    if res.timeout is None:
        return ""
    whose = ("the policy's limits.timeout" if res.timeout_source == "policy"
             else "the harness's timeout")
    return f" after {res.timeout:g} s, {whose}"


def _drop_marker(err: str, truncated: bool) -> str:
    """stderr without guardexec's "output truncated at" line."""
    if not truncated:
        return err
    errl = err.split("\n")
    for i, line in enumerate(errl):
        if _TRUNC_MARKER.fullmatch(line):
            del errl[i]
            return "\n".join(errl)
    return err


def _signame(num: int) -> str:
    try:
        return f"{num}, {_signal.Signals(num).name}"
    except ValueError:
        return str(num)


def _align(head: bytes, tail: bytes) -> Tuple[bytes, bytes, int]:
    """Cut head back and tail forward to whole lines; bytes dropped.

    A head that holds no newline, or a tail that holds no other one, is
    kept as it is (one long line is better cut than lost).
    """
    dropped = 0
    if head and not head.endswith(b"\n") and b"\n" in head:
        keep = head.rindex(b"\n") + 1
        dropped += len(head) - keep
        head = head[:keep]
    if tail and b"\n" in tail[:-1]:
        skip = tail.index(b"\n") + 1
        dropped += skip
        tail = tail[skip:]
    return head, tail, dropped


def _head_tail(out: bytes, err: bytes,
               record: Dict[str, Any]) -> Optional[Tuple[str, str]]:
    """stdout and stderr of a head_tail run, cut where guardexec cut.

    guardexec keeps the first max_bytes/2 bytes of both streams together
    and the last max_bytes/2, and writes "[guardexec: N bytes omitted]"
    to stderr between them.  The marker is the one whose N matches the
    record's byte counts (a command can print a look-alike); the bytes
    of stderr before it are stderr's head, so stdout's head is the rest
    of max_bytes/2.  None when no such marker is found.
    """
    total = int(record.get("stdout_bytes") or 0) + \
        int(record.get("stderr_bytes") or 0)
    for m in _OMIT_MARKER.finditer(err):
        n = int(m.group(1))
        err_head, err_tail = err[:m.start()], err[m.end():]
        kept = len(out) + len(err_head) + len(err_tail)
        if kept + n != total:
            # guardexec ended a stderr head without a newline with one
            if not (err_head.endswith(b"\n") and kept - 1 + n == total):
                continue
            err_head = err_head[:-1]
            kept -= 1
        cut = min(max(kept // 2 - len(err_head), 0), len(out))
        oh, ot, d1 = _align(out[:cut], out[cut:])
        eh, et, d2 = _align(err_head, err_tail)
        note = f"[output truncated: {n + d1 + d2} bytes omitted here]\n"
        if ot or not et:
            out, err = oh + note.encode() + ot, eh + et
        else:
            out, err = oh + ot, eh + note.encode() + et
        return (out.decode("utf-8", errors="replace"),
                err.decode("utf-8", errors="replace"))
    return None


def _collect(proc: subprocess.Popen, record_fd: int,
             stdin: Optional[bytes],
             timeout: Optional[float]) -> Tuple[bytes, bytes, bytes, bool]:
    """Read stdout, stderr and the record pipe until all three reach EOF.

    All three are read together: a record larger than the pipe buffer
    (a long argv, a long env.dropped list) would otherwise block
    guardexec in its write while we wait for it to exit.  At @timeout
    seconds guardexec gets SIGTERM (it ends the whole command and still
    writes the record), SIGKILL _KILL_GRACE seconds later.  The last
    value tells whether the timeout fired.
    """
    bufs: Dict[int, List[bytes]] = {}
    sel = selectors.DefaultSelector()
    for f in (proc.stdout, proc.stderr):
        assert f is not None
        sel.register(f.fileno(), selectors.EVENT_READ)
        bufs[f.fileno()] = []
    sel.register(record_fd, selectors.EVENT_READ)
    bufs[record_fd] = []
    pending = memoryview(stdin) if stdin else memoryview(b"")
    in_fd = -1
    if proc.stdin is not None:
        if pending:
            in_fd = proc.stdin.fileno()
            os.set_blocking(in_fd, False)
            sel.register(in_fd, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
    deadline = None if timeout is None else time.monotonic() + timeout
    fired = False
    while sel.get_map():
        wait = None
        if deadline is not None:
            wait = max(deadline - time.monotonic(), 0)
            if wait == 0:
                if not fired:
                    proc.send_signal(_signal.SIGTERM)
                    fired = True
                    deadline = time.monotonic() + _KILL_GRACE
                else:
                    proc.kill()
                    deadline = None
                continue
        for key, _ in sel.select(wait):
            fd = key.fd
            if fd == in_fd:
                try:
                    n = os.write(fd, pending[:65536])
                    pending = pending[n:]
                    done = not pending
                except BlockingIOError:
                    done = False
                except BrokenPipeError:
                    done = True
                if done:
                    sel.unregister(fd)
                    proc.stdin.close()
                continue
            chunk = os.read(fd, 65536)
            if chunk:
                bufs[fd].append(chunk)
            else:
                sel.unregister(fd)
    sel.close()
    return (b"".join(bufs[proc.stdout.fileno()]),
            b"".join(bufs[proc.stderr.fileno()]),
            b"".join(bufs[record_fd]), fired)


def _check_policy(guardexec: str, policy: str,
                  env: Optional[Dict[str, str]]) -> Dict[str, str]:
    """guardexec --check: the policy's sha256, command.stdin and timeout.

    Raises GuardexecError when the policy does not load.
    """
    try:
        cp = subprocess.run([guardexec, "-p", policy, "-q", "--check"],
                            stdin=subprocess.DEVNULL, capture_output=True,
                            env=env, timeout=60)
    except FileNotFoundError as e:
        raise GuardexecError(f"guardexec not found: {guardexec!r} "
                             f"(not on PATH?): {e}") from e
    text = cp.stdout.decode("utf-8", errors="replace")
    if cp.returncode != 0:
        err = cp.stderr.decode("utf-8", errors="replace")
        raise GuardexecError(err.strip() or
                             f"guardexec --check exited {cp.returncode}",
                             stderr=err)
    facts = {"stdin": "null"}
    for key, pat in (("sha256", r"^# sha256 ([0-9a-f]{64})$"),
                     ("stdin", r'^  stdin = "([a-z]+)";$'),
                     ("timeout", r"^  timeout = ([0-9.]+);$")):
        m = re.search(pat, text, re.M)
        if m:
            facts[key] = m.group(1)
    return facts


def _popen_env(env: Optional[Dict[str, str]]) -> Optional[Dict[str, str]]:
    if env is None:
        return None
    merged = dict(os.environ)
    for k, v in env.items():
        if not isinstance(k, str) or not isinstance(v, str) or "=" in k:
            raise ValueError(f"env: names and values must be str, "
                             f"names without '=': {k!r}")
        merged[k] = v
    return merged


def _fill(res: Result, record: Dict[str, Any]) -> None:
    """The Result fields that come from the record."""
    res.status = str(record.get("status") or res.status)
    if record.get("cwd"):
        res.cwd = record["cwd"]
    res.truncated = bool(record.get("truncated"))
    res.timed_out = bool(record.get("timed_out"))
    res.signal = record.get("signal")
    res.limit_hit = record.get("limit_hit")
    seccomp = record.get("seccomp") or {}
    res.denied = [(d.get("syscall", "?"), int(d.get("count", 0)))
                  for d in seccomp.get("denied") or []]
    res.advisories = [(a.get("rule", ""), a.get("reason", ""))
                      for a in record.get("advisory") or []]
    res.notices = [str(n) for n in record.get("notices") or []]
    res.left_running = bool(record.get("left_running"))


def run(cmd: Union[Sequence[str], str], policy: str,
        cwd: Optional[str] = None, guardexec: str = "guardexec",
        stdin: Optional[bytes] = None,
        extra_args: Sequence[str] = (),
        timeout: Optional[float] = None,
        env: Optional[Dict[str, str]] = None) -> Result:
    """Run cmd under guardexec with the given policy and return a Result.

    cmd         a list of arguments, or a str split with shlex.split
                (never a shell: ``;`` and ``|`` are plain arguments).
    policy      a policy file, a directory (its .guardexec/agent.cfg) or
                an installed policy's name ("agent"), as for ``-p``.
    cwd         the directory to run in (``-C``); None: this process's.
    guardexec   the guardexec binary (looked up on PATH).
    stdin       bytes for the command's standard input.  The policy must
                say ``command.stdin = "inherit"``, else GuardexecError
                (the bytes would never reach the command).  None:
                /dev/null.
    extra_args  more guardexec options, placed before ``--``
                (e.g. ``["-l", "/path/audit.log"]``).
    timeout     seconds for this call, on top of the policy's
                limits.timeout: when it fires, guardexec gets SIGTERM,
                which ends the whole command; the Result says timed out
                (exit code 124) with timeout_source "harness".
    env         names and values added to the environment guardexec
                starts with, for this call.  The policy still decides:
                only names its env.allow keeps reach the command (the
                others are in Result.env_dropped), env.set wins.

    Raises ValueError for an empty command or a bad timeout or env, and
    GuardexecError for a configuration error: guardexec not found, a
    working directory that is not one, stdin the policy would not pass,
    and every refusal (exit 125, nothing ran, e.g. a missing or invalid
    policy).  Every run of the command is a Result.
    """
    argv = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
    if not argv:
        raise ValueError("empty command")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be a positive number, not {timeout!r}")
    penv = _popen_env(env)
    if cwd is not None and not os.path.isdir(cwd):
        raise GuardexecError(f"cwd {cwd!r} is not a directory")
    facts: Dict[str, str] = {}
    if stdin is not None:
        facts = _check_policy(guardexec, policy, penv)
        if facts["stdin"] != "inherit":
            raise GuardexecError(
                f"stdin given, but policy {policy!r} has command.stdin = "
                f"\"{facts['stdin']}\": the command would not read it")
    r, w = os.pipe()
    try:
        gx = [guardexec, "-p", policy, "-q", "-r", f"/dev/fd/{w}"]
        if cwd is not None:
            gx += ["-C", cwd]
        gx += [*extra_args, "--", *argv]
        try:
            proc = subprocess.Popen(
                gx, pass_fds=(w,), env=penv,
                stdin=subprocess.PIPE if stdin is not None
                else subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except (FileNotFoundError, PermissionError) as e:
            raise GuardexecError(f"guardexec not found: {guardexec!r} "
                                 f"(not on PATH?): {e}") from e
        with proc:
            os.close(w)
            w = -1
            try:
                out, err, rec, fired = _collect(proc, r, stdin, timeout)
            except BaseException:
                # guardexec takes the whole command with it when killed
                proc.kill()
                raise
    finally:
        if w >= 0:
            os.close(w)
        os.close(r)

    code = proc.returncode
    if code < 0:                       # guardexec itself was killed
        code = 128 - code
    record = None
    line = rec.split(b"\n", 1)[0]
    if line.strip():
        try:
            record = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            record = None
    if not isinstance(record, dict):
        record = None
    errtext = err.decode("utf-8", errors="replace")
    if code == 125 and (record is None or record.get("status") == "refused"):
        msg = next((ln for ln in errtext.splitlines()
                    if ln.startswith("guardexec: ")), errtext.strip())
        raise GuardexecError(msg or "guardexec refused (exit 125)",
                             stderr=errtext, record=record)
    res = Result(
        exit_code=code,
        status="unknown",
        cwd=os.path.abspath(cwd) if cwd is not None else os.getcwd(),
        stdout=out.decode("utf-8", errors="replace"),
        stderr=errtext,
        record=record,
    )
    if record is not None:
        _fill(res, record)
        if res.truncated and b"bytes omitted]" in err:
            res._cut = _head_tail(out, err, record)
        if env is not None:
            dropped = set((record.get("env") or {}).get("dropped") or [])
            res.env_dropped = sorted(k for k in env if k in dropped)
    if fired:
        res.timed_out = True
        res.exit_code = 124
        res.status = "timeout"
        res.timeout, res.timeout_source = timeout, "harness"
    elif res.timed_out:
        _policy_timeout(res, guardexec, policy, penv, facts)
    return res


def _policy_timeout(res: Result, guardexec: str, policy: str,
                    env: Optional[Dict[str, str]],
                    facts: Dict[str, str]) -> None:
    """Which limits.timeout fired: the policy's, if it is still the same
    file (its sha256 matches the record's)."""
    try:
        facts = facts or _check_policy(guardexec, policy, env)
    except GuardexecError:
        return
    sha = ((res.record or {}).get("policy") or {}).get("sha256")
    if "timeout" in facts and facts.get("sha256") == sha:
        res.timeout = float(facts["timeout"])
        res.timeout_source = "policy"


def main(args: Optional[Sequence[str]] = None) -> int:
    """The command-line entry point; returns the command's exit status."""
    ap = argparse.ArgumentParser(
        description="Run a command under guardexec and print what a model "
                    "would see.",
        usage="%(prog)s -p POLICY [-C DIR] [-g GUARDEXEC] [-l LOG] "
              "(-c STRING | -- cmd [arg...])")
    ap.add_argument("-p", "--policy", required=True)
    ap.add_argument("-C", "--cwd")
    ap.add_argument("-g", "--guardexec", default="guardexec")
    ap.add_argument("-l", "--log", help="audit log (guardexec -l)")
    ap.add_argument("-c", dest="string",
                    help="the command as one string, split with shlex")
    ap.add_argument("-t", "--timeout", type=float,
                    help="seconds for this call (on top of the policy's)")
    ap.add_argument("--record", action="store_true",
                    help="also print the audit record to stderr")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    ns = ap.parse_args(args)
    cmd: Union[List[str], str] = list(ns.cmd)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if ns.string is not None:
        if cmd:
            ap.error("give either -c STRING or a command, not both")
        cmd = ns.string
    elif not cmd:
        ap.error("no command")
    extra = ["-l", ns.log] if ns.log else []
    try:
        res = run(cmd, ns.policy, cwd=ns.cwd, guardexec=ns.guardexec,
                  extra_args=extra, timeout=ns.timeout)
    except (GuardexecError, OSError, ValueError) as e:
        print(f"guardexec_harness: {e}", file=sys.stderr)
        return 125
    sys.stdout.write(res.for_model())
    if ns.record and res.record is not None:
        print(json.dumps(res.record, separators=(",", ":")), file=sys.stderr)
    return res.exit_code


if __name__ == "__main__":
    sys.exit(main())
