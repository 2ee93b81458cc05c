"""Backends by name: ``z3`` (default), ``cvc5``, ``sat``, ``eprover``, ``isabelle``, and ``vote``.

``vote`` is the early-stop majority vote over the first-order backends that can run here
(z3, cvc5, and eprover and isabelle where installed), one attempt per backend in turn, the first
two at once.
"""

from __future__ import annotations

from collections.abc import Callable

from provers.cvc5_prover import Cvc5Prover
from provers.eprover import EProver, eprover_available
from provers.isabelle.prover import IsabelleProver
from provers.isabelle.server import isabelle_available
from provers.sat_prover import SatProver
from provers.z3_prover import Z3Prover
from reasoning.prover import Prover, ProverUnavailable
from reasoning.vote import VoteProver

DEFAULT_PROVER = "z3"


def _vote() -> Prover:
    members: list[Prover] = [Z3Prover(), Cvc5Prover()]
    if eprover_available():
        members.append(EProver())
    if isabelle_available():
        members.append(IsabelleProver())
    return VoteProver(members, name="vote")


def _eprover() -> Prover:
    if not eprover_available():
        raise ProverUnavailable(
            "E prover is not installed: install it with `apt-get install eprover` "
            "(Debian/Ubuntu) or put `eprover` on PATH"
        )
    return EProver()


_FACTORIES: dict[str, Callable[[], Prover]] = {
    "z3": Z3Prover,
    "cvc5": Cvc5Prover,
    "sat": SatProver,
    "eprover": _eprover,
    "isabelle": IsabelleProver,
    "vote": _vote,
}

PROVER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def get_prover(name: str = DEFAULT_PROVER) -> Prover:
    """A backend by name; ``ProverUnavailable`` (with an install hint) when it cannot run here."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(
            f"unknown prover {name!r}; choose one of {', '.join(PROVER_NAMES)}"
        ) from None
    return factory()
