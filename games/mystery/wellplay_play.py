"""LLM characters play a WellPlay script as seed 004 plays it, then answer its questions.

Every character introduces itself from its script and goals; then ``rounds`` rounds (three by
default, as the seed) in which each character, in order, asks one other character one free-text
question and hears the answer (a murderer may lie); then one vote per victim; then each
character answers its WellPlay questions with its script, its goals and the conversation in
context (``wellplay_answer``), ``EVALUATIONS`` times, the results averaged (seed 004, Appendix
C.1). A character has its whole script and the whole conversation in context, or, with the
retrieval memory, the passages of each recalled for the question at hand
(``wellplay_memory``).

Each time a character asks, it states one suspect list per victim; H = the sum over victims of
ln n_k (n_k the size of victim k's list), and the drop in H since its previous question is that
question's IG, credited to the character asked. How the civilians choose (the murderers always
play ``questum``, told to hide, so that only the civilians' framework varies, as in the seed):

- ``questum``: the model reads its sensors on each other character (emotion towards them,
  whether they had a motive, whether they had the opportunity: the seed's three, Appendix D.3;
  its previous readings are shown again), rates each one's information value high / medium /
  low (E[IG] = +1 / 0 / -1) and proposes a question for each; Score = beta * IG_weighted +
  (1 - beta) * E[IG] with IG_weighted the credits weighted e^-(i-k); the best Score among the
  characters on a suspect list is asked (a tie drawn at random), or with probability epsilon a
  random other character. The ablations of Table 12: without the pruner no suspect list is
  asked, every other character stays a candidate and H keeps its starting value (so no IG is
  credited); without the sensors no readings and no information values are asked (E[IG] = 0).
- ``llm-cot``: objective-guided chain of thought; the model reasons on its goals, then names
  whom to ask and the question.
- ``llm-thinkthrice``: the model first re-reads its script and the conversation and notes what
  bears on each victim; then asks, with those notes in context.
- ``llm-werewolf``: the model picks whom to ask and one of a fixed list of investigation
  questions (or one of its own).

A vote accuses the character with at least half of the ballots (seed 004, Section 4.2; nobody
votes for itself); a victim is solved when the accused is one of its killers. A decision that
stays malformed after the re-prompts falls back (a random character, a plain question, a random
ballot, an empty answer) and is counted.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from games.core.llm_player import SeatClient
from games.mystery.llm_agents import EPSILON, GAIN_VALUES, Credit, score
from games.mystery.wellplay import WellPlayCharacter, WellPlayError, WellPlayScript
from games.mystery.wellplay_answer import answer_questions, character_context
from games.mystery.wellplay_memory import PLAY_TOKENS, MemoryKind, RetrievalMemory
from reasoning.llm import ChatClient, UsageMeter, ask_structured, system, user

M = TypeVar("M", bound=BaseModel)

ROUNDS = 3
"""Questioning rounds (seed 004 plays three, one question each)."""
EVALUATIONS = 3
"""Evaluations of a play (each character answering all its questions), averaged."""


class WellPlaySettings(BaseModel):
    """How a script is played: the characters' memory, the questioning rounds, and whether the
    civilians' Questum keeps its pruner and its sensors (the seed's ablations, Table 12 and
    Figure 7; the murderers always play the full Questum)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory: MemoryKind = "whole"
    rounds: int = Field(default=ROUNDS, ge=1, le=10)
    pruner: bool = True
    sensors: bool = True


WellPlayVariant = Literal["questum", "llm-cot", "llm-thinkthrice", "llm-werewolf"]
VARIANTS: dict[str, str] = {
    "questum": "suspect lists per victim, IG score of whom to ask, epsilon-greedy",
    "llm-cot": "reasons step by step on its goals, then asks (O-CoT)",
    "llm-thinkthrice": "re-reads its script and the conversation before asking",
    "llm-werewolf": "asks one of a fixed list of investigation questions",
}
"""The civilians' frameworks a WellPlay run may use, by agent name."""

PRESET_QUESTIONS = (
    "Walk me through where you were and what you did on the day it happened.",
    "How did you get on with the victim?",
    "When did you last see the victim alive?",
    "Did the victim have enemies, or a quarrel with anyone?",
    "What did you notice at the scene that seemed out of place?",
    "Had the victim said anything lately that showed fear or worry?",
    "Did you see anyone behave strangely that day?",
    "What do you know of the victim's secrets or private affairs?",
    "Was anything found at the scene that could be tied to the crime?",
    "Who do you think did it, and why?",
)
"""The investigation questions ``llm-werewolf`` chooses from (the kinds of seed 004, Table 5)."""

_SPLIT = re.compile("[,;\n\uff0c\u3001\uff1b]+")
"""Separators of the names in a ``victims`` field: commas, semicolons, lines (also CJK)."""


@dataclass(frozen=True)
class Case:
    """A script's victims and, per victim, the characters who killed them."""

    victims: tuple[str, ...]
    killers: dict[str, frozenset[str]]


def case_of(script: WellPlayScript) -> Case:
    """The victims the characters' ``victims`` fields name, and each one's killers: those whose
    ``kill_by_me`` names the victim (a murderer naming none killed every victim)."""
    victims: list[str] = []
    for character in script.characters:
        for name in _SPLIT.split(character.victims):
            name = name.strip()
            if name and name not in victims and name not in {c.name for c in script.characters}:
                victims.append(name)
    if not victims:
        raise WellPlayError(f"{script.name}: field 'victims' names no victim in any character")
    killers: dict[str, frozenset[str]] = {}
    for victim in victims:
        named = {c.name for c in script.characters if victim in c.kill_by_me}
        if not named:
            named = {c.name for c in script.characters if c.is_murderer and not c.kill_by_me}
        killers[victim] = frozenset(named)
    return Case(tuple(victims), killers)


class Intro(BaseModel):
    """A self-introduction."""

    model_config = ConfigDict(extra="ignore")

    introduction: str


class Notes(BaseModel):
    """ThinkThrice's re-reading: what bears on each victim."""

    model_config = ConfigDict(extra="ignore")

    notes: str


class Readings(BaseModel):
    """Questum's sensor readings of one character."""

    model_config = ConfigDict(extra="ignore")

    emotion: Literal["positive", "neutral", "negative"] = "neutral"
    motive: Literal["yes", "no"] = "no"
    opportunity: Literal["yes", "no"] = "no"


class Pick(BaseModel):
    """A turn's decision: sensor readings, suspects per victim, and whom to ask what (the fields
    a variant's prompt asks for; the others stay empty)."""

    model_config = ConfigDict(extra="ignore")

    reasoning: str = ""
    sensors: dict[str, Readings] = {}
    suspects: dict[str, list[str]] = {}
    expected: dict[str, Literal["high", "medium", "low"]] = {}
    questions: dict[str, str] = {}
    target: str = ""
    question: str = ""
    preset: int = 0


class Spoken(BaseModel):
    """An answer to a question."""

    model_config = ConfigDict(extra="ignore")

    answer: str


class Ballots(BaseModel):
    """A character's vote: the accused of each victim."""

    model_config = ConfigDict(extra="ignore")

    accused: dict[str, str]


class TurnRecord(BaseModel):
    """One question and its answer, with the asker's suspect lists and H when it asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    asker: str
    target: str
    question: str
    answer: str
    suspects: dict[str, tuple[str, ...]]
    entropy: float
    sensors: dict[str, Readings] = {}


class VoteRecord(BaseModel):
    """The vote on one victim: every ballot, the accused (None: nobody had half) and whether
    the accused is a killer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    victim: str
    ballots: dict[str, str]
    accused: str | None
    solved: bool


class GradedRecord(BaseModel):
    """One answered WellPlay question of a character."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    character: str
    category: Literal["objective", "reasoning", "relation"]
    points: int
    correct: bool
    evaluation: int = 0
    """Which of the play's evaluations answered it (from 0)."""


class WellPlayPlayed(BaseModel):
    """One play of a script: the framework and its settings, the seed, the introductions, every
    turn, the votes, the graded questions (of every evaluation) and the fallbacks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["wellplay_play"] = "wellplay_play"
    script: str
    variant: str
    settings: WellPlaySettings = WellPlaySettings()
    seed: int
    characters: tuple[str, ...]
    murderers: tuple[str, ...]
    introductions: dict[str, str]
    turns: tuple[TurnRecord, ...]
    votes: tuple[VoteRecord, ...]
    graded: tuple[GradedRecord, ...]
    fallbacks: int

    @property
    def win_rate(self) -> float:
        """The share of victims whose killer was voted out."""
        return sum(v.solved for v in self.votes) / len(self.votes)


def entropy(suspects: dict[str, tuple[str, ...]]) -> float:
    """H = the sum over victims of ln(size of the victim's suspect list), an empty list as one."""
    return sum(math.log(max(1, len(s))) for s in suspects.values())


@dataclass
class _Seat:
    character: WellPlayCharacter
    variant: WellPlayVariant
    rng: random.Random
    credits: list[Credit]
    client: SeatClient
    pruner: bool = True
    sensors: bool = True
    last: tuple[int, str, float] | None = None
    readings: dict[str, Readings] = field(default_factory=dict)


class WellPlayGame:
    """One play of ``script`` with the civilians on ``variant`` (see the module docstring)."""

    def __init__(
        self,
        client: ChatClient,
        script: WellPlayScript,
        variant: WellPlayVariant,
        seed: int,
        settings: WellPlaySettings | None = None,
        memory: RetrievalMemory | None = None,
    ) -> None:
        """``memory``: the retrieval memory to use (built from the scripts when ``settings``
        ask for one and none is given)."""
        self.script = script
        self.case = case_of(script)
        self.seed = seed
        self.settings = settings if settings is not None else WellPlaySettings()
        self.transcript: list[str] = []
        self.fallbacks = 0
        if memory is None and self.settings.memory == "retrieval":
            memory = RetrievalMemory({c.name: c.script for c in script.characters})
        self.memory = memory
        self.seats = [
            _Seat(
                c,
                "questum" if c.is_murderer else variant,
                random.Random(f"{seed}:{c.name}"),
                [],
                SeatClient(client),
                pruner=c.is_murderer or self.settings.pruner,
                sensors=c.is_murderer or self.settings.sensors,
            )
            for c in script.characters
        ]
        self.variant = variant

    def _said(self, line: str) -> None:
        """One exchange of the conversation, in the transcript and the memory."""
        self.transcript.append(line)
        if self.memory is not None:
            self.memory.remember(line)

    def _ask(self, seat: _Seat, prompt: str, schema: type[M], query: str) -> M | None:
        recalled = None
        if self.memory is not None:
            recalled = self.memory.recall(seat.character.name, query, PLAY_TOKENS)
        context = character_context(self.script, seat.character, "own", self.transcript, recalled)
        victims = ", ".join(self.case.victims)
        if seat.character.is_murderer:
            mine = [v for v in self.case.victims if seat.character.name in self.case.killers[v]]
            context += (
                f"\n\nYou killed {', '.join(mine) or victims}. Hide it: act as an innocent "
                "player would, and lie if you must."
            )
        else:
            context += f"\n\nYou are not a murderer. Help find who killed {victims}."
        outcome = ask_structured(
            seat.client, [system(context), user(prompt)], schema, seed=self.seed
        )
        if outcome.value is None:
            self.fallbacks += 1
        return outcome.value

    def _others(self, seat: _Seat) -> list[str]:
        return [s.character.name for s in self.seats if s is not seat]

    def _case_query(self, seat: _Seat) -> str:
        """What a turn or a vote is about: the victims and who could have killed them."""
        others = ", ".join(self._others(seat))
        return f"Who killed {', '.join(self.case.victims)}? What did {others} do and say?"

    def introduce(self) -> dict[str, str]:
        """Each character's self-introduction, added to the conversation."""
        out: dict[str, str] = {}
        for seat in self.seats:
            name = seat.character.name
            said = self._ask(
                seat,
                "Introduce your character to the others in a few sentences, keeping back what "
                'you must hide. Answer with a JSON object {"introduction": text}.',
                Intro,
                f"Who is {name}, and what ties {name} to {', '.join(self.case.victims)}?",
            )
            out[name] = said.introduction if said is not None else ""
            self._said(f"{name} (introduction): {out[name]}")
        return out

    def _pick_prompt(self, seat: _Seat, notes: str) -> str:
        others = self._others(seat)
        lists = (
            '"suspects": for each victim ('
            + ", ".join(self.case.victims)
            + f"), the characters among {', '.join(others)} you still suspect of killing them "
            "(drop those you have ruled out)"
        )
        if seat.variant == "questum":
            return self._questum_prompt(seat, lists)
        if seat.variant == "llm-werewolf":
            menu = "\n".join(f"{k}. {q}" for k, q in enumerate(PRESET_QUESTIONS, start=1))
            return (
                f"Your turn to ask. Investigation questions:\n{menu}\nFill {lists}; "
                '"target": whom you ask; "preset": the number of the question you ask, or 0 and '
                '"question": a question of your own. Answer with one JSON object.'
            )
        head = "Your turn to ask. "
        if seat.variant == "llm-cot":
            head += (
                'First think step by step in "reasoning": what do your goals need, what is '
                "still unknown, and who can tell you? Then fill "
            )
        else:
            head += f"Your notes from re-reading your script and the conversation: {notes}\nFill "
        return (
            head + f'{lists}; "target": whom you ask; "question": your question. '
            "Answer with one JSON object."
        )

    def _questum_prompt(self, seat: _Seat, lists: str) -> str:
        """Questum's turn: its sensors (with its previous readings), its suspect lists (the
        pruner), the information value of each character (a sensor too) and one question each;
        an ablation leaves its part out."""
        fields = []
        head = "Your turn to ask. "
        if seat.sensors:
            if seat.readings:
                read = [
                    f"{name}: emotion {r.emotion}, motive {r.motive}, opportunity {r.opportunity}"
                    for name, r in seat.readings.items()
                ]
                head += f"Your readings at your last turn: {'; '.join(read)}.\n"
            fields.append(
                '"sensors": for each other character your readings now: "emotion" (how you feel '
                'towards them: "positive", "neutral" or "negative"), "motive" (had they a motive '
                'to kill a victim: "yes" or "no"), "opportunity" (could they have done it, say '
                'seen near the scene at the time: "yes" or "no")'
            )
        if seat.pruner:
            fields.append(lists)
        if seat.sensors:
            fields.append(
                '"expected": for each other character, how likely asking them is to narrow your '
                'suspects ("high", "medium" or "low")'
            )
        fields.append('"questions": for each other character the question you would ask them')
        return head + "Fill " + "; ".join(fields) + ". Answer with one JSON object."

    def _questum_target(
        self, seat: _Seat, pick: Pick, suspects: dict[str, tuple[str, ...]], round_: int
    ) -> str:
        """Whom Questum asks: epsilon-greedy on Score among the candidates (the characters on
        a suspect list with the pruner, every other without), a tie drawn at random."""
        others = self._others(seat)
        if seat.rng.random() < EPSILON:
            return seat.rng.choice(others)
        pool = others
        if seat.pruner:
            pool = [o for o in others if any(o in s for s in suspects.values())] or others

        def scored(other: str) -> float:
            level = pick.expected.get(other, "medium") if seat.sensors else "medium"
            return score(seat.credits, other, round_, GAIN_VALUES.get(level, 0.0))

        best = max(scored(o) for o in pool)
        tied = [o for o in pool if scored(o) == best]
        return tied[0] if len(tied) == 1 else seat.rng.choice(tied)

    def _turn(
        self, seat: _Seat, round_: int
    ) -> tuple[str, str, dict[str, tuple[str, ...]], dict[str, Readings]]:
        others = self._others(seat)
        notes = ""
        query = self._case_query(seat)
        if seat.variant == "llm-thinkthrice":
            read = self._ask(
                seat,
                "Read your script and the conversation again, slowly. Note, for each victim, "
                "every detail that points to or away from someone. Answer with a JSON object "
                '{"notes": text}.',
                Notes,
                query,
            )
            notes = read.notes if read is not None else "(none)"
        pick = self._ask(seat, self._pick_prompt(seat, notes), Pick, query)
        if pick is None:
            suspects = {v: tuple(others) for v in self.case.victims}
            target = seat.rng.choice(others)
            return target, PRESET_QUESTIONS[0], suspects, {}
        pruned = seat.pruner or seat.variant != "questum"
        suspects = {
            v: tuple(o for o in others if not pruned or o in pick.suspects.get(v, []))
            for v in self.case.victims
        }
        readings = {o: r for o, r in pick.sensors.items() if o in others} if seat.sensors else {}
        seat.readings = readings or seat.readings
        h = entropy(suspects)
        if seat.last is not None:
            asked_round, asked, before = seat.last
            seat.credits.append(Credit(asked_round, asked, before - h))
        if seat.variant == "questum":
            target = self._questum_target(seat, pick, suspects, round_)
            question = pick.questions.get(target, "")
        else:
            target = pick.target if pick.target in others else seat.rng.choice(others)
            question = pick.question
            if seat.variant == "llm-werewolf" and 1 <= pick.preset <= len(PRESET_QUESTIONS):
                question = PRESET_QUESTIONS[pick.preset - 1]
        seat.last = (round_, target, h)
        return target, question.strip() or PRESET_QUESTIONS[0], suspects, readings

    def questioning(self) -> list[TurnRecord]:
        """The settings' rounds of one question per character."""
        turns: list[TurnRecord] = []
        for round_ in range(1, self.settings.rounds + 1):
            for seat in self.seats:
                target, question, suspects, readings = self._turn(seat, round_)
                answerer = next(s for s in self.seats if s.character.name == target)
                asker = seat.character.name
                reply = self._ask(
                    answerer,
                    f"{asker} asks you: {question}\n"
                    "Answer in character, in the first person, with what you know. "
                    'Answer with a JSON object {"answer": text}.',
                    Spoken,
                    f"{asker} asks {target}: {question}",
                )
                answer = reply.answer if reply is not None else ""
                self._said(f"{asker} to {target}: {question}\n{target}: {answer or '(no answer)'}")
                turns.append(
                    TurnRecord(
                        round=round_,
                        asker=seat.character.name,
                        target=target,
                        question=question,
                        answer=answer,
                        suspects=suspects,
                        entropy=entropy(suspects),
                        sensors=readings,
                    )
                )
        return turns

    def vote(self) -> list[VoteRecord]:
        """One ballot per character and victim; the accused of each victim."""
        ballots: dict[str, dict[str, str]] = {v: {} for v in self.case.victims}
        for seat in self.seats:
            others = self._others(seat)
            said = self._ask(
                seat,
                "Vote. For each victim ("
                + ", ".join(self.case.victims)
                + f") name the one of {', '.join(others)} you accuse of killing them. "
                'Answer with a JSON object {"accused": {victim: name}}.',
                Ballots,
                self._case_query(seat),
            )
            for victim in self.case.victims:
                chosen = None if said is None else said.accused.get(victim)
                if chosen not in others:
                    self.fallbacks += said is not None
                    chosen = seat.rng.choice(others)
                ballots[victim][seat.character.name] = chosen
        out: list[VoteRecord] = []
        for victim, cast in ballots.items():
            counts = {t: list(cast.values()).count(t) for t in set(cast.values())}
            top = [t for t, c in counts.items() if 2 * c >= len(cast)]
            accused = top[0] if len(top) == 1 else None
            out.append(
                VoteRecord(
                    victim=victim,
                    ballots=cast,
                    accused=accused,
                    solved=accused is not None and accused in self.case.killers[victim],
                )
            )
        return out

    def evaluate(self) -> list[GradedRecord]:
        """``EVALUATIONS`` evaluations: each character answers all its questions (its memory's
        passages for each with the retrieval memory), each evaluation with its own seed."""
        graded: list[GradedRecord] = []
        for evaluation in range(EVALUATIONS):
            for seat in self.seats:
                answered, missed = answer_questions(
                    seat.client,
                    self.script,
                    seat.character,
                    "own",
                    seed=self.seed * EVALUATIONS + evaluation,
                    transcript=self.transcript,
                    memory=self.memory,
                )
                self.fallbacks += missed
                graded += [
                    GradedRecord(
                        character=seat.character.name,
                        category=g.category,
                        points=g.points,
                        correct=g.correct,
                        evaluation=evaluation,
                    )
                    for g in answered
                ]
        return graded

    def play(self) -> WellPlayPlayed:
        """Introductions, questioning, votes, then the evaluations."""
        introductions = self.introduce()
        turns = self.questioning()
        votes = self.vote()
        graded = self.evaluate()
        return WellPlayPlayed(
            script=self.script.name,
            variant=self.variant,
            settings=self.settings,
            seed=self.seed,
            characters=tuple(s.character.name for s in self.seats),
            murderers=tuple(s.character.name for s in self.seats if s.character.is_murderer),
            introductions=introductions,
            turns=tuple(turns),
            votes=tuple(votes),
            graded=tuple(graded),
            fallbacks=self.fallbacks,
        )

    def meters(self) -> list[tuple[str, tuple[UsageMeter, ...]]]:
        """Each character's framework (``murderer:questum`` for a murderer) and its chat meter."""
        return [
            (f"murderer:{s.variant}" if s.character.is_murderer else s.variant, (s.client.meter,))
            for s in self.seats
        ]
