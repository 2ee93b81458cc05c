"""The one list of backends: ``BACKENDS``. The factory (``get_prover``), the vote's members, the
trace audit's incremental sessions, the provers benchmark, Undercover-V's choice of backend and
the README's table all read it, so a new backend is one row here (see ``provers/README.md``).

A backend's module (and its solver library) is imported only when the backend is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from reasoning.prover import Prover


def _attribute(target: str) -> object:
    module, name = target.split(":")
    return getattr(import_module(module), name)


@dataclass(frozen=True)
class Backend:
    """One backend: its name, the class (or factory) that builds it, what the docs say of it,
    and what it takes: first-order input (else propositional constraint sets only), an
    incremental session for trace audits, a place in the vote; ``installed`` is the
    ``module:function`` telling whether an external system it needs is there (None: embedded).
    ``provers.conformance.check_prover`` checks a backend against what its row says."""

    name: str
    builds: str
    """``module:attribute`` of a class or function called with no arguments to build it."""
    engine: str
    notes: str
    first_order: bool
    incremental: bool = False
    in_vote: bool = False
    installed: str | None = None
    cpu_limit: bool = False
    """Whether its time limit bounds the CPU time of a child process rather than wall time."""

    def available(self) -> bool:
        """Whether the backend can run here (its external system, if any, is installed)."""
        if self.installed is None:
            return True
        check = _attribute(self.installed)
        return bool(callable(check) and check())

    def build(self, **options: Any) -> Prover:
        """A fresh instance, made with ``options`` (the constructor's own, such as z3's
        ``countermodels=False``); ProverUnavailable (with an install hint) when it cannot run
        here."""
        make = _attribute(self.builds)
        if not callable(make):
            raise TypeError(f"{self.builds} is not callable")
        prover = make(**options)
        if not isinstance(prover, Prover):
            raise TypeError(f"{self.builds} built {type(prover).__name__}, not a Prover")
        return prover


BACKENDS: tuple[Backend, ...] = (
    Backend(
        "z3",
        "provers.z3_prover:Z3Prover",
        "z3-solver, embedded",
        "quantifiers, equality, cardinality; countermodels; used axioms from the unsat core",
        first_order=True,
        incremental=True,
        in_vote=True,
    ),
    Backend(
        "cvc5",
        "provers.cvc5_prover:Cvc5Prover",
        "cvc5, embedded, finite model finding",
        "like `z3`; finds finite countermodels where z3 may have to give up",
        first_order=True,
        in_vote=True,
    ),
    Backend(
        "sat",
        "provers.sat_prover:SatProver",
        "python-sat (CaDiCaL), embedded",
        "propositional constraint sets with cardinality; incremental sessions, backbones, model "
        "counts",
        first_order=False,
        incremental=True,
    ),
    Backend(
        "eprover",
        "provers.eprover:EProver",
        "E prover, subprocess on TPTP",
        "`apt-get install eprover`; SZS status mapped to verdicts",
        first_order=True,
        in_vote=True,
        installed="provers.eprover:eprover_available",
        cpu_limit=True,
    ),
    Backend(
        "isabelle",
        "provers.registry:isabelle_prover",
        "Isabelle/HOL via isabelle-client",
        "needs a local Isabelle; see [Isabelle/HOL](#isabellehol)",
        first_order=True,
        in_vote=True,
        installed="provers.isabelle.server:isabelle_available",
    ),
    Backend(
        "vote",
        "provers.registry:vote_prover",
        "early-stop majority vote",
        "seed 002's Algorithm 2 over the first-order backends available (z3, cvc5, then E and "
        "Isabelle), the first two run at once",
        first_order=True,
    ),
)
"""Every backend, in the order commands list them; the default first."""

DEFAULT_PROVER = BACKENDS[0].name
PROVER_NAMES: tuple[str, ...] = tuple(b.name for b in BACKENDS)
"""Every backend's name."""
FIRST_ORDER_NAMES: tuple[str, ...] = tuple(b.name for b in BACKENDS if b.first_order)
"""The backends that decide quantified first-order input."""
INCREMENTAL_NAMES: tuple[str, ...] = tuple(b.name for b in BACKENDS if b.incremental)
"""The backends whose trace audits run on one incremental session."""


def backend(name: str) -> Backend:
    """The backend called ``name``; ValueError naming the known ones otherwise."""
    for row in BACKENDS:
        if row.name == name:
            return row
    raise ValueError(f"unknown prover {name!r}; choose one of {', '.join(PROVER_NAMES)}")


def get_prover(name: str = DEFAULT_PROVER, **options: Any) -> Prover:
    """A backend by name, made with ``options`` its constructor takes; ``ProverUnavailable``
    (with an install hint) when it cannot run here.

    Examples:
        >>> from reasoning import parse_formula
        >>> from reasoning.prover import Axiom
        >>> rain, rule = parse_formula("rain"), parse_formula("rain -> wet")
        >>> axioms = [Axiom("rain", rain), Axiom("wet", rule)]
        >>> get_prover("z3").prove(axioms, parse_formula("wet")).verdict
        <Verdict.VALID: 'VALID'>
        >>> get_prover("sat").prove(axioms, parse_formula("~wet")).verdict
        <Verdict.INVALID: 'INVALID'>
    """
    return backend(name).build(**options)


def available_names(first_order: bool = False) -> tuple[str, ...]:
    """The backends that can run here (only the first-order ones, when asked)."""
    return tuple(b.name for b in BACKENDS if b.available() and (b.first_order or not first_order))


def isabelle_prover() -> Prover:
    """Isabelle with its server and session already up, so no call's limit pays for the start
    (ProverUnavailable in one line when it cannot start within its own limit)."""
    from provers.isabelle.prover import IsabelleProver

    prover = IsabelleProver()
    prover.start()
    return prover


def vote_members() -> list[Prover]:
    """The vote's members: every backend marked for it that can run here, in table order."""
    return [b.build() for b in BACKENDS if b.in_vote and b.available()]


def vote_prover() -> Prover:
    """The early-stop majority vote over ``vote_members``."""
    from reasoning.vote import VoteProver

    return VoteProver(vote_members(), name="vote")


def markdown_table() -> str:
    """The provers page's table of backends, from ``BACKENDS``."""
    lines = ["| name | backend | notes |", "|---|---|---|"]
    for row in BACKENDS:
        name = f"`{row.name}`" + (" (default)" if row.name == DEFAULT_PROVER else "")
        lines.append(f"| {name} | {row.engine} | {row.notes} |")
    return "\n".join(lines)
