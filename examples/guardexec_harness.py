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
124 timed out, 125 refused, 126/127 not executable/not found).
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
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__all__ = ["Result", "run", "main"]

# The line guardexec writes to stderr when the output cap cuts the output:
# at the end with output.keep = "head", between the head and the tail with
# "head_tail".  for_model() replaces it with its own note.
_TRUNC_MARKER = re.compile(
    r"\[guardexec: (?:output truncated at [0-9]+ bytes"
    r"|([0-9]+) bytes omitted)\]")


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
    record: Optional[Dict[str, Any]] = None

    def for_model(self) -> str:
        """The text to hand back to the model as the tool result.

        First line ``exit code N``, with `` (timed out)``,
        `` (killed by signal S)`` or `` (refused by guardexec, nothing
        ran)`` where it applies; then ``cwd: DIR``; then stdout, then
        stderr after a ``[stderr]`` line; then short notes:
        ``[output truncated]`` (with ``keep = "head_tail"``:
        ``[output truncated: N bytes omitted from the middle, ...]``),
        ``[denied syscalls: ptrace x1, ...]``, ``[limit hit: memory]``,
        one ``[advisory: RULE: REASON]`` per advisory match.

        The first line is always the harness's own; the notes are too,
        but a command can print look-alike lines.  Code that decides
        anything should read the fields, not this text.
        """
        head = f"exit code {self.exit_code}"
        if self.timed_out:
            head += " (timed out)"
        elif self.status == "signaled" and self.signal is not None:
            head += f" (killed by signal {_signame(self.signal)})"
        elif self.status == "refused":
            head += " (refused by guardexec, nothing ran)"
        lines = [head, f"cwd: {self.cwd if self.cwd is not None else '?'}"]

        out = self.stdout
        err = self.stderr
        omitted = None
        if self.truncated:
            # guardexec's own marker line; the note below says the same
            # once, at the end, where it is seen.  (With head_tail it
            # cannot stand between head and tail here: stdout and stderr
            # are captured apart, and it is written to stderr.)
            errl = err.split("\n")
            for i, line in enumerate(errl):
                m = _TRUNC_MARKER.fullmatch(line)
                if m:
                    omitted = m.group(1)
                    del errl[i]
                    err = "\n".join(errl)
                    break
        body = ""
        if out:
            body += out if out.endswith("\n") else out + "\n"
        if err:
            body += "[stderr]\n" + (err if err.endswith("\n") else err + "\n")
        text = "\n".join(lines) + "\n" + body

        notes = []
        if self.truncated and omitted is not None:
            notes.append(f"[output truncated: {omitted} bytes omitted from "
                         "the middle, the head and the tail are shown]")
        elif self.truncated:
            notes.append("[output truncated]")
        if self.denied:
            notes.append("[denied syscalls: " + ", ".join(
                f"{n} x{c}" for n, c in self.denied) + "]")
        if self.limit_hit not in (None, "timeout", "output"):
            notes.append(f"[limit hit: {self.limit_hit}]")
        for rule, reason in self.advisories:
            notes.append(f"[advisory: {rule}: {reason}]")
        if notes:
            text += "\n".join(notes) + "\n"
        return text


def _signame(num: int) -> str:
    try:
        return f"{num}, {_signal.Signals(num).name}"
    except ValueError:
        return str(num)


def _collect(proc: subprocess.Popen, record_fd: int,
             stdin: Optional[bytes]) -> Tuple[bytes, bytes, bytes]:
    """Read stdout, stderr and the record pipe until all three reach EOF.

    All three are read together: a record larger than the pipe buffer
    (a long argv, a long env.dropped list) would otherwise block
    guardexec in its write while we wait for it to exit.
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
    while sel.get_map():
        for key, _ in sel.select():
            fd = key.fd
            if fd == in_fd:
                try:
                    n = os.write(fd, pending[:65536])
                    pending = pending[n:]
                    done = not pending
                except BlockingIOError:
                    done = False
                except BrokenPipeError:  # stdin = "null": nobody reads it
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
            b"".join(bufs[record_fd]))


def run(cmd: Union[Sequence[str], str], policy: str,
        cwd: Optional[str] = None, guardexec: str = "guardexec",
        stdin: Optional[bytes] = None,
        extra_args: Sequence[str] = ()) -> Result:
    """Run cmd under guardexec with the given policy and return a Result.

    cmd         a list of arguments, or a str split with shlex.split
                (never a shell: ``;`` and ``|`` are plain arguments).
    policy      a policy file, a directory (its .guardexec/agent.cfg) or
                an installed policy's name ("agent"), as for ``-p``.
    cwd         the directory to run in (``-C``); None: this process's.
    guardexec   the guardexec binary (looked up on PATH).
    stdin       bytes for the command's standard input; only reaches it
                when the policy says ``command.stdin = "inherit"``.
                None: /dev/null.
    extra_args  more guardexec options, placed before ``--``
                (e.g. ``["-l", "/path/audit.log"]``).

    Raises ValueError for an empty command and OSError when guardexec
    itself cannot be started; every other failure is a Result.
    """
    argv = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
    if not argv:
        raise ValueError("empty command")
    r, w = os.pipe()
    try:
        gx = [guardexec, "-p", policy, "-q", "-r", f"/dev/fd/{w}"]
        if cwd is not None:
            gx += ["-C", cwd]
        gx += [*extra_args, "--", *argv]
        with subprocess.Popen(
                gx, pass_fds=(w,),
                stdin=subprocess.PIPE if stdin is not None
                else subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
            os.close(w)
            w = -1
            try:
                out, err, rec = _collect(proc, r, stdin)
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
    res = Result(
        exit_code=code,
        status="refused" if code == 125 else "unknown",
        cwd=os.path.abspath(cwd) if cwd is not None else os.getcwd(),
        stdout=out.decode("utf-8", errors="replace"),
        stderr=err.decode("utf-8", errors="replace"),
        record=record,
    )
    if isinstance(record, dict):
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
    return res


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
                  extra_args=extra)
    except (OSError, ValueError) as e:
        print(f"guardexec_harness: {e}", file=sys.stderr)
        return 125
    sys.stdout.write(res.for_model())
    if ns.record and res.record is not None:
        print(json.dumps(res.record, separators=(",", ":")), file=sys.stderr)
    return res.exit_code


if __name__ == "__main__":
    sys.exit(main())
