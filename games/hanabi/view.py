"""Hanabi in the viewer: every hand with what its holder could know, after every move.

For each seat, one line per card (oldest slot first): the card, the hint knowledge (the colour
and rank sets the hints allow, as the reference engine keeps them) and the exact possibilities
(counted jointly over everything the holder sees); the table's fireworks, tokens and lives on
top. Stated claims are the audit record's rows, shown at the step where they were made.
"""

from __future__ import annotations

from typing import Any

from formalize.hanabi.deck import card_name
from games.core.log import GameLog
from games.core.view import KnowledgePanel, ViewParts
from games.hanabi.engine import HanabiGame
from games.hanabi.entry import ENTRY, hanabi_actions
from games.hanabi.events import HanabiMove
from games.hanabi.knowledge import seat_knowledge
from games.hanabi.render import event_text, mask_text, table_text


def _panels(game: HanabiGame, step: int) -> list[KnowledgePanel]:
    panels = []
    for seat in range(game.players):
        obs = game.observation(seat)
        known = seat_knowledge(obs)
        lines = [table_text(obs)] if seat == 0 else []
        lines += [
            f"slot {slot}: {card_name(card)} | hints {mask_text(known.hints[slot])} | "
            f"could be {mask_text(known.exact[slot])}"
            for slot, card in enumerate(game.hands[seat])
        ]
        panels.append(
            KnowledgePanel(
                step=step, seat=seat, title=f"P{seat}'s hand, as P{seat} knows it", lines=lines
            )
        )
    return panels


def hanabi_view(log: GameLog[Any]) -> ViewParts:
    """Each hand's hint and exact knowledge after every move, and the events in words."""
    game = ENTRY.replay_state(log).game
    panels = _panels(game, 0)
    for index, joint in hanabi_actions(log.events):
        ((seat, move),) = joint.items()
        game.apply({seat: move.action if isinstance(move, HanabiMove) else move})
        panels += _panels(game, min(index + 1, len(log.events) - 1))
    return ViewParts(texts=[event_text(e) for e in log.events], panels=panels)
