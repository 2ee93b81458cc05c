"""The case generator: a seeded world, a prover-checked set of clues, and the case around them.

From a world it draws a pool of true facts, keeps a minimal subset that still entails every
answer (trying negative facts for removal first, so the case says mostly what was so, then by
default the most direct kinds of fact, so answers come from chains of sightings, holdings and
motives), opens the introduction at the body (where it lay at the last hour, which names the
room of the crime) and puts a few kept facts beside it, spreads the rest over the clue
locations, adds true but useless facts as distractors, positive where there are enough (some
locations get nothing else: the red herrings), tells each location's facts as a scene
(``narrative``), and computes every answer's minimal unlock sets. A draw
that breaks a rule (the introduction or one location settling an answer, too few inference
steps, too few red herrings) is dropped and the next draw tried. The accepted case is checked
once more with the prover given (``verify_case``) before it is returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from formalize.world.facts import (
    Fact,
    HasMotive,
    Held,
    KeyHolders,
    Met,
    MethodWas,
    MotiveAmong,
    MotiveHolders,
    SceneAmong,
    Seen,
    TimeAmong,
    WeaponNot,
    fact_formula,
)
from formalize.world.generate import WorldConfig, generate_world
from formalize.world.setting import Setting
from formalize.world.theory import background_theory
from formalize.world.world import World
from games.detective.case import AnswerSlot, Case, CaseKnobs, Location, Question, Sentence
from games.detective.knowledge import CaseKnowledge
from games.detective.narrative import (
    OFFICIALS,
    CardSpec,
    Line,
    card_lines,
    introduction,
    solution_text,
)
from games.detective.questions import PLANS, answer_slot, question_text
from games.detective.unlock import TooManyUnlockSets, shrink, with_unlock_sets
from games.detective.verify import slot_formula, verify_case
from reasoning.constraints import ConstraintSessionFactory
from reasoning.formula import Formula, conj
from reasoning.prover import Prover
from reasoning.syntax import format_formula

DIRECT = (TimeAmong, SceneAmong, MethodWas, WeaponNot, MotiveAmong)
"""Fact kinds that speak of the crime itself; removed first when minimising the clues."""


def is_negative(fact: Fact) -> bool:
    """Whether ``fact`` says what was not so (someone absent, a weapon not held or not used,
    a motive lacking); the generator prefers positive facts, from which negatives follow."""
    match fact:
        case Seen(present=False) | Met(together=False) | Held(held=False):
            return True
        case HasMotive(has=False) | WeaponNot():
            return True
    return False


def body_fact(world: World) -> Seen:
    """Where the victim's body lay at the last hour: the scene, where every case opens."""
    crime = world.crimes[0]
    return Seen(crime.victim, crime.place, len(world.setting.slots) - 1)


class GenerationError(RuntimeError):
    """No acceptable case was found for a seed within the attempt budget."""


@dataclass(frozen=True, slots=True)
class _Draw:
    """One attempt's plan: the world, the questions, the facts of the introduction and of each
    location, and per question a minimal set of the kept facts its answer follows from."""

    world: World
    questions: list[tuple[str, list[AnswerSlot]]]
    body: Seen
    intro: list[Fact]
    cards: list[list[Fact]]
    steps: dict[str, list[Fact]]


def _pool(world: World, rng: random.Random) -> list[Fact]:
    """True facts about ``world``, of every kind."""
    s = world.setting
    crime = world.crimes[0]
    n = len(s.slots)
    places = [p.id for p in s.places]
    suspects = [p.id for p in s.suspects]
    pool: list[Fact] = []
    for person, path in world.positions.items():
        for t, lid in enumerate(path):
            pool.append(Seen(person, lid, t))
            pool.append(Seen(person, rng.choice([p for p in places if p != lid]), t, False))
    people = sorted(world.positions)
    for t in range(n):
        for a, b in (rng.sample(people, 2) for _ in range(2)):
            pool.append(Met(a, b, t, world.positions[a][t] == world.positions[b][t]))
    for (item, t), person in world.holdings.items():
        pool.append(Held(person, item, t))
    for w in s.weapons:
        for t in range(n):
            holder = world.holdings.get((w.id, t))
            pool.append(Held(rng.choice([p for p in suspects if p != holder]), w.id, t, False))
    for key, holders in world.key_holders.items():
        pool.append(KeyHolders(key, tuple(sorted(holders))))
    for m in s.motives:
        having = tuple(sorted(p for p, ms in world.motives_of.items() if m.id in ms))
        if having:
            pool.append(MotiveHolders(m.id, having))
        for p in suspects:
            pool.append(HasMotive(p, m.id, p in having))
    others = [t for t in range(n) if t != crime.slot]
    for excluded in others:
        rest = [t for t in others if t != excluded]
        window = rng.sample(rest, min(len(rest), rng.choice((1, 2))))
        pool.append(TimeAmong(1, tuple(sorted([crime.slot, *window]))))
    wrong_places = [p for p in places if p != crime.place]
    for _ in range(6):
        pool.append(SceneAmong(1, tuple(sorted([crime.place, *rng.sample(wrong_places, 3)]))))
    pool.append(MethodWas(1, crime.method))
    pool += [WeaponNot(1, w.id) for w in s.weapons if w.id != crime.weapon]
    wrong_motives = [m.id for m in s.motives if m.id != crime.motive]
    for _ in range(2):
        pool.append(MotiveAmong(1, tuple(sorted([crime.motive, *rng.sample(wrong_motives, 2)]))))
    return list(dict.fromkeys(pool))


def _answer(slots: Sequence[AnswerSlot]) -> Formula:
    return conj(slot_formula(slot, slot.answer) for slot in slots)


def _minimise(
    kb: CaseKnowledge,
    usable: list[int],
    pool: list[Fact],
    goal: Formula,
    long_chains: bool,
    rng: random.Random,
) -> set[int]:
    """A minimal subset of ``usable`` facts entailing ``goal``: negative facts are tried for
    removal first (the case then says mostly what was so), then facts about the crime itself
    with ``long_chains`` (answers then rest on chains of sightings, holdings and motives), last
    without it (shorter reasoning from more direct clues)."""
    negative = [i for i in usable if is_negative(pool[i])]
    direct = [i for i in usable if isinstance(pool[i], DIRECT) and i not in negative]
    rest = [i for i in usable if i not in direct and i not in negative]
    rng.shuffle(negative)
    rng.shuffle(direct)
    rng.shuffle(rest)
    kept = set(usable)
    for i in negative + (direct + rest if long_chains else rest + direct):
        if kb.entails(kept - {i}, goal):
            kept.discard(i)
    return kept


def _layout(
    kb: CaseKnowledge,
    kept: set[int],
    spare: list[int],
    goals: list[Formula],
    knobs: CaseKnobs,
    rng: random.Random,
    is_negative_index: Callable[[int], bool],
) -> tuple[set[int], list[set[int]]] | None:
    """Introduction facts and each location's facts (as pool indices), or None if none pass;
    distractors are positive facts where there are enough."""
    order = sorted(kept)
    rng.shuffle(order)
    intro: set[int] = set()
    for i in order:
        if len(intro) < knobs.intro_clues and not any(kb.entails(intro | {i}, g) for g in goals):
            intro.add(i)
    clues = [i for i in order if i not in intro]
    n_clue = knobs.locations - knobs.red_herrings
    cards: list[set[int]] = [set() for _ in range(knobs.locations)]
    for n, i in enumerate(clues):
        cards[n % n_clue].add(i)
    positive = [i for i in spare if not is_negative_index(i)]
    negative = [i for i in spare if is_negative_index(i)]
    chosen = rng.sample(positive, min(len(positive), knobs.distractors))
    chosen += rng.sample(negative, min(len(negative), knobs.distractors - len(chosen)))
    for n, i in enumerate(chosen):
        cards[n_clue + n if n_clue + n < knobs.locations else rng.randrange(knobs.locations)].add(i)
    for _ in range(2 * knobs.locations):
        strong = next(
            (c for c in range(len(cards)) if any(kb.entails(intro | cards[c], g) for g in goals)),
            None,
        )
        if strong is None:
            rng.shuffle(cards)
            return intro, cards
        movable = sorted(cards[strong] & kept)
        if len(movable) < 2:
            return None
        target = min((c for c in range(n_clue) if c != strong), key=lambda c: len(cards[c]))
        moved = rng.choice(movable)
        cards[strong].discard(moved)
        cards[target].add(moved)
    return None


def _draw(
    world: World, knobs: CaseKnobs, rng: random.Random, factory: ConstraintSessionFactory
) -> _Draw | None:
    """Plan the clues for ``world``, or None when its answers cannot be reached as required."""
    setting = world.setting
    questions = [
        (qid, [answer_slot(name, world) for name in names]) for qid, names in PLANS[knobs.questions]
    ]
    goals = {qid: _answer(slots) for qid, slots in questions}
    everything = conj(goals.values())
    theory = [a.formula for a in background_theory(setting)]
    body = body_fact(world)
    pool = [f for f in _pool(world, rng) if f != body]
    formulas = [fact_formula(f, setting) for f in pool]
    opening = [fact_formula(body, setting)]
    with CaseKnowledge(theory, opening, [[f] for f in formulas], factory) as kb:
        usable = [
            i for i in range(len(pool)) if not any(kb.entails({i}, g) for g in goals.values())
        ]
        if not kb.entails(set(usable), everything):
            return None
        kept = _minimise(kb, usable, pool, everything, knobs.long_chains, rng)
        steps = {qid: sorted(shrink(kb, set(kept), goal)) for qid, goal in goals.items()}
        if min(len(s) for s in steps.values()) < knobs.inference_steps:
            return None
        spare = [i for i in range(len(pool)) if i not in kept]
        layout = _layout(
            kb, kept, spare, list(goals.values()), knobs, rng, lambda i: is_negative(pool[i])
        )
    if layout is None:
        return None
    intro, cards = layout
    return _Draw(
        world,
        questions,
        body,
        [pool[i] for i in sorted(intro)],
        [[pool[i] for i in sorted(card)] for card in cards],
        {qid: [pool[i] for i in ids] for qid, ids in steps.items()},
    )


def _cards(world: World, n: int, rng: random.Random) -> list[tuple[str, CardSpec]]:
    """``n`` locations: household members (who speak), rooms (where things are found) and
    outsiders (who report), each with its title."""
    s = world.setting
    options = [(f"{p.name}, {p.role}", CardSpec("witness", speaker=p.name)) for p in s.suspects]
    options += [(f"The {p.name}", CardSpec("room", place=p.name)) for p in s.places]
    options += [(title, CardSpec("official", speaker=who)) for title, who in OFFICIALS.items()]
    return rng.sample(options, n)


def _slug(text: str) -> str:
    words = "".join(ch if ch.isalnum() else " " for ch in text.lower()).split()
    return "_".join(w for w in words if w != "the")


def _sentences(lines: Sequence[Line], setting: Setting) -> list[Sentence]:
    return [
        Sentence(
            text=line.text, facts=[format_formula(fact_formula(f, setting)) for f in line.facts]
        )
        for line in lines
    ]


def _build(
    seed: int, draw: _Draw, knobs: CaseKnobs, rng: random.Random, factory: ConstraintSessionFactory
) -> Case | None:
    intro, cards = draw.intro, draw.cards
    world = draw.world
    setting = world.setting
    crime = world.crimes[0]
    victim = setting.person(crime.victim).name
    scene = setting.place(crime.place).name
    qtexts = [question_text(qid, victim, scene, rng) for qid, _ in draw.questions]
    locations = []
    for (title, spec), card in zip(_cards(world, knobs.locations, rng), cards, strict=True):
        lines = card_lines(spec, card, setting, knobs.words_per_card, rng)
        locations.append(
            Location(
                id=_slug(title),
                title=title,
                text=" ".join(line.text for line in lines),
                facts=[format_formula(fact_formula(f, setting)) for f in card],
                sentences=_sentences(lines, setting),
            )
        )
    answers = ["; ".join(s.choice(s.answer).text for s in slots) for _, slots in draw.questions]
    questions = [
        Question(
            id=qid,
            text=text,
            slots=slots,
            model_answer=answer,
            inference_steps=len(draw.steps[qid]),
        )
        for (qid, slots), text, answer in zip(draw.questions, qtexts, answers, strict=True)
    ]
    intro_text, intro_lines = introduction(setting, draw.body, qtexts, intro, rng)
    case = Case(
        title=f"Death at {setting.title}",
        seed=seed,
        knobs=knobs,
        introduction=intro_text,
        intro_facts=[format_formula(fact_formula(f, setting)) for f in [draw.body, *intro]],
        intro_sentences=_sentences(intro_lines, setting),
        questions=questions,
        locations=locations,
        solution=solution_text(
            world,
            list(zip(qtexts, answers, strict=True)),
            [draw.steps[qid] for qid, _ in draw.questions],
            rng,
        ),
        setting=setting,
    )
    try:
        case = with_unlock_sets(case, factory)
    except TooManyUnlockSets:
        return None
    if sum(loc.red_herring for loc in case.locations) < knobs.red_herrings:
        return None
    return case


WORLD = WorldConfig(suspects=5, places=15, slots=5, weapons=5, locked=2, motives=5)
"""The shape of the worlds cases are drawn from (one victim, one killer)."""


def generate_case_and_world(
    seed: int,
    prover: Prover,
    factory: ConstraintSessionFactory,
    knobs: CaseKnobs | None = None,
    attempts: int = 40,
) -> tuple[Case, World]:
    """The case for ``seed`` and the hidden world it was drawn from (see ``generate_case``)."""
    knobs = knobs or CaseKnobs()
    for attempt in range(attempts):
        rng = random.Random(f"case:{seed}:{attempt}")
        world = generate_world(rng.randrange(2**32), WORLD)
        if len(world.setting.methods) < 2:
            continue
        draw = _draw(world, knobs, rng, factory)
        if draw is None:
            continue
        case = _build(seed, draw, knobs, rng, factory)
        if case is not None and not verify_case(case, prover, world):
            return case, world
    raise GenerationError(f"seed {seed}: no acceptable case in {attempts} attempts")


def generate_case(
    seed: int,
    prover: Prover,
    factory: ConstraintSessionFactory,
    knobs: CaseKnobs | None = None,
    attempts: int = 40,
) -> Case:
    """The case for ``seed``: the first draw that passes every check, verified with ``prover``."""
    return generate_case_and_world(seed, prover, factory, knobs, attempts)[0]
