"""The Clue LLM agent of seed 000: deduction, action and show-card phases over any chat client.

On its turn the agent first asks the model what it has deduced, then for a suggestion or an
accusation (with the deductions, its last reasoning and its last suggestion as context); when it
must refute with more than one matching card it asks which card to show. Each answer is parsed
and checked (cards must exist, a shown card must match); a bad answer is sent back with the
problem up to ``max_reprompts`` times, after which the agent plays a seeded random legal move
(a suggestion on a normal turn, never an accusation) and counts the fallback by phase. Every ask
passes the answer's structured-output model (``games.clue.llm_schemas``), and the history before
the last few moves goes in trimmable messages, so prompts fit the endpoint's context. Stated
deductions travel with the action, so the engine logs them.

Endpoint failures are not fallbacks: ``LLMEndpointError`` (after the client's own bounded
retries) propagates out of ``act``, so the game runner can record the game as errored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from pydantic import BaseModel

from games.clue.agent import (
    Accuse,
    ClueAction,
    ClueObservation,
    Phase,
    Show,
    Suggest,
)
from games.clue.llm_answers import (
    DeductionAnswer,
    MoveAnswer,
    ShowAnswer,
    parse_deduction_answer,
    parse_move_answer,
    parse_show_answer,
)
from games.clue.llm_prompts import (
    DerivedInfo,
    TurnMemory,
    deduction_prompt,
    derive_info,
    final_prompt,
    history_messages,
    move_prompt,
    show_prompt,
    system_prompt,
)
from games.clue.llm_schemas import deduction_answer_model, move_answer_model, show_answer_model
from games.core.llm_player import LLMSeat, seat_client
from reasoning.llm import (
    ChatClient,
    ChatMessage,
    FallbackReason,
    FallbackSnapshot,
    LLMSettings,
    StructuredOutcome,
    UsageMeter,
    UsageSnapshot,
    system,
    user,
)
from reasoning.llm.fallback import DEFAULT_MAX_REPROMPTS

M = TypeVar("M", bound=BaseModel)

DEDUCTION_PHASE = "deduction"
ACTION_PHASE = "action"
SHOW_PHASE = "show_card"


class LLMClueAgent:
    """A Clue player driven by a chat model through the three phases of seed 000.

    ``seed`` fixes the fallback moves and is sent with every request as the sampling seed. Build
    one agent per game and seat: it keeps its previous move's reasoning for the next turn, and
    ``usage`` and ``fallbacks`` count that game. Its asks, re-prompts, fallbacks and metering
    are the core's ``LLMSeat``.
    """

    def __init__(
        self,
        client: ChatClient,
        *,
        seed: int,
        name: str = "llm",
        max_reprompts: int = DEFAULT_MAX_REPROMPTS,
    ) -> None:
        self._seat = LLMSeat(client, seed=seed, name=name, max_reprompts=max_reprompts)
        self._last_reasoning = ""
        self._deduced_by: int | None = None

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        return self._seat.name

    @property
    def usage(self) -> UsageSnapshot:
        """This agent's calls, tokens, latency, cost, re-prompts and fallbacks so far."""
        return self._seat.usage

    @property
    def meter(self) -> UsageMeter:
        """This agent's own meter."""
        return self._seat.meter

    @property
    def meters(self) -> tuple[UsageMeter, ...]:
        """The agent's meters (its own, the only one)."""
        return (self._seat.meter,)

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """Fallbacks so far, by phase (deduction, action, show_card) and reason."""
        return self._seat.fallbacks

    def act(self, obs: ClueObservation) -> ClueAction:
        """Ask the model for the decision ``obs.phase`` needs; see the module docstring."""
        if not obs.to_act:
            raise ValueError(f"player {obs.player} has no decision to make now")
        if obs.phase is Phase.REFUTE:
            return self._show(obs)
        if obs.phase in (Phase.TURN, Phase.FINAL_ACCUSATION):
            return self._move(obs)
        raise ValueError(f"no decision to make in phase {obs.phase.value}")

    def _ask(
        self,
        messages: list[ChatMessage],
        schema: type[M],
        parse: Callable[[str], M],
        answer: type[BaseModel],
    ) -> tuple[list[ChatMessage], StructuredOutcome[M]]:
        return messages, self._seat.ask(messages, schema, parse=parse, answer=answer)

    def _ask_again(
        self,
        messages: Sequence[ChatMessage],
        schema: type[M],
        parse: Callable[[str], M],
        answer: type[BaseModel],
    ) -> StructuredOutcome[M]:
        """Continue a conversation (for subclasses that send an answer back for revision)."""
        return self._seat.ask(messages, schema, parse=parse, answer=answer)

    def _record_fallback(self, phase: str, reason: FallbackReason) -> None:
        self._seat.give_up(phase, reason)

    def _acted_on_latest_call(self) -> None:
        """The deductions the agent acts on came from its latest call (logged with them)."""
        self._deduced_by = self._seat.last_call

    def _deduce(self, obs: ClueObservation, info: DerivedInfo) -> DeductionAnswer:
        deck, n = obs.deck(), obs.n_players

        def parse(text: str) -> DeductionAnswer:
            return parse_deduction_answer(text, deck, n)

        messages, outcome = self._ask(
            _conversation(obs, deduction_prompt(obs, info)),
            DeductionAnswer,
            parse,
            deduction_answer_model(obs),
        )
        if outcome.value is None:
            self._record_fallback(DEDUCTION_PHASE, FallbackReason.UNPARSED)
            return DeductionAnswer(analysis="", deductions=())
        self._acted_on_latest_call()
        return self.review_deductions(obs, messages, outcome.replies[-1], outcome.value)

    def review_deductions(
        self,
        obs: ClueObservation,
        messages: Sequence[ChatMessage],
        reply: str,
        answer: DeductionAnswer,
    ) -> DeductionAnswer:
        """The deductions the agent acts on; this agent acts on what the model stated."""
        return answer

    def review_move(self, obs: ClueObservation, answer: MoveAnswer) -> ClueAction | None:
        """The move the agent makes of a parsed answer (None: no usable move); this agent makes
        the one the model chose."""
        return answer.action()

    def _move(self, obs: ClueObservation) -> ClueAction:
        info = derive_info(obs)
        self._deduced_by = None
        deduced = self._deduce(obs, info)
        memory = TurnMemory(self._last_reasoning, deduced.analysis, deduced.deductions)
        final = obs.phase is Phase.FINAL_ACCUSATION
        deck = obs.deck()

        def parse(text: str) -> MoveAnswer:
            return parse_move_answer(text, deck, final=final)

        prompt = final_prompt(obs, info, memory) if final else move_prompt(obs, info, memory)
        _, outcome = self._ask(
            _conversation(obs, prompt), MoveAnswer, parse, move_answer_model(obs)
        )
        proposed = None if outcome.value is None else self.review_move(obs, outcome.value)
        legal = obs.legal_actions()
        if proposed is not None and proposed in legal:
            action = proposed
        else:
            # A fallback never accuses on a normal turn: that would throw the game away.
            moves = [a for a in legal if isinstance(a, Accuse if final else Suggest)]
            action = self._seat.choose(proposed, moves, ACTION_PHASE)
        self._last_reasoning = "" if outcome.value is None else outcome.value.reasoning
        return action.model_copy(
            update={"deductions": deduced.deductions, "call": self._deduced_by}
        )

    def _show(self, obs: ClueObservation) -> ClueAction:
        legal = [Show(card=card) for card in obs.matching]
        if len(legal) == 1:
            return legal[0]
        deck, matching = obs.deck(), obs.matching

        def parse(text: str) -> ShowAnswer:
            return parse_show_answer(text, deck, matching)

        messages = [system(system_prompt(obs)), user(show_prompt(obs))]
        _, outcome = self._ask(messages, ShowAnswer, parse, show_answer_model(obs))
        proposed = None if outcome.value is None else Show(card=outcome.value.card)
        return self._seat.choose(proposed, legal, SHOW_PHASE)


def _conversation(obs: ClueObservation, prompt: str) -> list[ChatMessage]:
    """The rules, the earlier history (trimmable) and the phase's prompt."""
    return [system(system_prompt(obs)), *history_messages(obs), user(prompt)]


def make_llm_agent(
    settings: LLMSettings, seat: int, seed: int, *, name: str = "llm"
) -> LLMClueAgent:
    """An LLM agent for ``seat`` with its own client built from ``settings`` (see
    ``seat_client``); ``ValueError`` when no endpoint or replay file is configured."""
    return LLMClueAgent(seat_client(settings, seat), seed=seed, name=name)
