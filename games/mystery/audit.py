"""The exact audit of an interrogation game, from its scripts and its log.

- Entropy: for each civilian, H = sum over crimes of ln(suspects consistent with the theory, the
  introduction, its script and the answers heard so far, the introductions' alibis included),
  after the introductions and after each round; the IG of round r is H(r-1) - H(r). Exact for
  every agent, LLM or not.
- Pruning: every suspect list an asker stated (one per victim) is graded against what it could
  know then: each dropped suspect is a claim "not a killer of this victim", ENTAILED out (sound),
  a guess (lucky: not entailed, and not a killer), or wrong (a real killer), counted in all and
  per victim; a kept suspect its knowledge already ruled out is a missed deduction, so recall is
  the entailed drops over those and the misses.
- Calibration: each high / medium / low rating an asker gave, paired with the exact expected
  IG of asking that character.
- Utterances: every fact of every answer is TRUE / FALSE against the world and ENTAILED /
  CONTRADICTED / UNDETERMINED against the speaker's own script, so lies are detected exactly.
- Objectives: after the votes, every seat's objectives met or not (``games.mystery.objectives``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from formalize.interrogation.script import Scripts
from formalize.world import atoms
from formalize.world.facts import Fact, fact_formula, holds_in
from games.core.audit import AuditRecord, AuditRow, Where, audit_row, judged_record
from games.core.log import GameLog
from games.core.replay import replay
from games.mystery.entry import ENTRY
from games.mystery.events import (
    Asked,
    GameEnd,
    MysteryConfig,
    MysteryEvent,
    Voted,
)
from games.mystery.exchanges import Exchange, exchanges
from games.mystery.knowledge import Knowledge
from games.mystery.objectives import ObjectiveScore, points_met, score_objectives
from provers.sat_session import SatSession
from reasoning.claims import ClaimStatus, Correctness
from reasoning.formula import Not
from reasoning.oracle import claim_status


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
    by_victim: dict[str, Counter[str]] = field(default_factory=dict)
    """The pruning counts of each victim's suspect lists, by the victim's person id."""
    drops: list[AuditRow] = field(default_factory=list)
    """Every dropped suspect as a claim, judged (the pruning counts' rows)."""
    missed: Counter[int] = field(default_factory=Counter)
    """Per asker seat, the kept suspects its knowledge had already ruled out."""
    facts: list[FactCheck] = field(default_factory=list)
    calibration: list[tuple[str, float]] = field(default_factory=list)
    objectives: dict[int, list[ObjectiveScore]] = field(default_factory=dict)
    """Every seat's objectives scored from the game's facts (after the votes)."""

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


def audit_game(
    scripts: Scripts,
    events: Sequence[MysteryEvent],
    rounds: int,
    lines: Sequence[int] | None = None,
) -> MysteryAudit:
    """The exact audit of one game played over ``scripts``; ``lines`` gives each event's log
    line (else it counts from 1)."""
    report = MysteryAudit()
    said = exchanges(events)
    asks = [e for e in events if isinstance(e, Asked)]
    ask_lines = [
        lines[i] if lines is not None else i + 1
        for i, e in enumerate(events)
        if isinstance(e, Asked)
    ]
    for seat, person in enumerate(scripts.players):
        if person in scripts.murderers:
            continue
        with _knowledge(scripts, person, scripts.scripts[person]) as know:
            heard = 0
            while heard < len(said) and said[heard].round == 0:
                know.hear(scripts.players[said[heard].answerer], said[heard].facts)
                heard += 1
            alibis = heard
            history = [know.entropy()]
            mine = [
                (k, a) for k, a in enumerate(asks) if a.seat == seat and (a.stated or a.expected)
            ]
            for r in range(1, rounds + 1):
                for k, ask in mine:
                    if ask.round == r:
                        _grade(report, scripts, person, ask, said[: alibis + k], ask_lines[k])
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
    if any(isinstance(e, Voted) for e in events):
        report.objectives = score_objectives(scripts, events, said)
    return report


def _grade(
    report: MysteryAudit,
    scripts: Scripts,
    person: str,
    ask: Asked,
    before: Sequence[Exchange],
    line: int,
) -> None:
    """Grade the suspects ``ask`` (on log line ``line``) states against ``person``'s knowledge
    of the answers before it."""
    setting = scripts.world.setting
    with _knowledge(scripts, person, scripts.scripts[person]) as then:
        for exchange in before:
            then.hear(scripts.players[exchange.answerer], exchange.facts)
        for index, (crime, stated) in enumerate(
            zip(scripts.world.crimes, ask.stated, strict=False), start=1
        ):
            for j in then.candidates(index):
                cleared = Not(atoms.culprit(index, j))
                if j not in stated:
                    status = claim_status(then, cleared)
                    killer = j in crime.killers
                    out = status is ClaimStatus.ENTAILED
                    verdict = "wrong" if killer else "entailed" if out else "guess"
                    report.pruning[verdict] += 1
                    report.by_victim.setdefault(crime.victim, Counter())[verdict] += 1
                    report.drops.append(
                        audit_row(
                            ask.seat,
                            Where(line=line, round=ask.round),
                            f"{setting.person(j).name} is not a killer in crime {index}",
                            status,
                            Correctness.FALSE if killer else Correctness.TRUE,
                            detail={"crime": index, "suspect": j},
                            call=ask.call,
                        )
                    )
                elif then.entails(cleared):
                    report.pruning["missed"] += 1
                    report.by_victim.setdefault(crime.victim, Counter())["missed"] += 1
                    report.missed[ask.seat] += 1
        slots = sorted({c.slot for c in scripts.world.crimes})
        for other, level in ask.expected:
            exact = max(then.expected_gain(other, other, t) for t in slots)
            report.calibration.append((level, exact))


def audit_record(log: GameLog[MysteryEvent]) -> AuditRecord:
    """The audit of an interrogation log as the record every game yields: a row per dropped
    suspect, each asker's summary with its recall (entailed drops over those and the suspects
    it kept though its knowledge ruled them out), and the game's figures (entropy and IG per
    round, pruning counts, fact checks and lies, ratings against the exact expected IG,
    objectives, the reveal; listed in docs/audit.md); the log must replay (ReplayError names
    the line where it parts)."""
    state = replay(ENTRY, log)
    config = MysteryConfig.model_validate(log.header.config)
    audit = audit_game(state.scripts, log.events, config.rounds, log.lines)
    recall = {}
    for seat in audit.entropy:
        sound = sum(r.seat == seat and r.judgement == "sound" for r in audit.drops)
        recall[seat] = (sound, sound + audit.missed[seat])
    names = [s.name for s in log.header.seats]
    setting = state.scripts.world.setting
    calibration: dict[str, list[float]] = {}
    for level, eig in audit.calibration:
        calibration.setdefault(level, []).append(eig)
    figures: dict[str, object] = {
        "entropy": {names[s]: [round(h, 3) for h in hs] for s, hs in audit.entropy.items()},
        "pruning_by_victim": {
            setting.person(victim).name: dict(sorted(counts.items()))
            for victim, counts in audit.by_victim.items()
        },
        "objectives": {
            names[seat]: [
                {"text": s.objective.text, "points": s.objective.points, "met": s.met}
                for s in scores
            ]
            for seat, scores in audit.objectives.items()
        },
        "objective_points": {
            names[seat]: list(points_met(scores)) for seat, scores in audit.objectives.items()
        },
        "facts_said": len(audit.facts),
        "lies": len(audit.lies),
        "lies_by_murderers": all(f.speaker in state.scripts.murderers for f in audit.lies),
        "murderers": [
            names[seat]
            for seat, person in enumerate(state.scripts.players)
            if person in state.scripts.murderers
        ],
        "victims": [setting.person(crime.victim).name for crime in state.scripts.world.crimes],
        "start_entropy": {names[s]: hs[0] for s, hs in audit.entropy.items()},
        "ig_per_round": audit.gains,
        "pruning": dict(sorted(audit.pruning.items())),
        "fact_checks": dict(
            sorted(Counter(f"{f.correctness.value}/{f.status.value}" for f in audit.facts).items())
        ),
        "calibration": calibration,
    }
    end = log.events[-1] if log.events else None
    if isinstance(end, GameEnd):
        figures |= {"winner": end.winner, "solved": list(end.solved)}
    return judged_record(
        "mystery", log, log.header.seed, log.header.seats, audit.drops, figures, recall
    )
