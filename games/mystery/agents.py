"""The interrogation game's agents by name (``AGENTS``): offline ``prover`` and ``random``, and
the LLM agents ``questum``, ``llm-random`` and ``llm-cot`` (``games.mystery.llm_agents``).

``prover``: a civilian keeps a ``Knowledge`` of the theory, the introduction, its script and
every answer heard as testimony; it asks, of the unasked questions "where were you at the time of
a crime", the one with the highest exact expected information gain (ties: the first), answers
with the whole truth, and votes for a killer its knowledge entails (else the first suspect still
possible). A murderer answers from its cover story and votes for the first other seat that is
not itself. ``random`` plays a seeded random legal action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from formalize.davidsonian.autoformalize import Autoformalizer
from formalize.interrogation.questions import Where, answer_from
from formalize.world import atoms
from formalize.world.facts import TimeAmong
from games.core.agents import AgentRegistry, AgentType
from games.core.llm_player import LLMPlayer, SeatClient, seat_client
from games.core.random_agent import RandomAgent
from games.core.settings import AgentSettings
from games.mystery.engine import Action, Ask, Introduce, MysteryView, Reply, Vote
from games.mystery.knowledge import Knowledge
from games.mystery.llm_agents import MysteryAnswer, MysteryPrompter, Variant
from games.mystery.spoken import AnswerReader
from provers.registry import get_prover
from provers.sat_session import SatSession
from reasoning.llm import FallbackSnapshot, UsageMeter


@dataclass
class Pruning:
    """One snapshot of a prover agent's suspects: after ``heard`` answers, per crime."""

    heard: int
    suspects: tuple[tuple[str, ...], ...]
    gain: float | None = None


@dataclass
class ProverAgent:
    """The prover-backed agent (see the module docstring); ``history`` records its suspects
    before each of its decisions, with the expected gain of the question it asked."""

    seat: int
    name: str = "prover"
    history: list[Pruning] = field(default_factory=list)
    _knowledge: Knowledge | None = None
    _heard: int = 0

    def _know(self, obs: MysteryView) -> Knowledge:
        if self._knowledge is None:
            self._knowledge = Knowledge(
                obs.setting, obs.players, obs.person, [*obs.intro, *obs.script], SatSession
            )
        for said in obs.heard[self._heard :]:
            self._knowledge.hear(obs.players[said.answerer], said.facts)
        self._heard = len(obs.heard)
        return self._knowledge

    def act(self, obs: MysteryView) -> Action:
        """The action for ``obs``'s decision."""
        if obs.phase == "intro":
            return Introduce()
        if obs.phase == "answer":
            assert obs.pending is not None
            facts = answer_from(obs.cover or obs.script, obs.pending.question)
            return Reply(facts) if Reply(facts) in obs.legal else obs.legal[0]
        if obs.murderer:
            return self._murderer(obs)
        know = self._know(obs)
        crimes = range(1, len(obs.setting.crimes) + 1)
        snapshot = Pruning(len(obs.heard), tuple(know.suspects(i) for i in crimes))
        self.history.append(snapshot)
        if obs.phase == "vote":
            return self._vote(obs, know)
        asked = {(h.answerer, h.question) for h in obs.heard}
        slots = sorted({t for f in obs.intro if isinstance(f, TimeAmong) for t in f.slots})
        options = [
            Ask(seat, Where(person, slot))
            for slot in slots
            for seat, person in enumerate(obs.players)
            if seat != obs.seat and (seat, Where(person, slot)) not in asked
        ]
        if not options:
            spare = _unasked(obs)
            return Ask(spare.answerer, spare.question, snapshot.suspects)
        gains = [
            know.expected_gain(obs.players[a.answerer], obs.players[a.answerer], a.question.slot)
            for a in options
            if isinstance(a.question, Where)
        ]
        best = max(range(len(options)), key=lambda k: (gains[k], -k))
        snapshot.gain = gains[best]
        chosen = options[best]
        return Ask(chosen.answerer, chosen.question, snapshot.suspects)

    def _vote(self, obs: MysteryView, know: Knowledge) -> Vote:
        suspects = know.suspects(obs.crime)
        named = [p for p in suspects if know.entails(atoms.culprit(obs.crime, p))]
        target = (named or list(suspects) or [obs.players[obs.seat - 1]])[0]
        return Vote(obs.players.index(target))

    def _murderer(self, obs: MysteryView) -> Action:
        if obs.phase == "vote":
            return Vote(0 if obs.seat else 1)
        return _unasked(obs)


def _unasked(obs: MysteryView) -> Ask:
    asked = {(h.answerer, h.question) for h in obs.heard}
    return next(
        a for a in obs.legal if isinstance(a, Ask) and (a.answerer, a.question) not in asked
    )


@dataclass(frozen=True)
class LLMAgent:
    """An LLM seat: the core's LLM player decides, and its spoken answers are formalised through
    a client metered on its own, so that the seat's usage counts both."""

    player: LLMPlayer[MysteryView, MysteryAnswer, Action]
    formaliser: SeatClient

    @property
    def name(self) -> str:
        """The variant's name."""
        return self.player.name

    def act(self, obs: MysteryView) -> Action:
        """The player's action; a question carries the recorded call its stated suspects came
        from."""
        action = self.player.act(obs)
        if isinstance(action, Ask) and action.stated:
            return replace(action, call=self.player.last_call)
        return action

    @property
    def meters(self) -> tuple[UsageMeter, ...]:
        """The seat's meters: its decisions', then its formaliser's."""
        return self.player.meter, self.formaliser.meter

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """The decisions that fell back to a random legal action."""
        return self.player.fallbacks


MysteryAgent = ProverAgent | RandomAgent | LLMAgent
"""Any agent of the game: ``act(view) -> action``."""


def _llm(variant: Variant) -> Callable[[int, int, AgentSettings], MysteryAgent]:
    def make(seat: int, seed: int, settings: AgentSettings) -> MysteryAgent:
        client = seat_client(settings.seat_llm(seat), seat)
        formaliser = SeatClient(client)
        reader = AnswerReader(
            Autoformalizer(formaliser, prover=get_prover("sat"), seed=seed), get_prover("sat")
        )
        prompter = MysteryPrompter(variant, seed, reader)
        return LLMAgent(LLMPlayer(prompter, client, seed=seed, name=variant), formaliser)

    return make


AGENTS: AgentRegistry[AgentSettings, MysteryAgent] = AgentRegistry(
    [
        AgentType(
            "prover",
            "theory, script and testimony in SAT; asks by exact expected IG",
            False,
            lambda seat, seed, _: ProverAgent(seat),
        ),
        AgentType(
            "random", "a seeded random legal action", False, lambda seat, seed, _: RandomAgent(seed)
        ),
        AgentType(
            "questum",
            "seed 004's Questum: suspects, IG score, epsilon-greedy",
            True,
            _llm("questum"),
        ),
        AgentType("llm-random", "LLM that asks a random character", True, _llm("llm-random")),
        AgentType(
            "llm-cot", "LLM that reasons step by step (chain of thought)", True, _llm("llm-cot")
        ),
    ],
    game="mystery",
    settings=AgentSettings,
)
"""The interrogation game's agents, by name."""


make_agent = AGENTS.make
"""``make_agent(spec, seat, seed, settings=None)``: the agent named ``spec`` for ``seat`` of game
``seed``, with a seed of its own (``seat_seed``)."""
