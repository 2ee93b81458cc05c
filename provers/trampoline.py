"""Recursive walks over formulas of any depth: a generator yields each recursive call instead
of making it, and ``run`` drives the generators with an explicit stack.

Inside a walk, ``value = yield self.walk(child)`` stands for ``value = self.walk(child)``; the
Python call stack stays flat however deep the formula is.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeVar

R = TypeVar("R")

Walk = Generator[Any, Any, R]
"""A walk step: yields sub-walks, receives their results, returns its own."""


def run(walk: Walk[R]) -> R:
    """The result of ``walk``, computed without recursion."""
    stack: list[Walk[Any]] = [walk]
    value: Any = None
    while True:
        try:
            child = stack[-1].send(value)
        except StopIteration as done:
            stack.pop()
            if not stack:
                result: R = done.value
                return result
            value = done.value
        else:
            stack.append(child)
            value = None
