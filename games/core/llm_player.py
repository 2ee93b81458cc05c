"""One LLM player for every game: prompt, structured parse, re-prompts, a counted fallback.

A game supplies a ``Prompter`` (what to ask for an observation, the answer's shape and its
structured-output model, how an answer becomes an action, and the legal actions); ``LLMPlayer``
asks the model, sends a malformed answer back up to ``max_reprompts`` times (3 by default), and
when no usable legal action comes out plays a seeded random legal one, counting the fallback by
phase and reason. ``LLMSeat`` is the same machinery for games that ask several questions per
decision. Each seat meters its own calls, tokens, latency, re-prompts and fallbacks, and records
to or replays from its own file (``games.core.recordings``). Endpoint failures are not
fallbacks: ``LLMEndpointError`` propagates, so the runner marks the game as errored.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

from games.core.recordings import RecordingMissing, seat_settings
from reasoning.llm import (
    ChatClient,
    ChatMessage,
    ChatOptions,
    ChatReply,
    FallbackCounter,
    FallbackReason,
    FallbackSnapshot,
    LLMEndpointError,
    LLMSettings,
    RecordingClient,
    ReplayClient,
    StructuredOutcome,
    UsageMeter,
    UsageSnapshot,
    ask_structured,
    choose_with_fallback,
    complete_with,
    make_client,
    recording_file,
    system,
    user,
)
from reasoning.llm.fallback import DEFAULT_MAX_REPROMPTS

M = TypeVar("M", bound=BaseModel)
Act = TypeVar("Act")
Obs = TypeVar("Obs")
ObsIn = TypeVar("ObsIn", contravariant=True)
ActOut = TypeVar("ActOut", covariant=True)


class SeatClient:
    """A chat client that also counts one seat's own calls, tokens and failures.

    Several seats may share one client (and its meter); each seat's ``meter`` counts its own
    calls. Retries, trimmed history and format degrades happen inside the wrapped client; each
    call adds what the wrapped meter counted during it (exact for a client of its own).
    """

    def __init__(self, inner: ChatClient) -> None:
        self._inner = inner
        prices = inner.meter
        self._meter = UsageMeter(prices.price_input_per_1k, prices.price_output_per_1k)
        self.last_call: int | None = None
        """The index, in the seat's recording, of its latest call (None when it neither records
        nor replays, or before its first call)."""

    @property
    def model(self) -> str:
        """The wrapped client's model."""
        return self._inner.model

    @property
    def meter(self) -> UsageMeter:
        """This seat's own meter."""
        return self._meter

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        seed: int | None = None,
        options: ChatOptions | None = None,
    ) -> ChatReply:
        """Ask the wrapped client (with ``options`` when it takes them) and count the reply or
        the endpoint failure."""
        before = self._inner.meter.snapshot()
        try:
            reply = complete_with(self._inner, messages, seed=seed, options=options)
        except LLMEndpointError:
            self._meter.record_error()
            raise
        finally:
            self._take_inner_counts(before)
            self.last_call = recorded_index(self._inner)
        self._meter.record_reply(reply)
        return reply

    def _take_inner_counts(self, before: UsageSnapshot) -> None:
        after = self._inner.meter.snapshot()
        for _ in range(after.retries - before.retries):
            self._meter.record_retry()
        for _ in range(after.format_degrades - before.format_degrades):
            self._meter.record_format_degrade()
        if after.trimmed > before.trimmed:
            self._meter.record_trimmed(after.trimmed - before.trimmed)


def recorded_index(client: ChatClient) -> int | None:
    """The index, in its recording, of the latest call ``client`` recorded or replayed (None for
    a client that does neither)."""
    if isinstance(client, RecordingClient | ReplayClient):
        return client.last_index
    if isinstance(client, SeatClient):
        return client.last_call
    return None


def seat_client(settings: LLMSettings, seat: int) -> ChatClient:
    """The chat client of ``seat``, recording to or replaying from its own file.

    A recording file is created at once, so a seat that never got to call still leaves one to
    replay from; a replay file may be gzip-compressed (``.jsonl.gz``); a missing one raises
    RecordingMissing, a missing endpoint ValueError.
    """
    own = seat_settings(settings, seat)
    if own.replay_path is not None and recording_file(own.replay_path) is None:
        raise RecordingMissing(own.replay_path)
    client = make_client(own)
    if own.record_path is not None:
        own.record_path.parent.mkdir(parents=True, exist_ok=True)
        own.record_path.touch()
    return client


class Prompter(Protocol[ObsIn, M, ActOut]):
    """What a game tells the LLM player: the question for an observation and how to read the
    answer."""

    schema: type[M]

    def phase(self, obs: ObsIn) -> str:
        """The decision's name, under which fallbacks are counted."""
        ...

    def system_prompt(self, obs: ObsIn) -> str:
        """The rules and the seat's role."""
        ...

    def prompt(self, obs: ObsIn) -> str:
        """The question for this decision."""
        ...

    def answer_model(self, obs: ObsIn) -> type[BaseModel] | None:
        """The flat model the answer fills as structured output (enums of what is legal now),
        or None to ask for ``schema`` as JSON text."""
        ...

    def action(self, answer: M, obs: ObsIn) -> ActOut | None:
        """The action a parsed answer names (None when it names none)."""
        ...

    def legal_actions(self, obs: ObsIn) -> Sequence[ActOut]:
        """Every action the seat may take now."""
        ...


class LLMSeat:
    """One seat's access to a chat model: structured asks with re-prompts, counted fallbacks and
    the seat's own meter. Games whose decisions take several asks (Clue's phases, Undercover-V's
    pipeline) use it directly; ``LLMPlayer`` asks once per decision through a ``Prompter``."""

    def __init__(
        self,
        client: ChatClient,
        *,
        seed: int | None,
        name: str = "llm",
        max_reprompts: int = DEFAULT_MAX_REPROMPTS,
    ) -> None:
        if max_reprompts < 0:
            raise ValueError(f"max_reprompts: must be >= 0, got {max_reprompts}")
        self.name = name
        self.client = SeatClient(client)
        self.seed = seed
        self.rng = random.Random(seed)
        self.max_reprompts = max_reprompts
        self._counter = FallbackCounter()

    @property
    def meter(self) -> UsageMeter:
        """This seat's own meter."""
        return self.client.meter

    @property
    def usage(self) -> UsageSnapshot:
        """This seat's calls, tokens, latency, cost, re-prompts and fallbacks so far."""
        return self.client.meter.snapshot()

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """Fallbacks so far, by phase and reason."""
        return self._counter.snapshot()

    @property
    def last_call(self) -> int | None:
        """The index, in this seat's recording, of its latest call: after an ask, the call whose
        reply was used (None without a recording)."""
        return self.client.last_call

    def ask(
        self,
        messages: Sequence[ChatMessage],
        schema: type[M],
        *,
        parse: Callable[[str], M] | None = None,
        answer: type[BaseModel] | None = None,
    ) -> StructuredOutcome[M]:
        """Ask for ``schema`` (as ``answer`` structured output where given), re-prompting a
        malformed reply up to ``max_reprompts`` times with a new sampling seed each time."""
        return ask_structured(
            self.client,
            messages,
            schema,
            parse=parse,
            max_reprompts=self.max_reprompts,
            seed=self.seed,
            answer=answer,
        )

    def choose(self, proposed: Act | None, legal: Sequence[Act], phase: str) -> Act:
        """``proposed`` when it is legal, else a seeded random legal action, counted as a
        fallback of ``phase``."""
        action, _ = choose_with_fallback(
            proposed, legal, self.rng, counter=self._counter, phase=phase, meter=self.meter
        )
        return action

    def give_up(self, phase: str, reason: FallbackReason = FallbackReason.UNPARSED) -> None:
        """Count a fallback of ``phase`` whose replacement the game chooses itself."""
        self._counter.record(phase, reason.value)
        self.meter.record_fallback()


class LLMPlayer(Generic[Obs, M, Act]):
    """A seat played by a chat model through a game's ``Prompter`` (see the module docstring)."""

    def __init__(
        self,
        prompter: Prompter[Obs, M, Act],
        client: ChatClient,
        *,
        seed: int,
        name: str = "llm",
        max_reprompts: int = DEFAULT_MAX_REPROMPTS,
    ) -> None:
        self.name = name
        self._prompter = prompter
        self._seat = LLMSeat(client, seed=seed, name=name, max_reprompts=max_reprompts)
        self._decided_by: int | None = None

    @property
    def usage(self) -> UsageSnapshot:
        """This seat's calls, tokens, latency, cost and endpoint failures so far."""
        return self._seat.usage

    @property
    def meter(self) -> UsageMeter:
        """This seat's own meter."""
        return self._seat.meter

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """Fallbacks so far, by phase and reason."""
        return self._seat.fallbacks

    @property
    def last_call(self) -> int | None:
        """The index, in this seat's recording, of the call its latest decision came from (None
        without a recording, or when the decision needed no call)."""
        return self._decided_by

    def act(self, obs: Obs) -> Act:
        """Ask the model for this decision; a legal action either way."""
        prompter = self._prompter
        legal = list(prompter.legal_actions(obs))
        self._decided_by = None
        if len(legal) == 1:
            return legal[0]
        messages = [system(prompter.system_prompt(obs)), user(prompter.prompt(obs))]
        outcome = self._seat.ask(messages, prompter.schema, answer=prompter.answer_model(obs))
        self._decided_by = self._seat.last_call
        proposed = None if outcome.value is None else prompter.action(outcome.value, obs)
        return self._seat.choose(proposed, legal, prompter.phase(obs))
