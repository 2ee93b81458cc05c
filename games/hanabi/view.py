"""Hanabi in the viewer: the table as the players see it, after every move.

Each hand is drawn as cards (colour and rank, with the clue marks its holder was given: a colour
or a rank the hints pin down), and under each card what its holder knows of it: the exact
possibilities, counted jointly over everything the holder sees, in words. The table shows the
fireworks, the clue tokens, lives and deck, and the discards. Stated claims are the audit
record's rows, shown at the step where they were made.
"""

from __future__ import annotations

from typing import Any

from formalize.hanabi.deck import COLORS, NUM_RANKS, card_name
from games.core.log import GameLog
from games.core.view import Card, CardRow, KnowledgePanel, Line, ViewParts
from games.hanabi.engine import HanabiGame
from games.hanabi.entry import ENTRY, hanabi_actions
from games.hanabi.events import HanabiEvent, HanabiMove, HintEvent
from games.hanabi.knowledge import seat_knowledge
from games.hanabi.render import event_text, identities

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "W": "white", "B": "blue"}
"""Each colour letter in words."""
LISTED = 6
"""A set of at most this many cards that is no colour-by-rank product is listed card by card."""


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def knows_words(mask: int) -> str:
    """What a holder knows of a card whose possible identities are ``mask``, in words."""
    cards = identities(mask)
    if not cards:
        return "no card fits"
    if len(cards) == 1:
        return f"knows it: {card_name(cards[0])}"
    colours = sorted({c // NUM_RANKS for c in cards})
    ranks = sorted({c % NUM_RANKS + 1 for c in cards})
    if len(cards) == len(colours) * len(ranks):
        if len(colours) == len(COLORS) and len(ranks) == NUM_RANKS:
            return "any card"
        colour = (
            "any colour"
            if len(colours) == len(COLORS)
            else _either([COLOUR_NAMES[COLORS[c]] for c in colours])
        )
        rank = "any rank" if len(ranks) == NUM_RANKS else _either([str(r) for r in ranks])
        return f"{colour}; {rank}"
    if len(cards) <= LISTED:
        return "one of " + ", ".join(card_name(c) for c in cards)
    return f"one of {len(cards)} cards"


def _card(card: int, hints: int, exact: int) -> Card:
    name = card_name(card)
    told = identities(hints)
    colours = {c // NUM_RANKS for c in told}
    ranks = {c % NUM_RANKS + 1 for c in told}
    return Card(
        face=name,
        suit=name[0],
        rank=name[1],
        clue_suit=COLORS[next(iter(colours))] if len(colours) == 1 else None,
        clue_rank=str(next(iter(ranks))) if len(ranks) == 1 else None,
        note=knows_words(exact),
    )


def _panels(game: HanabiGame, step: int) -> list[KnowledgePanel]:
    obs = game.observation(0)
    fireworks = [
        Card(
            face=f"{colour}{height}" if height else "",
            suit=colour,
            rank=str(height) if height else None,
            note=f"{COLOUR_NAMES[colour]} at {height}",
        )
        for colour, height in zip(COLORS, obs.fireworks, strict=True)
    ]
    discards = [
        Card(face=card_name(c), suit=card_name(c)[0], rank=card_name(c)[1])
        for c in sorted(obs.discards)
    ]
    table = KnowledgePanel(
        step=step,
        seat=None,
        title="The table",
        cards=[
            CardRow(label="fireworks", cards=fireworks),
            CardRow(label="discards", cards=discards, note="none yet" if not discards else ""),
        ],
        lines=[
            Line(
                text=f"clue tokens {obs.tokens} of 8 · lives {obs.lives} · "
                f"{obs.deck_size} cards left in the deck · score {sum(obs.fireworks)}"
            )
        ],
    )
    panels = [table]
    for seat in range(game.players):
        known = seat_knowledge(game.observation(seat))
        cards = [
            _card(card, known.hints[slot], known.exact[slot])
            for slot, card in enumerate(game.hands[seat])
        ]
        panels.append(
            KnowledgePanel(
                step=step,
                seat=seat,
                title=f"P{seat}'s hand",
                cards=[
                    CardRow(
                        label="oldest card first; under each, what its holder knows of it",
                        cards=cards,
                    )
                ],
            )
        )
    return panels


def _text(event: HanabiEvent) -> str:
    """An event in words (a hint names what it tells and the slots it touches)."""
    if isinstance(event, HintEvent):
        told = (
            f"which cards are {COLOUR_NAMES.get(event.color, event.color)}"
            if event.color is not None
            else f"which cards are {event.rank}s"
        )
        slots = _either([str(s) for s in event.slots]) if event.slots else "none"
        noun = "slots" if len(event.slots) > 1 else "slot"
        return f"P{event.seat} tells P{event.target} {told}: {noun} {slots}"
    return event_text(event).replace("_", " ")


def hanabi_view(log: GameLog[Any]) -> ViewParts:
    """The table and every hand, as cards, after every move, and the events in words."""
    game = ENTRY.replay_state(log).game
    panels = _panels(game, 0)
    for index, joint in hanabi_actions(log.events):
        ((seat, move),) = joint.items()
        game.apply({seat: move.action if isinstance(move, HanabiMove) else move})
        panels += _panels(game, min(index + 1, len(log.events) - 1))
    return ViewParts(
        texts=[_text(e) for e in log.events],
        panels=panels,
        title=f"Hanabi, {len(log.header.seats)} players (seed {log.header.seed})",
    )
