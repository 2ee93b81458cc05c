"""What a prover answers: the Verdict and the ProofResult that carries it."""

from __future__ import annotations

import re
import time
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Verdict(StrEnum):
    """A prover's answer to "do the axioms entail the goal?".

    INVALID is only given with evidence: a countermodel, or a proof that the axioms together with
    the negated goal are satisfiable. A prover that merely fails to find a proof says UNKNOWN.
    SYNTAX_ERROR means the input is malformed (unsorted, unbound, clashing symbols); UNSUPPORTED
    means the input is well formed but outside what this backend handles (first-order input to
    a propositional solver, a cardinality constraint too large to expand, nesting too deep), and
    the message names the backend and the reason: another backend may decide it.
    """

    VALID = "VALID"
    INVALID = "INVALID"
    UNKNOWN = "UNKNOWN"
    TIMEOUT = "TIMEOUT"
    SYNTAX_ERROR = "SYNTAX_ERROR"
    UNSUPPORTED = "UNSUPPORTED"

    @property
    def decisive(self) -> bool:
        """True for VALID and INVALID, the answers backed by evidence."""
        return self in (Verdict.VALID, Verdict.INVALID)


_PLAIN_NAME = re.compile(r"[^\W\d][\w']*")
_KEYWORDS = frozenset(
    {"forall", "exists", "exactly", "atmost", "atleast", "of", "true", "false", "ALL", "EX"}
)
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def quote_name(name: str) -> str:
    """``name`` as is when it is a plain identifier, else double-quoted with ``\\`` escapes.

    Inside the quotes backslash, double quote and control characters (newline, NUL ...) are
    escaped, so a quoted name is one line and never ends early.
    """
    if _PLAIN_NAME.fullmatch(name) and name not in _KEYWORDS:
        return name
    return '"' + "".join(_escape(ch) for ch in name) + '"'


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
        return f"\\x{ord(ch):02x}"
    return ch


class Countermodel(BaseModel):
    """A finite model of the axioms in which the goal is false, in readable form.

    ``domains`` lists the elements of each sort; ``true_atoms`` the ground atoms that hold
    (``Tea(e1)``, ``Agent(ev1, e1)``, ``p``); ``constants`` maps each constant to its element.
    Atoms not listed are false. Names that are not plain identifiers are quoted
    (``quote_name``).
    """

    model_config = ConfigDict(frozen=True)

    domains: dict[str, list[str]] = Field(default_factory=dict)
    true_atoms: list[str] = Field(default_factory=list)
    constants: dict[str, str] = Field(default_factory=dict)

    def render(self) -> str:
        """A few lines a person can read."""
        lines = [
            f"{quote_name(sort)}: {{{', '.join(map(quote_name, elems))}}}"
            for sort, elems in sorted(self.domains.items())
        ]
        lines += [
            f"{quote_name(name)} = {quote_name(elem)}"
            for name, elem in sorted(self.constants.items())
        ]
        lines.append("true: " + (", ".join(self.true_atoms) if self.true_atoms else "(none)"))
        return "\n".join(lines)


class ProofResult(BaseModel):
    """One prover call's outcome with its evidence and log."""

    model_config = ConfigDict(frozen=True)

    verdict: Verdict
    prover: str
    elapsed_s: float
    countermodel: Countermodel | None = None
    used_axioms: list[str] | None = None
    message: str = ""
    raw_log: str = ""

    @classmethod
    def timed(cls, verdict: Verdict, prover: str, start: float, **evidence: Any) -> ProofResult:
        """A result whose elapsed time runs from ``start`` (a ``time.perf_counter()`` reading)."""
        return cls(
            verdict=verdict, prover=prover, elapsed_s=time.perf_counter() - start, **evidence
        )
