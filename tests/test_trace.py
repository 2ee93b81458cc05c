"""Reasoning traces: parsing with line-numbered errors, and step-by-step audits."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from provers.sat_prover import SatProver
from reasoning.claims import ClaimStatus
from reasoning.trace import TraceError, audit_trace, load_trace, parse_trace
from reasoning.verifier import Verifier

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "trace.jsonl"


def test_example_trace_audit() -> None:
    audits = audit_trace(Verifier(SatProver()), load_trace(EXAMPLE)).steps
    got = [(a.step, c.claim, c.status, c.kind) for a in audits for c in a.checks]
    assert got == [
        (2, "~bob_knife", ClaimStatus.ENTAILED, "sound"),
        (2, "envelope_rope", ClaimStatus.UNDETERMINED, "lucky"),
        (3, "envelope_rope", ClaimStatus.ENTAILED, "sound"),
        (3, "bob_rope", ClaimStatus.CONTRADICTED, "wrong"),
    ]


def test_claims_see_only_earlier_observations() -> None:
    text = (
        '{"kind": "step", "claims": ["p"]}\n{"kind": "step", "observe": ["p"], "claims": ["p"]}\n'
    )
    audits = audit_trace(Verifier(SatProver()), parse_trace(text)).steps
    assert [a.checks[0].status for a in audits] == [ClaimStatus.UNDETERMINED, ClaimStatus.ENTAILED]
    assert all(c.correctness is None for a in audits for c in a.checks)


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('{"kind": "step"}\nnot json\n', 2, "not valid JSON"),
        ('{"kind": "stepp"}\n', 1, "kind"),
        ('{"kind": "step", "claims": ["p &"]}\n', 1, "claims[0]: line 1, column"),
        ('\n{"kind": "truth", "formulas": ["(q"]}\n', 2, "formulas[0]"),
        ('{"kind": "step", "observe": [], "extra": 1}\n', 1, "extra"),
    ],
)
def test_bad_lines_name_their_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(TraceError) as info:
        parse_trace(text, source="t.jsonl")
    assert info.value.line == line
    assert str(info.value).startswith(f"t.jsonl:{line}: ")
    assert fragment in str(info.value)


def test_sort_and_arity_clashes_name_their_line() -> None:
    text = '{"kind": "step", "observe": ["P(c)"]}\n\n{"kind": "step", "claims": ["q", "P(c, d)"]}\n'
    with pytest.raises(TraceError) as info:
        parse_trace(text, source="t.jsonl")
    assert str(info.value).startswith("t.jsonl:3: claims[1]: arity clash on 'P'")


def test_deep_json_and_bom_and_bad_bytes(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match=r"t\.jsonl:1: nested deeper than 100 levels"):
        parse_trace("[" * 100_000, source="t.jsonl")
    path = tmp_path / "t.jsonl"
    path.write_bytes(codecs.BOM_UTF8 + b'{"kind": "step", "observe": ["p"], "claims": ["p"]}\n')
    assert load_trace(path).steps[0].claims == ["p"]
    path.write_bytes(b'{"kind": "step"}\n{"kind": "step", "observe": ["\x80"]}\n')
    with pytest.raises(TraceError, match=r":2: not UTF-8: byte 0x80 at line 2, column 31"):
        load_trace(path)
