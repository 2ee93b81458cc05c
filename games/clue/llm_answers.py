"""What a Clue LLM agent answers in each phase, and the parsers that read and check those answers.

Answers are labelled lines (``REASONING: ...``, ``SUGGESTION: ...``). A parser raises
``MalformedAnswer`` naming what is wrong (a missing line, a card that does not exist, a card of the
wrong category, a card that cannot be shown), so the agent can re-prompt with that message.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from games.clue.agent import Accuse, ClueAction, Suggest
from games.clue.cards import CATEGORIES, Card, Deck, Triple
from games.clue.events import Deduction, DeductionKind
from reasoning.llm import MalformedAnswer, labelled_fields

_NONE_WORDS = frozenset({"none", "nothing", "n/a", "-"})
# Bullets, numbering and quotes a model may put around one listed item.
_ITEM_DECORATION = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_QUOTES = "\"'`*"
_PLAYER = r"(?:p|player\s*)(\d+)"
_DEDUCTION_FORMS: tuple[tuple[re.Pattern[str], DeductionKind], ...] = (
    (re.compile(rf"^{_PLAYER}\s+(?:does\s+not|doesn't)\s+hold\s+(.+)$", re.I), "not_holds"),
    (re.compile(rf"^{_PLAYER}\s+holds\s+(.+)$", re.I), "holds"),
    (re.compile(r"^(.+?)\s+is\s+not\s+in\s+the\s+envelope$", re.I), "not_in_envelope"),
    (re.compile(r"^(.+?)\s+is\s+in\s+the\s+envelope$", re.I), "in_envelope"),
)


class DeductionAnswer(BaseModel):
    """The deduction phase's answer: the model's analysis and the conclusions it states."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    analysis: str
    deductions: tuple[Deduction, ...]


class MoveAnswer(BaseModel):
    """The action phase's answer: a summary, the reasoning, and a suggestion or an accusation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    summary: str
    reasoning: str
    suggestion: Triple | None
    accusation: Triple | None

    def action(self) -> ClueAction:
        """The move: the accusation when there is one, else the suggestion."""
        if self.accusation is not None:
            t = self.accusation
            return Accuse(suspect=t.suspect, weapon=t.weapon, room=t.room)
        if self.suggestion is None:
            raise ValueError("a move answer needs a suggestion or an accusation")
        t = self.suggestion
        return Suggest(suspect=t.suspect, weapon=t.weapon, room=t.room)


class ShowAnswer(BaseModel):
    """The show-card phase's answer: the reasoning and the card to show."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reasoning: str
    card: Card


def player_label(seat: int) -> str:
    """How prompts and answers name a seat: ``P0``, ``P1``, ..."""
    return f"P{seat}"


def format_deduction(deduction: Deduction) -> str:
    """A deduction in the answer format the prompts ask for (and ``parse_deduction`` reads)."""
    card = deduction.card.name
    if deduction.kind == "holds":
        assert deduction.player is not None
        return f"{player_label(deduction.player)} holds {card}"
    if deduction.kind == "not_holds":
        assert deduction.player is not None
        return f"{player_label(deduction.player)} does not hold {card}"
    if deduction.kind == "in_envelope":
        return f"{card} is in the envelope"
    return f"{card} is not in the envelope"


def _clean(text: str) -> str:
    """One item without list bullets, surrounding quotes or markdown, or surrounding spaces."""
    return _ITEM_DECORATION.sub("", text.strip()).strip().strip(_QUOTES).strip()


def _unstop(text: str) -> str:
    """``text`` without a final full stop."""
    return text.removesuffix(".").rstrip()


def read_card(text: str, deck: Deck) -> Card:
    """The deck's card named by ``text`` (case-insensitive); MalformedAnswer names a wrong one."""
    wanted = _unstop(_clean(text)).casefold()
    for card in deck.cards:
        if _unstop(card.name).casefold() == wanted:
            return card
    names = ", ".join(card.name for card in deck.cards)
    raise MalformedAnswer(f"{_clean(text)!r} is not a card; the cards are: {names}")


def _ends_item(after: str) -> bool:
    """Whether the text after a matched name closes it: nothing, a full stop, or a comma."""
    after = after.strip()
    return after in ("", ".") or after.startswith(",")


def read_triple(text: str, deck: Deck) -> Triple:
    """``<suspect>, <weapon>, <room>`` as a Triple; MalformedAnswer names the first wrong name.

    Names are matched case-insensitively and longest first, so names holding a comma still work.
    """
    rest = _clean(text)
    names: list[str] = []
    for category in CATEGORIES:
        folded = rest.casefold()
        options = sorted(deck.by_category[category], key=lambda card: -len(card.name))
        found = next(
            (
                card
                for card in options
                if folded.startswith(card.name.casefold()) and _ends_item(rest[len(card.name) :])
            ),
            None,
        )
        if found is None:
            given = rest.split(",", 1)[0].strip() or "nothing"
            listed = ", ".join(card.name for card in deck.by_category[category])
            raise MalformedAnswer(
                f"{given!r} is not a {category}; expected <suspect>, <weapon>, <room> in that "
                f"order, and the {category}s are: {listed}"
            )
        names.append(found.name)
        rest = rest[len(found.name) :].lstrip().removeprefix(",").strip()
    if rest not in ("", "."):
        raise MalformedAnswer(f"unexpected text {rest!r} after the room")
    return Triple(*names)


def parse_deduction(text: str, deck: Deck, n_players: int) -> Deduction:
    """One stated conclusion in one of the four forms; MalformedAnswer names what is wrong."""
    item = _unstop(_clean(text))
    for pattern, kind in _DEDUCTION_FORMS:
        match = pattern.match(item)
        if match is None:
            continue
        if kind in ("holds", "not_holds"):
            seat = int(match.group(1))
            if seat >= n_players:
                raise MalformedAnswer(
                    f"deduction {item!r}: there is no player {player_label(seat)} "
                    f"(players are P0 to P{n_players - 1})"
                )
            card = read_card(match.group(2), deck)
            return Deduction(kind=kind, card=card, player=seat)
        return Deduction(kind=kind, card=read_card(match.group(1), deck))
    raise MalformedAnswer(
        f"deduction {item!r} is not one of the forms 'P<n> holds <card>', "
        "'P<n> does not hold <card>', '<card> is in the envelope', '<card> is not in the envelope'"
    )


def _items(value: str) -> list[str]:
    """The items of a list field: one per line or separated by semicolons, blanks dropped."""
    return [
        part for line in value.splitlines() for part in line.split(";") if _unstop(_clean(part))
    ]


def _is_none(value: str) -> bool:
    return _unstop(_clean(value)).casefold() in _NONE_WORDS


def parse_deduction_answer(text: str, deck: Deck, n_players: int) -> DeductionAnswer:
    """Read ``ANALYSIS:`` and ``DEDUCTIONS:`` (a list, or NONE); repeated deductions kept once."""
    fields = labelled_fields(text, ["ANALYSIS", "DEDUCTIONS"], required=["ANALYSIS", "DEDUCTIONS"])
    listed = fields["DEDUCTIONS"]
    deductions: list[Deduction] = []
    if not _is_none(listed):
        for item in _items(listed):
            deduction = parse_deduction(item, deck, n_players)
            if deduction not in deductions:
                deductions.append(deduction)
    return DeductionAnswer(analysis=fields["ANALYSIS"], deductions=tuple(deductions))


def parse_move_answer(text: str, deck: Deck, *, final: bool) -> MoveAnswer:
    """Read a move: REASONING plus SUGGESTION and/or ACCUSATION (an accusation wins).

    With ``final`` (the accusations after the round limit) ACCUSATION must name three cards.
    """
    labels = ["SUMMARY", "REASONING", "SUGGESTION", "ACCUSATION"]
    required = ["REASONING", "ACCUSATION"] if final else ["REASONING"]
    fields = labelled_fields(text, labels, required=required)
    accusation_text = fields.get("ACCUSATION", "")
    accusation = None if not accusation_text or _is_none(accusation_text) else accusation_text
    if final and accusation is None:
        raise MalformedAnswer(
            "ACCUSATION must name <suspect>, <weapon>, <room>; NONE is not allowed"
        )
    suggestion_text = fields.get("SUGGESTION", "")
    if not final and accusation is None and (not suggestion_text or _is_none(suggestion_text)):
        raise MalformedAnswer(
            "no SUGGESTION: <suspect>, <weapon>, <room> line (and ACCUSATION is NONE)"
        )
    suggestion = (
        None
        if final or not suggestion_text or _is_none(suggestion_text)
        else read_triple(suggestion_text, deck)
    )
    return MoveAnswer(
        summary=fields.get("SUMMARY", ""),
        reasoning=fields["REASONING"],
        suggestion=suggestion,
        accusation=None if accusation is None else read_triple(accusation, deck),
    )


def parse_show_answer(text: str, deck: Deck, matching: tuple[Card, ...]) -> ShowAnswer:
    """Read ``REASONING:`` and ``SHOW:``; the card must be one of ``matching``."""
    fields = labelled_fields(text, ["REASONING", "SHOW"], required=["REASONING", "SHOW"])
    card = read_card(fields["SHOW"], deck)
    if card not in matching:
        names = ", ".join(c.name for c in matching)
        raise MalformedAnswer(
            f"you cannot show {card.name!r}: it is not one of your cards matching the "
            f"suggestion ({names})"
        )
    return ShowAnswer(reasoning=fields["REASONING"], card=card)
