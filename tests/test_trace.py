"""Reasoning traces: parsing with line-numbered errors, and step-by-step audits."""

from __future__ import annotations

from pathlib import Path

import pytest

from provers.sat_prover import SatProver
from reasoning.trace import TraceError, audit_trace, load_trace, parse_trace
from reasoning.verifier import ClaimStatus, Verifier

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
        ('{"kind": "step"}\nnot json\n', 2, "not JSON"),
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
