"""The three LLM agent types of seed 002, Section 3.1: NLI, Att-NLI and neuro-symbolic Att-NLI.

- ``nli``: describes and votes by deduction from the game state alone (eqs. 1-2).
- ``att-nli``: first abduces the others' and its own role (citizen or spy), then describes or
  votes in the light of that role (eq. 3).
- ``ns-att-nli``: Att-NLI with the neuro-symbolic pipeline: a guess of the other word, the
  prover's record V of every other player's descriptions against its word, and guess refinement
  after each vote (eqs. 4-7, Appendix B); its descriptions carry their logical form, so the
  engine's checker can test them against its card.

Answers are labelled lines read through ``reasoning.llm.ask_structured``; a malformed or illegal
answer is re-prompted up to 3 times, then a random legal action is taken and counted among the
agent's own ``fallbacks`` (phases ``describe`` and ``vote``; the neuro-symbolic agent adds its
pipeline's ``rules`` and ``guess``). Endpoint failures (``LLMEndpointError``) propagate to the
caller.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from pydantic import BaseModel, ConfigDict

from formalize.davidsonian.autoformalize import Autoformalizer
from formalize.davidsonian.render import ITEM
from games.core.agents import combined_fallbacks
from games.core.llm_player import LLMSeat
from games.undercover import prompts
from games.undercover.agent import Description, Observation
from games.undercover.engine import normalise_description
from games.undercover.llm_schemas import (
    describe_answer_model,
    guess_answer_model,
    vote_answer_model,
)
from games.undercover.pipeline import (
    GuessRefinement,
    LogicalRecord,
    NeuroSymbolicPipeline,
    PipelineSettings,
    clean_word,
    word_predicate,
)
from reasoning.llm import (
    ChatClient,
    ChatMessage,
    FallbackSnapshot,
    MalformedAnswer,
    UsageMeter,
    labelled_fields,
)
from reasoning.llm.fallback import DEFAULT_MAX_REPROMPTS
from reasoning.prover import Prover
from reasoning.sorts import Signature

AgentKind = Literal["nli", "att-nli", "ns-att-nli"]
LLM_AGENT_KINDS: tuple[AgentKind, ...] = ("nli", "att-nli", "ns-att-nli")
Role = Literal["citizen", "spy"]

FALLBACK_DESCRIPTIONS = (
    "It is something many people would recognise.",
    "It is easier to recognise than to explain.",
    "People hold different opinions about it.",
    "It has more than one feature worth mentioning.",
    "It is known well beyond the place it comes from.",
)
"""Word-neutral sentences a description falls back to; true of any word, so always legal."""

_SEAT = re.compile(r"(?:player|seat)?\s*#?\s*(-?\d+)", re.IGNORECASE)


class DescribeAnswer(BaseModel):
    """A description answer: the sentence, and for Att-NLI agents the role they believe in."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    description: str
    role: Role | None = None
    reasoning: str = ""


class VoteAnswer(BaseModel):
    """A vote answer: the seat voted for, and for Att-NLI agents their role belief."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int
    role: Role | None = None
    reasoning: str = ""


class GuessAnswer(BaseModel):
    """A guess of the other side's word."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    guess: str


class AgentTurn(BaseModel):
    """One decision of an LLM agent: phase, round, role belief, action, calls and fallback."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    phase: Literal["describe", "vote"]
    round: int
    role: Role | None
    action: str
    attempts: int
    fallback: bool
    errors: tuple[str, ...] = ()


def read_role(fields: dict[str, str]) -> Role:
    """The ``ROLE:`` field as ``citizen`` or ``spy``; MalformedAnswer otherwise."""
    value = fields.get(prompts.ROLE, "").strip().strip(".*").lower()
    if value.startswith("citizen"):
        return "citizen"
    if value.startswith("spy"):
        return "spy"
    raise MalformedAnswer(f"{prompts.ROLE}: must be citizen or spy, not {value!r}")


def read_seat(text: str) -> int:
    """The seat number in a vote such as ``player 3``; MalformedAnswer when there is none."""
    found = _SEAT.search(text)
    if found is None:
        raise MalformedAnswer(f"{prompts.VOTE}: name a player by number, as 'player 3'")
    return int(found.group(1))


def contains_word(text: str, word: str) -> bool:
    """Whether ``text`` says ``word`` (compared as normalised whole words)."""
    key = normalise_description(word)
    return bool(key) and f" {key} " in f" {normalise_description(text)} "


def describe_parser(obs: Observation, uses_roles: bool) -> Callable[[str], DescribeAnswer]:
    """The reading of a describe reply in labelled lines: the description (checked against
    ``obs``), and the role belief and reasoning of agents that state them."""
    labels = [prompts.REASONING, prompts.ROLE, prompts.DESCRIPTION]
    required = [prompts.ROLE, prompts.DESCRIPTION] if uses_roles else [prompts.DESCRIPTION]

    def parse(text: str) -> DescribeAnswer:
        fields = labelled_fields(text, labels, required=required)
        return DescribeAnswer(
            description=check_description(fields[prompts.DESCRIPTION], obs),
            role=read_role(fields) if uses_roles else None,
            reasoning=fields.get(prompts.REASONING, ""),
        )

    return parse


def formalized(formalizer: Autoformalizer | None, text: str, obs: Observation) -> Description:
    """The description ``text`` of ``obs.word``, with its logical form where ``formalizer`` is
    given and succeeds (the thing described is ``item``, the word's predicate is known to it)."""
    if formalizer is None:
        return Description(text)
    predicate = word_predicate(obs.word)
    signature = Signature(predicates={predicate: ("entity",)}, constants={ITEM: "entity"})
    form = formalizer.formalize(text, signature=signature)
    if form.formula is None:
        return Description(text)
    return Description(text, formula=form.formula, formula_text=form.formula_text)


def check_description(text: str, obs: Observation) -> str:
    """``text`` as one clean line if it is a usable description for ``obs``; else MalformedAnswer.

    It must be non-empty, must not name the speaker's word and must not repeat an earlier
    description (compared as the engine compares them).
    """
    clean = " ".join(text.strip().strip('"').split())
    if not clean:
        raise MalformedAnswer(f"{prompts.DESCRIPTION}: the description is empty")
    if contains_word(clean, obs.word):
        raise MalformedAnswer("the description names your word; describe it without saying it")
    key = normalise_description(clean)
    for earlier in obs.descriptions:
        if normalise_description(earlier.text) == key:
            raise MalformedAnswer(
                f"the description repeats what player {earlier.seat} said in round "
                f"{earlier.round}; say something new"
            )
    return clean


def fallback_description(obs: Observation, rng: random.Random) -> str:
    """A random word-neutral sentence nobody has said yet (the legal fallback description)."""
    said = {normalise_description(d.text) for d in obs.descriptions}
    fresh = [s for s in FALLBACK_DESCRIPTIONS if normalise_description(s) not in said]
    if fresh:
        return rng.choice(fresh)
    return f"Player {obs.seat} has nothing new to add about it in round {obs.round}."


class LLMAgent:
    """The standard NLI agent, and the base of the Att-NLI agents (seed 002, eqs. 1-2).

    ``formalizer``, when given, attaches a logical form to every description the model wrote
    (fallback sentences go without). ``turns`` keeps every decision made, ``fallbacks`` counts
    the random actions it took.
    """

    kind: AgentKind = "nli"
    uses_roles = False
    describe_task = prompts.NLI_DESCRIBE_TASK
    vote_task = prompts.NLI_VOTE_TASK

    def __init__(
        self,
        client: ChatClient,
        *,
        name: str | None = None,
        seed: int | None = None,
        max_reprompts: int = DEFAULT_MAX_REPROMPTS,
        formalizer: Autoformalizer | None = None,
    ) -> None:
        self.name = name or self.kind
        self.seat = LLMSeat(client, seed=seed, name=self.name, max_reprompts=max_reprompts)
        self.client: ChatClient = self.seat.client
        self.seed = seed
        self.rng = self.seat.rng
        self.max_reprompts = max_reprompts
        self.formalizer = formalizer
        self.role: Role | None = None
        self.turns: list[AgentTurn] = []

    @property
    def meters(self) -> tuple[UsageMeter, ...]:
        """The agent's chat meter (its seat's, the only one)."""
        return (self.seat.meter,)

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """The agent's fallbacks so far, by phase (``describe``, ``vote``) and reason."""
        return self.seat.fallbacks

    def describe(self, obs: Observation) -> Description:
        """A one-sentence description of ``obs.word`` (a fallback sentence after 3 re-prompts)."""
        outcome = self.seat.ask(
            self.describe_messages(obs),
            DescribeAnswer,
            parse=describe_parser(obs, self.uses_roles),
            answer=describe_answer_model(self.uses_roles),
        )
        answer = outcome.value
        call = self.seat.last_call
        if answer is None:
            self.seat.give_up("describe")
            text = fallback_description(obs, self.rng)
        else:
            text = answer.description
            self.role = answer.role or self.role
        self.turns.append(
            AgentTurn(
                phase="describe",
                round=obs.round,
                role=self.role if self.uses_roles else None,
                action=text,
                attempts=outcome.attempts,
                fallback=answer is None,
                errors=outcome.errors,
            )
        )
        if answer is None:
            return Description(text)
        return replace(self.formalized(text, obs), call=call)

    def vote(self, obs: Observation) -> int:
        """The seat voted out: a living seat other than its own (random after 3 re-prompts)."""
        targets = obs.vote_targets()
        labels = [prompts.REASONING, prompts.ROLE, prompts.VOTE]
        required = [prompts.ROLE, prompts.VOTE] if self.uses_roles else [prompts.VOTE]
        proposed: list[int] = []

        def parse(text: str) -> VoteAnswer:
            fields = labelled_fields(text, labels, required=required)
            seat = read_seat(fields[prompts.VOTE])
            proposed.append(seat)
            if seat not in targets:
                allowed = ", ".join(str(t) for t in targets)
                why = "yourself" if seat == obs.seat else f"player {seat}"
                raise MalformedAnswer(
                    f"you cannot vote for {why}; vote for one of the players {allowed}"
                )
            return VoteAnswer(
                target=seat,
                role=read_role(fields) if self.uses_roles else None,
                reasoning=fields.get(prompts.REASONING, ""),
            )

        outcome = self.seat.ask(
            self.vote_messages(obs),
            VoteAnswer,
            parse=parse,
            answer=vote_answer_model(targets, self.uses_roles),
        )
        answer = outcome.value
        if answer is not None:
            self.role = answer.role or self.role
        choice = answer.target if answer is not None else (proposed[-1] if proposed else None)
        target = self.seat.choose(choice, targets, "vote")
        fell_back = choice is None or choice not in targets
        self.turns.append(
            AgentTurn(
                phase="vote",
                round=obs.round,
                role=self.role if self.uses_roles else None,
                action=str(target),
                attempts=outcome.attempts,
                fallback=fell_back,
                errors=outcome.errors,
            )
        )
        return target

    def describe_messages(self, obs: Observation) -> list[ChatMessage]:
        """The conversation asking for a description."""
        return prompts.conversation(obs, prompts.describe_prompt(obs, self.describe_task))

    def vote_messages(self, obs: Observation) -> list[ChatMessage]:
        """The conversation asking for a vote."""
        return prompts.conversation(obs, prompts.vote_prompt(obs, self.vote_task))

    def formalized(self, text: str, obs: Observation) -> Description:
        """The description, with its logical form when a formalizer is set and succeeds
        (``formalized``)."""
        return formalized(self.formalizer, text, obs)


class AttNLIAgent(LLMAgent):
    """The standard Att-NLI agent: abduces roles first, then describes or votes (eq. 3)."""

    kind: AgentKind = "att-nli"
    uses_roles = True
    describe_task = prompts.ATT_DESCRIBE_TASK
    vote_task = prompts.ATT_VOTE_TASK


class NeuroSymbolicAttNLIAgent(AttNLIAgent):
    """The neuro-symbolic Att-NLI agent: Att-NLI guided by the prover's record V and a guessed
    opponent word that is refined from the prover's trace after each vote (eqs. 4-7).

    ``records`` keeps every record V built and ``refinements`` every guess refinement.
    """

    kind: AgentKind = "ns-att-nli"
    describe_task = prompts.NS_DESCRIBE_TASK
    vote_task = prompts.NS_VOTE_TASK

    def __init__(
        self,
        client: ChatClient,
        *,
        pipeline: NeuroSymbolicPipeline | None = None,
        prover: Prover | None = None,
        settings: PipelineSettings | None = None,
        attach_formulas: bool = True,
        name: str | None = None,
        seed: int | None = None,
        max_reprompts: int = DEFAULT_MAX_REPROMPTS,
    ) -> None:
        super().__init__(client, name=name, seed=seed, max_reprompts=max_reprompts)
        self.pipeline = (
            pipeline
            if pipeline is not None
            else NeuroSymbolicPipeline(self.seat.client, prover, settings, seed=seed)
        )
        if attach_formulas:
            self.formalizer = self.pipeline.formalizer
        self.guess: str | None = None
        self.records: list[LogicalRecord] = []
        self.refinements: list[GuessRefinement] = []
        self._votes_seen = 0

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """The fallbacks of its own decisions (``describe``, ``vote``, a first ``guess``) and of
        its pipeline (``rules``, ``guess`` refinements), added up."""
        return combined_fallbacks([self.seat.fallbacks, self.pipeline.fallbacks])

    def describe(self, obs: Observation) -> Description:
        """Refine the guess after a vote, rebuild V, then describe as Att-NLI does (eqs. 4-5)."""
        self._catch_up(obs)
        return super().describe(obs)

    def vote(self, obs: Observation) -> int:
        """Rebuild V over the round's descriptions, then vote as Att-NLI does (eqs. 6-7)."""
        self._catch_up(obs)
        return super().vote(obs)

    def describe_messages(self, obs: Observation) -> list[ChatMessage]:
        """The description request with the guess and the prover's record."""
        extra = f"{prompts.guess_block(self.guess)}\n\n{self._record(obs).prompt_block()}"
        return prompts.conversation(obs, prompts.describe_prompt(obs, self.describe_task, extra))

    def vote_messages(self, obs: Observation) -> list[ChatMessage]:
        """The vote request with the guess and the prover's record."""
        extra = f"{prompts.guess_block(self.guess)}\n\n{self._record(obs).prompt_block()}"
        return prompts.conversation(obs, prompts.vote_prompt(obs, self.vote_task, extra))

    def _record(self, obs: Observation) -> LogicalRecord:
        record = self.pipeline.record(obs, self.guess)
        self.records.append(record)
        return record

    def _catch_up(self, obs: Observation) -> None:
        """Refine the guess after a new elimination; make a first guess when there is none
        (a first guess that failed is asked for again at the next turn)."""
        if len(obs.votes) > self._votes_seen:
            self._votes_seen = len(obs.votes)
            refinement = self.pipeline.refine_guess(obs, self.guess, self.role)
            if refinement is not None:
                self.refinements.append(refinement)
                self.guess = refinement.new_guess
        if self.guess is None:
            self.guess = self._first_guess(obs)

    def _first_guess(self, obs: Observation) -> str | None:
        def parse(text: str) -> GuessAnswer:
            fields = labelled_fields(text, [prompts.GUESS], required=[prompts.GUESS])
            guess = clean_word(fields[prompts.GUESS])
            if not guess or normalise_description(guess) == normalise_description(obs.word):
                raise MalformedAnswer(f"{prompts.GUESS}: name a word other than your own")
            return GuessAnswer(guess=guess)

        outcome = self.seat.ask(
            prompts.conversation(obs, prompts.guess_prompt(obs)),
            GuessAnswer,
            parse=parse,
            answer=guess_answer_model(),
        )
        if outcome.value is None:
            self.seat.give_up("guess")
            return None
        return outcome.value.guess


def make_llm_agent(
    kind: AgentKind,
    client: ChatClient,
    *,
    seat: int,
    seed: int,
    prover: Prover | None = None,
    settings: PipelineSettings | None = None,
    name: str | None = None,
) -> LLMAgent:
    """An LLM agent of ``kind`` for ``seat``, its random choices seeded from ``seed`` and the seat.

    ``prover`` and ``settings`` configure the neuro-symbolic pipeline (``ns-att-nli`` only; the
    backend defaults to the setting's choice: Isabelle where installed, else Z3).
    """
    agent_seed = seed * 1000 + seat
    if kind == "nli":
        return LLMAgent(client, name=name, seed=agent_seed)
    if kind == "att-nli":
        return AttNLIAgent(client, name=name, seed=agent_seed)
    if kind == "ns-att-nli":
        return NeuroSymbolicAttNLIAgent(
            client,
            prover=prover,
            settings=settings,
            name=name,
            seed=agent_seed,
        )
    raise ValueError(f"unknown LLM agent kind {kind!r}; choose one of {', '.join(LLM_AGENT_KINDS)}")
