"""The Clue deduction audit: a hand-built log with known verdicts, and broken logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.clue import (
    AccusationEvent,
    Card,
    ClueConfig,
    ClueEvent,
    Deal,
    Deduction,
    DeductionEvent,
    GameEnd,
    GameStart,
    HandEvent,
    LogError,
    NoRefutationEvent,
    PassEvent,
    RefuteEvent,
    SuggestionEvent,
    Triple,
    TurnStart,
)
from games.clue.audit import audit_log, render_audit
from reasoning.claims import ClaimStatus, Correctness

SMALL = ClueConfig(
    players=3,
    suspects=("Scarlet", "Plum"),
    weapons=("Rope", "Knife"),
    rooms=("Hall", "Study", "Lounge"),
)
CARD = {name: SMALL.deck.card(name) for name in SMALL.suspects + SMALL.weapons + SMALL.rooms}
DEAL = Deal(
    hands=((CARD["Plum"], CARD["Knife"]), (CARD["Study"],), (CARD["Lounge"],)),
    envelope=Triple("Scarlet", "Rope", "Hall"),
)


def holds(player: int, card: str) -> Deduction:
    return Deduction(kind="holds", card=CARD[card], player=player)


def hidden(kind: str, card: str, player: int | None = None) -> Deduction:
    return Deduction.model_validate({"kind": kind, "card": CARD[card], "player": player})


def game_log(deal: Deal | None = DEAL) -> list[ClueEvent]:
    """Three players; P1 states one deduction of each verdict, P0 solves the case."""
    return [
        GameStart(
            seq=0,
            round=0,
            turn=0,
            hand_sizes=(2, 1, 1),
            deal=deal,
        ),
        TurnStart(seq=1, turn=1, seat=0, round=1),
        SuggestionEvent(
            seq=2, turn=1, seat=0, suspect="Scarlet", weapon="Rope", room="Study", round=1
        ),
        RefuteEvent(seq=3, turn=1, refuter_seat=1, suggester_seat=0, card=CARD["Study"], round=1),
        TurnStart(seq=4, turn=2, seat=1, round=1),
        DeductionEvent(
            seq=5,
            turn=2,
            seat=1,
            deductions=(
                hidden("not_holds", "Study", 2),
                hidden("in_envelope", "Hall"),
                holds(2, "Plum"),
                holds(0, "Study"),
            ),
            round=1,
        ),
        SuggestionEvent(
            seq=6, turn=2, seat=1, suspect="Plum", weapon="Knife", room="Lounge", round=1
        ),
        RefuteEvent(seq=7, turn=2, refuter_seat=2, suggester_seat=1, card=CARD["Lounge"], round=1),
        TurnStart(seq=8, turn=3, seat=2, round=1),
        SuggestionEvent(
            seq=9, turn=3, seat=2, suspect="Scarlet", weapon="Rope", room="Hall", round=1
        ),
        PassEvent(seq=10, turn=3, seat=0, suggester_seat=2, round=1),
        PassEvent(seq=11, turn=3, seat=1, suggester_seat=2, round=1),
        NoRefutationEvent(seq=12, turn=3, seat=2, round=1),
        TurnStart(seq=13, turn=4, seat=0, round=2),
        DeductionEvent(
            seq=14,
            turn=4,
            seat=0,
            deductions=(
                holds(2, "Lounge"),
                hidden("in_envelope", "Hall"),
                hidden("in_envelope", "Scarlet"),
                holds(2, "Lounge"),
            ),
            round=2,
        ),
        AccusationEvent(
            seq=15,
            turn=4,
            seat=0,
            suspect="Scarlet",
            weapon="Rope",
            room="Hall",
            correct=True,
            eliminated=False,
            accuracy=3,
            round=2,
        ),
        GameEnd(
            seq=16,
            turn=4,
            winner=0,
            accuracy=(3, None, None),
            rounds=2,
            turns=4,
            reason="correct_accusation",
            round=2,
        ),
    ]


def write(path: Path, events: list[ClueEvent], extra: dict[int, str] | None = None) -> Path:
    """Write ``events`` as a log of a game played elsewhere, in the JSONL of the first Clue logs:
    no header, its config and seats in ``game_start`` (no seed); ``extra`` replaces the line at
    an index by raw text."""
    lines = [e.model_dump_json() for e in events]
    if events and isinstance(events[0], GameStart):
        seats = [{"name": f"P{i}", "agent": "hand"} for i in range(3)]
        start = {**json.loads(lines[0]), "config": SMALL.model_dump(mode="json"), "seed": None}
        lines[0] = json.dumps({**start, "players": seats})
    for index, text in (extra or {}).items():
        lines[index] = text
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_known_verdicts_counts_and_recall(tmp_path: Path) -> None:
    audit = audit_log(write(tmp_path / "game.jsonl", game_log()))
    assert audit.has_truth and audit.rounds == 2 and audit.result is not None
    p0, p1, p2 = audit.players
    verdicts = [(c.status, c.truth, c.kind) for c in p1.checks]
    assert verdicts == [
        (ClaimStatus.ENTAILED, Correctness.TRUE, "sound"),
        (ClaimStatus.UNDETERMINED, Correctness.TRUE, "lucky"),
        (ClaimStatus.UNDETERMINED, Correctness.FALSE, "wrong"),
        (ClaimStatus.CONTRADICTED, Correctness.FALSE, "wrong"),
    ]
    assert (p1.correct, p1.incorrect, p1.sound, p1.lucky, p1.wrong) == (2, 2, 1, 1, 2)
    assert (p1.entailed, p1.contradicted, p1.undetermined) == (1, 1, 2)
    assert p1.recall is None and p1.recall_entailed == 0
    assert [c.line for c in p1.checks] == [6, 6, 6, 6]
    assert (p0.statements, p0.deductions, p0.correct, p0.incorrect, p0.sound) == (4, 3, 3, 0, 3)
    assert [c.repeat for c in p0.checks] == [False, False, False, True]
    assert (p0.recall_stated, p0.recall_entailed, p0.recall) == (1, 2, 0.5)
    assert p0.known_per_round == [3, 4]
    assert p0.ideal_known_per_round == [4, 4]
    assert p2.statements == 0 and p2.known_per_round == [1, 1]
    table = render_audit(audit)
    assert "0.50 (1/2)" in table and "P1" in table


def test_log_without_deal_audits_the_given_hand(tmp_path: Path) -> None:
    events = game_log(deal=None)
    hand = HandEvent(seq=0, round=0, turn=0, seat=1, cards=(CARD["Study"],))
    events = [
        events[0],
        hand.model_copy(update={"seq": 1}),
        *(e.model_copy(update={"seq": e.seq + 1}) for e in events[1:]),
    ]
    audit = audit_log(write(tmp_path / "p1.jsonl", events))
    assert not audit.has_truth
    (p1,) = audit.players
    assert p1.player == 1 and p1.correct is None and p1.known_per_round is None
    assert [c.status for c in p1.checks] == [
        ClaimStatus.ENTAILED,
        ClaimStatus.UNDETERMINED,
        ClaimStatus.UNDETERMINED,
        ClaimStatus.CONTRADICTED,
    ]
    assert {c.kind for c in p1.checks} == {"unjudged"}
    assert "holds no truth" in render_audit(audit)


def test_player_option_restricts_the_audit(tmp_path: Path) -> None:
    audit = audit_log(write(tmp_path / "game.jsonl", game_log()), players=[2])
    assert [p.player for p in audit.players] == [2]
    with pytest.raises(LogError, match="player 7"):
        audit_log(tmp_path / "game.jsonl", players=[7])


def broken(index: int, **update: object) -> list[ClueEvent]:
    events = game_log()
    events[index] = events[index].model_copy(update=update)
    return events


def replaced(index: int, event: ClueEvent) -> list[ClueEvent]:
    events = game_log()
    events[index] = event
    return events


@pytest.mark.parametrize(
    ("events", "extra", "line", "message"),
    [
        (game_log(), {2: "{not json"}, 3, "line 1 column 2|Invalid JSON|json"),
        (game_log(), {2: '{"type": "suggestion", "seq": 2}'}, 3, "round"),
        (broken(2, weapon="Wrench"), None, 3, "Wrench"),
        (broken(2, weapon="Hall"), None, 3, "Hall"),
        (broken(3, card=CARD["Plum"]), None, 4, "not suggested"),
        (broken(7, card=CARD["Knife"]), None, 8, "deal does not give it"),
        (broken(10, seat=2), None, 11, "answers its own suggestion"),
        (broken(11, seat=2, suggester_seat=1), None, 12, "suggestion by player 1"),
        (
            replaced(3, PassEvent(seq=3, round=1, turn=1, seat=1, suggester_seat=0)),
            None,
            4,
            "passes while the deal gives it",
        ),
        (
            broken(5, deductions=(Deduction(kind="holds", card=Card("weapon", "Hall"), player=0),)),
            None,
            6,
            "Hall",
        ),
        (broken(5, deductions=(holds(4, "Plum"),)), None, 6, "player 4"),
        (broken(2, seat=9), None, 3, "player 9"),
        (game_log()[1:], None, 1, "opens with its header"),
    ],
)
def test_broken_logs_name_the_line(
    tmp_path: Path, events: list[ClueEvent], extra: dict[int, str] | None, line: int, message: str
) -> None:
    path = write(tmp_path / "bad.jsonl", events, extra)
    with pytest.raises(LogError, match=message) as info:
        audit_log(path)
    assert info.value.line == line
    assert f"bad.jsonl:{line}:" in str(info.value)


def test_line_numbers_count_blank_lines(tmp_path: Path) -> None:
    path = write(tmp_path / "gap.jsonl", broken(2, weapon="Wrench"))
    text = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([text[0], "", *text[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(LogError) as info:
        audit_log(path)
    assert info.value.line == 4


def test_contradictory_log_without_deal_is_reported_at_its_line(tmp_path: Path) -> None:
    events = game_log(deal=None)
    events.insert(1, HandEvent(seq=1, round=0, turn=0, seat=0, cards=(CARD["Plum"], CARD["Knife"])))
    events = [events[0], *(e.model_copy(update={"seq": i + 1}) for i, e in enumerate(events[1:]))]
    assert isinstance(events[10], SuggestionEvent) and isinstance(events[12], PassEvent)
    events[10] = events[10].model_copy(update={"room": "Study"})
    with pytest.raises(LogError, match=r"player 0: .* contradicts") as info:
        audit_log(write(tmp_path / "lie.jsonl", events))
    assert info.value.line == 13


def test_nothing_to_audit(tmp_path: Path) -> None:
    with pytest.raises(LogError, match="nothing to audit"):
        audit_log(write(tmp_path / "none.jsonl", game_log(deal=None)))


def test_the_documented_example_log_audits_as_documented(tmp_path: Path) -> None:
    page = Path(__file__).parent.parent / "docs" / "games" / "clue.md"
    example = page.read_text(encoding="utf-8").split("```jsonl\n", 1)[1].split("```", 1)[0]
    audit = audit_log(write_text(tmp_path / "ann.jsonl", example))
    (ann,) = audit.players
    assert ann.name == "Ann" and not audit.has_truth
    assert [c.status for c in ann.checks] == [
        ClaimStatus.ENTAILED,
        ClaimStatus.ENTAILED,
        ClaimStatus.CONTRADICTED,
    ]
    assert (ann.recall_stated, ann.recall_entailed) == (1, 2)


def write_text(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_log_without_its_end_event_is_audited_as_incomplete(tmp_path: Path) -> None:
    whole = audit_log(write(tmp_path / "whole.jsonl", game_log()))
    assert whole.complete and "incomplete" not in render_audit(whole)
    cut = audit_log(write(tmp_path / "cut.jsonl", game_log()[:-1]))
    assert not cut.complete and cut.result is None
    assert "the game is incomplete" in render_audit(cut)
    assert '"complete":false' in cut.model_dump_json()
