"""Detective agents by name (``AGENTS``): ``prover`` (the prover-backed upper bound), ``llm``
(chooses and answers through the core's LLM player), ``llm-words`` (seed 001's free-text player:
every question answered in one prompt in its own words, each answer read by the settings'
reader) and ``random-order`` (visits in a random order, the LLM answering)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from itertools import product

from pydantic import BaseModel, Field

from formalize.reading.reader import Reader, ReaderKind
from formalize.reading.reading import Reading
from games.core.agents import AgentRegistry, AgentType, combined_fallbacks
from games.core.llm_player import LLMPlayer, SeatClient, recorded_index, seat_client
from games.core.random_agent import RandomAgent
from games.core.settings import AgentSettings
from games.detective.case import Case, Question
from games.detective.engine import Answer, DetectiveAction, DetectiveView, Visit
from games.detective.freetext import ask_free_answers
from games.detective.llm_schemas import location_answer_model, question_answer_model
from games.detective.planner import ProverPlayer
from games.detective.prompts import (
    SYSTEM,
    AnswerReply,
    LocationReply,
    answer_prompt,
    location_prompt,
    match_choice,
)
from games.detective.reading import make_reader, read_answer
from provers.sat_session import SatSession
from provers.sat_solver import DEFAULT_SOLVER
from reasoning.llm import ChatClient, FallbackCounter, FallbackSnapshot, UsageMeter


class DetectiveAgentSettings(AgentSettings):
    """What the factories read: the LLM endpoint for LLM agents (the base's), the SAT solver for
    the prover agent, and who reads the ``llm-words`` agent's answers."""

    sat_solver: str = DEFAULT_SOLVER
    reader: ReaderKind = Field(
        default="offline",
        description="Who reads answers in words: offline, llm (early-stop vote) or combined.",
    )


class ProverAgent:
    """The prover-backed agent: visits by the planner, answers exactly what its reading
    entails (``ProverPlayer``); an upper bound for any reader."""

    def __init__(self, sat_solver: str, name: str = "prover") -> None:
        self.name = name
        self._factory = partial(SatSession, sat_solver)
        self._player: ProverPlayer | None = None

    def _for(self, case: Case) -> ProverPlayer:
        if self._player is None or self._player.case is not case:
            self.close()
            self._player = ProverPlayer(case, self._factory)
        return self._player

    def act(self, view: DetectiveView) -> DetectiveAction:
        """The planner's next location, or the entailed answers."""
        player = self._for(view.case)
        if view.phase == "choose":
            return Visit(player.choose(view.read))
        return Answer(player.answer(view.read))

    def close(self) -> None:
        """Release the prover session."""
        if self._player is not None:
            self._player.close()
            self._player = None


QuestionAnswer = tuple[str | None, ...]
"""One question's answer: per slot, in order, a choice's value or None (blank)."""


def question_values(question: Question, answer: AnswerReply) -> QuestionAnswer:
    """The options a reply to ``question`` names; a part left out, blank or naming no option is
    blank."""
    given = {k.strip().casefold(): v for k, v in answer.ANSWER.items()}
    return tuple(
        None if (text := given.get(s.name.casefold())) is None else match_choice(s, text)
        for s in question.slots
    )


class AnswerPrompter:
    """One question's answer step for ``LLMPlayer``: each part an option or blank."""

    schema = AnswerReply

    def __init__(self, index: int) -> None:
        self.index = index

    def phase(self, obs: DetectiveView) -> str:
        """Fallbacks are counted under ``answer``."""
        return "answer"

    def system_prompt(self, obs: DetectiveView) -> str:
        """The detective's role."""
        return SYSTEM

    def prompt(self, obs: DetectiveView) -> str:
        """The recap and the question (``prompts.answer_prompt``)."""
        return answer_prompt(obs.case, obs.read, self.index)

    def answer_model(self, obs: DetectiveView) -> type[BaseModel] | None:
        """``{"ANSWER": {part: option}}``, each part an enum of its options or ``unknown``."""
        return question_answer_model(obs.case.questions[self.index])

    def action(self, answer: AnswerReply, obs: DetectiveView) -> QuestionAnswer:
        """The options the reply names (``question_values``)."""
        return question_values(obs.case.questions[self.index], answer)

    def legal_actions(self, obs: DetectiveView) -> Sequence[QuestionAnswer]:
        """Every answer to the question: each part blank or one of its options."""
        q = obs.case.questions[self.index]
        return list(product(*([None, *(c.value for c in s.choices)] for s in q.slots)))


class LocationPrompter:
    """The choose-location step for ``LLMPlayer``: one unread location, by title."""

    schema = LocationReply

    def phase(self, obs: DetectiveView) -> str:
        """Fallbacks are counted under ``choose``."""
        return "choose"

    def system_prompt(self, obs: DetectiveView) -> str:
        """The detective's role."""
        return SYSTEM

    def prompt(self, obs: DetectiveView) -> str:
        """The recap, the questions and the unread locations (``prompts.location_prompt``)."""
        return location_prompt(obs.case, obs.read, obs.unread)

    def answer_model(self, obs: DetectiveView) -> type[BaseModel] | None:
        """A flat model whose ``location`` is one of the unread locations' titles."""
        return location_answer_model(tuple(obs.case.location(lid).title for lid in obs.unread))

    def action(self, answer: LocationReply, obs: DetectiveView) -> Visit | None:
        """The unread location whose title (or id) the reply names, or None."""
        key = answer.LOCATION.strip().casefold()
        for lid in obs.unread:
            if key in (obs.case.location(lid).title.casefold(), lid.casefold()):
                return Visit(lid)
        return None

    def legal_actions(self, obs: DetectiveView) -> Sequence[Visit]:
        """Every unread location."""
        return [Visit(lid) for lid in obs.unread]


class LLMAgent:
    """The LLM agent: each step a fresh prompt through the core's ``LLMPlayer`` (the model never
    sees its earlier answers); with ``random_order`` the locations are visited in a seeded
    random order instead of the model's choice."""

    def __init__(
        self, client: ChatClient, seed: int, *, random_order: bool = False, name: str = "llm"
    ) -> None:
        self.name = name
        self._client = client
        self._seed = seed
        self._answer: list[LLMPlayer[DetectiveView, AnswerReply, QuestionAnswer]] = []
        self._choose = LLMPlayer(LocationPrompter(), client, seed=seed, name=name)
        self._rng = random.Random(seed) if random_order else None

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """The decisions that fell back to a random legal action: choices and answers."""
        return combined_fallbacks([self._choose.fallbacks, *(p.fallbacks for p in self._answer)])

    @property
    def answer_fallbacks(self) -> int:
        """How many question answers fell back to a random legal one."""
        return sum(p.fallbacks.total for p in self._answer)

    @property
    def choose_fallbacks(self) -> int:
        """How many location choices fell back to a random one."""
        return self._choose.fallbacks.total

    @property
    def meters(self) -> tuple[UsageMeter, ...]:
        """The meters of the agent's players: the location choice's, then one per question."""
        return (self._choose.meter, *(player.meter for player in self._answer))

    def _answer_stage(self, view: DetectiveView) -> Answer:
        """Every question asked in a prompt of its own."""
        while len(self._answer) < len(view.case.questions):
            prompter = AnswerPrompter(len(self._answer))
            self._answer.append(LLMPlayer(prompter, self._client, seed=self._seed, name=self.name))
        out: dict[str, dict[str, str | None]] = {}
        calls: dict[str, int] = {}
        for q, player in zip(view.case.questions, self._answer, strict=False):
            values = player.act(view)
            out[q.id] = {s.name: v for s, v in zip(q.slots, values, strict=True)}
            if player.last_call is not None:
                calls[q.id] = player.last_call
        return Answer(out, calls or None)

    def act(self, view: DetectiveView) -> DetectiveAction:
        """Answer, or choose a location (the model's choice or a random one)."""
        if view.phase == "answer":
            return self._answer_stage(view)
        if self._rng is not None:
            return Visit(self._rng.choice(view.unread))
        return self._choose.act(view)


class WordsAgent:
    """Seed 001's free-text player (Appendix B.1): after the introduction and after every
    location it answers every question in one prompt, in its own words; each answer to a
    question with slots is read by the ``reader`` kind into the options it asserts, and the
    log keeps the texts and their readings. Locations are chosen as the ``llm`` agent chooses
    them. An unusable answer reply leaves the stage blank and counts as a fallback."""

    def __init__(
        self, client: ChatClient, seed: int, reader: ReaderKind, name: str = "llm-words"
    ) -> None:
        self.name = name
        self._seed = seed
        self._words = SeatClient(client)
        self._choose = LLMPlayer(LocationPrompter(), client, seed=seed, name=name)
        self._kind: ReaderKind = reader
        self._reader: tuple[Case, Reader] | None = None
        self._unusable = FallbackCounter()

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """The location choices that fell back, and the answer replies that were unusable."""
        return combined_fallbacks([self._choose.fallbacks, self._unusable.snapshot()])

    @property
    def meters(self) -> tuple[UsageMeter, ...]:
        """The location choice's meter, then the answers' (with the reader's calls)."""
        return (self._choose.meter, self._words.meter)

    def _reader_for(self, case: Case) -> Reader:
        if self._reader is None or self._reader[0] is not case:
            reader = make_reader(case.setting, self._kind, self._words, seed=self._seed)
            self._reader = (case, reader)
        return self._reader[1]

    def _answer_stage(self, view: DetectiveView) -> Answer:
        case = view.case
        texts = ask_free_answers(self._words, case, view.read, self._seed)
        call = recorded_index(self._words)
        if texts is None:
            self._unusable.record("answer", "unparsed")
            texts = {q.id: "" for q in case.questions}
        reader = self._reader_for(case)
        readings: dict[str, Reading] = {
            q.id: read_answer(reader, case, q, texts[q.id]) for q in case.questions if q.slots
        }
        answers = {
            q.id: readings[q.id].values() if q.id in readings else {} for q in case.questions
        }
        calls = None if call is None else {q.id: call for q in case.questions}
        return Answer(answers, calls, texts, readings)

    def act(self, view: DetectiveView) -> DetectiveAction:
        """Answer every question in words, or choose a location."""
        if view.phase == "answer":
            return self._answer_stage(view)
        return self._choose.act(view)


def _prover(seat: int, seed: int, settings: DetectiveAgentSettings) -> ProverAgent:
    return ProverAgent(settings.sat_solver)


def _llm(seat: int, seed: int, settings: DetectiveAgentSettings) -> LLMAgent:
    return LLMAgent(seat_client(settings.seat_llm(seat), seat), seed)


def _words(seat: int, seed: int, settings: DetectiveAgentSettings) -> WordsAgent:
    return WordsAgent(seat_client(settings.seat_llm(seat), seat), seed, settings.reader)


def _random_order(seat: int, seed: int, settings: DetectiveAgentSettings) -> LLMAgent:
    client = seat_client(settings.seat_llm(seat), seat)
    return LLMAgent(client, seed, random_order=True, name="random-order")


def _random(seat: int, seed: int, settings: DetectiveAgentSettings) -> RandomAgent:
    return RandomAgent(seed)


Agent = ProverAgent | LLMAgent | WordsAgent | RandomAgent

AGENTS: AgentRegistry[DetectiveAgentSettings, Agent] = AgentRegistry(
    [
        AgentType(
            "prover",
            "visits where most answers unlock next, answers only what its reading entails",
            False,
            _prover,
        ),
        AgentType(
            "random", "a seeded random answer at every stage, a random location", False, _random
        ),
        AgentType("llm", "seed 001's LLM player: chooses locations and answers", True, _llm),
        AgentType(
            "llm-words",
            "seed 001's free-text player: answers in its own words, each answer read exactly",
            True,
            _words,
        ),
        AgentType(
            "random-order", "visits in a random order, the LLM answering", True, _random_order
        ),
    ],
    game="detective",
    settings=DetectiveAgentSettings,
)
"""Every detective agent, by name."""


make_agent = AGENTS.make
"""``make_agent(spec, seat, seed, settings=None)``: the agent named ``spec`` for the game dealt from
``seed`` (its own seed from ``seat_seed``; the game has one seat, 0)."""
