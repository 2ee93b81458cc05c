"""What the Hanabi LLM agents are told: the rules, the table, their knowledge, and how to answer.

Three settings, after seed 003's Section 3, each in our own words, each carrying exactly the
seed's information:

- ``watson``: the table, teammates' cards, what the hints said positively about every card (its
  clued colour and rank, "?" otherwise), the legal moves and a short list of priorities. No
  history: which slots a hint did not touch is negative information, which the seed keeps for
  Sherlock.
- ``sherlock``: the table plus each card's possible identities from the hints, positive and
  negative (the seed's view and the default; gumshoe's ``exact`` view, narrowed by every card in
  sight and given with the copies the seat cannot see, is an option of its own), the deck's
  make-up at the start (from which the model works out what it cannot see), a think-aloud in
  three parts (what is playable, which hints help, what is safe to discard) and a probability
  step before rating. No history either: the possibilities are the game's trajectory.
- ``mycroft``: no engine deductions at all; the positively clued facts about its own cards (as
  Watson sees them), the moves since its last turn (with the slots each hint touched: it must
  infer the rest), its own working memory (its previous observation and reply), and it must state
  per slot what it has deduced about its own cards and about what each teammate knows of theirs.

Every setting's table names the last player once the deck is empty (Section 3.1). A mixture of
agents (Appendix E.2) asks the specialist roles of ``mixture_roles`` (the history analyst only
from three players on, as the seed drops it at two) and an aggregator; the history analyst and
the aggregator also see the moves played, without the slots hints touched (the last
``RECENT_MOVES`` for Watson, all of them for Sherlock).

Every answer is one JSON object: a think-aloud, a rating in [-1, 1] of every legal move in the
order listed, and the index of the chosen move (the explicit choice, not the top rating).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from formalize.hanabi.deck import COLORS, NUM_RANKS, card_name
from formalize.hanabi.knowledge import unseen_counts
from games.hanabi.engine import HanabiObservation
from games.hanabi.events import SlotClaim
from games.hanabi.knowledge import (
    KnowledgeView,
    possible_sets,
    public_knowledge,
    seat_knowledge,
    visible_cards,
)
from games.hanabi.moves import move_table
from games.hanabi.render import mask_text, table_text

RECENT_MOVES = 10
"""In a Watson mixture, the history analyst and the aggregator see this many of the latest moves
(Sherlock's see them all; seed 003, Appendix E.2)."""


class RatedAnswer(BaseModel):
    """A Watson or Sherlock answer: think-aloud, one rating per legal move, the chosen index
    (one of the rated moves)."""

    model_config = ConfigDict(extra="forbid")

    reasoning: str
    ratings: list[Annotated[float, Field(ge=-1.0, le=1.0)]] = Field(
        description="One rating in [-1, 1] per legal move, in order."
    )
    chosen: int = Field(ge=0, description="The index of the chosen move in the legal list.")

    @model_validator(mode="after")
    def _chosen_is_rated(self) -> RatedAnswer:
        if self.chosen >= len(self.ratings):
            raise ValueError(
                f"chosen is {self.chosen}, but only {len(self.ratings)} moves are rated"
            )
        return self


class MycroftAnswer(RatedAnswer):
    """A Mycroft answer: also its deductions about every slot it tracks."""

    deductions: list[SlotClaim]


@cache
def decision_schema(base: type[RatedAnswer], moves: int) -> type[RatedAnswer]:
    """``base`` for one decision among ``moves`` legal moves: exactly one rating for each, so a
    reply that rates too few or too many is sent back with the reason (the answer model's
    bounds are not enforced by every server)."""
    rating = Annotated[float, Field(ge=-1.0, le=1.0)]
    schema: type[RatedAnswer] = create_model(
        f"{base.__name__}Of{moves}",
        __base__=base,
        ratings=(list[rating], Field(min_length=moves, max_length=moves)),
    )
    return schema


@dataclass
class Memory:
    """Mycroft's working memory: its previous observation (as text) and its previous reply."""

    observation: str = ""
    reply: str = ""
    last_turn: int = 0


def move_text(obs: HanabiObservation, action: int) -> str:
    """A legal move in words, naming the hinted seat."""
    move = move_table(obs.players, obs.hand_size)[action]
    if move.kind in ("play", "discard"):
        return f"{move.kind} your slot {move.slot}"
    target = (obs.seat + move.offset) % obs.players
    named = COLORS[move.color] if move.kind == "reveal_color" else str(move.rank + 1)
    return f"hint P{target}: {named}"


def history_text(obs: HanabiObservation, since: int, *, touched: bool = True) -> list[str]:
    """The moves from turn ``since`` + 1 on, one line each, as every seat saw them; a hint with
    the slots it touched unless ``touched`` is False (the colour or rank named, nothing more: the
    untouched slots would be negative information)."""
    lines = []
    for index, turn in enumerate(obs.history[since:], start=since + 1):
        move = move_table(obs.players, obs.hand_size)[turn.action]
        if move.kind == "play":
            outcome = "scored" if turn.scored else "misfired (a life lost)"
            lines.append(
                f"turn {index}: P{turn.seat} played slot {move.slot}, "
                f"{card_name(turn.card)}, {outcome}"
            )
        elif move.kind == "discard":
            lines.append(
                f"turn {index}: P{turn.seat} discarded slot {move.slot}, {card_name(turn.card)}"
            )
        else:
            target = (turn.seat + move.offset) % obs.players
            named = COLORS[move.color] if move.kind == "reveal_color" else str(move.rank + 1)
            line = f"turn {index}: P{turn.seat} told P{target} {named}"
            if touched:
                slots = ", ".join(str(s) for s in range(obs.hand_size) if turn.touched >> s & 1)
                line += f": slots {slots}"
            lines.append(line)
    return lines


def clued_facts(obs: HanabiObservation, seat: int) -> list[tuple[int | None, int | None]]:
    """Per slot of ``seat``'s hand, the colour and 0-based rank a hint touching it named (None
    where no hint did), following the slots as cards leave and arrive."""
    moves = move_table(obs.players, obs.hand_size)
    facts: list[tuple[int | None, int | None]] = [(None, None)] * obs.hand_size
    for turn in obs.history:
        move = moves[turn.action]
        if move.kind in ("play", "discard"):
            if turn.seat == seat:
                del facts[move.slot]
                if turn.drew:
                    facts.append((None, None))
        elif (turn.seat + move.offset) % obs.players == seat:
            for slot in range(len(facts)):
                if turn.touched >> slot & 1:
                    color, rank = facts[slot]
                    if move.kind == "reveal_color":
                        facts[slot] = (move.color, rank)
                    else:
                        facts[slot] = (color, move.rank)
    return facts


def clued_text(obs: HanabiObservation, seat: int) -> str:
    """The clued facts as ``slot:CR``, ``?`` for what no hint named (``0:R? 1:?3 2:??``)."""
    return " ".join(
        f"{slot}:{'?' if c is None else COLORS[c]}{'?' if r is None else r + 1}"
        for slot, (c, r) in enumerate(clued_facts(obs, seat))
    )


def _possibilities(obs: HanabiObservation, seat: int, view: KnowledgeView) -> str:
    knowledge = seat_knowledge(obs) if seat == obs.seat else public_knowledge(obs, seat)
    sets = possible_sets(knowledge, view)
    parts = []
    for slot, mask in enumerate(sets):
        text = f"{slot}:{mask_text(mask)}"
        if view == "exact":
            playable = sum(
                p
                for card, p in enumerate(knowledge.probabilities[slot])
                if card % NUM_RANKS == obs.fireworks[card // NUM_RANKS]
            )
            text += f" (playable {playable:.2f})"
        parts.append(text)
    return " ".join(parts)


def final_round_text(obs: HanabiObservation, turns_left: int) -> str:
    """Once the deck is empty: the moves left (this one included) and who makes the last."""
    last = (obs.seat + turns_left - 1) % obs.players
    who = f"you (P{obs.seat})" if last == obs.seat else f"P{last}"
    return (
        f"Final round: the deck is empty, {turns_left} moves are left in the game (this one "
        f"included) and {who} makes the last move."
    )


def table_section(obs: HanabiObservation) -> list[str]:
    """The table every setting shows: state, discards and teammates' cards."""
    discards = " ".join(card_name(c) for c in sorted(obs.discards)) or "none"
    lines = [
        f"You are P{obs.seat} of {obs.players}; turn {len(obs.history) + 1}.",
        table_text(obs),
        f"discards: {discards}",
    ]
    if obs.turns_left is not None:
        lines.append(final_round_text(obs, obs.turns_left))
    for other in range(obs.players):
        if other != obs.seat:
            cards = " ".join(f"{slot}:{card_name(c)}" for slot, c in enumerate(obs.hands[other]))
            lines.append(f"P{other}'s cards (slot 0 oldest): {cards}")
    return lines


def legal_section(obs: HanabiObservation) -> list[str]:
    """The legal moves, numbered from 0."""
    lines = ["Legal moves:"]
    lines += [f"  {i}: {move_text(obs, a)}" for i, a in enumerate(obs.legal_actions)]
    return lines


ANSWER_RULE = (
    "Answer with one JSON object and nothing else: "
    '{"reasoning": "...", "ratings": [one number in [-1, 1] per legal move, in the listed '
    'order], "chosen": index of the move you make}. The chosen move is the index you give, '
    "whatever the ratings say."
)
MYCROFT_RULE = (
    "Answer with one JSON object and nothing else: "
    '{"reasoning": "...", "deductions": [{"seat": s, "slot": j, "colors": "RY", "ranks": "12"},'
    ' ...], "ratings": [one number in [-1, 1] per legal move, in the listed order], "chosen": '
    "index of the move you make}. Give one deduction for every slot of your own hand (what you "
    "know of it) and every slot of each teammate's hand (what that teammate knows of it): the "
    'colours and ranks still possible, all of "RYGWB" or "12345" when nothing is known.'
)


def system_prompt(role: str) -> str:
    """The rules of Hanabi and the answer format for ``role``."""
    rules = (
        "You play Hanabi, a cooperative card game, as one of the players. The deck has five "
        "colours (R Y G W B) with ranks 1-5: three 1s, two each of 2, 3 and 4, one 5 per colour. "
        "You see every hand but your own. Fireworks are built per colour from 1 up to 5; the "
        "score is the sum of the fireworks. On your turn you do one thing: play a card (if it is "
        "the next rank of its colour it scores, else a life is lost and the card is discarded), "
        "discard a card (regains an information token; not allowed at 8 tokens), or spend a "
        "token to tell a teammate every card of one colour or one rank in their hand. Cards "
        "shift left after a play or discard and the new card goes to the last slot; slot 0 is "
        "the oldest. The game ends at 25 points, after the third lost life, or one round after "
        "the deck runs out. Completing a 5 regains a token."
    )
    rule = MYCROFT_RULE if role == "mycroft" else ANSWER_RULE
    return f"{rules}\n\n{rule}"


PRIORITIES = (
    "Priorities: play a card you know is playable; give a hint that makes a teammate's card "
    "playable or saves a card that is the last of its kind; discard a card known to be useless "
    "or the oldest card no hint touched; never waste the last token or the last life."
)
THINK_ALOUD = (
    "Think aloud in this order: (1) which of your cards are certainly or probably playable; "
    "(2) which hints would let a teammate play or save a critical card; (3) which of your cards "
    "are safe to discard. Then, for each of your cards, estimate the probability that it is "
    "playable and that discarding it loses nothing, and only then rate every move."
)


def watson_prompt(obs: HanabiObservation) -> str:
    """Watson: the table, teammates' cards, what the hints named of every card, priorities."""
    lines = table_section(obs)
    lines.append("What hints named (slot: clued colour and rank, ? where no hint named it):")
    lines += [
        f"  {'you' if s == obs.seat else f'P{s}'}: {clued_text(obs, s)}" for s in range(obs.players)
    ]
    lines += [PRIORITIES, *legal_section(obs)]
    return "\n".join(lines)


STARTING_DECK = (
    "The deck at the start: 50 cards, ten of each colour: three 1s, two 2s, two 3s, two 4s and "
    "one 5. A card you cannot see is one of the copies not in a teammate's hand, on the "
    "fireworks or in the discards: count those down from the start to weigh what a card can be. "
    "Keep the cards that are the last copy still in play (every 5, and any card whose other "
    "copies are discarded)."
)
"""Sherlock's starting distribution (seed 003, Appendix I.2), from which it works out what it
cannot see."""


def distribution_text(obs: HanabiObservation) -> str:
    """How many copies of each identity the seat cannot see, as ``R1x3 R2x2 ...`` (none: 0):
    engine-computed, so only in the ``exact`` view."""
    counts = unseen_counts(visible_cards(obs))
    return " ".join(f"{card_name(c)}x{n}" for c, n in enumerate(counts) if n) or "none"


def sherlock_prompt(obs: HanabiObservation, view: KnowledgeView) -> str:
    """Sherlock: the table, each card's possible identities (``view``), the starting deck (and in
    the ``exact`` view the copies the seat cannot see), think-aloud, probabilities."""
    lines = table_section(obs)
    source = "from hints" if view == "hints" else "from hints and every card you can see"
    lines.append(f"Possible identities of each card ({source}):")
    lines += [
        f"  {'you' if s == obs.seat else f'P{s}'}: {_possibilities(obs, s, view)}"
        for s in range(obs.players)
    ]
    lines.append(STARTING_DECK)
    if view == "exact":
        lines.append(f"Cards you cannot see (the deck and your hand): {distribution_text(obs)}")
    lines += [PRIORITIES, THINK_ALOUD, *legal_section(obs)]
    return "\n".join(lines)


def mycroft_observation(obs: HanabiObservation) -> str:
    """What Mycroft is shown of the table now (no engine deductions)."""
    return "\n".join(table_section(obs))


def mycroft_prompt(obs: HanabiObservation, memory: Memory) -> str:
    """Mycroft: the table without deductions, the moves since its last turn, its memory."""
    lines = []
    if memory.observation:
        lines += ["Your previous observation:", memory.observation, "Your previous reply:"]
        lines.append(memory.reply)
    else:
        lines.append("This is your first turn.")
    lines.append("Moves since your last turn:")
    since = history_text(obs, memory.last_turn)
    lines += [f"  {line}" for line in since or ["none"]]
    lines += ["Now:", mycroft_observation(obs)]
    lines.append(f"What hints named of your cards (? where none did): {clued_text(obs, obs.seat)}")
    lines += [PRIORITIES, *legal_section(obs)]
    return "\n".join(lines)


ROLE_FOCUS: dict[str, str] = {
    "base": "",
    "rank": "When a colour hint and a rank hint are equally good, prefer the rank hint.",
    "analyst": "Before rating, go through every card in every hand and say what it is for the "
    "team: playable now, playable later, critical (the last copy), or useless.",
    "discard": "Focus on discards: which cards of yours are safe to throw away and which must "
    "be kept because they are the last of their kind.",
    "history": "Focus on your teammates' intentions: from the recent moves, say what each hint "
    "they gave was meant to make you or others do, and what they are likely to do next.",
}
"""The specialist roles of a mixture of agents (Appendix E.2), as extra instructions."""


def mixture_roles(players: int) -> tuple[str, ...]:
    """The specialists a mixture asks at ``players`` players: every role of ``ROLE_FOCUS``, but
    the history analyst only from three players on (the seed removed it at two, where its
    speculation made the scores swing)."""
    return tuple(role for role in ROLE_FOCUS if role != "history" or players > 2)


def history_section(obs: HanabiObservation, role: str) -> list[str]:
    """The moves played, for a mixture's history analyst and aggregator: the last
    ``RECENT_MOVES`` for Watson, all for Sherlock; hints without the slots they touched."""
    start = max(0, len(obs.history) - RECENT_MOVES) if role == "watson" else 0
    moves = history_text(obs, start, touched=False)
    head = "Moves so far:" if start == 0 else f"The last {len(moves)} moves:"
    return [head, *(f"  {line}" for line in moves or ["none yet"])]


def proposals_section(proposals: Sequence[tuple[str, RatedAnswer]], obs: HanabiObservation) -> str:
    """Earlier answers to the same decision, for a final choice among them."""
    lines = ["Proposals for this move:"]
    for label, answer in proposals:
        chosen = move_text(obs, obs.legal_actions[answer.chosen])
        lines.append(f"[{label}] chooses {answer.chosen} ({chosen}): {answer.reasoning}")
    lines.append(
        "Weigh the proposals, then give your own answer in the same format; the chosen move "
        "may be any legal move."
    )
    return "\n".join(lines)
