"""The case generator: a seeded world, a prover-checked set of clues, and the case around them.

From a world it draws a pool of true facts, keeps a minimal subset that still entails every
answer (trying negative facts for removal first, so the case says mostly what was so, then by
default the most direct kinds of fact, so answers come from chains of sightings, holdings and
motives), opens the introduction at the body (where it lay at the last hour, which names the
room of the crime) and puts a few kept facts beside it, chooses the locations' voices (the room
of the body always among them) and lays the rest out over them by how naturally each voice
tells each fact (``voices.fit``: the body's room and the doctors the physical evidence, a
witness its own doings, the vicar and the bank the motives), adds true but useless facts as
distractors, positive where there are enough (some locations get nothing else: the red
herrings), and computes every answer's minimal unlock sets. A draw that breaks a rule (the
introduction or one location settling an answer, too few inference steps, too few red
herrings) is dropped and the next draw tried. The accepted case is checked once more with the
prover given (``verify_case``) before it is returned.

The facts of a case are a function of its seed and knobs alone; the prose is written on top of
them with a random stream of its own (``writer``), so a case's wording can change, or be
rewritten card by card, while its facts stay as they are. Draws are judged on the template's
prose; a writer of another kind (a model's) then writes the accepted draw once, with the same
random stream, so it is asked nothing about draws that are thrown away.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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
from games.detective.narrative import solution_text
from games.detective.questions import PLANS, answer_slot, question_text
from games.detective.unlock import TooManyUnlockSets, shrink, with_unlock_sets
from games.detective.verify import slot_formula, verify_case
from games.detective.voices import (
    PHYSICAL,
    Voice,
    fit,
    location_id,
    scene_voice,
    voice_options,
)
from games.detective.writer import Card, Line, TemplateWriter, WriterFactory, house_plan
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
    cards: list[Card]
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


class _Layout:
    """Facts (pool indices) placed on the locations' voices, by fit and balance: clue facts on
    the clue locations, distractors first where each red herring can tell one, and every
    location that settles an answer on its own relieved of a fact it tells least well."""

    def __init__(
        self, voices: list[Voice], herrings: set[int], pool: Sequence[Fact], world: World
    ) -> None:
        self.voices = voices
        self.herrings = herrings
        self.clue_cards = [c for c in range(len(voices)) if c not in herrings]
        self.pool = pool
        self.crime = world.crimes[0]
        self.cards: list[set[int]] = [set() for _ in voices]

    def fit(self, i: int, card: int) -> int | None:
        """How naturally card ``card`` tells fact ``i`` (None: not at all)."""
        return fit(self.pool[i], self.voices[card], self.crime)

    def best(self, i: int, among: Sequence[int], rng: random.Random, herring: float = 0.0) -> int:
        """The card of ``among`` that tells fact ``i`` best for its load (``herring`` more for
        a red herring that can tell it), else the room of the body (which can tell anything)."""

        def key(c: int) -> tuple[float, float]:
            f = self.fit(i, c)
            bonus = herring if c in self.herrings and f else 0.0
            return ((f or 0) - len(self.cards[c]) + bonus, rng.random())

        options = [c for c in among if self.fit(i, c) is not None]
        return max(options, key=key) if options else 0

    def place_clues(self, clues: Sequence[int], rng: random.Random) -> None:
        """Each clue on the clue card that tells it best, the most particular facts first; then
        an empty clue card takes a fact it tells well from the fullest card that can spare one."""

        def strongest(i: int) -> int:
            return max(
                (f for c in self.clue_cards if (f := self.fit(i, c)) is not None), default=-1
            )

        for i in sorted(clues, key=strongest, reverse=True):
            self.cards[self.best(i, self.clue_cards, rng)].add(i)
        for c in self.clue_cards:
            if self.cards[c]:
                continue
            offers = [
                (i, d)
                for d in self.clue_cards
                if len(self.cards[d]) > 1
                for i in self.cards[d]
                if (self.fit(i, c) or 0) > 0
            ]
            if offers:
                i, d = max(offers, key=lambda o: (len(self.cards[o[1]]), self.fit(o[0], c) or 0))
                self.cards[d].discard(i)
                self.cards[c].add(i)

    def add_distractors(self, spare: Sequence[int], count: int, rng: random.Random) -> None:
        """``count`` spare facts: first one for each red herring that can tell one (never what
        the body shows, which belongs to its room), then positive facts before negative ones."""
        positive = [i for i in spare if not is_negative(self.pool[i])]
        chosen: list[int] = []
        for c in rng.sample(sorted(self.herrings), len(self.herrings)):
            fitting = [
                i
                for i in spare
                if i not in chosen
                and (self.fit(i, c) or 0) > 0
                and not isinstance(self.pool[i], PHYSICAL)
            ]
            if fitting and len(chosen) < count:
                i = rng.choice([i for i in fitting if i in positive] or fitting)
                chosen.append(i)
                self.cards[c].add(i)
        more: list[int] = []
        for group in (positive, [i for i in spare if i not in positive]):
            rest = [i for i in group if i not in chosen]
            more += rng.sample(rest, min(len(rest), count - len(chosen) - len(more)))
        for i in more:
            self.cards[self.best(i, range(len(self.voices)), rng, herring=2.0)].add(i)

    def relieve(self, strong: int, kept: set[int], rng: random.Random) -> bool:
        """Move a kept fact the card ``strong`` tells least well to the clue card that tells it
        best; False when the card has fewer than two to give."""
        movable = sorted(self.cards[strong] & kept)
        if len(movable) < 2:
            return False
        loosest = min(self.fit(i, strong) or 0 for i in movable)
        moved = rng.choice([i for i in movable if (self.fit(i, strong) or 0) == loosest])
        others = [c for c in self.clue_cards if c != strong]
        target = self.best(moved, others, rng)
        self.cards[strong].discard(moved)
        self.cards[target].add(moved)
        return True


def _layout(
    kb: CaseKnowledge,
    kept: set[int],
    spare: list[int],
    goals: list[Formula],
    knobs: CaseKnobs,
    rng: random.Random,
    pool: Sequence[Fact],
    world: World,
) -> tuple[set[int], list[Card]] | None:
    """Introduction facts and the locations (voices and their facts), or None if none pass."""
    order = sorted(kept)
    rng.shuffle(order)
    intro: set[int] = set()
    for i in order:
        if len(intro) < knobs.intro_clues and not any(kb.entails(intro | {i}, g) for g in goals):
            intro.add(i)
    setting, crime = world.setting, world.crimes[0]
    voices = [
        scene_voice(setting, crime.place),
        *rng.sample(voice_options(setting, crime.place), knobs.locations - 1),
    ]
    herrings = set(rng.sample(range(1, knobs.locations), knobs.red_herrings))
    lay = _Layout(voices, herrings, pool, world)
    lay.place_clues([i for i in order if i not in intro], rng)
    lay.add_distractors(spare, knobs.distractors, rng)
    for _ in range(2 * knobs.locations):
        strong = next(
            (c for c, f in enumerate(lay.cards) if any(kb.entails(intro | f, g) for g in goals)),
            None,
        )
        if strong is None:
            paired = list(zip(voices, lay.cards, strict=True))
            rng.shuffle(paired)
            return intro, [Card(v, tuple(pool[i] for i in sorted(f))) for v, f in paired]
        if not lay.relieve(strong, kept, rng):
            return None
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
        layout = _layout(kb, kept, spare, list(goals.values()), knobs, rng, pool, world)
    if layout is None:
        return None
    intro, cards = layout
    return _Draw(
        world,
        questions,
        body,
        [pool[i] for i in sorted(intro)],
        cards,
        {qid: [pool[i] for i in ids] for qid, ids in steps.items()},
    )


def _sentences(lines: Sequence[Line], setting: Setting) -> list[Sentence]:
    return [
        Sentence(
            text=line.text, facts=[format_formula(fact_formula(f, setting)) for f in line.facts]
        )
        for line in lines
    ]


def _build(
    seed: int,
    draw: _Draw,
    knobs: CaseKnobs,
    prose: random.Random,
    factory: ConstraintSessionFactory,
    writer_for: WriterFactory,
) -> Case | None:
    """The case of ``draw``, its prose written by ``writer_for``'s writer with ``prose``; None
    when its unlock sets are too many or too few of its locations are red herrings."""
    world = draw.world
    setting = world.setting
    crime = world.crimes[0]
    victim = setting.person(crime.victim).name
    scene = setting.place(crime.place).name
    writer = writer_for(setting, prose, knobs.words_per_card)
    qtexts = [question_text(qid, victim, scene, prose) for qid, _ in draw.questions]
    intro_text, intro_lines = writer.introduction(draw.body, qtexts, draw.intro)
    locations = []
    for card in draw.cards:
        lines = writer.card(card)
        locations.append(
            Location(
                id=location_id(card.voice.title),
                title=card.voice.title,
                text=" ".join(line.text for line in lines),
                facts=[format_formula(fact_formula(f, setting)) for f in card.facts],
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
    case = Case(
        title=f"Death at {setting.title}",
        seed=seed,
        knobs=knobs,
        introduction=intro_text,
        house_plan=house_plan(setting),
        intro_facts=[format_formula(fact_formula(f, setting)) for f in [draw.body, *draw.intro]],
        intro_sentences=_sentences(intro_lines, setting),
        questions=questions,
        locations=locations,
        solution=solution_text(
            world,
            list(zip(qtexts, answers, strict=True)),
            [draw.steps[qid] for qid, _ in draw.questions],
            prose,
        ),
        setting=setting,
        provenance=writer.provenance(),
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
    writer: WriterFactory = TemplateWriter,
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
        prose = f"prose:{seed}:{attempt}"
        case = _build(seed, draw, knobs, random.Random(prose), factory, TemplateWriter)
        if case is None or verify_case(case, prover, world):
            continue
        if writer is not TemplateWriter:
            written = _build(seed, draw, knobs, random.Random(prose), factory, writer)
            assert written is not None, "the prose changed the facts of the case"
            case = written
        return case, world
    raise GenerationError(f"seed {seed}: no acceptable case in {attempts} attempts")


def generate_case(
    seed: int,
    prover: Prover,
    factory: ConstraintSessionFactory,
    knobs: CaseKnobs | None = None,
    attempts: int = 40,
    writer: WriterFactory = TemplateWriter,
) -> Case:
    """The case for ``seed``: the first draw that passes every check, verified with ``prover``;
    its facts depend on ``seed`` and ``knobs`` alone, its prose on ``writer`` too."""
    return generate_case_and_world(seed, prover, factory, knobs, attempts, writer)[0]
