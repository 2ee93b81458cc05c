"""Whole interpretations of Z3 model functions as numpy tables over finite domains.

A Z3 model may define a predicate by an expression over its arguments (``else`` of its
interpretation) that refers to auxiliary functions, such as ``k!0(Var(0)) == val!3``. Evaluating
it atom by atom costs one solver call per argument tuple; here the expression is evaluated once
over every tuple at a time, as boolean and index arrays (auxiliary functions become tables too).
Expressions outside the supported fragment (arithmetic, sorts without a finite domain) give
None, and the caller evaluates atom by atom.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import z3

MAX_CELLS = 5_000_000
"""Largest table built; above it the caller evaluates atom by atom."""

_Array = Any


class Unsupported(Exception):
    """The expression is outside what the tables evaluate."""


class InterpretationTables:
    """Tables of a model's functions over the elements of each uninterpreted sort.

    ``elements`` maps a Z3 sort name to its elements (model values) in a fixed order; a table
    is indexed by positions in those lists and holds booleans, or positions for functions into
    a sort. ``tick`` is called once per expression node, to keep to a deadline.
    """

    def __init__(
        self, model: Any, elements: Mapping[str, Sequence[Any]], tick: Callable[[], None]
    ) -> None:
        self.model = model
        self.elements = elements
        self.positions = {
            sort: {value.get_id(): i for i, value in enumerate(values)}
            for sort, values in elements.items()
        }
        self.tick = tick
        self.tables: dict[str, _Array] = {}

    def table(self, func: Any) -> _Array | None:
        """The table of ``func`` (a function declaration), or None when it cannot be built."""
        try:
            return self._table(func)
        except Unsupported:
            return None

    def _table(self, func: Any) -> _Array:
        key = func.name()
        if key in self.tables:
            return self.tables[key]
        arg_sorts = [func.domain(i).name() for i in range(func.arity())]
        if any(s not in self.elements for s in arg_sorts):
            raise Unsupported
        shape = tuple(len(self.elements[s]) for s in arg_sorts)
        if math.prod(shape) > MAX_CELLS:
            raise Unsupported
        interp = self.model[func]
        if interp is None:
            raise Unsupported
        axes = [
            np.arange(n).reshape([n if i == j else 1 for j in range(len(shape))])
            for i, n in enumerate(shape)
        ]
        default = self._value(interp.else_value(), axes, {})
        table = np.array(np.broadcast_to(default, shape))
        for i in range(interp.num_entries()):
            self.tick()
            entry = interp.entry(i)
            where = tuple(
                self._position(entry.arg_value(j), arg_sorts[j]) for j in range(len(shape))
            )
            table[where] = self._value(entry.value(), axes, {})
        self.tables[key] = table
        return table

    def _position(self, value: Any, sort: str) -> int:
        found = self.positions[sort].get(value.get_id())
        if found is None:
            raise Unsupported
        return found

    def _value(self, expr: Any, axes: list[_Array], memo: dict[int, _Array]) -> _Array:
        """``expr`` over all argument tuples: booleans, or positions of elements."""
        key = expr.get_id()
        if key in memo:
            return memo[key]
        self.tick()
        result = self._compute(expr, axes, memo)
        memo[key] = result
        return result

    def _compute(self, expr: Any, axes: list[_Array], memo: dict[int, _Array]) -> _Array:
        if z3.is_var(expr):
            return axes[z3.get_var_index(expr)]
        if z3.is_true(expr) or z3.is_false(expr):
            return np.bool_(z3.is_true(expr))
        if not z3.is_app(expr):
            raise Unsupported
        sort = expr.sort().name()
        if expr.num_args() == 0 and sort in self.positions:
            found = self.positions[sort].get(expr.get_id())
            if found is not None:
                return np.int64(found)
        args = [self._value(a, axes, memo) for a in expr.children()]
        kind = expr.decl().kind()
        if kind == z3.Z3_OP_AND:
            return np.logical_and.reduce(np.broadcast_arrays(*args)) if args else np.bool_(True)
        if kind == z3.Z3_OP_OR:
            return np.logical_or.reduce(np.broadcast_arrays(*args)) if args else np.bool_(False)
        if kind == z3.Z3_OP_NOT:
            return np.logical_not(args[0])
        if kind == z3.Z3_OP_IMPLIES:
            return np.logical_or(np.logical_not(args[0]), args[1])
        if kind in (z3.Z3_OP_EQ, z3.Z3_OP_IFF):
            return np.equal(args[0], args[1])
        if kind == z3.Z3_OP_XOR:
            return np.not_equal(args[0], args[1])
        if kind == z3.Z3_OP_DISTINCT and len(args) == 2:
            return np.not_equal(args[0], args[1])
        if kind == z3.Z3_OP_ITE:
            return np.where(args[0], args[1], args[2])
        if kind == z3.Z3_OP_UNINTERPRETED and args:
            table = self._table(expr.decl())
            return table[tuple(np.broadcast_arrays(*args))]
        raise Unsupported
