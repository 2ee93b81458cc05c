"""The interrogation game in the viewer: the suspect lists per victim as a table over rounds,
each seat's questions and answers in words (lies marked), and the votes (each drop's verdict is
an audit row)."""

from __future__ import annotations

from typing import Any

from formalize.interrogation.prose import prose, prose_text
from formalize.world.setting import Setting
from games.core.log import GameLog
from games.core.view import Cell, KnowledgePanel, Line, Table, ViewParts
from games.mystery.engine import MysteryState
from games.mystery.entry import ENTRY
from games.mystery.events import Answered, Asked, GameStart, Introduction, Voted, record_fact


def _name(setting: Setting, pid: str) -> str:
    try:
        return setting.person(pid).name
    except (KeyError, StopIteration, ValueError):
        return pid


def _suspect_tables(
    setting: Setting,
    start: GameStart,
    names: list[str],
    rounds: int,
    lists: dict[tuple[int, int, int], tuple[str, ...]],
    step: int,
) -> list[KnowledgePanel]:
    panels = []
    for index, crime in enumerate(start.crimes):
        killers = set(crime.killers)
        rows = []
        for seat in range(len(names)):
            row = []
            for rnd in range(1, rounds + 1):
                listed = lists.get((index, seat, rnd))
                if listed is None:
                    row.append(Cell(text=""))
                    continue
                kept = killers <= set(listed)
                row.append(
                    Cell(
                        text=", ".join(_name(setting, p) for p in listed) or "nobody",
                        tone="" if kept else "wrong",
                        note="" if kept else "a killer was dropped from this list",
                    )
                )
            rows.append(row)
        table = Table(
            caption=f"Suspects for the death of {_name(setting, crime.victim)}, as each seat "
            "listed them when it asked",
            columns=[f"round {r}" for r in range(1, rounds + 1)],
            labels=names,
            rows=rows,
        )
        panels.append(
            KnowledgePanel(
                step=step, seat=0, title=f"Suspects: {_name(setting, crime.victim)}", table=table
            )
        )
    return panels


def mystery_view(log: GameLog[Any]) -> ViewParts:
    """The suspect tables, renewed whenever a seat lists its suspects; a panel per seat with its
    questions, answers and votes in words; every event in words."""
    state = ENTRY.replay_state(log)
    assert isinstance(state, MysteryState)
    setting = state.scripts.world.setting
    names = [s.name for s in log.header.seats]
    rounds = max((e.round for e in log.events if isinstance(e, Asked)), default=0)
    lines: list[list[Line]] = [[] for _ in names]
    lists: dict[tuple[int, int, int], tuple[str, ...]] = {}
    panels: list[KnowledgePanel] = []
    texts: list[str] = []
    start: GameStart | None = None

    def renew(seat: int, step: int) -> None:
        panels.append(
            KnowledgePanel(step=step, seat=seat, title=names[seat], lines=list(lines[seat]))
        )

    for step, event in enumerate(log.events):
        if isinstance(event, GameStart):
            start = event
            victims = ", ".join(_name(setting, c.victim) for c in event.crimes)
            texts.append(f"“{event.title}”: the dead are {victims}; the seats question each other.")
        elif isinstance(event, Introduction):
            texts.append(f"{names[event.seat]}: “{event.text}”")
        elif isinstance(event, Asked):
            texts.append(f"{names[event.seat]} asks {names[event.answerer]}: “{event.text}”")
            lines[event.seat].append(
                Line(text=f"round {event.round}: asks {names[event.answerer]} “{event.text}”")
            )
            renew(event.seat, step)
            if start is not None and event.stated:
                for crime, listed in enumerate(event.stated):
                    lists[(crime, event.seat, event.round)] = listed
                panels += _suspect_tables(setting, start, names, rounds, lists, step)
        elif isinstance(event, Answered):
            if event.declined:
                said = "declines to answer"
            else:
                facts = [record_fact(f) for f in event.facts]
                said = prose_text(prose(setting, facts, f"view:{step}")) or "says nothing"
            lie = " (a lie)" if event.lie else ""
            texts.append(f"{names[event.seat]} answers: {said}{lie}")
            lines[event.seat].append(
                Line(
                    text=f"round {event.round}: answers {said}{lie}",
                    tone="wrong" if event.lie else "",
                )
            )
            renew(event.seat, step)
        elif isinstance(event, Voted):
            crimes = start.crimes if start is not None else ()
            victim = crimes[event.crime - 1].victim if 0 < event.crime <= len(crimes) else ""
            votes = "; ".join(
                f"{names[b.voter]} votes for {names[b.target]}" for b in event.ballots
            )
            accused = names[event.accused] if event.accused is not None else "nobody"
            texts.append(
                f"Vote on the death of {_name(setting, victim)}: {votes}. Accused: {accused}."
            )
            for ballot in event.ballots:
                lines[ballot.voter].append(
                    Line(text=f"votes for {names[ballot.target]} for {_name(setting, victim)}")
                )
                renew(ballot.voter, step)
        else:
            winner = getattr(event, "winner", None)
            texts.append(
                "The game ends in a draw."
                if winner in (None, "draw")
                else f"The game ends: the {winner} win."
            )
    return ViewParts(
        texts=texts,
        panels=panels,
        title=f"“{setting.title}”, interrogation (seed {log.header.seed})",
    )
