"""The Clue LLM agent of seed 000: deduction, action and show-card phases over any chat client.

On its turn the agent first asks the model what it has deduced, then for a suggestion or an
accusation (with the deductions, its last reasoning and its last suggestion as context); when it
must refute with more than one matching card it asks which card to show. Each answer is parsed
and checked (cards must exist, a shown card must match); a bad answer is sent back with the
problem up to ``max_reprompts`` times, after which the agent plays a seeded random legal move
(a suggestion on a normal turn, never an accusation) and counts the fallback by phase. Stated
deductions travel with the action, so the engine logs them.

Endpoint failures are not fallbacks: ``LLMEndpointError`` (after the client's own bounded
retries) propagates out of ``act``, so the game runner can record the game as errored.
"""

from __future__ import annotations

import random
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
    move_prompt,
    show_prompt,
    system_prompt,
)
from games.core.llm_player import SeatClient, seat_client
from reasoning.llm import (
    ChatClient,
    ChatMessage,
    FallbackCounter,
    FallbackReason,
    FallbackSnapshot,
    LLMSettings,
    StructuredOutcome,
    UsageSnapshot,
    ask_structured,
    choose_with_fallback,
    system,
    user,
)
from reasoning.llm.structured import DEFAULT_MAX_REPROMPTS

M = TypeVar("M", bound=BaseModel)

DEDUCTION_PHASE = "deduction"
ACTION_PHASE = "action"
SHOW_PHASE = "show_card"


class LLMClueAgent:
    """A Clue player driven by a chat model through the three phases of seed 000.

    ``seed`` fixes the fallback moves and is sent with every request as the sampling seed. Build
    one agent per game and seat: it keeps its previous move's reasoning for the next turn, and
    ``usage`` and ``fallbacks`` count that game.
    """

    def __init__(
        self,
        client: ChatClient,
        *,
        seed: int,
        name: str = "llm",
        max_reprompts: int = DEFAULT_MAX_REPROMPTS,
    ) -> None:
        if max_reprompts < 0:
            raise ValueError(f"max_reprompts must be >= 0, got {max_reprompts}")
        self._client = SeatClient(client)
        self._seed = seed
        self._rng = random.Random(seed)
        self._name = name
        self._max_reprompts = max_reprompts
        self._fallbacks = FallbackCounter()
        self._last_reasoning = ""

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        return self._name

    @property
    def usage(self) -> UsageSnapshot:
        """This agent's calls, tokens, latency, cost and endpoint failures so far."""
        return self._client.meter.snapshot()

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """Fallbacks so far, by phase (deduction, action, show_card) and reason."""
        return self._fallbacks.snapshot()

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
        self, obs: ClueObservation, prompt: str, schema: type[M], parse: Callable[[str], M]
    ) -> tuple[list[ChatMessage], StructuredOutcome[M]]:
        messages = [system(system_prompt(obs)), user(prompt)]
        outcome = ask_structured(
            self._client,
            messages,
            schema,
            parse=parse,
            max_reprompts=self._max_reprompts,
            seed=self._seed,
        )
        return messages, outcome

    def _ask_again(
        self,
        messages: Sequence[ChatMessage],
        schema: type[M],
        parse: Callable[[str], M],
    ) -> StructuredOutcome[M]:
        """Continue a conversation (for subclasses that send an answer back for revision)."""
        return ask_structured(
            self._client,
            messages,
            schema,
            parse=parse,
            max_reprompts=self._max_reprompts,
            seed=self._seed,
        )

    def _record_fallback(self, phase: str, reason: FallbackReason) -> None:
        self._fallbacks.record(phase, reason.value)

    def _deduce(self, obs: ClueObservation, info: DerivedInfo) -> DeductionAnswer:
        deck, n = obs.deck(), obs.n_players

        def parse(text: str) -> DeductionAnswer:
            return parse_deduction_answer(text, deck, n)

        messages, outcome = self._ask(obs, deduction_prompt(obs, info), DeductionAnswer, parse)
        if outcome.value is None:
            self._record_fallback(DEDUCTION_PHASE, FallbackReason.UNPARSED)
            return DeductionAnswer(analysis="", deductions=())
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

    def _move(self, obs: ClueObservation) -> ClueAction:
        info = derive_info(obs)
        deduced = self._deduce(obs, info)
        memory = TurnMemory(self._last_reasoning, deduced.analysis, deduced.deductions)
        final = obs.phase is Phase.FINAL_ACCUSATION
        deck = obs.deck()

        def parse(text: str) -> MoveAnswer:
            return parse_move_answer(text, deck, final=final)

        prompt = final_prompt(obs, info, memory) if final else move_prompt(obs, info, memory)
        _, outcome = self._ask(obs, prompt, MoveAnswer, parse)
        proposed = None if outcome.value is None else outcome.value.action()
        legal = obs.legal_actions()
        if proposed is not None and proposed in legal:
            action = proposed
        else:
            # A fallback never accuses on a normal turn: that would throw the game away.
            moves = [a for a in legal if isinstance(a, Accuse if final else Suggest)]
            action, _ = choose_with_fallback(
                proposed, moves, self._rng, counter=self._fallbacks, phase=ACTION_PHASE
            )
        self._last_reasoning = "" if outcome.value is None else outcome.value.reasoning
        return action.model_copy(update={"deductions": deduced.deductions})

    def _show(self, obs: ClueObservation) -> ClueAction:
        legal = [Show(card=card) for card in obs.matching]
        if len(legal) == 1:
            return legal[0]
        deck, matching = obs.deck(), obs.matching

        def parse(text: str) -> ShowAnswer:
            return parse_show_answer(text, deck, matching)

        _, outcome = self._ask(obs, show_prompt(obs), ShowAnswer, parse)
        proposed = None if outcome.value is None else Show(card=outcome.value.card)
        action, _ = choose_with_fallback(
            proposed, legal, self._rng, counter=self._fallbacks, phase=SHOW_PHASE
        )
        return action


def make_llm_agent(
    settings: LLMSettings, seat: int, seed: int, *, name: str = "llm"
) -> LLMClueAgent:
    """An LLM agent for ``seat`` with its own client built from ``settings`` (see
    ``seat_client``); ``ValueError`` when no endpoint or replay file is configured."""
    return LLMClueAgent(seat_client(settings, seat), seed=seed, name=name)
