"""Backends by name: ``z3`` (default), ``cvc5``, ``sat``, ``eprover``, ``isabelle``, and ``vote``.

``vote`` is the early-stop majority vote over the first-order backends that can run here
(z3, cvc5, and eprover and isabelle where installed), one attempt per backend in turn, the first
two at once. A backend's module (and its solver library) is imported only when it is chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from reasoning.prover import Prover, ProverUnavailable

DEFAULT_PROVER = "z3"


def _backend(module: str, cls: str) -> Callable[[], Prover]:
    """A factory for the backend class ``cls`` of ``module``, imported on the first call."""

    def make() -> Prover:
        prover: Prover = getattr(import_module(module), cls)()
        return prover

    return make


_z3 = _backend("provers.z3_prover", "Z3Prover")
_cvc5 = _backend("provers.cvc5_prover", "Cvc5Prover")


def _isabelle() -> Prover:
    """Isabelle with its server and session already up, so no call's limit pays for the start
    (ProverUnavailable in one line when it cannot start within its own limit)."""
    from provers.isabelle.prover import IsabelleProver

    prover = IsabelleProver()
    prover.start()
    return prover


def _e_installed() -> bool:
    from provers.eprover import eprover_available

    return eprover_available()


def _vote() -> Prover:
    from provers.isabelle.server import isabelle_available
    from reasoning.vote import VoteProver

    members: list[Prover] = [_z3(), _cvc5()]
    if _e_installed():
        members.append(_eprover())
    if isabelle_available():
        members.append(_isabelle())
    return VoteProver(members, name="vote")


def _eprover() -> Prover:
    if not _e_installed():
        raise ProverUnavailable(
            "E prover is not installed: install it with `apt-get install eprover` "
            "(Debian/Ubuntu) or put `eprover` on PATH"
        )
    return _backend("provers.eprover", "EProver")()


_FACTORIES: dict[str, Callable[[], Prover]] = {
    "z3": _z3,
    "cvc5": _cvc5,
    "sat": _backend("provers.sat_prover", "SatProver"),
    "eprover": _eprover,
    "isabelle": _isabelle,
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
