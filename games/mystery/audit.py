"""The exact audit of an interrogation game, from its scripts and its log.

- Entropy: for each civilian, H = sum over crimes of ln(suspects consistent with the theory, the
  introduction, its script and the answers heard so far), after the introductions and after each
  round; the IG of round r is H(r-1) - H(r). Exact for every agent, LLM or not.
- Pruning: every suspect list an asker stated is graded against what it could know then: a
  dropped suspect is ENTAILED out (sound), a guess (consistent but dropped), or wrong (a real
  killer); a kept suspect its knowledge already ruled out is a missed deduction.
- Calibration: each high / medium / low rating an asker gave, paired with the exact expected
  IG of asking that character.
- Utterances: every fact of every answer is TRUE / FALSE against the world and ENTAILED /
  CONTRADICTED / UNDETERMINED against the speaker's own script, so lies are detected exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from formalize.interrogation.script import Scripts
from formalize.world import atoms
from formalize.world.facts import Fact, fact_formula, holds_in
from games.mystery.events import Answered, Asked, MysteryEvent, record_fact
from games.mystery.knowledge import Knowledge
from provers.sat_session import SatSession
from reasoning.formula import Not
from reasoning.oracle import claim_status
from reasoning.verifier import ClaimStatus, Correctness


@dataclass(frozen=True, slots=True)
class Exchange:
    """One answered question: who asked whom in which round, and the facts of the answer."""

    round: int
    asker: int
    answerer: int
    facts: tuple[Fact, ...]


def exchanges(events: Sequence[MysteryEvent]) -> list[Exchange]:
    """The answered questions of a log, in order."""
    out: list[Exchange] = []
    pending: Asked | None = None
    for event in events:
        if isinstance(event, Asked):
            pending = event
        elif isinstance(event, Answered) and pending is not None:
            facts = tuple(record_fact(f) for f in event.facts)
            out.append(Exchange(event.round, pending.seat, event.seat, facts))
            pending = None
    return out


@dataclass
class FactCheck:
    """One fact of an answer: its speaker, truth, and status against the speaker's script."""

    speaker: str
    fact: Fact
    correctness: Correctness
    status: ClaimStatus


@dataclass
class MysteryAudit:
    """A game's audit (see the module docstring); ``entropy[seat]`` lists H after the
    introductions and after each round, for each civilian seat; ``calibration`` pairs each
    high / medium / low rating an asker gave with the exact expected IG of asking that
    character where it was at a crime's time (the best such question), from what it knew."""

    entropy: dict[int, list[float]] = field(default_factory=dict)
    pruning: Counter[str] = field(default_factory=Counter)
    facts: list[FactCheck] = field(default_factory=list)
    calibration: list[tuple[str, float]] = field(default_factory=list)

    @property
    def gains(self) -> list[float]:
        """The mean IG over civilians of each round."""
        if not self.entropy:
            return []
        rounds = len(next(iter(self.entropy.values()))) - 1
        return [
            sum(h[r] - h[r + 1] for h in self.entropy.values()) / len(self.entropy)
            for r in range(rounds)
        ]

    @property
    def lies(self) -> list[FactCheck]:
        """The false facts that were said."""
        return [f for f in self.facts if f.correctness is Correctness.FALSE]


def _knowledge(scripts: Scripts, person: str, own: Sequence[Fact]) -> Knowledge:
    setting = scripts.world.setting
    return Knowledge(setting, scripts.players, person, [*scripts.intro, *own], SatSession)


def audit_game(scripts: Scripts, events: Sequence[MysteryEvent], rounds: int) -> MysteryAudit:
    """The exact audit of one game played over ``scripts``."""
    report = MysteryAudit()
    said = exchanges(events)
    asks = [e for e in events if isinstance(e, Asked)]
    for seat, person in enumerate(scripts.players):
        if person in scripts.murderers:
            continue
        with _knowledge(scripts, person, scripts.scripts[person]) as know:
            heard = 0
            history = [know.entropy()]
            mine = [
                (k, a) for k, a in enumerate(asks) if a.seat == seat and (a.stated or a.expected)
            ]
            for r in range(1, rounds + 1):
                for k, ask in mine:
                    if ask.round == r:
                        _grade(report, scripts, person, ask, said[:k])
                while heard < len(said) and said[heard].round == r:
                    know.hear(scripts.players[said[heard].answerer], said[heard].facts)
                    heard += 1
                history.append(know.entropy())
            report.entropy[seat] = history
    for person in scripts.players:
        spoken = [e for e in said if scripts.players[e.answerer] == person]
        if not spoken:
            continue
        with _knowledge(scripts, person, scripts.scripts[person]) as own:
            for exchange in spoken:
                for fact in exchange.facts:
                    truth = holds_in(fact, scripts.world)
                    report.facts.append(
                        FactCheck(
                            person,
                            fact,
                            Correctness.TRUE if truth else Correctness.FALSE,
                            claim_status(own, fact_formula(fact, scripts.world.setting)),
                        )
                    )
    return report


def _grade(
    report: MysteryAudit, scripts: Scripts, person: str, ask: Asked, before: Sequence[Exchange]
) -> None:
    """Grade the suspects ``ask`` states against ``person``'s knowledge of the answers before
    it."""
    with _knowledge(scripts, person, scripts.scripts[person]) as then:
        for exchange in before:
            then.hear(scripts.players[exchange.answerer], exchange.facts)
        for index, (crime, stated) in enumerate(
            zip(scripts.world.crimes, ask.stated, strict=False), start=1
        ):
            for j in then.candidates(index):
                out = then.entails(Not(atoms.culprit(index, j)))
                if j not in stated:
                    kind = "wrong" if j in crime.killers else "entailed" if out else "guess"
                    report.pruning[kind] += 1
                elif out:
                    report.pruning["missed"] += 1
        slots = sorted({c.slot for c in scripts.world.crimes})
        for other, level in ask.expected:
            exact = max(then.expected_gain(other, other, t) for t in slots)
            report.calibration.append((level, exact))
