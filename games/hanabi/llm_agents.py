"""Watson, Sherlock and Mycroft: Hanabi seats played by a chat model through the core's
``LLMPlayer``, with best-of-K sampling and a mixture of agents as options.

Each decision is logged before its move (``DecisionEvent``): the prompt, the parsed answer, the
rating of every legal move, the chosen move, whether the seat fell back to a random legal move,
and, for Mycroft, its stated deductions. With best-of-K the seat is asked K times (each with its
own sampling seed) and then once more with the K proposals to make the final choice; a mixture
asks the specialist roles of ``mixture_roles`` for the table's player count and then an
aggregator, the history analyst and the aggregator also shown the moves played
(``history_section``). The logged decision is the final one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from games.core.llm_player import LLMPlayer
from games.hanabi.engine import HanabiObservation
from games.hanabi.events import DecisionEvent, HanabiMove
from games.hanabi.knowledge import KnowledgeView
from games.hanabi.llm_prompts import (
    ROLE_FOCUS,
    Memory,
    MycroftAnswer,
    RatedAnswer,
    decision_schema,
    history_section,
    mixture_roles,
    mycroft_observation,
    mycroft_prompt,
    proposals_section,
    sherlock_prompt,
    system_prompt,
    watson_prompt,
)
from games.hanabi.llm_schemas import mycroft_answer_model, rated_answer_model
from reasoning.llm import ChatClient, FallbackSnapshot, LLMEndpointError, UsageMeter

Role = Literal["watson", "sherlock", "mycroft"]
"""The three LLM settings of seed 003."""
InvalidPolicy = Literal["fallback", "reprompt"]
"""What an answer still invalid after the re-prompts leads to: a counted random legal move
(``fallback``), or, as seed 003's authors play, no move at all: the game errors (``reprompt``)."""
REPROMPT_BOUND = 10
"""Re-prompts under ``reprompt``: the seed's environment asks until a legal move; we bound it."""
Player = LLMPlayer[HanabiObservation, RatedAnswer, int]
PROPOSAL_SEED_STEP = 1009
"""Proposal k of a decision samples with the seat's seed plus k times this."""


class RolePrompter:
    """The ``Prompter`` of one role; keeps the last prompt and parsed answer for the log.

    ``focus`` adds a specialist's instruction; ``history`` the moves played (Watson and Sherlock
    only: Mycroft sees the moves since its last turn anyway); ``proposals`` (when set) gives the
    earlier answers to the same decision, for a final choice.
    """

    def __init__(
        self,
        role: Role,
        view: KnowledgeView,
        memory: Memory,
        focus: str = "",
        *,
        history: bool = False,
    ) -> None:
        self.role = role
        self.view = view
        self.memory = memory
        self.focus = focus
        self.history = history and role != "mycroft"
        self.base: type[RatedAnswer] = MycroftAnswer if role == "mycroft" else RatedAnswer
        self.schema = self.base
        self.proposals: Sequence[tuple[str, RatedAnswer]] = ()
        self.last_prompt = ""
        self.last_answer: RatedAnswer | None = None

    def phase(self, obs: HanabiObservation) -> str:
        """Every Hanabi decision is a move."""
        return "move"

    def system_prompt(self, obs: HanabiObservation) -> str:
        """The rules and the answer format."""
        return system_prompt(self.role)

    def prompt(self, obs: HanabiObservation) -> str:
        """The role's question, with the specialist focus and the proposals when given."""
        if self.role == "watson":
            text = watson_prompt(obs)
        elif self.role == "sherlock":
            text = sherlock_prompt(obs, self.view)
        else:
            text = mycroft_prompt(obs, self.memory)
        if self.history:
            text += "\n" + "\n".join(history_section(obs, self.role))
        if self.focus:
            text += "\n" + self.focus
        if self.proposals:
            text += "\n" + proposals_section(self.proposals, obs)
        self.last_prompt = text
        self.last_answer = None
        self.schema = decision_schema(self.base, len(obs.legal_actions))
        return text

    def answer_model(self, obs: HanabiObservation) -> type[BaseModel]:
        """This observation's answer model: a rating per legal move and a legal index (and
        Mycroft's claims about the cards on the table); see ``llm_schemas``."""
        if self.role == "mycroft":
            return mycroft_answer_model(obs)
        return rated_answer_model(obs)

    def action(self, answer: RatedAnswer, obs: HanabiObservation) -> int | None:
        """The chosen legal move (the answer was read with this decision's schema, which rates
        every legal move)."""
        self.last_answer = answer
        return obs.legal_actions[answer.chosen]

    def legal_actions(self, obs: HanabiObservation) -> tuple[int, ...]:
        """The seat's legal move numbers."""
        return obs.legal_actions


class HanabiLLMAgent:
    """A seat played by a chat model in one role (see the module docstring)."""

    def __init__(
        self,
        role: Role,
        client: ChatClient,
        *,
        seat: int,
        seed: int,
        view: KnowledgeView = "hints",
        best_of: int = 1,
        mixture: bool = False,
        max_reprompts: int = 3,
        invalid: InvalidPolicy = "fallback",
        label: str | None = None,
    ) -> None:
        self.role = role
        self.name = label or role
        self.invalid = invalid
        self.max_reprompts = max_reprompts
        self.seat = seat
        self.memory = Memory()

        def make(focus: str, k: int, history: bool = False) -> tuple[RolePrompter, Player]:
            prompter = RolePrompter(role, view, self.memory, focus, history=history)
            player: Player = LLMPlayer(
                prompter,
                client,
                seed=seed + k * PROPOSAL_SEED_STEP,
                name=role,
                max_reprompts=max_reprompts,
            )
            return prompter, player

        self.mixture = mixture
        if mixture:
            self.proposers = [
                make(ROLE_FOCUS[name], k, history=name == "history")
                for k, name in enumerate(ROLE_FOCUS)
            ]
            self.labels = list(ROLE_FOCUS)
        elif best_of > 1:
            self.proposers = [make("", k) for k in range(best_of)]
            self.labels = [f"sample {k + 1}" for k in range(best_of)]
        else:
            self.proposers, self.labels = [], []
        self.final, self.player = make("", len(self.proposers), history=mixture)

    def _seat_mixture(self, players: int) -> None:
        """Keep the specialists a mixture asks at this table's player count."""
        roles = mixture_roles(players)
        kept = [k for k, label in enumerate(self.labels) if label in roles]
        self.labels = [self.labels[k] for k in kept]
        self.proposers = [self.proposers[k] for k in kept]

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """Final choices that fell back to a random legal move."""
        return self.player.fallbacks

    @property
    def meters(self) -> tuple[UsageMeter, ...]:
        """The meters of the agent's players: its proposers', then its final choice's."""
        return (*(player.meter for _, player in self.proposers), self.player.meter)

    def act(self, obs: HanabiObservation) -> HanabiMove:
        """Ask for proposals (if any), then the final choice; the move with its decision."""
        if self.mixture:
            self._seat_mixture(obs.players)
        proposals: list[tuple[str, RatedAnswer]] = []
        for label, (prompter, player) in zip(self.labels, self.proposers, strict=True):
            prompter.last_answer = None
            player.act(obs)
            if prompter.last_answer is not None:
                proposals.append((label, prompter.last_answer))
        self.final.proposals = proposals
        self.final.last_prompt, self.final.last_answer = "", None
        before = self.fallbacks.total
        self.player.meter.last_reasoning = None
        action = self.player.act(obs)
        answer = self.final.last_answer
        fell_back = self.fallbacks.total > before
        if fell_back and self.invalid == "reprompt":
            asks = 1 + self.max_reprompts
            raise LLMEndpointError(
                f"seat P{self.seat} ({self.name})",
                asks,
                f"no valid answer in {asks} asks (--invalid reprompt plays no random move)",
            )
        claims = tuple(answer.deductions) if isinstance(answer, MycroftAnswer) else ()
        response = "" if answer is None else answer.model_dump_json()
        if self.role == "mycroft":
            self.memory.observation = mycroft_observation(obs)
            self.memory.reply = response
            self.memory.last_turn = len(obs.history) + 1
        decision = DecisionEvent(
            turn=len(obs.history) + 1,
            seat=self.seat,
            agent=self.role,
            prompt=self.final.last_prompt,
            response=response,
            legal=obs.legal_actions,
            ratings=tuple(answer.ratings) if answer is not None else (),
            chosen=action,
            fallback=fell_back,
            claims=claims,
            reasoning_content=self.player.meter.last_reasoning if answer is not None else None,
            call=self.player.last_call,
        )
        return HanabiMove(action, decision)
