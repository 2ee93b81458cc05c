"""Clue in the viewer: each seat's grid beside the ideal reasoner's, and the game in words.

For every seat a grid of cards by place (each seat, then the envelope): what the seat's exact
knowledge (its SAT backbone, the ideal reasoner's) fixes, coloured by what the seat has stated so
far: a fixed cell it stated is sound, a cell it holds or the envelope holds that it could have
stated and did not is missed, a stated cell its knowledge leaves open is a guess, a stated cell
its knowledge contradicts is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from formalize.clue.knowledge import KnowledgeGrid
from formalize.clue.setup import ClueSetup
from games.clue.audit import as_record, audit_game
from games.clue.events import ClueConfig, DeductionEvent, GameStart
from games.clue.knowledge import PlayerView, clue_setup, deduction_fact
from games.clue.transcript import transcript
from games.core.log import GameLog
from games.core.view import Grid, KnowledgePanel, LegendEntry, ViewParts

LEGEND: dict[str, LegendEntry] = {
    "O": LegendEntry(symbol="■", tone="", meaning="own card"),
    "H": LegendEntry(symbol="✓", tone="sound", meaning="stated, and its knowledge fixes it"),
    "h": LegendEntry(symbol="✓", tone="missed", meaning="fixed by its knowledge, not stated"),
    "x": LegendEntry(symbol="✗", tone="", meaning="fixed absent by its knowledge"),
    "X": LegendEntry(symbol="✗", tone="sound", meaning="stated absent, and its knowledge fixes it"),
    "?": LegendEntry(
        symbol="?", tone="undetermined", meaning="stated, its knowledge leaves it open"
    ),
    "!": LegendEntry(symbol="!", tone="wrong", meaning="stated, its knowledge contradicts it"),
    ".": LegendEntry(symbol="", tone="", meaning="open"),
}
"""The codes of a Clue knowledge grid."""


def _code(value: bool | None, stated: bool | None, own: bool) -> str:
    if own and value:
        return "O"
    if stated is None:
        return "." if value is None else ("h" if value else "x")
    if value is None:
        return "?"
    if value != stated:
        return "!"
    return "H" if value else "X"


Cells = list[tuple[str, tuple[str, ...]]]
"""Every card with the atoms of its cells, place by place (each seat, then the envelope)."""


def _cells(setup: ClueSetup) -> Cells:
    places = range(setup.n_players + 1)
    cards = [card for _, category in setup.categories for card in category]
    return [(card, tuple(setup.atom(card, place) for place in places)) for card in cards]


def _grid(
    cells: Cells,
    grid: KnowledgeGrid,
    seat: int,
    stated: dict[tuple[str, int], bool],
    names: list[str],
) -> Grid:
    fixed = grid.fixed
    rows = [
        "".join(
            _code(fixed.get(atom), stated.get((card, place)), place == seat)
            for place, atom in enumerate(atoms)
        )
        for card, atoms in cells
    ]
    labels = [card for card, _ in cells]
    return Grid(columns=[*names, "env"], labels=labels, rows=rows, legend=LEGEND)


def clue_view(log: GameLog[Any]) -> ViewParts:
    """Each seat's knowledge grid at every event that changes it, drawn from the audit's own
    replay of the log (so the record comes with it), and the transcript's words for the game;
    nothing beyond the texts for a log without the deal."""
    start = log.events[0] if log.events else None
    if not isinstance(start, GameStart) or start.deal is None:
        return ViewParts(texts=None, panels=[])
    setup = clue_setup(ClueConfig.model_validate(log.header.config), start.hand_sizes)
    names = [s.name for s in log.header.seats]
    cells = _cells(setup)
    stated: list[dict[tuple[str, int], bool]] = [{} for _ in names]
    grids: dict[int, KnowledgeGrid] = {}
    shown: dict[int, list[str]] = {}
    stale = set(range(len(names)))
    panels: list[KnowledgePanel] = []

    def watch(index: int, views: Mapping[int, PlayerView]) -> None:
        event = log.events[index]
        if isinstance(event, DeductionEvent):
            stale.add(event.seat)
            for deduction in event.deductions:
                fact = deduction_fact(deduction)
                place = fact.player if fact.player is not None else setup.n_players
                stated[event.seat][(fact.card, place)] = fact.positive
        for seat, view in views.items():
            knowledge = view.knowledge.grid()
            if knowledge is grids.get(seat) and seat not in stale:
                continue
            stale.discard(seat)
            grids[seat] = knowledge
            grid = _grid(cells, knowledge, seat, stated[seat], names)
            if grid.rows != shown.get(seat):
                shown[seat] = grid.rows
                panels.append(
                    KnowledgePanel(
                        step=index,
                        seat=seat,
                        title=f"{names[seat]}: what it stated against what it could know",
                        grid=grid,
                    )
                )

    audit = audit_game(log, watch=watch)
    return ViewParts(
        texts=_texts(log),
        panels=panels,
        record=as_record(audit),
        title=f"Clue, {len(names)} players (seed {log.header.seed})",
    )


def _texts(log: GameLog[Any]) -> list[str]:
    """One line per event: the transcript's words for that event alone (seats named)."""
    lines: list[str] = []
    ranks = log.end.ranks if log.end is not None else ()
    for index, event in enumerate(log.events):
        said = [s.strip() for s in transcript([event], log.header.seats, ranks)] if index else []
        kind = str(getattr(event, "type", "event")).replace("_", " ")
        lines.append("; ".join(said).replace("_", " ") if said else kind)
    return lines
