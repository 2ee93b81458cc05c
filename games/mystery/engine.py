"""The rules of the interrogation game as a ``GameState``.

Seats introduce themselves in order; then ``rounds`` rounds in which each seat in turn asks one
typed question of another seat, who answers it at once. A civilian answers with the truth of its
script, the truth less its secrets, or declines; a murderer may also answer from its cover story:
only murderers can lie. Answers are public. Then one simultaneous vote per victim: the seat with
more than half of the ballots is accused; a tie or a split vote accuses nobody, and the killers
of that victim escape. Civilians score the share of victims whose accused is one of the killers,
murderers the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from formalize.interrogation.prose import prose, prose_text
from formalize.interrogation.questions import (
    Question,
    Related,
    Where,
    all_questions,
    answer_from,
    relation_answer,
    render_question,
)
from formalize.interrogation.script import Objective, Scripts
from formalize.world.facts import Fact, holds_in
from formalize.world.setting import Setting
from games.core.protocol import GameInfo, IllegalAction, SeatResult
from games.mystery.events import (
    Answered,
    Asked,
    Ballot,
    CrimeRecord,
    GameEnd,
    GameStart,
    Introduction,
    MysteryConfig,
    MysteryEvent,
    Voted,
    fact_record,
    question_record,
)

INFO = GameInfo(
    name="mystery",
    min_players=4,
    max_players=8,
    simultaneous=True,
    imperfect_information=True,
    max_decisions=200,
)
"""The interrogation game in the registry: 4 to 8 seats, simultaneous votes."""


Winner = Literal["civilians", "murderers", "draw"]

END_REASONS: dict[Winner, str] = {
    "civilians": "civilians named every killer",
    "murderers": "every killer escaped",
    "draw": "some killers named, some escaped",
}
"""The end reason for each winner."""


@dataclass(frozen=True, slots=True)
class Introduce:
    """Introduce one's character."""


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask seat ``answerer`` the typed ``question``; ``stated`` carries the asker's suspects
    per crime, ``expected`` its high / medium / low rating of asking each other character (what
    the audit grades and calibrates; not part of the move), ``call`` the recorded LLM call they
    came from."""

    answerer: int
    question: Question
    stated: tuple[tuple[str, ...], ...] = field(default=(), compare=False)
    expected: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    call: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Reply:
    """Answer the pending question with ``facts`` (none: decline)."""

    facts: tuple[Fact, ...]


@dataclass(frozen=True, slots=True)
class Vote:
    """Accuse seat ``target`` of the victim being voted on."""

    target: int


Action = Introduce | Ask | Reply | Vote


@dataclass(frozen=True, slots=True)
class Heard:
    """A public exchange: ``asker`` asked ``answerer`` ``question``; the answer's ``facts``."""

    asker: int
    answerer: int
    question: Question
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class MysteryView:
    """What one seat knows when it decides: the public setting and introduction, its own script,
    secrets and (for a murderer) cover story, its objectives, everything said so far, and the
    decision asked."""

    seat: int
    person: str
    phase: str
    round: int
    setting: Setting
    players: tuple[str, ...]
    intro: tuple[Fact, ...]
    script: tuple[Fact, ...]
    secrets: frozenset[Fact]
    cover: tuple[Fact, ...]
    heard: tuple[Heard, ...]
    pending: Heard | None
    crime: int
    legal: tuple[Action, ...]
    objectives: tuple[Objective, ...] = ()

    @property
    def murderer(self) -> bool:
        """Whether this seat's character killed someone (only murderers have a cover story)."""
        return bool(self.cover)


class MysteryState:
    """One interrogation game over generated ``scripts`` (see the module docstring)."""

    def __init__(self, scripts: Scripts, config: MysteryConfig, seed: int) -> None:
        self.scripts = scripts
        self.config = config
        self.seed = seed
        world = scripts.world
        self._setting = world.setting
        self._n = len(scripts.players)
        self._phase = "intro"
        self._turn = 0
        self._round = 1
        self._crime = 1
        self._pending: tuple[int, int, Question] | None = None
        self._heard: list[Heard] = []
        self._accused: list[int | None] = []
        self._questions = all_questions(self._setting, (p.id for p in self._setting.people))
        self._events: list[MysteryEvent] = [
            GameStart(
                title=self._setting.title,
                players=scripts.players,
                murderers=tuple(sorted(scripts.murderers)),
                crimes=tuple(
                    CrimeRecord(
                        victim=c.victim,
                        killers=c.killers,
                        place=c.place,
                        slot=c.slot,
                        weapon=c.weapon,
                    )
                    for c in world.crimes
                ),
            )
        ]

    def current_players(self) -> Sequence[int]:
        """The seat to move, or every seat during a vote."""
        if self._phase == "over":
            return []
        if self._phase == "vote":
            return list(range(self._n))
        if self._phase == "answer" and self._pending is not None:
            return [self._pending[1]]
        return [self._turn]

    def replies(self, seat: int, question: Question) -> list[Reply]:
        """The answers ``seat`` may give to ``question``: the truth, the truth less secrets,
        a decline, and for a murderer its cover story's answer."""
        person = self.scripts.players[seat]
        truth = answer_from(self.scripts.scripts[person], question)
        secrets = self.scripts.secrets[person]
        options = [truth, tuple(f for f in truth if f not in secrets), ()]
        if person in self.scripts.covers:
            options.insert(1, answer_from(self.scripts.covers[person], question))
        out: list[Reply] = []
        for facts in options:
            if Reply(facts) not in out:
                out.append(Reply(facts))
        return out

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every action ``seat`` may take now."""
        if seat not in self.current_players():
            return []
        if self._phase == "intro":
            return [Introduce()]
        if self._phase == "ask":
            return [
                Ask(other, q) for other in range(self._n) if other != seat for q in self._questions
            ]
        if self._phase == "answer" and self._pending is not None:
            return list(self.replies(seat, self._pending[2]))
        return [Vote(t) for t in range(self._n) if t != seat]

    def _check(self, actions: Mapping[int, Any]) -> None:
        waiting = set(self.current_players())
        if set(actions) != waiting:
            raise IllegalAction(f"actions for seats {sorted(actions)}, seats {sorted(waiting)} due")
        for seat, action in actions.items():
            if action not in self.legal_actions(seat):
                raise IllegalAction(f"seat {seat}: {action!r} is not legal now")

    def apply(self, actions: Mapping[int, Any]) -> None:
        """Play the due seats' actions (IllegalAction, with nothing changed, if one is not
        allowed)."""
        self._check(actions)
        if self._phase == "intro":
            self._introduce(self._turn)
            self._advance_turn("intro")
        elif self._phase == "ask":
            self._ask(self._turn, actions[self._turn])
        elif self._phase == "answer":
            assert self._pending is not None
            self._answer(self._pending, actions[self._pending[1]])
        else:
            self._vote({s: a.target for s, a in actions.items()})

    def _introduce(self, seat: int) -> None:
        """The seat's name and role; with alibis, where it says it was at each crime's hour,
        in prose (a murderer from its cover story), heard by everyone."""
        pid = self.scripts.players[seat]
        person = self._setting.person(pid)
        text = f"I am {person.name}, {person.role}." if person.role else f"I am {person.name}."
        facts: tuple[Fact, ...] = ()
        if self.config.alibis:
            told = self.scripts.covers.get(pid) or self.scripts.scripts[pid]
            for slot in sorted({c.slot for c in self.scripts.world.crimes}):
                question = Where(pid, slot)
                said = answer_from(told, question)
                self._heard.append(Heard(seat, seat, question, said))
                facts += said
            text += " " + prose_text(prose(self._setting, facts, f"alibi:{pid}"))
        self._events.append(
            Introduction(seat=seat, text=text, facts=tuple(fact_record(f) for f in facts))
        )

    def _advance_turn(self, phase: str) -> None:
        self._turn += 1
        if self._turn < self._n:
            self._phase = "ask" if phase == "answer" else phase
            return
        self._turn = 0
        if phase == "intro":
            self._phase = "ask"
        elif self._round < self.config.rounds:
            self._round += 1
            self._phase = "ask"
        else:
            self._phase = "vote"

    def _ask(self, seat: int, ask: Ask) -> None:
        self._pending = (seat, ask.answerer, ask.question)
        self._events.append(
            Asked(
                round=self._round,
                seat=seat,
                answerer=ask.answerer,
                question=question_record(ask.question),
                text=render_question(self._setting, ask.question),
                stated=ask.stated,
                expected=ask.expected,
                call=ask.call,
            )
        )
        self._phase = "answer"

    def _answer(self, pending: tuple[int, int, Question], reply: Reply) -> None:
        asker, answerer, question = pending
        relation = (
            relation_answer(self._setting, question) if isinstance(question, Related) else None
        )
        self._events.append(
            Answered(
                round=self._round,
                seat=answerer,
                facts=tuple(fact_record(f) for f in reply.facts),
                declined=not reply.facts and relation is None,
                lie=not all(holds_in(f, self.scripts.world) for f in reply.facts),
                relation=relation,
            )
        )
        self._heard.append(Heard(asker, answerer, question, reply.facts))
        self._pending = None
        self._advance_turn("answer")

    def _vote(self, ballots: Mapping[int, int]) -> None:
        counts = {t: list(ballots.values()).count(t) for t in set(ballots.values())}
        top = [t for t, c in counts.items() if 2 * c > self._n]
        accused = top[0] if top else None
        self._accused.append(accused)
        self._events.append(
            Voted(
                crime=self._crime,
                ballots=tuple(Ballot(voter=v, target=t) for v, t in sorted(ballots.items())),
                accused=accused,
            )
        )
        if self._crime < len(self.scripts.world.crimes):
            self._crime += 1
            return
        solved = self._solved()
        winner: Winner = "civilians" if all(solved) else "murderers" if not any(solved) else "draw"
        self._events.append(GameEnd(solved=solved, winner=winner))
        self._phase = "over"

    def _solved(self) -> tuple[bool, ...]:
        crimes = self.scripts.world.crimes
        players = self.scripts.players
        return tuple(
            accused is not None and players[accused] in crime.killers
            for accused, crime in zip(self._accused, crimes, strict=True)
        )

    def observation(self, seat: int) -> MysteryView:
        """What ``seat`` knows now (its own script only)."""
        person = self.scripts.players[seat]
        pending = None
        if self._pending is not None:
            asker, answerer, question = self._pending
            pending = Heard(asker, answerer, question, ())
        return MysteryView(
            seat=seat,
            person=person,
            phase=self._phase,
            round=self._round,
            setting=self._setting,
            players=self.scripts.players,
            intro=self.scripts.intro,
            script=self.scripts.scripts[person],
            secrets=self.scripts.secrets[person],
            cover=self.scripts.covers.get(person, ()),
            heard=tuple(self._heard),
            pending=pending,
            crime=self._crime,
            legal=tuple(self.legal_actions(seat)),
            objectives=self.scripts.objectives[person],
        )

    def is_terminal(self) -> bool:
        """Whether the votes are over."""
        return self._phase == "over"

    def returns(self) -> Sequence[float]:
        """Civilians: the share of victims whose killer was accused; murderers: the rest."""
        if not self.is_terminal():
            return [0.0] * self._n
        share = sum(self._solved()) / len(self._solved())
        murderers = self.scripts.murderers
        return [1.0 - share if p in murderers else share for p in self.scripts.players]

    def result(self) -> SeatResult:
        """Returns, ranks (the better side first) and the winner."""
        if not self.is_terminal():
            raise ValueError("the game is still running")
        returns = tuple(self.returns())
        ranks = tuple(1 + sum(other > mine for other in set(returns)) for mine in returns)
        end = self._events[-1]
        assert isinstance(end, GameEnd)
        return SeatResult(returns=returns, ranks=ranks, reason=END_REASONS[end.winner])

    def events(self) -> Sequence[MysteryEvent]:
        """The omniscient log so far."""
        return self._events
