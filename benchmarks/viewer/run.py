"""A run as its page shows it: who won and how well each agent reasoned, every game's outcome,
and the plots, computed from the games' stored views (``benchmarks.viewer.store``).

The per-agent table pools an agent's seats over the run's games: its win rate (where the games
rank seats apart), mean score (the seat's return), the sound / lucky / wrong shares of its stated
claims, each with a 95% interval (``benchmarks.viewer.estimates``), its recall, and the LLM
fallbacks, tokens and cost the run's summary reports for it. The game table lists every game in
seed order with its outcome and claims; each row carries the game's packed view, opened in place
by the page.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from benchmarks.viewer.estimates import Estimate, mean, share
from benchmarks.viewer.store import StoredView, compute_view, load_view, save_view
from games.core.view import Outcome
from reasoning.progress import Progress
from reasoning.textfile import read_user_json

JUDGEMENTS = ("sound", "lucky", "wrong", "unjudged")
"""The judgements a claim gets, in the order the plots stack them."""


class GameRow(BaseModel):
    """One game of a run: its id, seed, title, agents per seat, outcome, its claims summed over
    the seats (and per seat: stated, sound, wrong) and its view, packed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    seed: int | None
    title: str
    agents: list[str]
    outcome: Outcome
    stated: int
    sound: int
    lucky: int
    wrong: int
    unjudged: int
    seat_claims: list[tuple[int, int, int]]
    packed: str


class AgentRow(BaseModel):
    """One agent over a run's games (its seats pooled)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str
    seat_games: int
    win_rate: Estimate | None
    score: Estimate
    stated: int
    sound: Estimate
    lucky: Estimate
    wrong: Estimate
    unjudged: int
    recall: float | None
    fallbacks: int | None
    tokens: int | None
    cost: float | None


class Series(BaseModel):
    """One series of a chart: a value per x (None: no value there) and, for a band or error
    bars, the 95% bounds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    y: list[float | None]
    low: list[float | None] | None = None
    high: list[float | None] | None = None
    dashed: bool = False


class Chart(BaseModel):
    """A plot the page draws: ``lines`` over numeric x (bands where given), ``stacked`` bars,
    grouped ``bars``, or ``points`` with error bars over categories; axis labels carry units."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    title: str
    kind: Literal["lines", "stacked", "bars", "points"]
    x_label: str
    y_label: str
    x: list[str]
    series: list[Series]
    note: str = ""


class RunView(BaseModel):
    """A run: its title, the games it played, the per-agent table, the plots, the games in seed
    order and the bench's own summary rows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    games_played: list[str]
    competitive: bool
    agents: list[AgentRow]
    charts: list[Chart]
    games: list[GameRow]
    summary: list[dict[str, Any]]


def stored_views(
    folder: Path, *, reuse: bool = True, quiet: bool = False
) -> dict[Path, StoredView]:
    """Every game of the run in ``folder`` with its stored view (computed and stored where
    missing, stale or when not ``reuse``), by log path in name order."""
    logs = sorted((folder / "games").glob("*.jsonl"))
    if not logs:
        raise ValueError(f"{folder}: no game logs under games/ (not a run directory)")
    found = {log: load_view(log) for log in logs} if reuse else dict.fromkeys(logs)
    missing = sum(view is None for view in found.values())
    stored: dict[Path, StoredView] = {}
    with Progress(len(logs), len(logs) - missing, quiet=quiet) as bar:
        for log, view in found.items():
            if view is None:
                view = compute_view(log)
                save_view(log, view)
                bar.advance(errored=False)
            stored[log] = view
    return stored


def read_summary(folder: Path) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The run's ``summary.json``: its rows (plain values only, see ``_plain``) and its LLM
    usage per agent (both empty when the file is absent)."""
    path = folder / "summary.json"
    if not os.path.lexists(path):
        return [], {}
    loaded = read_user_json(path, inside=folder)
    if not isinstance(loaded, dict):
        return [], {}
    rows = loaded.get("rows", loaded.get("per_agent"))
    if isinstance(rows, list):
        summary = [_plain(r) for r in rows if isinstance(r, dict)]
    else:
        summary = [_plain(loaded)]
    usage = loaded.get("llm_usage")
    seats = usage.get("seats") if isinstance(usage, dict) else None
    per_agent = {str(k): v for k, v in (seats or {}).items() if isinstance(v, dict)}
    return summary, per_agent


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """A summary row's plain values, without the files it names (a plot's path is no figure)."""
    return {
        k: v
        for k, v in row.items()
        if not isinstance(v, dict | list) and k != "plot" and not k.endswith("path")
    }


def game_row(log: Path, view: StoredView) -> GameRow:
    """The game table's row of one stored view."""
    seats = view.summary or []
    total = {key: sum(getattr(s, key) or 0 for s in seats) for key in ("stated", *JUDGEMENTS)}
    claims = [(0, 0, 0)] * view.seats
    for s in seats:
        if 0 <= s.seat < view.seats:
            claims[s.seat] = (s.stated, s.sound or 0, s.wrong or 0)
    return GameRow(
        id=log.stem,
        seed=view.seed,
        title=view.title,
        agents=view.agents,
        outcome=view.outcome,
        seat_claims=claims,
        packed=view.packed,
        **total,
    )


def agent_rows(
    views: Iterable[StoredView], usage: dict[str, dict[str, Any]], competitive: bool
) -> list[AgentRow]:
    """The per-agent table over ``views`` (finished games count for wins and scores; every
    game's claims count), with the LLM usage the run's summary reports per agent."""
    seats: dict[str, list[tuple[StoredView, int]]] = {}
    for view in views:
        for seat, agent in enumerate(view.agents):
            seats.setdefault(agent, []).append((view, seat))
    rows = []
    for agent, held in seats.items():
        finished = [(v, s) for v, s in held if v.outcome.status == "finished"]
        scores = [v.outcome.returns[s] for v, s in finished if s < len(v.outcome.returns)]
        wins = sum(s in v.outcome.winners for v, s in finished)
        summaries = [v.summary[s] for v, s in held if v.summary and s < len(v.summary)]
        stated = sum(x.stated for x in summaries)
        counts = {k: sum(getattr(x, k) or 0 for x in summaries) for k in JUDGEMENTS}
        recalled = [x for x in summaries if x.recall_entailed]
        reported = usage.get(agent, {})
        tokens = _tokens(reported, [v.tokens[s] for v, s in held if s < len(v.tokens)])
        rows.append(
            AgentRow(
                agent=agent,
                seat_games=len(held),
                win_rate=share(wins, len(finished)) if competitive else None,
                score=mean(scores),
                stated=stated,
                sound=share(counts["sound"], stated),
                lucky=share(counts["lucky"], stated),
                wrong=share(counts["wrong"], stated),
                unjudged=counts["unjudged"],
                recall=(
                    sum(x.recall_stated or 0 for x in recalled)
                    / sum(x.recall_entailed or 0 for x in recalled)
                    if recalled
                    else None
                ),
                fallbacks=_int(reported.get("fallbacks")),
                tokens=tokens,
                cost=_float(reported.get("cost")),
            )
        )
    return rows


def _tokens(reported: dict[str, Any], recorded: Sequence[int | None]) -> int | None:
    prompt, completion = (
        _int(reported.get("prompt_tokens")),
        _int(reported.get("completion_tokens")),
    )
    if prompt is not None or completion is not None:
        return (prompt or 0) + (completion or 0)
    known = [t for t in recorded if t is not None]
    return sum(known) if known else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def view_run(folder: Path, *, reuse: bool = True, quiet: bool = False) -> RunView:
    """The view of a run directory: the per-agent table, the plots and every game in seed
    order, from the games' stored views (see ``stored_views``) and the run's summary."""
    stored = stored_views(folder, reuse=reuse, quiet=quiet)
    summary, usage = read_summary(folder)
    views = list(stored.values())
    competitive = any(v.outcome.winners for v in views)
    games = sorted(
        (game_row(log, view) for log, view in stored.items()),
        key=lambda g: (g.seed is None, g.seed or 0, g.id),
    )
    return RunView(
        title=folder.name or str(folder),
        games_played=sorted({v.game for v in views}),
        competitive=competitive,
        agents=agent_rows(views, usage, competitive),
        charts=run_charts(views),
        games=games,
        summary=summary,
    )


def run_charts(views: Sequence[StoredView]) -> list[Chart]:
    """The run's plots, each where the run has its data: cards known per round against the
    ideal reasoner, claims by judgement per round, the score distribution per agent, and the
    mean score by player count when the run has several."""
    charts = [c for c in (_known(views), _claims(views)) if c is not None]
    charts.append(_scores(views))
    by_players = _by_players(views)
    if by_players is not None:
        charts.append(by_players)
    return charts


def _padded(rows: list[list[float]], length: int) -> list[list[float]]:
    return [r + [r[-1]] * (length - len(r)) if r else [0.0] * length for r in rows]


def _known(views: Sequence[StoredView]) -> Chart | None:
    known: dict[str, list[list[float]]] = {}
    ideal: list[list[float]] = []
    for view in views:
        names = {s.name: s.agent for s in view.summary or []}
        for name, values in view.per_round.get("known_per_round", {}).items():
            known.setdefault(names.get(name, name), []).append(values)
        ideal += view.per_round.get("ideal_known_per_round", {}).values()
    if not known:
        return None
    length = max(len(r) for rows in [*known.values(), ideal] for r in rows)
    series = []
    for agent, rows in known.items():
        columns = [mean(list(c)) for c in zip(*_padded(rows, length), strict=True)]
        series.append(
            Series(
                name=agent,
                y=[c.value for c in columns],
                low=[c.low for c in columns],
                high=[c.high for c in columns],
            )
        )
    if ideal:
        columns = [mean(list(c)) for c in zip(*_padded(ideal, length), strict=True)]
        series.append(Series(name="ideal reasoner", y=[c.value for c in columns], dashed=True))
    return Chart(
        id="known",
        title="Cards known per round, against the ideal reasoner",
        kind="lines",
        x_label="round",
        y_label="cards known (mean per seat)",
        x=[str(r) for r in range(1, length + 1)],
        series=series,
        note="Shaded: the 95% interval of the mean. A game that ended early keeps its last count.",
    )


def _claims(views: Sequence[StoredView]) -> Chart | None:
    totals: dict[int, dict[str, int]] = {}
    for view in views:
        for rnd, counts in view.claims_by_round.items():
            into = totals.setdefault(int(rnd), {})
            for kind, count in counts.items():
                into[kind] = into.get(kind, 0) + count
    if not totals:
        return None
    rounds = list(range(min(totals), max(totals) + 1))
    return Chart(
        id="claims",
        title="Claims stated per round, by judgement",
        kind="stacked",
        x_label="round",
        y_label="claims (all games)",
        x=[str(r) for r in rounds],
        series=[
            Series(name=kind, y=[float(totals.get(r, {}).get(kind, 0)) for r in rounds])
            for kind in JUDGEMENTS
        ],
    )


def _scores(views: Sequence[StoredView]) -> Chart:
    by_agent: dict[str, list[float]] = {}
    for view in views:
        if view.outcome.status != "finished":
            continue
        for seat, agent in enumerate(view.agents):
            if seat < len(view.outcome.returns):
                by_agent.setdefault(agent, []).append(view.outcome.returns[seat])
    values = sorted({v for vs in by_agent.values() for v in vs})
    if len(values) <= 12:
        labels = [_number(v) for v in values]
        bins = [[v] for v in values]
        counts = {
            a: [float(sum(x == b[0] for x in vs)) for b in bins] for a, vs in by_agent.items()
        }
    else:
        lo, hi = values[0], values[-1]
        width = (hi - lo) / 10
        edges = [lo + i * width for i in range(11)]
        labels = [f"{_number(edges[i])} to {_number(edges[i + 1])}" for i in range(10)]
        counts = {
            a: [float(sum(min(9, int((x - lo) / width)) == i for x in vs)) for i in range(10)]
            for a, vs in by_agent.items()
        }
    return Chart(
        id="scores",
        title="Score distribution per agent",
        kind="bars",
        x_label="score (the seat's return)",
        y_label="seat-games",
        x=labels,
        series=[Series(name=a, y=list(c)) for a, c in counts.items()],
    )


def _by_players(views: Sequence[StoredView]) -> Chart | None:
    scores: dict[int, list[float]] = {}
    for view in views:
        if view.outcome.status == "finished" and view.outcome.returns:
            scores.setdefault(view.seats, []).append(max(view.outcome.returns))
    if len(scores) < 2:
        return None
    counts = sorted(scores)
    estimates = [mean(scores[c]) for c in counts]
    return Chart(
        id="players",
        title="Mean score by player count",
        kind="points",
        x_label="players",
        y_label="score (best seat's return)",
        x=[str(c) for c in counts],
        series=[
            Series(
                name="mean score",
                y=[e.value for e in estimates],
                low=[e.low for e in estimates],
                high=[e.high for e in estimates],
            )
        ],
        note="Error bars: the 95% interval of the mean.",
    )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")
