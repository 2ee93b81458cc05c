"""A Hanabi log as a hanab.live replay (its JSON game format, version 3), so the community's
viewer opens a gumshoe game, with gumshoe's knowledge written in the card notes.

hanab.live numbers cards by the order they leave the deck (``target`` of a play or discard), deals
each player's whole hand in turn, and names colour hints by suit index. The "No Variant" suits are
red, yellow, green, blue and purple; gumshoe's (the reference engine's) are red, yellow, green,
white and blue, so white is exported as purple and blue as blue. Each card's holder gets a note with
what it could be when it left the hand (or at the end): the exact possibilities from everything the
holder saw, and the hint knowledge; each claim stated about a card goes in the claimant's note
with its verdict.
"""

from __future__ import annotations

from collections import defaultdict

from pydantic import BaseModel, Field

from formalize.hanabi.deck import COLORS, NUM_IDENTITIES, NUM_RANKS
from games.core.log import GameLog
from games.core.replay import replay
from games.hanabi.audit import judge_claim
from games.hanabi.engine import HanabiGame
from games.hanabi.entry import ENTRY, hanabi_actions
from games.hanabi.events import HanabiEvent, HanabiMove
from games.hanabi.knowledge import seat_knowledge
from games.hanabi.render import mask_text

SUIT_INDEX: dict[str, int] = {"R": 0, "Y": 1, "G": 2, "B": 3, "W": 4}
"""gumshoe colour letter -> hanab.live "No Variant" suit index (white shown as purple)."""
PLAY, DISCARD, COLOR_CLUE, RANK_CLUE = 0, 1, 2, 3


class LiveCard(BaseModel):
    """One card of the deck, top first."""

    suitIndex: int = Field(ge=0, le=4)
    rank: int = Field(ge=1, le=5)


class LiveAction(BaseModel):
    """A play or discard of card ``target`` (its deck order), or a clue to player ``target``."""

    type: int = Field(ge=0, le=3)
    target: int = Field(ge=0)
    value: int | None = None


class LiveGame(BaseModel):
    """A hanab.live game: players, deck, actions, options and per-player card notes."""

    players: list[str]
    deck: list[LiveCard]
    actions: list[LiveAction]
    options: dict[str, str] = Field(default_factory=lambda: {"variant": "No Variant"})
    notes: list[list[str]]
    seed: str

    def to_json(self) -> str:
        """The replay as hanab.live reads it (no empty values)."""
        return self.model_dump_json(exclude_none=True, indent=2)


def _live_card(card: int) -> LiveCard:
    return LiveCard(suitIndex=SUIT_INDEX[COLORS[card // NUM_RANKS]], rank=card % NUM_RANKS + 1)


class _Tracker:
    """The deck order of every card in every hand, and the notes written so far."""

    def __init__(self, game: HanabiGame) -> None:
        self.game = game
        self.deck: list[int] = []
        self.orders: list[list[int]] = [[] for _ in range(game.players)]
        self.notes: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
        for seat, hand in enumerate(game.hands):
            for card in hand:
                self._enter(seat, card)

    def _enter(self, seat: int, card: int) -> None:
        self.orders[seat].append(len(self.deck))
        self.deck.append(card)

    def knowledge_note(self, seat: int, slot: int, when: str) -> None:
        """Note the holder's knowledge of its card in ``slot`` now."""
        known = seat_knowledge(self.game.observation(seat))
        self.notes[seat][self.orders[seat][slot]].append(
            f"gumshoe {when}: could be {mask_text(known.exact[slot])}; "
            f"hints allow {mask_text(known.hints[slot])}"
        )

    def claims(self, seat: int, move: HanabiMove) -> None:
        """Note each claim of ``move``'s decision on the card it is about."""
        turn = len(self.game.history) + 1
        for claim in move.decision.claims:
            judged = judge_claim(self.game, turn, seat, claim)
            if judged.status is None:
                continue
            order = self.orders[claim.seat][claim.slot]
            self.notes[seat][order].append(
                f"turn {turn}: claims [{claim.colors}][{claim.ranks}] -> {judged.status} "
                f"{judged.correctness} {judged.kind}"
            )

    def move(self, seat: int, action: int) -> LiveAction:
        """Apply ``action`` to the game and say it as hanab.live does."""
        game = self.game
        move = game.moves[action]
        if move.kind in ("play", "discard"):
            self.knowledge_note(seat, move.slot, f"when {move.kind}ed")
            order = self.orders[seat].pop(move.slot)
            held = len(game.hands[seat])
            game.apply({seat: action})
            if len(game.hands[seat]) == held:
                self._enter(seat, game.hands[seat][-1])
            return LiveAction(type=PLAY if move.kind == "play" else DISCARD, target=order)
        target = (seat + move.offset) % game.players
        game.apply({seat: action})
        if move.kind == "reveal_color":
            return LiveAction(type=COLOR_CLUE, target=target, value=SUIT_INDEX[COLORS[move.color]])
        return LiveAction(type=RANK_CLUE, target=target, value=move.rank + 1)

    def rest_of_deck(self) -> list[int]:
        """The cards never drawn, in identity order (no one saw their order)."""
        return [x for x in range(NUM_IDENTITIES) for _ in range(self.game.deck[x])]


def export_hanablive(log: GameLog[HanabiEvent]) -> LiveGame:
    """The hanab.live replay of ``log``, which must replay (ReplayError names where it parts)."""
    replay(ENTRY, log)
    tracker = _Tracker(ENTRY.replay_state(log).game)
    actions: list[LiveAction] = []
    for _, joint in hanabi_actions(log.events):
        ((seat, move),) = joint.items()
        if isinstance(move, HanabiMove):
            tracker.claims(seat, move)
            actions.append(tracker.move(seat, move.action))
        else:
            actions.append(tracker.move(seat, move))
    for seat, hand in enumerate(tracker.game.hands):
        for slot in range(len(hand)):
            tracker.knowledge_note(seat, slot, "at the end")
    deck = tracker.deck + tracker.rest_of_deck()
    notes = [
        [" | ".join(tracker.notes[seat].get(order, [])) for order in range(len(deck))]
        for seat in range(len(log.header.seats))
    ]
    return LiveGame(
        players=[seat.name for seat in log.header.seats],
        deck=[_live_card(card) for card in deck],
        actions=actions,
        notes=notes,
        seed=f"gumshoe-{log.header.seed}",
    )
