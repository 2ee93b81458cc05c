"""Detective cases in the viewer: the locations read so far and the answer given after each
stage (each element's verdict is the audit record's row at that stage's line)."""

from __future__ import annotations

from typing import Any

from games.core.log import GameLog
from games.core.view import KnowledgePanel, ViewParts
from games.detective.events import AnswersEvent


def detective_view(log: GameLog[Any]) -> ViewParts:
    """The reader's panel at every answer: locations read, and the answers with their grades."""
    panels: list[KnowledgePanel] = []
    for step, event in enumerate(log.events):
        if not isinstance(event, AnswersEvent):
            continue
        lines = [f"read ({len(event.read)}): {', '.join(event.read) or 'nothing yet'}"]
        for index, (question, slots) in enumerate(event.answers.items()):
            given = ", ".join(f"{slot}={value or '-'}" for slot, value in slots.items())
            grade = ""
            if event.grades is not None:
                graded = event.grades[index]
                grade = f" (grade {'unjudged' if graded is None else graded})"
            lines.append(f"{question}: {given}{grade}")
        panels.append(KnowledgePanel(step=step, seat=0, title="the reader", lines=lines))
    return ViewParts(panels=panels)
