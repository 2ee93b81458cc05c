"""The Clue LLM agent's prompts: rules, hand, history, derived information and answer formats.

The derived information (seed 000, Section 4.1) is computed from the observation alone: envelope
candidates per category (cards not in the player's hand, not shown to it, and not ruled out by
its own unrefuted suggestions), the categories whose envelope card is therefore known, the
suggestions nobody refuted, and the cards shown to the player. The prompts give the last
``RECENT_EVENTS`` moves in full; earlier rounds go in separate messages a context budget may drop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.clue.agent import ClueObservation, Phase, ShownCard
from games.clue.cards import CATEGORIES, Card, Category, Triple
from games.clue.events import (
    AccusationEvent,
    Deduction,
    DeductionEvent,
    NoRefutationEvent,
    PassEvent,
    RefuteEvent,
    SuggestionEvent,
)
from games.clue.llm_answers import format_deduction, player_label
from reasoning.llm import ChatMessage, history

RECENT_EVENTS = 8
"""Moves of history given in full in every prompt; earlier ones come as trimmable messages."""

_PLURAL: dict[Category, str] = {"suspect": "suspects", "weapon": "weapons", "room": "rooms"}

DEDUCTION_FORMAT = """Answer in exactly this format, as plain text without markdown:
ANALYSIS: <your step-by-step reasoning, going through the refutations and cross-checking them>
DEDUCTIONS: <your conclusions, one per line, or NONE>

Each conclusion must take one of these four forms, with exact player labels and card names:
P<n> holds <card>
P<n> does not hold <card>
<card> is in the envelope
<card> is not in the envelope
State only what you are certain of."""

MOVE_FORMAT = """Answer in exactly this format, as plain text without markdown:
SUMMARY: <one or two sentences on what you know>
REASONING: <your step-by-step reasoning for this move>
SUGGESTION: <suspect>, <weapon>, <room>
ACCUSATION: <suspect>, <weapon>, <room> or NONE

Use exact card names, in the order suspect, weapon, room. If ACCUSATION names three cards you
accuse and the suggestion is ignored."""

FINAL_FORMAT = """Answer in exactly this format, as plain text without markdown:
SUMMARY: <one or two sentences on what you know>
REASONING: <your step-by-step reasoning for this accusation>
ACCUSATION: <suspect>, <weapon>, <room>

Use exact card names, in the order suspect, weapon, room."""

SHOW_FORMAT = """Answer in exactly this format, as plain text without markdown:
REASONING: <your reasoning>
SHOW: <exact card name>"""


@dataclass(frozen=True, slots=True)
class DerivedInfo:
    """What follows directly from one player's observation, handed to the model ready-made."""

    remaining: dict[Category, tuple[Card, ...]]
    """Envelope candidates per category."""
    locked: dict[Category, Card]
    """Categories whose envelope card is known, with that card."""
    unrefuted: tuple[SuggestionEvent, ...]
    """Suggestions nobody could refute."""
    definitive: tuple[ShownCard, ...]
    """Cards other players showed this player (each card once, when first shown)."""


@dataclass(frozen=True, slots=True)
class TurnMemory:
    """What the agent carries from phase to phase (seed 000, Algorithm 1, TURNCONTEXT)."""

    last_reasoning: str = ""
    """The reasoning of the agent's previous move."""
    analysis: str = ""
    """This turn's deduction analysis."""
    deductions: tuple[Deduction, ...] = ()
    """The conclusions the agent acts on this turn."""


def unrefuted_suggestions(obs: ClueObservation) -> tuple[SuggestionEvent, ...]:
    """The suggestions in ``obs.history`` that nobody could refute."""
    found: list[SuggestionEvent] = []
    last: SuggestionEvent | None = None
    for event in obs.history:
        if isinstance(event, SuggestionEvent):
            last = event
        elif isinstance(event, NoRefutationEvent) and last is not None:
            found.append(last)
    return tuple(found)


def derive_info(obs: ClueObservation) -> DerivedInfo:
    """The derived information of seed 000 Section 4.1 for ``obs``'s player."""
    deck = obs.deck()
    excluded = set(obs.hand) | {shown.card for shown in obs.shown}
    unrefuted = unrefuted_suggestions(obs)
    hidden: dict[Category, Card] = {}
    for suggestion in unrefuted:
        if suggestion.seat != obs.player:
            continue
        for card in deck.triple_cards(Triple(*suggestion_triple(suggestion))):
            if card not in obs.hand:
                hidden[card.category] = card
    remaining: dict[Category, tuple[Card, ...]] = {}
    for category in CATEGORIES:
        left = tuple(c for c in deck.by_category[category] if c not in excluded)
        pinned = hidden.get(category)
        remaining[category] = (pinned,) if pinned is not None and pinned in left else left
    locked = {cat: cards[0] for cat, cards in remaining.items() if len(cards) == 1}
    first_shown = {shown.card: shown for shown in reversed(obs.shown)}
    definitive = tuple(shown for shown in obs.shown if first_shown[shown.card] is shown)
    return DerivedInfo(remaining, locked, unrefuted, definitive)


def suggestion_triple(event: SuggestionEvent | AccusationEvent) -> tuple[str, str, str]:
    """The three names of a suggestion or accusation event."""
    return (event.suspect, event.weapon, event.room)


def _names(cards: Sequence[Card]) -> str:
    return ", ".join(card.name for card in cards) if cards else "none"


def stated_deductions(obs: ClueObservation) -> tuple[Deduction, ...]:
    """Every deduction the player has stated so far (each once, in the order first stated)."""
    seen: list[Deduction] = []
    for event in obs.history:
        if isinstance(event, DeductionEvent) and event.seat == obs.player:
            seen.extend(d for d in event.deductions if d not in seen)
    return tuple(seen)


def history_lines(obs: ClueObservation) -> list[str]:
    """The game so far as this player saw it, one line per suggestion or accusation."""
    return [line for _, line in _history_entries(obs)]


def _history_entries(
    obs: ClueObservation,
) -> list[tuple[SuggestionEvent | AccusationEvent, str]]:
    """Each suggestion (with how it was answered) and accusation, with its line of history."""
    me = obs.player
    entries: list[tuple[SuggestionEvent | AccusationEvent, str]] = []

    def extend(text: str) -> None:
        if entries:
            event, line = entries[-1]
            entries[-1] = (event, f"{line} {text}")

    for event in obs.history:
        stamp = f"Round {event.round}, turn {event.turn}: "
        if isinstance(event, SuggestionEvent):
            who = "you" if event.seat == me else player_label(event.seat)
            entries.append(
                (event, f"{stamp}{who} suggested {', '.join(suggestion_triple(event))}.")
            )
        elif isinstance(event, PassEvent):
            extend(f"{'You' if event.seat == me else player_label(event.seat)} could not refute.")
        elif isinstance(event, NoRefutationEvent):
            extend("Nobody refuted.")
        elif isinstance(event, RefuteEvent):
            extend(_refutation(event, me))
        elif isinstance(event, AccusationEvent):
            who = "you" if event.seat == me else player_label(event.seat)
            kind = "made the final accusation" if event.final else "accused"
            outcome = "correct" if event.correct else "wrong"
            if event.eliminated:
                outcome += f"; {who} {'are' if who == 'you' else 'is'} out but still refute"
            triple = ", ".join(suggestion_triple(event))
            entries.append((event, f"{stamp}{who} {kind} {triple}: {outcome}."))
    return entries


def _refutation(event: RefuteEvent, me: int) -> str:
    refuter = player_label(event.refuter_seat)
    if event.suggester_seat == me and event.card is not None:
        return f"{refuter} refuted and showed you {event.card.name}."
    if event.refuter_seat == me and event.card is not None:
        return f"You refuted and showed {event.card.name}."
    return f"{refuter} refuted (you did not see the card)."


def system_prompt(obs: ClueObservation) -> str:
    """The rules summary and the player's identity, shared by every phase's request."""
    sizes = ", ".join(f"{player_label(p)} {n}" for p, n in enumerate(obs.hand_sizes))
    last = player_label(obs.n_players - 1)
    return f"""You are {player_label(obs.player)}, a player in a game of Clue with {obs.n_players} \
players, P0 to {last}.

The cards: suspects {", ".join(obs.suspects)}; weapons {", ".join(obs.weapons)}; rooms \
{", ".join(obs.rooms)}. At the start one suspect, one weapon and one room were put in a hidden \
envelope; the other cards were dealt to the players (cards per player: {sizes}). Each card is in \
exactly one place.

On a turn a player either suggests or accuses. A suggestion names one suspect, one weapon and one \
room (any cards, the suggester's own included). The other players are asked in seat order after \
the suggester: each one holding none of the three cards says so and the next is asked; the first \
one holding at least one of them refutes by showing one of those cards to the suggester alone. \
Everyone learns who refuted, not which card. If nobody refutes, no player except possibly the \
suggester holds any of the three cards.

An accusation names the three cards in the envelope: if right, the accuser wins; if wrong, the \
accuser is out of the game but still refutes suggestions. After {obs.max_rounds} rounds every \
player still in the game makes one final accusation; players are ranked by correct accusations, \
then by how many of the three cards they named, then by how early they accused.

Each request says which phase it is and the exact answer format; keep to it."""


def _knowledge(obs: ClueObservation) -> str:
    stated = stated_deductions(obs)
    earlier = "\n".join(f"- {format_deduction(d)}" for d in stated) if stated else "- none"
    return f"Your hand: {_names(obs.hand)}\nYour deductions in earlier turns:\n{earlier}"


def _candidates(obs: ClueObservation, info: DerivedInfo) -> str:
    rows = []
    for category in CATEGORIES:
        cards = info.remaining[category]
        if category in info.locked:
            note = f"SOLVED: the {category} in the envelope is {info.locked[category].name}"
        else:
            note = f"{len(cards)} left: {_names(cards)}"
        rows.append(f"- {_PLURAL[category]}: {note}")
    unrefuted = [
        f"- round {s.round}: {'you' if s.seat == obs.player else player_label(s.seat)} "
        f"suggested {', '.join(suggestion_triple(s))}"
        for s in info.unrefuted
    ]
    definitive = [
        f"- {shown.card.name}, shown to you by {player_label(shown.refuter)} in round {shown.round}"
        for shown in info.definitive
    ]
    return "\n".join(
        [
            "Envelope candidates (cards not in your hand, not shown to you, and not ruled out by "
            "your own unrefuted suggestions):",
            *rows,
            "Suggestions nobody refuted:",
            *(unrefuted or ["- none"]),
            "Cards shown to you (definitely not in the envelope):",
            *(definitive or ["- none"]),
        ]
    )


def history_messages(obs: ClueObservation) -> list[ChatMessage]:
    """The history before the last ``RECENT_EVENTS`` entries, one message per round, each
    marked trimmable: a context budget drops the oldest first, while the derived information
    in the prompt keeps what they taught."""
    older = _history_entries(obs)[:-RECENT_EVENTS]
    rounds: dict[int, list[str]] = {}
    for event, line in older:
        rounds.setdefault(event.round, []).append(f"- {line}")
    return [
        history(f"Earlier game history, round {r}:\n" + "\n".join(lines))
        for r, lines in rounds.items()
    ]


def _history(obs: ClueObservation) -> str:
    entries = _history_entries(obs)
    lines = [f"- {line}" for _, line in entries[-RECENT_EVENTS:]] or ["- no moves yet"]
    if len(entries) > RECENT_EVENTS:
        head = f"Recent game history (the last {RECENT_EVENTS} moves; earlier ones are above):"
    else:
        head = "Game history:"
    return "\n".join([head, *lines])


def _players_in(obs: ClueObservation) -> str:
    active = [player_label(p) for p in range(obs.n_players) if not obs.eliminated[p]]
    out = [player_label(p) for p in range(obs.n_players) if obs.eliminated[p]]
    text = f"Players still in the game: {', '.join(active)}"
    return text + (f" (out, still refuting: {', '.join(out)})" if out else "")


def _unknown_cards(obs: ClueObservation) -> tuple[Card, ...]:
    """Cards neither in the hand, nor shown to the player, nor stated as held by someone."""
    held = {d.card for d in stated_deductions(obs) if d.kind == "holds"}
    known = set(obs.hand) | {shown.card for shown in obs.shown} | held
    return tuple(card for card in obs.deck().cards if card not in known)


def _when(obs: ClueObservation) -> str:
    """The moment of a decision: the round and turn, or the final accusations."""
    if obs.phase is Phase.FINAL_ACCUSATION:
        return f"final accusations after round {obs.max_rounds}, turn {obs.turn}"
    return f"round {obs.round} of {obs.max_rounds}, turn {obs.turn}"


def deduction_prompt(obs: ClueObservation, info: DerivedInfo) -> str:
    """Phase 1: work out where cards are before moving."""
    return f"""DEDUCTION PHASE ({_when(obs)}). Before your move, work out from the history \
which cards the other players hold and which are in the envelope.

{_players_in(obs)}

{_knowledge(obs)}

{_candidates(obs, info)}

{_history(obs)}

How to deduce:
- A player who refuted a suggestion holds at least one of its three cards.
- If all but one of those three cards are known to be elsewhere (in your hand, shown to you by \
someone else, or held by another player), the refuter holds the remaining one.
- A player who could not refute holds none of the three cards.
- If nobody refuted, each of the three cards is in the suggester's hand or in the envelope; when \
you were the suggester, the ones not in your hand are in the envelope.
- Every player holds exactly the number of cards dealt to them: once all of a player's cards are \
known, that player holds no other card.
- Cross-check several refutations by the same player to narrow down their cards.

Cards not in your hand, not shown to you, and not yet stated as held: \
{_names(_unknown_cards(obs))}

{DEDUCTION_FORMAT}"""


def _last_suggestion(obs: ClueObservation) -> str:
    mine = [
        line
        for event, line in _history_entries(obs)
        if isinstance(event, SuggestionEvent) and event.seat == obs.player
    ]
    return f"Your last suggestion: {mine[-1]}" if mine else "Your last suggestion: none yet"


def _context(obs: ClueObservation, memory: TurnMemory) -> str:
    conclusions = "\n".join(f"- {format_deduction(d)}" for d in memory.deductions) or "- none"
    return "\n".join(
        [
            _last_suggestion(obs),
            f"Your reasoning on your last move: {memory.last_reasoning or 'none yet'}",
            f"This turn's deduction analysis: {memory.analysis or 'none'}",
            "This turn's conclusions:",
            conclusions,
        ]
    )


def move_prompt(obs: ClueObservation, info: DerivedInfo, memory: TurnMemory) -> str:
    """Phase 2: suggest or accuse on the player's turn."""
    return f"""ACTION PHASE (round {obs.round} of {obs.max_rounds}, turn {obs.turn}). It is your \
turn: make a suggestion or an accusation.

Choose the suggestion that tells you most about the envelope and gets you to the solution \
quickly: you may test a conclusion, try cards nobody has accounted for, or include cards from \
your own hand so the answer narrows down the others. Accuse as soon as you are certain of all \
three envelope cards, and not before: a wrong accusation puts you out of the game.

{_players_in(obs)}

{_knowledge(obs)}

{_candidates(obs, info)}

{_history(obs)}

{_context(obs, memory)}

{MOVE_FORMAT}"""


def final_prompt(obs: ClueObservation, info: DerivedInfo, memory: TurnMemory) -> str:
    """The accusation every remaining player must make after the round limit."""
    return f"""FINAL ACCUSATION (after round {obs.max_rounds}). The round limit is reached: you \
must now accuse. Name the suspect, weapon and room you think are in the envelope; naming more of \
them right ranks you higher.

{_knowledge(obs)}

{_candidates(obs, info)}

{_history(obs)}

{_context(obs, memory)}

{FINAL_FORMAT}"""


def show_prompt(obs: ClueObservation) -> str:
    """Phase 3: choose which matching card to show the suggester."""
    pending = obs.pending
    if pending is None:
        raise ValueError("the show-card prompt needs a pending suggestion")
    suggester = player_label(pending.seat)
    shown_before = [
        f"- {event.card.name} to {player_label(event.suggester_seat)} in round {event.round}"
        for event in obs.history
        if isinstance(event, RefuteEvent) and event.refuter_seat == obs.player and event.card
    ]
    return f"""SHOW-CARD PHASE (round {obs.round}, turn {obs.turn}). {suggester} suggested \
{", ".join(suggestion_triple(pending))}.

You hold these cards of that suggestion and must show {suggester} exactly one: \
{_names(obs.matching)}

Cards you have shown before, and to whom:
{chr(10).join(shown_before) if shown_before else "- none"}

Choose the card that tells {suggester} the least that it does not know yet (for instance one you \
have already shown to {suggester}).

{SHOW_FORMAT}"""


def revision_prompt(checked: Sequence[tuple[Deduction, str, str]]) -> str:
    """The message sending checked conclusions back: each with its verdict and what it means."""
    lines = [f"- {format_deduction(d)}: {verdict} ({meaning})" for d, verdict, meaning in checked]
    return "\n".join(
        [
            "Your conclusions were checked against everything you have observed:",
            *lines,
            "",
            "Revise them: keep what follows from your observations, and correct or drop the "
            "others. Answer again in the same format (ANALYSIS and DEDUCTIONS).",
        ]
    )
