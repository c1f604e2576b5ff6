"""Programs run as processes of their own, forked from one waiting process.

A test that asks what a process of the program does (its status, its output, which modules it
loaded) pays for the interpreter's start and for importing the program every time. Here one
process starts once (a test module's), imports the modules named (``preload``: only modules
every run would import anyway, and never the ones the test looks for), and waits; each run is a
child forked from it: a process of its own with its own standard streams (files, read back
here), its own working folder and arguments, a fresh copy of the waiting process (nothing of an
earlier run: each child starts from the same untouched parent), ending as a Python program ends
(``SystemExit`` and uncaught exceptions as the interpreter reports them, then the ``atexit``
functions). The parent is one thread waiting on its standard input, so a fork is safe (a pytest
worker is not: execnet's threads). POSIX only (``os.fork``).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

_SERVER = r"""
import atexit, io, json, os, sys, traceback

for name in sys.argv[1:]:
    __import__(name)
exec(os.environ.pop("_FORKED_RUN_PREPARE", ""), {})
for name in json.loads(os.environ.pop("_FORKED_RUN_ABSENT", "[]")):
    assert name not in sys.modules, name
reply = sys.stdout
for line in sys.stdin:
    ask = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.chdir(ask["cwd"])
            fds = [os.open(os.devnull, os.O_RDONLY)]
            fds += [os.open(ask[k], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    for k in ("out", "err")]
            for fd, to in zip(fds, (0, 1, 2)):
                os.dup2(fd, to)
                os.close(fd)
            sys.stdin = io.open(0, "r", encoding="utf-8", closefd=False)
            sys.stdout = io.open(1, "w", encoding="utf-8", closefd=False)
            sys.stderr = io.TextIOWrapper(io.open(2, "wb", closefd=False), encoding="utf-8",
                                          errors="backslashreplace", line_buffering=True)
            sys.argv = ["-c", *ask["args"]]
            try:
                exec(compile(ask["code"], "<string>", "exec"), {"__name__": "__main__"})
                code = 0
            except SystemExit as exc:
                if exc.code is None:
                    code = 0
                elif isinstance(exc.code, int):
                    code = exc.code
                else:
                    print(exc.code, file=sys.stderr)
                    code = 1
            except BaseException:
                traceback.print_exc()
                code = 1
            atexit._run_exitfuncs()
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except BaseException:
                    pass
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    reply.write(json.dumps(os.waitstatus_to_exitcode(status)) + "\n")
    reply.flush()
"""


class ForkedRuns:
    """One waiting process (started at the first run, ended by :meth:`close`) and its runs."""

    def __init__(
        self,
        preload: Sequence[str],
        env: Mapping[str, str],
        cwd: Path,
        absent: Sequence[str] = (),
        prepare: str = "",
    ) -> None:
        """``prepare``: code the waiting process runs once after its imports (work every run
        of the test would otherwise repeat; none by default), before ``absent`` is checked."""
        self._preload = list(preload)
        self._env = dict(env)
        self._env["_FORKED_RUN_ABSENT"] = json.dumps(list(absent))
        self._env["_FORKED_RUN_PREPARE"] = prepare
        self._cwd = cwd
        self._server: subprocess.Popen[str] | None = None
        self._folder = tempfile.mkdtemp(prefix="alhambra-referee-forked-")

    def run(
        self, code: str, args: Sequence[str], cwd: Path, timeout: float = 300
    ) -> tuple[int, str, str]:
        """``python -c code *args`` in ``cwd`` as a forked child: (status, stdout, stderr)."""
        if self._server is None:
            self._server = subprocess.Popen(
                [sys.executable, "-c", _SERVER, *self._preload],
                cwd=self._cwd,
                env=self._env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        os.makedirs(self._folder, mode=0o700, exist_ok=True)
        out, err = os.path.join(self._folder, "out"), os.path.join(self._folder, "err")
        ask = {"code": code, "args": list(args), "cwd": str(cwd), "out": out, "err": err}
        assert self._server.stdin is not None and self._server.stdout is not None
        self._server.stdin.write(json.dumps(ask) + "\n")
        self._server.stdin.flush()
        # as subprocess.run(timeout=...) would: a run that does not end fails the test
        ready, _, _ = select.select([self._server.stdout], [], [], timeout)
        if not ready:
            self._server.kill()
            self.close()
            raise AssertionError(f"no answer in {timeout} s: {list(args)}")
        answer = self._server.stdout.readline()
        assert answer, "the waiting process ended"
        status = json.loads(answer)
        with open(out, encoding="utf-8") as fh, open(err, encoding="utf-8") as fe:
            return status, fh.read(), fe.read()

    def close(self) -> None:
        """End the waiting process and remove the streams' folder (again: nothing to do)."""
        if self._server is not None:
            assert self._server.stdin is not None and self._server.stdout is not None
            self._server.stdin.close()
            self._server.wait(timeout=60)
            self._server.stdout.close()
            self._server = None
        shutil.rmtree(self._folder, ignore_errors=True)
