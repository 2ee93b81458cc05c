"""Undercover-V agents by name (``AGENTS``): the offline ``prover``, ``prover-guess`` and
``plain``, and the three LLM types (``nli``, ``att-nli``, ``ns-att-nli``).

``make_agent(spec, seat, seed, settings)`` builds the agent a name stands for. ``seed`` is the
game's seed (prover agents share a tie order through it); ``settings`` carries what agents draw
on: the lexicon and the consistency test for the offline agents, a chat client (and the
pipeline settings) for the LLM types, which cannot be made without one. An LLM seat may play a
model of its own, ``nli@MODEL`` (and, from a seats file, an endpoint of its own): its agent is
named so in the log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pydantic import ConfigDict, Field

from formalize.reading.reader import ReaderKind
from games.core.agents import AgentRegistry, AgentSpecError, AgentType, seat_seed
from games.core.llm_player import seat_client
from games.core.random_agent import Draw, RandomAgent, uniform
from games.core.seats import SeatEndpoint
from games.core.settings import AgentSettings
from games.undercover.agent import Agent, Description
from games.undercover.checker import DEFAULT_TIMEOUT_S, ConsistencyTest
from games.undercover.engine import Phase, UndercoverGame, UndercoverTurn, normalise_description
from games.undercover.lexicon import Lexicon
from games.undercover.llm_agents import LLM_AGENT_KINDS, AgentKind, make_llm_agent
from games.undercover.llm_calls import SeatClients
from games.undercover.pipeline import PipelineSettings
from games.undercover.prover_agent import (
    GUESS_AGENT,
    PLAIN_AGENT,
    PROVER_AGENT,
    ProverAgent,
    StatementLibrary,
    nothing_new,
)
from reasoning.llm import ChatClient, make_client
from reasoning.prover import Prover

if TYPE_CHECKING:
    from reasoning.llm.settings import LLMSettings


class UndercoverAgentSettings(AgentSettings):
    """What agent factories draw on; one instance is shared by every agent of a run.

    ``test`` is the consistency test T(s, Delta) (its prover and cache); ``library`` the lexicon
    statements; ``client`` the chat client for LLM agents on the command's model and endpoint
    (None: built from ``llm``, or offline only; each agent counts its own fallbacks); ``llm`` the
    command's LLM settings, from which a seat naming another model (``seat_model``, set for one
    seat by ``make_agent``) or with an endpoint of its own (``endpoints``, seat by seat, None for
    the command's) gets a client of its own, one per model and endpoint; ``seat_clients``, when
    given, makes each LLM seat's client from its live one (recording or replaying that seat's
    calls); ``pipeline`` configures the neuro-symbolic LLM agent (its backend included: by
    default Isabelle where installed, else Z3); ``reader`` says who reads the descriptions for
    the card checks (offline; llm or combined ask the command's endpoint).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    lexicon: Lexicon
    test: ConsistencyTest
    library: StatementLibrary
    client: ChatClient | None = None
    seat_clients: SeatClients | None = None
    pipeline: PipelineSettings | None = None
    seat_model: str | None = None
    reader: ReaderKind = "offline"
    built_clients: dict[tuple[str, SeatEndpoint | None], ChatClient] = Field(
        default_factory=dict, repr=False, exclude=True
    )
    """The clients built for other models and endpoints, shared by the settings made from
    these (``model_copy`` keeps the same dictionary)."""

    @classmethod
    def create(
        cls,
        lexicon: Lexicon | None = None,
        prover: Prover | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        client: ChatClient | None = None,
        pipeline: PipelineSettings | None = None,
        llm: LLMSettings | None = None,
        endpoints: tuple[SeatEndpoint | None, ...] = (),
    ) -> UndercoverAgentSettings:
        """Settings over ``lexicon`` (default: the shipped one) testing with ``prover`` (Z3)."""
        lex = lexicon if lexicon is not None else Lexicon.load()
        return cls(
            lexicon=lex,
            test=ConsistencyTest(lex, prover, timeout),
            library=StatementLibrary(lex),
            client=client,
            pipeline=pipeline,
            llm=llm,
            endpoints=endpoints,
        )

    def live_client(self, seat: int) -> ChatClient | None:
        """The chat client of ``seat`` at its model (``seat_model``, else the command's) and
        endpoint (its own, else the command's), made from the LLM settings given (the commands
        check an endpoint is configured first; a harness such as inspect_ai answers through
        ``chat_clients_from``); None when there are none and no client is shared."""
        endpoint = self.endpoints[seat] if seat < len(self.endpoints) else None
        model = self.seat_model
        if self.llm is not None and model == self.llm.model:
            model = None
        if model is None and endpoint is None and (self.client is not None or self.llm is None):
            return self.client
        if self.llm is None:
            raise AgentSpecError(
                f"seat {seat} plays model {model!r}, but no LLM settings are given to reach it"
            )
        chosen = self.llm if model is None else self.llm.model_copy(update={"model": model})
        key = (chosen.model, endpoint)
        if key not in self.built_clients:
            if endpoint is not None:
                chosen = endpoint.applied(chosen)
            self.built_clients[key] = make_client(chosen)
        return self.built_clients[key]

    def chat_client(self, seat: int) -> ChatClient | None:
        """The client an LLM agent at ``seat`` asks: its live client, recorded or replayed
        through ``seat_clients`` when given, or, when the LLM settings name a game's recordings
        (``for_game``), the seat's own recording or replay (``games.core.llm_player``)."""
        if self.seat_clients is not None:
            return self.seat_clients(seat, self.seat_model, lambda: self._required(seat))
        llm = self.llm
        if llm is not None and (llm.record_path is not None or llm.replay_path is not None):
            own = self.seat_llm(seat)
            if self.seat_model is not None:
                own = own.model_copy(update={"model": self.seat_model})
            return seat_client(own, seat)
        return self.live_client(seat)

    def _required(self, seat: int) -> ChatClient:
        client = self.live_client(seat)
        if client is None:
            raise AgentSpecError(f"seat {seat} needs an LLM endpoint to record its calls")
        return client


def with_model(settings: UndercoverAgentSettings, model: str) -> UndercoverAgentSettings:
    """``settings`` for a seat whose spec names ``model`` (``nli@MODEL``); the clients built so
    far stay shared (``model_copy`` keeps the same dictionary)."""
    return settings.model_copy(update={"seat_model": model})


AGENTS_GAME = "undercover"
"""The game the registry's agents play (their seeds are derived from it)."""
RANDOM_AGENT = "random"
"""The random baseline's name."""

AgentFactory = Callable[[int, int, UndercoverAgentSettings], Agent | RandomAgent]
"""Builds an agent from (seat, game seed, settings)."""


def _prover(*, plain: bool = False, guess: bool = False) -> AgentFactory:
    def build(seat: int, seed: int, settings: UndercoverAgentSettings) -> Agent:
        return ProverAgent(
            settings.test, seed=seed, seat=seat, library=settings.library, plain=plain, guess=guess
        )

    return build


def _llm(kind: AgentKind) -> AgentFactory:
    def build(seat: int, seed: int, settings: UndercoverAgentSettings) -> Agent:
        client = settings.chat_client(seat)
        if client is None:
            raise AgentSpecError(
                f"agent {kind!r} needs an LLM endpoint: set GUMSHOE_LLM_BASE_URL (and "
                "GUMSHOE_LLM_MODEL, GUMSHOE_LLM_API_KEY where needed)"
            )
        model = settings.seat_model
        return make_llm_agent(
            kind,
            client,
            seat=seat,
            seed=seed,
            settings=settings.pipeline,
            name=kind if model is None else f"{kind}@{model}",
        )

    return build


def random_description_or_vote(library: StatementLibrary) -> Draw:
    """Undercover-V's random draw: a vote uniformly among the seats one may vote for, and, since
    a description is an open sentence, a random statement of one's own word not yet said (from
    the lexicon's ``library``), or that there is nothing new to say."""

    def draw(turn: UndercoverTurn, legal: Sequence[int], rng: random.Random) -> Description | int:
        if turn.phase is Phase.VOTE:
            return int(uniform(turn, legal, rng))
        obs = turn.observation
        said = {normalise_description(d.text) for d in obs.descriptions}
        book = library.book(obs.word)
        fresh = [s for s in book.statements(obs.word) if normalise_description(s.text) not in said]
        if fresh:
            return rng.choice(fresh).description()
        return nothing_new(obs)

    return draw


def _random(seat: int, seed: int, settings: UndercoverAgentSettings) -> RandomAgent:
    draw = random_description_or_vote(settings.library)
    return RandomAgent(seat_seed(AGENTS_GAME, seed, seat), draw)


_LLM_SUMMARIES: dict[AgentKind, str] = {
    "nli": "LLM, standard NLI: describes and votes by deduction alone",
    "att-nli": "LLM, Att-NLI: abduces roles, then describes or votes",
    "ns-att-nli": "LLM, neuro-symbolic Att-NLI: Att-NLI guided by the prover's record",
}

AGENTS: AgentRegistry[UndercoverAgentSettings, Agent | RandomAgent] = AgentRegistry(
    [
        AgentType(
            PROVER_AGENT,
            "offline: lexicon facts, role from T(s, Delta) against its card, blends in as the spy",
            False,
            _prover(),
        ),
        AgentType(
            GUESS_AGENT,
            "offline: the prover agent that also tests the others against the pair's other word",
            False,
            _prover(guess=True),
        ),
        AgentType(
            PLAIN_AGENT,
            "offline: plainly states facts of its own word, reasons and votes like the prover "
            "agent",
            False,
            _prover(plain=True),
        ),
        AgentType(
            RANDOM_AGENT, "a random vote, a random unsaid statement of its word", False, _random
        ),
        *(AgentType(kind, _LLM_SUMMARIES[kind], True, _llm(kind)) for kind in LLM_AGENT_KINDS),
    ],
    game=AGENTS_GAME,
    settings=UndercoverAgentSettings.create,
    with_model=with_model,
)
"""Every Undercover-V agent, by name; LLM seats may name a model each (``nli@MODEL``)."""

OFFLINE_AGENTS: tuple[str, ...] = tuple(n for n, t in AGENTS.types.items() if not t.needs_llm)


def make_agent(
    spec: str, seat: int, seed: int, settings: UndercoverAgentSettings | None = None
) -> Agent | RandomAgent:
    """The agent named ``spec`` for ``seat`` of the game seeded with ``seed``.

    Unlike the other games' factories, Undercover-V's take the game's seed itself: the prover
    agents break vote ties in one order shared by the table, drawn from it (and the recorded LLM
    games were played with seeds derived from it)."""
    chosen = settings if settings is not None else UndercoverAgentSettings.create()
    model = AGENTS.model(spec)
    if model is not None:
        chosen = with_model(chosen, model)
    return AGENTS.get(spec).factory(seat, seed, chosen)


def seat_agents(
    specs: Sequence[str],
    game: UndercoverGame,
    settings: UndercoverAgentSettings,
    spy_agent: str | None = None,
) -> list[Agent | RandomAgent]:
    """One agent per seat of ``game``: seat i gets ``specs[i]``, the spy's seat ``spy_agent``
    when one is given (so a contest can put a type in the spy's role whatever the seating)."""
    names = spec_at_seats(specs, game, spy_agent)
    return [make_agent(name, seat, game.seed, settings) for seat, name in enumerate(names)]


def spec_at_seats(
    specs: Sequence[str], game: UndercoverGame, spy_agent: str | None = None
) -> list[str]:
    """The agent spec each seat of ``game`` gets: ``specs[i]``, the spy's seat ``spy_agent``
    when one is given; AgentSpecError when ``specs`` do not fill the table."""
    if len(specs) != game.config.players:
        raise AgentSpecError(f"agents: {len(specs)} given for {game.config.players} seats")
    return [
        spy_agent if spy_agent is not None and seat == game.spy_seat else spec
        for seat, spec in enumerate(specs)
    ]
