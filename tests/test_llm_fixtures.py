"""Real replies of SmolLM2-135M-Instruct (llama-cpp-python server), recorded in short Clue and
Undercover-V games with structured output on and off, read again by the games' parsers.

Each recorded call is read as the game read it (JSON through the answer model, then the game's
labelled-text parser) and the verdict must match the recording: a reply the game rejected is
followed by a re-prompt in the same ask, an accepted one is not. The games' own checks that
need more than the prompt (cards matching a suggestion, living vote targets, earlier
descriptions) are left to the game tests; the answer format itself is checked here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import BaseModel

from benchmarks.llm_parse_rate import asked_labels, game_choices
from games.clue.events import ClueConfig
from games.clue.llm_answers import parse_deduction_answer, parse_move_answer
from games.undercover.llm_agents import read_seat
from games.undercover.prompts import DESCRIPTION, VOTE
from reasoning.llm import (
    MalformedAnswer,
    RecordedCall,
    labelled_fields,
    load_recording,
    parse_answer,
)

FIXTURES = Path(__file__).parent / "fixtures" / "llm"
RECORDINGS = sorted(FIXTURES.glob("*.jsonl"))
DECK = ClueConfig(players=3).deck
LAST_ATTEMPT = 3  # the agents re-prompt up to three times


class Read(BaseModel):
    """Whatever the parser read; the test only needs to know it read something."""

    text: str


def _describe(text: str) -> Read:
    return Read(text=labelled_fields(text, [DESCRIPTION], required=[DESCRIPTION])[DESCRIPTION])


def _vote(text: str) -> Read:
    fields = labelled_fields(text, [VOTE], required=[VOTE])
    return Read(text=str(read_seat(fields[VOTE])))


PARSERS: dict[tuple[str, ...], Callable[[str], object]] = {
    ("ANALYSIS", "DEDUCTIONS"): lambda text: parse_deduction_answer(text, DECK, 3),
    ("SUMMARY", "REASONING", "SUGGESTION", "ACCUSATION"): lambda text: parse_move_answer(
        text, DECK, final=False
    ),
    ("SUMMARY", "REASONING", "ACCUSATION"): lambda text: parse_move_answer(text, DECK, final=True),
    ("DESCRIPTION",): _describe,
    ("VOTE",): _vote,
}
# The exact parse only holds where the prompt gives all the parser needs; elsewhere only a
# rejected format must stay rejected.
EXACT = {("ANALYSIS", "DEDUCTIONS"), ("SUMMARY", "REASONING", "SUGGESTION", "ACCUSATION")}


def _verdicts(calls: list[RecordedCall]) -> list[tuple[RecordedCall, bool]]:
    """Each call with whether the game accepted its reply; the last attempt of an ask, whose
    verdict the recording does not show, is left out."""
    known = []
    attempt = 0
    for index, call in enumerate(calls):
        attempt = attempt + 1 if any(m.role == "assistant" for m in call.messages) else 0
        following = calls[index + 1] if index + 1 < len(calls) else None
        reprompted = following is not None and any(
            m.role == "assistant" for m in following.messages
        )
        if attempt < LAST_ATTEMPT:
            known.append((call, not reprompted))
    return known


def test_fixtures_are_present_for_both_modes_and_games() -> None:
    names = {path.name.split("-seed")[0] for path in RECORDINGS}
    assert names == {
        "clue-structured-on",
        "clue-structured-off",
        "undercover-structured-on",
        "undercover-structured-off",
    }


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda path: path.stem)
def test_recorded_replies_read_as_the_game_read_them(path: Path) -> None:
    structured = "structured-on" in path.name
    choices = game_choices("clue" if path.name.startswith("clue") else "undercover")
    checked = 0
    for call, accepted in _verdicts(load_recording(path)):
        labels = asked_labels(m.content for m in call.messages if m.role == "user")
        parser = PARSERS.get(labels)
        if parser is None:
            continue
        assert call.reply is not None
        answer = choices.model(labels) if structured else None
        try:
            parse_answer(call.reply.content, Read, _as_read(parser), answer)
        except MalformedAnswer:
            read = False
        else:
            read = True
        if labels in EXACT:
            assert read == accepted, (call.index, call.reply.content)
        elif not read:
            assert not accepted, (call.index, call.reply.content)
        checked += 1
    assert checked > 0


def _as_read(parser: Callable[[str], object]) -> Callable[[str], Read]:
    def parse(text: str) -> Read:
        parser(text)
        return Read(text=text)

    return parse
