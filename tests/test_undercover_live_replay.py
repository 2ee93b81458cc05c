"""A four-seat Undercover-V game of SmolLM2-135M-Instruct (llama-cpp-python server, one thread,
temperature 0) in two LLM seats, ``att-nli`` and the ``nli`` spy holding Earl Grey, against two
prover agents, with the combined description reader (offline, the LLM where it is unsure),
replayed from its compressed recordings through ``play undercover --replay``: every LLM seat's
description is read, decided readings are judged, the rest unjudged, and none is left
``not_formalised`` for want of a reader."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from benchmarks.console.cli import app
from games.undercover.audit import audit_record
from games.undercover.entry import ENTRY
from games.undercover.events import CheckOutcome, DescriptionEvent
from reasoning.verifier import ClaimStatus

RECORDED = Path(__file__).parent / "fixtures" / "llm" / "undercover-live"
GAME = "undercover-earl-grey-tea-ceylon-tea-seed1"
ARGS = ["play", "undercover", "--agents", "att-nli,nli,prover*2", "--seed", "1"]
LLM_SEATS = {0: "att-nli", 1: "nli"}


def calls(name: str) -> list[dict[str, object]]:
    """The recorded calls of ``name`` (``seat0``, ``reader``)."""
    data = gzip.decompress((RECORDED / "llm" / f"{GAME}.{name}.jsonl.gz").read_bytes())
    return [json.loads(line) for line in data.splitlines()]


def test_the_recorded_game_replays_to_the_same_log(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, [*ARGS, "--reader", "combined", "--replay", str(RECORDED), "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / f"{GAME}.jsonl").read_text() == (RECORDED / f"{GAME}.jsonl").read_text()
    assert "description reader" in result.output


def test_every_llm_seats_description_is_read_and_audited() -> None:
    log = ENTRY.read_log(RECORDED / f"{GAME}.jsonl")
    described = [e for e in log.events if isinstance(e, DescriptionEvent)]
    assert all(e.reading is not None for e in described)
    said = {(e.round, e.seat): e.outcome for e in described if e.seat in LLM_SEATS}
    # SmolLM2 wrote nothing the pair's vocabulary can say, and its reader said so (unsure), but
    # for one description it called every attribute merely offered: a reading of no claim.
    assert said == {
        (1, 0): CheckOutcome.UNREAD,
        (1, 1): CheckOutcome.NO_CLAIM,
        (2, 1): CheckOutcome.UNREAD,
    }
    llm_read = [e.reading for e in described if e.reading is not None and e.reading.calls]
    assert [r.reader for r in llm_read] == ["offline+llm"] * 3
    assert sum(r.calls for r in llm_read) == len(calls("reader")) == 6
    assert all(r.vote is not None and len(r.vote.recorded) == 2 for r in llm_read)
    record = audit_record(log)
    assert record.figures["descriptions"] == 7 and record.figures["unread"] == 2
    assert record.figures["no_claim"] == 1 and record.figures["read"] == 5
    judged = Counter(
        (r.seat in LLM_SEATS, r.detail["reading"], r.status, r.judgement) for r in record.rows
    )
    assert judged == {
        (True, "unsure", ClaimStatus.UNKNOWN, "unjudged"): 2,
        (False, "claims", ClaimStatus.ENTAILED, "sound"): 4,
    }
    assert all(r.detail["note"] for r in record.rows if r.detail["reading"] == "unsure")
