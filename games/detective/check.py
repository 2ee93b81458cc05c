"""Checking a case file against everything the generator promises, naming what fails where.

A case with logic must give every choice a formula and speak only of its setting's atoms; its
introduction and locations must not contradict each other or the reference answers; all
locations together must settle every answer uniquely and the introduction alone none; every
stored unlock set must be one of the minimal sets of locations that settle its answer, and every
such set must be stored; no answer may be settled by one location; exactly the locations no
answer needs are red herrings; the knobs a case declares must describe it; and each location's
text must state its facts in words (a sentence the generator's reader reads back to it, or one
of its clauses), never their opposite; a text a model wrote must state exactly its facts, read
back sentence by sentence and judged by the prover. The work is bounded by the case's size and
a time limit; beyond either, ``CheckLimitError`` says which.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable, Sequence

from formalize.world.atoms import vocabulary
from formalize.world.clauses import CLAUSES, clause_templates, fill
from formalize.world.facts import Fact, HasMotive, Held, Met, Seen, fact_of
from formalize.world.render import phrasings
from formalize.world.setting import Setting
from games.detective.case import Case
from games.detective.knowledge import CaseKnowledge
from games.detective.narrative import parse_sentence, sentences, stated_facts
from games.detective.readback import read_card
from games.detective.unlock import (
    TooManyUnlockSets,
    UnlockKey,
    computed_unlock_sets,
    with_unlock_sets,
)
from games.detective.verify import answer_formula, answer_problems, case_knowledge
from reasoning import deadline
from reasoning.constraints import ConstraintSessionFactory
from reasoning.formula import Formula, atoms, conj
from reasoning.prover import Prover
from reasoning.syntax import parse_formula

MAX_CHECK_LOCATIONS = 40
"""The most locations a case with logic may have to be checked (generated cases have at most
20; the unlock sets of a case grow exponentially with its locations)."""

DEFAULT_TIME_LIMIT = 120.0
"""Seconds a check may take before it gives up, unless the caller allows more."""


class CheckLimitError(ValueError):
    """The case is too large, or its check too long, to finish; the message says which."""


class _Clock:
    """The check's time limit and what the check is doing: ``during(doing)`` names the next
    step and returns its tick (``tick()`` raises past the limit); ``late()`` is the error the
    whole-call alarm raises, naming the step it interrupted."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start = time.monotonic()
        self.doing = "reading the case"

    def late(self) -> CheckLimitError:
        return CheckLimitError(
            f"gave up after {self.seconds:g} s while {self.doing} (--time-limit allows more)"
        )

    def during(self, doing: str) -> Callable[[], None]:
        self.doing = doing

        def tick() -> None:
            if time.monotonic() - self.start > self.seconds:
                raise self.late()

        return tick


def _places(case: Case, indices: Sequence[int] | frozenset[int]) -> str:
    """``location 'a'`` or ``locations 'a' and 'b'``, in case order."""
    names = [f"'{case.locations[i].id}'" for i in sorted(indices)]
    if len(names) == 1:
        return f"location {names[0]}"
    return f"locations {', '.join(names[:-1])} and {names[-1]}"


def _ids(case: Case, indices: frozenset[int]) -> str:
    return "[" + ", ".join(case.locations[i].id for i in sorted(indices)) + "]"


def logic_problems(case: Case) -> list[str]:
    """What makes the case's logic unusable, before any prover runs: a setting without formulas
    or formulas without a setting, a choice without a formula, an atom outside the setting's
    vocabulary, more locations than a check can handle, knobs that do not describe the case."""
    formulas: list[tuple[str, str]] = [
        (f"intro_facts.{i}", text) for i, text in enumerate(case.intro_facts)
    ]
    formulas += [
        (f"location '{loc.id}' fact {j + 1}", text)
        for loc in case.locations
        for j, text in enumerate(loc.facts)
    ]
    missing: list[str] = []
    for qi, q in enumerate(case.questions):
        for si, slot in enumerate(q.slots):
            for ci, choice in enumerate(slot.choices):
                where = (
                    f"questions.{qi}.slots.{si}.choices.{ci} ({q.id} {slot.name} {choice.value!r})"
                )
                if choice.formula is None:
                    missing.append(where)
                else:
                    formulas.append((where, choice.formula))
    if case.setting is None:
        if formulas:
            return [f"{formulas[0][0]}: has a formula but the case has no setting to read it by"]
        return []
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        return [f"{missing[0]}: no formula, so no answer could be graded{more}"]
    problems = _size_problems(case)
    words = vocabulary(case.setting)
    for where, text in formulas:
        unknown = sorted({a.pred for a in atoms(parse_formula(text))} - words)
        if unknown:
            near = difflib.get_close_matches(unknown[0], words, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            problems.append(f"{where}: {unknown[0]} is not an atom of the case's setting{hint}")
    return problems


def _size_problems(case: Case) -> list[str]:
    n = len(case.locations)
    if n > MAX_CHECK_LOCATIONS:
        return [
            f"locations: {n} locations; a case with logic can be checked with at most "
            f"{MAX_CHECK_LOCATIONS} (generated cases have at most 20)"
        ]
    knobs = case.knobs
    if knobs is None:
        return []
    problems = []
    if knobs.locations != n:
        problems.append(f"knobs.locations: says {knobs.locations}, the case has {n} locations")
    if knobs.questions != len(case.questions):
        problems.append(
            f"knobs.questions: says {knobs.questions}, the case has {len(case.questions)}"
        )
    return problems


def _core(kb: CaseKnowledge, cards: set[int], extra: Formula | None) -> set[int]:
    """A minimal subset of ``cards`` that (with ``extra``) is still inconsistent."""
    kept = set(cards)
    for card in sorted(cards):
        if not kb.consistent(kept - {card}, extra):
            kept.discard(card)
    return kept


def clash_problems(case: Case, kb: CaseKnowledge) -> list[str]:
    """Which parts of the case contradict each other, in words; empty when none do."""
    every = set(range(len(case.locations)))
    if not kb.consistent(set()):
        return ["the introduction's facts contradict the rules of the setting"]
    if not kb.consistent(every):
        core = _core(kb, every, None)
        if len(core) == 1:
            return [
                f"{_places(case, frozenset(core))} contradicts the introduction's facts or "
                "itself, under the rules of the setting"
            ]
        return [
            f"{_places(case, frozenset(core))} contradict each other (with the introduction's "
            "facts, under the rules of the setting)"
        ]
    problems = []
    for q in case.questions:
        answer = answer_formula(q)
        if not kb.consistent(every, answer):
            core = _core(kb, every, answer)
            given = ", ".join(f"{s.name} {s.answer}" for s in q.slots)
            against = _places(case, frozenset(core)) if core else "the introduction's facts"
            problems.append(f"{q.id}: the reference answer ({given}) contradicts {against}")
    if not problems:
        truth = conj(answer_formula(q) for q in case.questions)
        if not kb.consistent(every, truth):
            problems.append("the reference answers together contradict the locations")
    return problems


def _label(key: UnlockKey) -> str:
    qid, slot = key
    return qid if slot is None else f"{qid}.{slot}"


def unlock_problems(
    case: Case, kb: CaseKnowledge, computed: dict[UnlockKey, list[frozenset[int]]]
) -> list[str]:
    """Stored unlock sets against the computed minimal ones: each stored set must settle its
    answer and be minimal, and none may be missing."""
    index = {loc.id: i for i, loc in enumerate(case.locations)}
    problems = []
    for q in case.questions:
        parts: list[tuple[UnlockKey, list[list[str]], Formula]] = [
            ((q.id, None), q.unlock_sets, answer_formula(q))
        ]
        parts += [
            ((q.id, s.name), s.unlock_sets, answer_formula(q.model_copy(update={"slots": [s]})))
            for s in q.slots
        ]
        for key, stored_ids, goal in parts:
            found = computed[key]
            stored = [frozenset(index[lid] for lid in ids) for ids in stored_ids]
            for s in stored:
                if s in found:
                    continue
                if not kb.entails(s, goal):
                    problems.append(
                        f"{_label(key)}: unlock set {_ids(case, s)} does not settle the answer"
                    )
                else:
                    smaller = next(f for f in found if f < s)
                    problems.append(
                        f"{_label(key)}: unlock set {_ids(case, s)} is not minimal: "
                        f"{_ids(case, smaller)} already settles the answer"
                    )
            for f in found:
                if f not in stored:
                    problems.append(
                        f"{_label(key)}: the unlock sets leave out {_ids(case, f)}, which also "
                        "settles the answer"
                    )
    return problems


def rule_problems(
    case: Case, computed: dict[UnlockKey, list[frozenset[int]]], flagged: bool = True
) -> list[str]:
    """The single-location rule, the red-herring flags and the red-herring quota; with
    ``flagged`` False (a case that left its unlock sets to be computed) an unmarked red herring
    is no fault."""
    problems = []
    for q in case.questions:
        lone = [s for s in computed[q.id, None] if len(s) == 1]
        if lone:
            problems.append(
                f"{q.id}: {_places(case, lone[0])} alone settles the answer; an answer must "
                "need at least two locations"
            )
    used = {i for found in computed.values() for s in found for i in s}
    for i, loc in enumerate(case.locations):
        if loc.red_herring and i in used:
            key = next(k for k, found in computed.items() if any(i in s for s in found))
            problems.append(
                f"location '{loc.id}': marked a red herring, but {_label(key)} needs it"
            )
        elif flagged and not loc.red_herring and i not in used:
            problems.append(
                f"location '{loc.id}': no answer needs it, but it is not marked a red herring"
            )
    if case.knobs is not None:
        herrings = sum(i not in used for i in range(len(case.locations)))
        if herrings < case.knobs.red_herrings:
            problems.append(
                f"knobs.red_herrings: promises {case.knobs.red_herrings}, the case has {herrings}"
            )
    return problems


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()


def _opposite(fact: Fact) -> Fact | None:
    match fact:
        case Seen(person, place, slot, present):
            return Seen(person, place, slot, not present)
        case Met(a, b, slot, together):
            return Met(a, b, slot, not together)
        case Held(person, item, slot, held):
            return Held(person, item, slot, not held)
        case HasMotive(person, motive, has):
            return HasMotive(person, motive, not has)
    return None


def _wordings(fact: Fact, setting: Setting) -> list[str]:
    """Every way a case's text may state ``fact``: the story clauses (a victim's sighting also
    as where the body was found) and the plain sentences."""
    templates = list(clause_templates(fact))
    if isinstance(fact, Seen) and fact.present and fact.person in setting.victims:
        templates += CLAUSES["body"]
    return [fill(t, fact, setting) for t in templates] + phrasings(fact, setting)


def _text_problem(
    where: str, text: str, stated: list[Fact], formula_text: str, setting: Setting
) -> str | None:
    """Whether ``text`` states the fact ``formula_text`` in words (one of its sentences reads
    back to it, as ``stated`` says, or it holds one of the fact's wordings); None when it does
    (or when the formula is not one of the generator's kinds of fact, whose words cannot be
    known)."""
    fact = fact_of(parse_formula(formula_text), setting)
    if fact is None:
        return None
    body = _normal(text)
    if fact in stated or any(_normal(p) in body for p in _wordings(fact, setting)):
        return None
    opposite = _opposite(fact)
    if opposite is not None:
        said = next((p for p in _wordings(opposite, setting) if _normal(p) in body), None)
        if said is None and opposite in stated:
            said = next(s for s in sentences(text) if opposite in parse_sentence(s, setting))
        if said is not None:
            return f"{where}: the text says {said!r}, the opposite of its fact {formula_text}"
    example = _wordings(fact, setting)[0]
    return f"{where}: the text does not state its fact {formula_text} (such as {example!r})"


def text_problems(case: Case, prover: Prover) -> list[str]:
    """Each location's (and the introduction's) facts stated in its text, never contradicted;
    a location whose text a model wrote (the case's provenance says which) must state exactly
    its facts, every sentence read back and judged by ``prover`` (``readback.read_card``)."""
    if case.setting is None:
        return []
    setting = case.setting
    intro = stated_facts(case.introduction, setting)
    found = [
        _text_problem("introduction", case.introduction, intro, f, setting)
        for f in case.intro_facts
    ]
    known = [parse_formula(f) for f in case.intro_facts]
    for loc in case.locations:
        written = None if case.provenance is None else case.provenance.card(loc.id)
        if written is not None and written.written_by == "model":
            facts = [parse_formula(f) for f in loc.facts]
            reading = read_card(
                loc.text, facts, setting, prover, speaker=written.speaker, known=known
            )
            found += [f"location '{loc.id}': {p}" for p in reading.problems]
            continue
        stated = stated_facts(loc.text, setting)
        found += [
            _text_problem(f"location '{loc.id}'", loc.text, stated, f, setting) for f in loc.facts
        ]
    return [p for p in found if p is not None]


def check_case(
    case: Case,
    prover: Prover,
    factory: ConstraintSessionFactory,
    time_limit: float = DEFAULT_TIME_LIMIT,
    on_compute: Callable[[], None] | None = None,
) -> tuple[Case, list[str]]:
    """Every way ``case`` (which must have logic) breaks the contract, one line each, and the
    case with its unlock sets filled in when it had none; ``on_compute`` is called before
    missing unlock sets are computed. CheckLimitError past ``time_limit`` seconds, from the
    step's own ticks or, in the main thread, from an alarm that stops any step
    (``reasoning.deadline``)."""
    problems = logic_problems(case)
    if problems:
        return case, problems
    clock = _Clock(time_limit)
    with deadline.time_limit(time_limit, clock.late):
        return _checked(case, prover, factory, clock, on_compute)


def _checked(
    case: Case,
    prover: Prover,
    factory: ConstraintSessionFactory,
    clock: _Clock,
    on_compute: Callable[[], None] | None,
) -> tuple[Case, list[str]]:
    clock.during("building the case's theory")
    with case_knowledge(case, factory) as kb:
        clock.during("looking for contradictions")
        problems = clash_problems(case, kb)
        if problems:
            return case, problems
        clock.during("checking the answers")()
        problems = answer_problems(case, prover)
        if problems:
            return case, problems
        bare = not any(q.unlock_sets for q in case.questions)
        if bare and on_compute is not None:
            on_compute()
        try:
            computed = computed_unlock_sets(
                case, factory, clock.during("computing the unlock sets")
            )
        except TooManyUnlockSets as err:
            return case, [f"questions: {err}; a case must have fewer ways to an answer"]
        problems = rule_problems(case, computed, flagged=not bare)
        if bare:
            case = with_unlock_sets(case, factory, computed)
        problems += unlock_problems(case, kb, computed)
    clock.during("checking the texts")()
    problems += text_problems(case, prover)
    return case, problems
