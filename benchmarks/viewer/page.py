"""`gumshoe view`: one self-contained HTML page for a game log or a run directory.

The page embeds its data as JSON and its script and styles inline; it loads nothing from the
network. A run's games are embedded gzip-compressed and rendered when opened, so a page for a
thousand games stays small. What a page shows comes from ``games.core.view``: the steps, each
seat's knowledge panels (from the game's own viewer), the audit record, and the recorded LLM calls.
A run's games are taken from their stored views (``benchmarks.viewer.store``) where those are
valid, and computed (and stored) otherwise, with a progress bar.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from benchmarks.runner import Progress
from benchmarks.viewer.game import pack, view_log
from benchmarks.viewer.store import StoredView, compute_view, load_view, save_view
from reasoning.outfile import write_atomic
from reasoning.textfile import read_user_json


class RunGame(BaseModel):
    """One game of a run: its id, a title for the list and its view, compressed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    title: str
    packed: str


class Curve(BaseModel):
    """A per-round figure over a run's games: the mean, a 95% band (normal approximation of the
    mean's interval) and, where the game has one, the ideal reasoner's mean."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    mean: list[float]
    low: list[float]
    high: list[float]
    ideal: list[float] | None = None


class RunView(BaseModel):
    """A run: the bench's summary rows, per-agent totals of the audit, distributions of per-game
    figures, per-round curves, and its games."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    summary: list[dict[str, Any]]
    agents: list[dict[str, Any]]
    distributions: dict[str, list[float]]
    curves: list[Curve]
    games: list[RunGame]


def _asset(name: str) -> str:
    return resources.files("benchmarks.viewer").joinpath(name).read_text(encoding="utf-8")


def render_page(title: str, data: dict[str, Any]) -> str:
    """The HTML page showing ``data`` (``{"kind": "game", "game": ...}`` or a run)."""
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_escape(title)}</title>"
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">"
        f"<style>{_asset('viewer.css')}</style></head>"
        f"<body><header><h1>gumshoe · {_escape(title)}</h1></header><main></main>"
        f'<script type="application/json" id="gumshoe-data">{payload}</script>'
        f"<script>{_asset('viewer.js')}</script></body></html>\n"
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def view_run(folder: Path, *, reuse: bool = True, quiet: bool = False) -> RunView:
    """The view of a run directory: its summary, per-game figures and every game, compressed.
    Each game's view is its stored one when ``reuse`` and valid, else computed and stored."""
    logs = sorted((folder / "games").glob("*.jsonl"))
    if not logs:
        raise ValueError(f"{folder}: no game logs under games/ (not a run directory)")
    summary_path = folder / "summary.json"
    summary: list[dict[str, Any]] = []
    if os.path.lexists(summary_path):
        loaded = read_user_json(summary_path, inside=folder)
        rows = loaded.get("rows") if isinstance(loaded, dict) else None
        if isinstance(rows, list):
            summary = [r for r in rows if isinstance(r, dict)]
        elif isinstance(loaded, dict):
            summary = [{k: v for k, v in loaded.items() if not isinstance(v, dict | list)}]
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
    games: list[RunGame] = []
    distributions: dict[str, list[float]] = {"claims stated per game": [], "sound share": []}
    agents: dict[str, dict[str, Any]] = {}
    known: dict[str, list[list[float]]] = {}
    ideal: dict[str, list[list[float]]] = {}
    for path, view in stored.items():
        if view.summary is not None:
            stated = sum(s.stated for s in view.summary)
            sound = sum(s.sound or 0 for s in view.summary)
            distributions["claims stated per game"].append(float(stated))
            if stated:
                distributions["sound share"].append(sound / stated)
            for seat in view.summary:
                totals = agents.setdefault(seat.agent, {"agent": seat.agent, "seats": 0})
                totals["seats"] += 1
                for key in AGENT_COUNTS:
                    totals[key] = totals.get(key, 0) + (getattr(seat, key) or 0)
            by_name = {seat.name: seat.agent for seat in view.summary}
            _per_round(view.per_round, by_name, known, ideal)
        games.append(RunGame(id=path.stem, title=f"{path.stem} ({view.game})", packed=view.packed))
    curves = [
        _curve(f"cards known per round: {agent}", rows, ideal.get(agent))
        for agent, rows in known.items()
    ]
    return RunView(
        title=str(folder),
        summary=summary,
        agents=list(agents.values()),
        distributions=distributions,
        curves=curves,
        games=games,
    )


AGENT_COUNTS = ("stated", "entailed", "contradicted", "undetermined", "sound", "lucky", "wrong")
"""The audit counts summed per agent over a run's seats."""


def _per_round(
    figures: dict[str, dict[str, list[float]]],
    agents: dict[str, str],
    known: dict[str, list[list[float]]],
    ideal: dict[str, list[list[float]]],
) -> None:
    """Collect a game's per-round figures (``known_per_round`` and ``ideal_known_per_round``,
    per seat name) under the seat's agent."""
    for key, target in (("known_per_round", known), ("ideal_known_per_round", ideal)):
        for name, series in figures.get(key, {}).items():
            target.setdefault(agents.get(name, name), []).append(series)


def _curve(name: str, rows: list[list[float]], ideal: list[list[float]] | None) -> Curve:
    length = max(len(r) for r in rows)
    padded = [r + [r[-1]] * (length - len(r)) if r else [0.0] * length for r in rows]
    mean, low, high = [], [], []
    for column in zip(*padded, strict=True):
        m = sum(column) / len(column)
        sd = (sum((v - m) ** 2 for v in column) / max(len(column) - 1, 1)) ** 0.5
        half = 1.96 * sd / len(column) ** 0.5
        mean.append(m)
        low.append(m - half)
        high.append(m + half)
    ideal_mean = None
    if ideal:
        ideal_padded = [r + [r[-1]] * (length - len(r)) if r else [0.0] * length for r in ideal]
        ideal_mean = [sum(c) / len(c) for c in zip(*ideal_padded, strict=True)]
    return Curve(name=name, mean=mean, low=low, high=high, ideal=ideal_mean)


def write_view(
    path: Path, out: Path | None = None, *, reuse: bool = True, quiet: bool = False
) -> Path:
    """Write the page for ``path`` (a log or a run directory) to ``out`` (default: beside it,
    ``.html``); return where it went. ``reuse``: take a run's stored game views where valid."""
    if path.is_dir():
        run = view_run(path, reuse=reuse, quiet=quiet)
        data: dict[str, Any] = {"kind": "run", "run": run.model_dump(mode="json")}
        title = f"run {path.name}"
        target, inside = (out, None) if out is not None else (path / "view.html", path)
        inputs = [path / "games" / f"{game.id}.jsonl" for game in run.games]
    else:
        game = view_log(path)
        data = {"kind": "game", "packed": pack(game)}
        title = f"{game.view.game} {path.name}"
        target, inside, inputs = out or path.with_suffix(".html"), None, [path]
    return write_atomic(target, render_page(title, data), inside=inside, inputs=inputs)
