"""The acceptance checks of a game's scripts, asked of any ``reasoning.Prover``.

A set of scripts is accepted when: all scripts together entail who killed whom; no civilian's
own script does; each murderer's cover story is consistent with the theory, the introduction and
the other cover stories; every lie is refuted by a single civilian's script; and a plan of
questions that fits in three rounds (everyone asked where they were at each crime's time)
lets every civilian entail the killers, hearing each answer as testimony.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from formalize.interrogation.questions import Question, Where, answer_from
from formalize.interrogation.script import Scripts
from formalize.interrogation.testimony import as_heard, solution
from formalize.world.facts import Fact, fact_formula
from formalize.world.theory import background_theory
from reasoning.formula import Formula, Not, conj
from reasoning.prover import Axiom, Prover, check_consistency
from reasoning.verdict import Verdict

ROUNDS = 3
"""Questioning rounds of a game; each player asks one question a round."""


def killers(scripts: Scripts) -> list[tuple[int, str]]:
    """Every (crime, killer) pair of the world."""
    return [(i, p) for i, c in enumerate(scripts.world.crimes, start=1) for p in c.killers]


def _facts(name: str, facts: Iterable[Fact], scripts: Scripts) -> Axiom:
    return Axiom(name, conj(fact_formula(f, scripts.world.setting) for f in facts))


def _base(scripts: Scripts) -> list[Axiom]:
    return [*background_theory(scripts.world.setting), _facts("intro", scripts.intro, scripts)]


def plan(scripts: Scripts) -> list[tuple[str, Question]]:
    """The questions of the solvability check: each player asked where it was at each crime's
    time, as (answerer, question)."""
    slots = sorted({c.slot for c in scripts.world.crimes})
    return [(p, Where(p, t)) for t in slots for p in scripts.players]


def answer(scripts: Scripts, answerer: str, question: Question) -> tuple[Fact, ...]:
    """The answer ``answerer`` gives in the plan: the truth, or a murderer's cover story."""
    own = scripts.covers.get(answerer, scripts.scripts[answerer])
    return answer_from(own, question)


def check_scripts(
    scripts: Scripts, prover: Prover, timeout: float | None = None, *, first: bool = False
) -> list[str]:
    """What the scripts fail of the acceptance checks (empty when they pass); with ``first``,
    stop at the first failure (what a generator needs to discard a draw)."""
    setting = scripts.world.setting
    goal = solution(setting, killers(scripts))
    base = _base(scripts)
    mine = {p: _facts(f"script_{p}", scripts.scripts[p], scripts) for p in scripts.players}
    asked = plan(scripts)
    heard = Axiom(
        "heard",
        conj(as_heard(setting, p, answer(scripts, p, q)) for p, q in asked),
    )

    def proves(axioms: Sequence[Axiom], target: Formula) -> Verdict:
        return prover.prove(axioms, target, timeout).verdict

    def cover_consistent() -> Iterator[str]:
        covers = [_facts(f"cover_{p}", f, scripts) for p, f in scripts.covers.items()]
        if check_consistency(prover, [*base, *covers], timeout).verdict is not Verdict.INVALID:
            yield "the cover stories are inconsistent with the theory or each other"

    def solvable() -> Iterator[str]:
        if len(asked) > ROUNDS * len(scripts.players):
            yield f"the plan needs {len(asked)} questions, more than {ROUNDS} rounds"
        for p in scripts.civilians:
            if proves([*base, mine[p], heard], goal) is not Verdict.VALID:
                yield f"{p} cannot name the killers after the planned questions"

    def entailed() -> Iterator[str]:
        if proves([*base, *mine.values()], goal) is not Verdict.VALID:
            yield "all scripts together do not entail the killers"

    def nobody_alone() -> Iterator[str]:
        for p in scripts.civilians:
            if proves([*base, mine[p]], goal) is not Verdict.INVALID:
                yield f"{p} solves the case from its own script"

    def refuted() -> Iterator[str]:
        for murderer in sorted(scripts.murderers):
            for lie in scripts.lies(murderer):
                negation = Not(fact_formula(lie, setting))
                if not any(
                    proves([*base, mine[c]], negation) is Verdict.VALID for c in scripts.civilians
                ):
                    yield f"{murderer}'s lie {lie} is refuted by no civilian"

    failures: list[str] = []
    for check in (cover_consistent, solvable, entailed, nobody_alone, refuted):
        for failure in check():
            failures.append(failure)
            if first:
                return failures
    return failures
