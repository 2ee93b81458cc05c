"""The conformance check every backend passes, as a function a user runs on their own backend.

``check_prover(backend)`` asks a backend a fixed suite of easy problems, problems whose symbols
have hostile names, a hard problem under a short time limit and a seeded random suite, and checks
the rules below; each failure is a ``ProverConformanceError`` naming the rule it breaks::

    from provers.conformance import check_prover

    check_prover("cvc5")                       # a backend of provers.registry.BACKENDS, by name
    check_prover(MyProver(), first_order=False, seeds=range(10))

The rules (``RULES``) cover the verdict vocabulary, countermodels (each one a model of the axioms
and of the goal's negation), used axioms (they alone entail the goal), time limits (past the
limit the answer is TIMEOUT or UNKNOWN, within the limit and a grace), identifiers (names that
would break TPTP, SMT-LIB or Isabelle text are escaped or rejected: never injected) and agreement
with z3 wherever both answer decisively. A backend takes first-order input, or only propositional
constraint sets (``first_order=False``); each is asked problems of its own fragment.
"""

from __future__ import annotations

import math
import random
import resource
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from provers.model_eval import evaluate
from provers.registry import BACKENDS, DEFAULT_PROVER, get_prover
from reasoning.formula import (
    BOTTOM,
    And,
    Atom,
    Card,
    CardOp,
    Const,
    Exists,
    Forall,
    Formula,
    Implies,
    Not,
    Or,
    Term,
    Var,
)
from reasoning.prover import Axiom, Prover
from reasoning.syntax import format_formula
from reasoning.verdict import ProofResult, Verdict

RULES: dict[str, str] = {
    "verdicts": "every answer is a ProofResult of the Verdict vocabulary, naming the backend, "
    "with a non-negative time; easy entailments are VALID; no decisive answer is wrong",
    "countermodels": "every countermodel satisfies the axioms and falsifies the goal",
    "used-axioms": "the used axioms are axioms of the problem and alone entail the goal",
    "timeout": "past a time limit the answer is TIMEOUT or UNKNOWN (or right), given within the "
    "limit and a grace",
    "identifiers": "hostile symbol names are escaped or rejected: the answer is right or "
    "SYNTAX_ERROR, never a wrong decisive one",
    "agrees-with-z3": "wherever the backend and z3 both answer decisively, they agree",
}
"""Every rule ``check_prover`` checks: its name and what it asks of a backend."""

HOSTILE_NAMES: tuple[str, ...] = (
    "a b",
    "x) (assert false) (declare-const y Bool",
    "p () Bool) (assert false) (declare-fun q",
    "p). fof(f, axiom, $false). fof(g, axiom, q",
    "P \\<Longrightarrow> False",
    "fof(x, axiom, $false).",
    '"quoted\\',
    "lemma",
    "∀θ",
    "two\nlines",
    "$false",
    "end",
)
"""Symbol names that would end a name early, inject a statement or clash with a keyword in
TPTP, SMT-LIB or Isabelle text if written there unescaped."""

ENTITY = "entity"
EVENT = "event"
_X = Var("x", ENTITY)
_Y = Var("y", ENTITY)
_E = Var("e", EVENT)
_CONSTS = (Const("earl", ENTITY), Const("lady", ENTITY))
_ENTITY_PREDS = ("Tea", "Bergamot", "Hot", "Person")
_EVENT_PREDS = ("Infuse", "Drink")
_ROLES = ("Agent", "Patient")
_ATOMS = ("p", "q", "r", "s", "t")
_CARD_OPS: tuple[CardOp, ...] = ("exactly", "atmost", "atleast")


class ProverConformanceError(AssertionError):
    """A backend breaking one of ``RULES``; ``rule`` names it."""

    def __init__(self, rule: str, prover: str, detail: str) -> None:
        super().__init__(f"{prover}: rule {rule!r} ({RULES[rule]}): {detail}")
        self.rule = rule


@dataclass(frozen=True)
class Problem:
    """Axioms, a goal, and the answer where it is known (None: ask z3)."""

    label: str
    axioms: tuple[Axiom, ...]
    goal: Formula
    expected: Verdict | None = None


def _axioms(*formulas: Formula) -> tuple[Axiom, ...]:
    return tuple(Axiom(f"ax{i}", f) for i, f in enumerate(formulas))


def _a(pred: str, *args: Term) -> Atom:
    return Atom(pred, args)


def known_problems(first_order: bool) -> list[Problem]:
    """Easy problems with their answers, of the fragment a backend takes."""
    p, q, r = Atom("p"), Atom("q"), Atom("r")
    problems = [
        Problem("modus ponens", _axioms(p, Implies(p, q)), q, Verdict.VALID),
        Problem("not entailed", _axioms(p, Implies(p, q)), r, Verdict.INVALID),
        Problem(
            "exactly one",
            _axioms(Card("exactly", 1, (p, q, r)), p),
            Not(q),
            Verdict.VALID,
        ),
        Problem("consistent", _axioms(Or((p, q)), Not(p)), BOTTOM, Verdict.INVALID),
        Problem("inconsistent", _axioms(p, Not(p)), BOTTOM, Verdict.VALID),
    ]
    if not first_order:
        return problems
    tea, person = _a("Tea", _X), _a("Person", _X)
    fact = Exists(
        (_X, _Y, _E),
        And((person, _a("Tea", _Y), _a("Drink", _E), _a("Agent", _E, _X), _a("Patient", _E, _Y))),
    )
    rule = Forall(
        (_X, _Y, _E),
        Implies(And((_a("Drink", _E), _a("Agent", _E, _X), _a("Patient", _E, _Y))), _a("Hot", _Y)),
    )
    both = _axioms(fact, rule)
    return [
        *problems,
        Problem("event rule", both, Exists((_X,), And((tea, _a("Hot", _X)))), Verdict.VALID),
        Problem("event not", both, Exists((_X,), And((person, _a("Hot", _X)))), Verdict.INVALID),
        Problem("ground", _axioms(_a("Tea", _CONSTS[0])), Exists((_X,), tea), Verdict.VALID),
    ]


def hostile_problems(first_order: bool) -> list[Problem]:
    """For each hostile name: a symbol so named entails itself (VALID), is consistent and does
    not entail its negation (INVALID); first-order backends are asked the same of a predicate
    applied to a constant so named, apart (a problem holding both could fail to parse on the
    one form and so hide an injection through the other)."""
    problems: list[Problem] = []
    for name in HOSTILE_NAMES:
        forms: list[tuple[str, Atom]] = [("", Atom(name))]
        if first_order:
            forms.append((" (applied)", Atom(name, (Const(name, ENTITY),))))
        for shape, atom in forms:
            facts = _axioms(atom)
            problems += [
                Problem(f"{name!r}{shape} entails itself", facts, atom, Verdict.VALID),
                Problem(f"{name!r}{shape} is consistent", facts, BOTTOM, Verdict.INVALID),
                Problem(f"{name!r}{shape} not its negation", facts, Not(atom), Verdict.INVALID),
            ]
    return problems


def pigeonhole(holes: int) -> Problem:
    """``holes + 1`` pigeons in ``holes`` holes, one each: inconsistent, and hard for resolution
    and CDCL alike (the problem of the time-limit rule)."""

    def sits(pigeon: int, hole: int) -> Atom:
        return Atom(f"p{pigeon}_{hole}")

    formulas: list[Formula] = [
        Or(tuple(sits(i, j) for j in range(holes))) for i in range(holes + 1)
    ]
    formulas += [
        Not(And((sits(i, j), sits(k, j))))
        for j in range(holes)
        for i in range(holes + 1)
        for k in range(i + 1, holes + 1)
    ]
    return Problem(f"pigeonhole {holes}", _axioms(*formulas), BOTTOM, Verdict.VALID)


def random_problem(rng: random.Random, first_order: bool) -> Problem:
    """A small problem drawn from ``rng``: propositional literals, clauses and cardinalities, or
    first-order event facts, role rules, taxonomies and ground facts."""
    draw = _first_order_formula if first_order else _propositional_formula
    formulas = [draw(rng) for _ in range(rng.randint(2, 5))]
    goal = _first_order_goal(rng) if first_order else _propositional_formula(rng)
    return Problem("random", _axioms(*formulas), goal)


def _literal(rng: random.Random) -> Formula:
    atom = Atom(rng.choice(_ATOMS))
    return Not(atom) if rng.random() < 0.5 else atom


def _propositional_formula(rng: random.Random) -> Formula:
    kind = rng.randrange(4)
    if kind == 0:
        return _literal(rng)
    if kind == 1:
        return Or(tuple(_literal(rng) for _ in range(rng.randint(2, 3))))
    if kind == 2:
        return Implies(_literal(rng), _literal(rng))
    literals = tuple(_literal(rng) for _ in range(rng.randint(1, 4)))
    return Card(rng.choice(_CARD_OPS), rng.randint(0, 3), literals)


def _maybe_not(rng: random.Random, f: Formula) -> Formula:
    return Not(f) if rng.random() < 0.5 else f


def _first_order_formula(rng: random.Random) -> Formula:
    entity, event = rng.choice(_ENTITY_PREDS), rng.choice(_EVENT_PREDS)
    kind = rng.randrange(4)
    if kind == 0:
        agent = rng.choice((_X, *_CONSTS))
        bound = (_X, _Y, _E) if agent == _X else (_Y, _E)
        parts = (_a(entity, agent), _a(rng.choice(_ENTITY_PREDS), _Y), _a(event, _E))
        roles = (_a("Agent", _E, agent), _a("Patient", _E, _Y))
        return Exists(bound, And((*parts, *roles)))
    if kind == 1:
        body = And((_a(entity, _X), _a(event, _E), _a(rng.choice(_ROLES), _E, _X)))
        return Forall((_X, _E), Implies(body, _maybe_not(rng, _a(rng.choice(_ENTITY_PREDS), _X))))
    if kind == 2:
        then = _maybe_not(rng, _a(rng.choice(_ENTITY_PREDS), _X))
        return Forall((_X,), Implies(_a(entity, _X), then))
    return _maybe_not(rng, _a(entity, rng.choice(_CONSTS)))


def _first_order_goal(rng: random.Random) -> Formula:
    kind = rng.randrange(4)
    if kind == 0:
        return Exists((_X,), _maybe_not(rng, _a(rng.choice(_ENTITY_PREDS), _X)))
    if kind == 1:
        then = _maybe_not(rng, _a(rng.choice(_ENTITY_PREDS), _X))
        return Forall((_X,), Implies(_a(rng.choice(_ENTITY_PREDS), _X), then))
    if kind == 2:
        return _maybe_not(rng, _a(rng.choice(_ENTITY_PREDS), rng.choice(_CONSTS)))
    return BOTTOM


@dataclass(frozen=True)
class _Asked:
    problem: Problem
    result: ProofResult


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def check_prover(
    prover: Prover | str,
    *,
    first_order: bool | None = None,
    cpu_limit: bool | None = None,
    seeds: Sequence[int] = range(24),
    rules: Sequence[str] | None = None,
    timeout: float = 10.0,
    limit: float = 0.5,
    grace: float = 2.0,
) -> None:
    """Check ``prover`` (a backend, or a name of ``provers.registry.BACKENDS``) against every
    rule of ``rules`` (default: all of ``RULES``); ProverConformanceError for the first broken.

    ``first_order`` says whether it takes quantified input (default: its registry row's, else
    True); ``cpu_limit`` whether its time limit bounds CPU rather than wall time (default: its
    registry row's; a prover run as a child process under a CPU limit, such as E, whose
    children's CPU is then measured). Each of
    ``seeds`` draws one random problem; ``timeout`` bounds every call but the time-limit rule's,
    which asks a hard problem with ``limit`` seconds and allows ``grace`` more.

    Examples:
        >>> check_prover("sat", rules=["verdicts", "identifiers"])
        >>> check_prover("sat", rules=["fast"])
        Traceback (most recent call last):
          ...
        ValueError: unknown rules ['fast']; the rules are verdicts, countermodels, ...
    """
    backend = get_prover(prover) if isinstance(prover, str) else prover
    row = next((b for b in BACKENDS if b.name == backend.name), None)
    takes_first_order = first_order if first_order is not None else (row is None or row.first_order)
    by_cpu = cpu_limit if cpu_limit is not None else (row is not None and row.cpu_limit)
    chosen = list(RULES) if rules is None else list(rules)
    unknown = [r for r in chosen if r not in RULES]
    if unknown:
        raise ValueError(f"unknown rules {unknown}; the rules are {', '.join(RULES)}")

    def require(rule: str, ok: bool, detail: str) -> None:
        if rule in chosen and not ok:
            raise ProverConformanceError(rule, backend.name, detail)

    def ask(problem: Problem, within: float = timeout, rule: str = "verdicts") -> _Asked:
        result = _proved(backend, problem, within, rule)
        _check_vocabulary(require, backend.name, problem, result)
        return _Asked(problem, result)

    asked = [ask(p) for p in known_problems(takes_first_order)]
    for one in asked:
        verdict, expected = one.result.verdict, one.problem.expected
        if expected is Verdict.VALID and one.problem.goal != BOTTOM:
            require("verdicts", verdict is Verdict.VALID, f"{one.problem.label}: {verdict.value}")
        _require_right(require, "verdicts", one)
    if "identifiers" in chosen:
        for one in (ask(p, rule="identifiers") for p in hostile_problems(takes_first_order)):
            _require_right(require, "identifiers", one, allowed=(Verdict.SYNTAX_ERROR,))
    if "agrees-with-z3" in chosen or "countermodels" in chosen or "used-axioms" in chosen:
        asked += _agreement(require, ask, seeds, takes_first_order, timeout)
    for one in asked:
        _check_evidence(require, one, timeout)
    if "timeout" in chosen:
        _check_time_limit(require, backend, takes_first_order, by_cpu, limit, grace)


def _proved(backend: Prover, problem: Problem, within: float | None, rule: str) -> ProofResult:
    """``backend``'s answer to ``problem``; a ``prove`` that raises breaks ``rule`` (a backend
    answers every problem, a malformed one with SYNTAX_ERROR or UNSUPPORTED)."""
    try:
        return backend.prove(problem.axioms, problem.goal, within)
    except Exception as err:  # any exception at all is the failure being reported
        detail = f"{problem.label}: prove raised {type(err).__name__}: {err}"
        raise ProverConformanceError(rule, backend.name, detail) from err


def _check_vocabulary(
    require: Callable[[str, bool, str], None], name: str, problem: Problem, result: object
) -> None:
    where = problem.label
    if not isinstance(result, ProofResult):
        raise ProverConformanceError("verdicts", name, f"{where}: {type(result).__name__}")
    require("verdicts", isinstance(result.verdict, Verdict), f"{where}: {result.verdict!r}")
    require("verdicts", result.prover == name, f"{where}: the result names {result.prover!r}")
    elapsed = result.elapsed_s
    require("verdicts", math.isfinite(elapsed) and elapsed >= 0, f"{where}: elapsed {elapsed}")


def _require_right(
    require: Callable[[str, bool, str], None],
    rule: str,
    one: _Asked,
    allowed: tuple[Verdict, ...] = (),
) -> None:
    """A decisive answer must be the expected one (``allowed`` verdicts pass too)."""
    verdict, expected = one.result.verdict, one.problem.expected
    if expected is None or verdict in allowed or not verdict.decisive:
        return
    detail = f"{one.problem.label}: {verdict.value}, not {expected.value}"
    require(rule, verdict is expected, detail)


def _agreement(
    require: Callable[[str, bool, str], None],
    ask: Callable[[Problem], _Asked],
    seeds: Sequence[int],
    first_order: bool,
    timeout: float,
) -> list[_Asked]:
    reference = get_prover(DEFAULT_PROVER)
    asked: list[_Asked] = []
    for seed in seeds:
        problem = random_problem(random.Random(f"check-prover/{seed}"), first_order)
        one = ask(problem)
        asked.append(one)
        z3 = reference.prove(problem.axioms, problem.goal, timeout).verdict
        ours = one.result.verdict
        if z3.decisive and ours.decisive:
            detail = f"seed {seed}: {ours.value} where z3 says {z3.value}: {_show(problem)}"
            require("agrees-with-z3", ours is z3, detail)
    return asked


def _check_evidence(require: Callable[[str, bool, str], None], one: _Asked, timeout: float) -> None:
    result, problem = one.result, one.problem
    if result.verdict is Verdict.INVALID and result.countermodel is not None:
        model = result.countermodel
        try:
            holds = all(evaluate(ax.formula, model) for ax in problem.axioms)
            falsified = not evaluate(problem.goal, model)
        except ValueError as err:
            holds, falsified = False, False
            require("countermodels", False, f"{problem.label}: unreadable countermodel ({err})")
        require("countermodels", holds, f"{problem.label}: an axiom is false in {model}")
        require("countermodels", falsified, f"{problem.label}: the goal is true in {model}")
    if result.verdict is Verdict.VALID and result.used_axioms is not None:
        names = {ax.name for ax in problem.axioms}
        stray = [n for n in result.used_axioms if n not in names]
        require("used-axioms", not stray, f"{problem.label}: {stray} are not axioms")
        used = [ax for ax in problem.axioms if ax.name in result.used_axioms]
        again = get_prover(DEFAULT_PROVER).prove(used, problem.goal, timeout).verdict
        require(
            "used-axioms",
            again is not Verdict.INVALID,
            f"{problem.label}: {result.used_axioms} alone do not entail the goal (z3: "
            f"{again.value})",
        )


def _check_time_limit(
    require: Callable[[str, bool, str], None],
    backend: Prover,
    first_order: bool,
    by_cpu: bool,
    limit: float,
    grace: float,
) -> None:
    warm = known_problems(first_order)[0]
    _proved(backend, warm, None, "timeout")
    hard = pigeonhole(9)
    own, children, wall = time.process_time(), _children_cpu(), time.perf_counter()
    result = _proved(backend, hard, limit, "timeout")
    spent_wall = time.perf_counter() - wall
    spent_cpu = time.process_time() - own + _children_cpu() - children
    verdict = result.verdict
    require(
        "timeout",
        verdict in (Verdict.TIMEOUT, Verdict.UNKNOWN, Verdict.VALID),
        f"{hard.label} in {limit:g} s: {verdict.value}",
    )
    if by_cpu:
        bound = math.ceil(limit) + grace
        require("timeout", spent_cpu <= bound, f"{spent_cpu:.2f} s CPU for a {limit:g} s limit")
    else:
        bound = limit + grace
        require("timeout", spent_wall <= bound, f"{spent_wall:.2f} s for a {limit:g} s limit")


def _show(problem: Problem) -> str:
    axioms = "; ".join(format_formula(ax.formula) for ax in problem.axioms)
    return f"{axioms} |- {format_formula(problem.goal)}"


def problems_asked(first_order: bool, seeds: Sequence[int]) -> Iterator[Problem]:
    """Every problem ``check_prover`` asks a backend of the fragment (the time-limit rule's
    aside), for a test of the suite itself."""
    yield from known_problems(first_order)
    yield from hostile_problems(first_order)
    for seed in seeds:
        yield random_problem(random.Random(f"check-prover/{seed}"), first_order)
