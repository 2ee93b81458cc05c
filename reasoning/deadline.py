"""A time limit on a whole call: the block is stopped when the wall clock passes it.

Long work that checks a deadline now and then (between prover calls, say) can still run far
past it inside one step it does not check (encoding a large theory, building a background
theory). ``time_limit`` bounds the block as a whole with a real-time alarm: when it rings, the
error the caller chose is raised wherever the block is, and the work is abandoned (the block's
``with`` statements still close what they opened). The alarm is a signal, which Python handles
only in the main thread and between bytecodes: elsewhere the block runs unbounded (so callers
keep their own cooperative checks), and a single long call into a C library ends before the
error is raised.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

_AGAIN_S = 0.25
"""Seconds after which a rung alarm rings again while the block has not ended: an error raised
where Python ignores it (in a garbage-collection callback or a finaliser) is raised anew."""


@contextmanager
def time_limit(seconds: float, error: Callable[[], BaseException]) -> Iterator[None]:
    """Run the block for at most ``seconds`` of wall time; past them ``error()`` is raised in
    it. Within an outer limit the block gets no more than the time the outer one has left, and
    the outer alarm is put back afterwards with the time it has left then (at once when that
    time is up, unless the block is already leaving with an error: one error, not two)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: FrameType | None) -> None:
        signal.setitimer(signal.ITIMER_REAL, _AGAIN_S)
        raise error()

    started = time.monotonic()
    outer, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer > 0:
        seconds = min(seconds, outer)
    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6))
    failed = True
    try:
        yield
        failed = False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        left = outer - (time.monotonic() - started)
        if outer > 0 and (left > 0 or not failed):
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))
