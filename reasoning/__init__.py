"""gumshoe's core: formulas, syntax, verdicts, the Prover protocol, the vote, the Verifier.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from reasoning.claims import ClaimStatus as ClaimStatus
    from reasoning.claims import Correctness as Correctness
    from reasoning.epr import GroundedSession as GroundedSession
    from reasoning.formula import Formula as Formula
    from reasoning.prover import Axiom as Axiom
    from reasoning.prover import Prover as Prover
    from reasoning.prover import ProverUnavailable as ProverUnavailable
    from reasoning.prover import check_consistency as check_consistency
    from reasoning.session import ConstraintEntailment as ConstraintEntailment
    from reasoning.session import EntailmentSession as EntailmentSession
    from reasoning.session import EntailmentSessionFactory as EntailmentSessionFactory
    from reasoning.session import GroundAtoms as GroundAtoms
    from reasoning.sorts import Signature as Signature
    from reasoning.sorts import SortError as SortError
    from reasoning.sorts import infer_sorts as infer_sorts
    from reasoning.syntax import FormulaSyntaxError as FormulaSyntaxError
    from reasoning.syntax import format_formula as format_formula
    from reasoning.syntax import parse_formula as parse_formula
    from reasoning.theory import Theory as Theory
    from reasoning.theory import TheoryError as TheoryError
    from reasoning.theory import format_theory as format_theory
    from reasoning.theory import load_theory as load_theory
    from reasoning.theory import parse_theory as parse_theory
    from reasoning.trace import ReasoningTrace as ReasoningTrace
    from reasoning.trace import SortedTrace as SortedTrace
    from reasoning.trace import TraceAudit as TraceAudit
    from reasoning.trace import TraceError as TraceError
    from reasoning.trace import audit_trace as audit_trace
    from reasoning.trace import audit_trace_incremental as audit_trace_incremental
    from reasoning.trace import load_trace as load_trace
    from reasoning.trace import parse_trace as parse_trace
    from reasoning.verdict import Countermodel as Countermodel
    from reasoning.verdict import ProofResult as ProofResult
    from reasoning.verdict import Verdict as Verdict
    from reasoning.verifier import AuditReport as AuditReport
    from reasoning.verifier import ClaimCheck as ClaimCheck
    from reasoning.verifier import RecallReport as RecallReport
    from reasoning.verifier import Verifier as Verifier
    from reasoning.vote import VoteProver as VoteProver
    from reasoning.vote import VoteResult as VoteResult
    from reasoning.vote import early_stop_vote as early_stop_vote
    from reasoning.vote import first_repeat as first_repeat

_HOMES = {
    "AuditReport": "reasoning.verifier",
    "Axiom": "reasoning.prover",
    "ClaimCheck": "reasoning.verifier",
    "ClaimStatus": "reasoning.claims",
    "ConstraintEntailment": "reasoning.session",
    "Correctness": "reasoning.claims",
    "Countermodel": "reasoning.verdict",
    "EntailmentSession": "reasoning.session",
    "EntailmentSessionFactory": "reasoning.session",
    "Formula": "reasoning.formula",
    "FormulaSyntaxError": "reasoning.syntax",
    "GroundAtoms": "reasoning.session",
    "GroundedSession": "reasoning.epr",
    "ProofResult": "reasoning.verdict",
    "Prover": "reasoning.prover",
    "ProverUnavailable": "reasoning.prover",
    "ReasoningTrace": "reasoning.trace",
    "RecallReport": "reasoning.verifier",
    "Signature": "reasoning.sorts",
    "SortError": "reasoning.sorts",
    "SortedTrace": "reasoning.trace",
    "Theory": "reasoning.theory",
    "TheoryError": "reasoning.theory",
    "TraceAudit": "reasoning.trace",
    "TraceError": "reasoning.trace",
    "Verdict": "reasoning.verdict",
    "Verifier": "reasoning.verifier",
    "VoteProver": "reasoning.vote",
    "VoteResult": "reasoning.vote",
    "audit_trace": "reasoning.trace",
    "audit_trace_incremental": "reasoning.trace",
    "check_consistency": "reasoning.prover",
    "early_stop_vote": "reasoning.vote",
    "first_repeat": "reasoning.vote",
    "format_formula": "reasoning.syntax",
    "format_theory": "reasoning.theory",
    "infer_sorts": "reasoning.sorts",
    "load_theory": "reasoning.theory",
    "load_trace": "reasoning.trace",
    "parse_formula": "reasoning.syntax",
    "parse_theory": "reasoning.theory",
    "parse_trace": "reasoning.trace",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
