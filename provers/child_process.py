"""Prover binaries run as children that never outlive gumshoe and never outrun their CPU limit.

Each child starts in its own process group, with its RLIMIT_CPU set by a small shell wrapper
before the program is executed (the kernel kills it there, however loaded the machine is; the
child may lower its own soft limit below it, and no race with the child's own setrlimit can
arise; no ``preexec_fn``, which is unsafe once threads run), and is registered until it has been
reaped. The registered groups are
killed when gumshoe exits (``atexit``) and when it receives SIGTERM (a handler installed from
the main thread, which then lets the signal's previous handling run), so no prover is left
orphaned. Even a child that escapes both, when gumshoe is killed outright, dies at its CPU
limit.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Sequence
from types import FrameType

CPU_SIGNALS = frozenset({signal.SIGXCPU, signal.SIGKILL})
"""Signals by which the kernel stops a child at its CPU limit."""

_live: set[int] = set()
_live_lock = threading.Lock()
_handler_installed = False


def kill_children() -> None:
    """Kill the process group of every child still running."""
    with _live_lock:
        groups = list(_live)
    for group in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)


atexit.register(kill_children)


def install_sigterm_handler() -> None:
    """From the main thread, make SIGTERM kill the children before its previous handling runs.

    Called elsewhere than in the main thread, it does nothing (Python allows signal handlers to
    be set from the main thread only); ``atexit`` and the CPU limit still apply.
    """
    global _handler_installed
    if _handler_installed or threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        kill_children()
        if callable(previous):
            previous(signum, frame)
        elif previous != signal.SIG_IGN:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)

    signal.signal(signal.SIGTERM, on_sigterm)
    _handler_installed = True


def run_child(
    command: Sequence[str], stdin: str, cpu_s: int | None, wall_s: float | None
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` with ``stdin``, killed at ``cpu_s`` CPU seconds or ``wall_s`` wall seconds.

    Raises ``subprocess.TimeoutExpired`` (after killing the child's group) past ``wall_s`` and
    OSError when the command cannot start. Any other interruption kills the group as well.
    """
    process = subprocess.Popen(
        list(command) if cpu_s is None else _cpu_limited(command, cpu_s),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    with _live_lock:
        _live.add(process.pid)
    try:
        try:
            stdout, stderr = process.communicate(stdin, timeout=wall_s)
        except BaseException:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    finally:
        with _live_lock:
            _live.discard(process.pid)
    return subprocess.CompletedProcess(list(command), process.returncode, stdout, stderr)


_CPU_LIMIT_SCRIPT = 'ulimit -t "$1" || exit 126; shift; exec "$@"'
"""Set the CPU limit (soft and hard), then become the program: a wrapper instead of a
``preexec_fn``, which is unsafe in a process that runs threads."""


def _cpu_limited(command: Sequence[str], cpu_s: int) -> list[str]:
    """``command`` started through a shell that sets its CPU limit to ``cpu_s`` before it runs
    the program; FileNotFoundError (as Popen raises) when the program is not found."""
    program = shutil.which(command[0])
    if program is None:
        raise FileNotFoundError(errno.ENOENT, "no such program", command[0])
    return ["/bin/sh", "-c", _CPU_LIMIT_SCRIPT, "cpu-limit", str(cpu_s), program, *command[1:]]
