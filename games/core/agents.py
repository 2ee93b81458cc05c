"""One agent registry per game and one seat-list parser for every command.

A seat list names one agent per seat, comma-separated; ``name*count`` (or ``name x count``)
repeats a name: ``prover*5,llm`` seats five prover agents and one LLM agent. An LLM agent may
name its own model, ``sherlock@MODEL``, where the game's registry knows how to set one; the seat
keeps the whole spec, so logs record each seat's model.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from reasoning.llm.fallback import FallbackSnapshot
    from reasoning.llm.usage import UsageMeter

S = TypeVar("S")
A = TypeVar("A")

_ENTRY = re.compile(r"^(?P<name>[^*\s]+?)\s*(?:(?:\*|\s+x)\s*(?P<count>\S*))?$")
MAX_SEATS = 64
"""No game has more seats; a larger count is a typing mistake, refused before anything is built."""


class AgentSpecError(ValueError):
    """An agent name that is unknown, a malformed seat list, or an agent the settings cannot
    build (an LLM agent without an endpoint)."""


@dataclass(frozen=True)
class AgentType(Generic[S, A]):
    """A registered agent: its name, a one-line summary, whether it needs an LLM endpoint, and
    its factory ``(seat, seed, settings) -> agent``."""

    name: str
    summary: str
    needs_llm: bool
    factory: Callable[[int, int, S], A]
    """Builds the agent from (seat, the seat's own seed, settings)."""


class AgentRegistry(Generic[S, A]):
    """The agents one game knows, by name, in registration order, and the settings they are
    built under when none are given."""

    def __init__(
        self,
        types: Iterable[AgentType[S, A]],
        *,
        game: str,
        settings: Callable[[], S],
        with_model: Callable[[S, str], S] | None = None,
    ) -> None:
        self.types: dict[str, AgentType[S, A]] = {t.name: t for t in types}
        self.game = game
        self.default_settings = settings
        self.with_model = with_model
        """How a seat's ``@MODEL`` changes the settings its factory gets (None: not offered)."""

    @property
    def names(self) -> tuple[str, ...]:
        """Every registered name."""
        return tuple(self.types)

    def get(self, spec: str) -> AgentType[S, A]:
        """The type named ``spec`` (surrounding spaces and any ``@MODEL`` ignored);
        AgentSpecError names the known ones otherwise."""
        name = spec.strip().partition("@")[0]
        found = self.types.get(name)
        if found is None:
            raise AgentSpecError(f"unknown agent {name!r}; choose one of: {', '.join(self.types)}")
        return found

    def _checked(self, spec: str) -> str:
        name, at, model = spec.strip().partition("@")
        found = self.get(name)
        if not at:
            return found.name
        if not model or not found.needs_llm or self.with_model is None:
            raise AgentSpecError(f"agent entry {spec.strip()!r}: only LLM agents take @MODEL")
        return f"{found.name}@{model}"

    def model(self, spec: str) -> str | None:
        """The model ``spec`` names (``sherlock@MODEL``), None when it names none;
        AgentSpecError for an unknown agent, or a model given to an agent that takes none."""
        return self._checked(spec).partition("@")[2] or None

    def parse(self, text: str) -> tuple[str, ...]:
        """One registered agent name per seat from a seat list (see the module docstring)."""
        seats: list[str] = []
        for raw in text.split(","):
            item = raw.strip()
            if not item:
                raise AgentSpecError(f"agents {text!r}: empty entry")
            match = _ENTRY.match(item)
            count_text = match["count"] if match else "x"
            if match is None or (count_text is not None and not count_text.isdigit()):
                raise AgentSpecError(f"agent entry {item!r}: write name*count, as prover*5")
            count = 1 if count_text is None else int(count_text)
            if not 1 <= count <= MAX_SEATS:
                raise AgentSpecError(f"agent entry {item!r}: count must be 1 to {MAX_SEATS}")
            seats.extend([self._checked(match["name"])] * count)
            if len(seats) > MAX_SEATS:
                raise AgentSpecError(f"agents: more than {MAX_SEATS} seats")
        return tuple(seats)

    def needs_llm(self, names: Iterable[str]) -> bool:
        """Whether any of ``names`` needs an LLM endpoint."""
        return any(self.get(name).needs_llm for name in names)

    def make(self, spec: str, seat: int, seed: int, settings: S | None = None) -> A:
        """A fresh agent named ``spec`` for ``seat`` of the game dealt from ``seed``, built under
        ``settings`` (default: the registry's, with the spec's own model if it names one) with a
        seed of its own (``seat_seed``)."""
        chosen = settings if settings is not None else self.default_settings()
        model = self.model(spec)
        if model is not None and self.with_model is not None:
            chosen = self.with_model(chosen, model)
        return self.get(spec).factory(seat, seat_seed(self.game, seed, seat), chosen)


def seat_seed(game: str, seed: int, seat: int) -> int:
    """A seat's own seed, derived from the game's name and seed, so no two seats (or games)
    share a random stream."""
    return random.Random(f"{game}-agent/{seed}/{seat}").getrandbits(63)


def agent_meters(agent: object) -> tuple[UsageMeter, ...]:
    """The chat meters of an agent (its optional ``meters``); none for one that asks no model."""
    return tuple(getattr(agent, "meters", ()))


def agent_fallbacks(agent: object) -> FallbackSnapshot:
    """The fallbacks an agent made (its optional ``fallbacks`` snapshot); none when it has none."""
    from reasoning.llm.fallback import FallbackSnapshot

    found = getattr(agent, "fallbacks", None)
    return found if isinstance(found, FallbackSnapshot) else FallbackSnapshot(counts={}, total=0)


def close_agent(agent: object) -> None:
    """Let an agent free what it holds for a game (solver sessions), when it has a ``close``."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()


def combined_fallbacks(snapshots: Iterable[FallbackSnapshot]) -> FallbackSnapshot:
    """One snapshot adding up several (an agent made of several players, or a whole table)."""
    from reasoning.llm.fallback import FallbackSnapshot

    counts: dict[str, dict[str, int]] = {}
    for snapshot in snapshots:
        for phase, by_reason in snapshot.counts.items():
            into = counts.setdefault(phase, {})
            for reason, count in by_reason.items():
                into[reason] = into.get(reason, 0) + count
    return FallbackSnapshot(
        counts=counts, total=sum(sum(by_reason.values()) for by_reason in counts.values())
    )
