"""Audit an agent's stated deductions about a tiny Clue deal with the SAT backend."""

from provers.registry import get_prover
from reasoning import Verifier

knowledge = [
    "exactly 1 of {alice_knife, bob_knife, envelope_knife}",
    "alice_knife",
]
report = Verifier(get_prover("sat")).audit(
    knowledge,
    claims=["~bob_knife", "envelope_knife"],
    truth=["alice_knife", "~bob_knife", "~envelope_knife"],
)
for check in report.checks:
    print(f"{check.claim:16s} {check.status.value:13s} {check.correctness} {check.kind}")
