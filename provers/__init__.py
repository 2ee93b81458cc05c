"""Backends behind the ``reasoning.Prover`` interface: Z3, cvc5, SAT, E prover and Isabelle/HOL.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from provers.conformance import ProverConformanceError as ProverConformanceError
    from provers.conformance import check_prover as check_prover
    from provers.cvc5_prover import Cvc5Prover as Cvc5Prover
    from provers.eprover import EProver as EProver
    from provers.eprover import eprover_available as eprover_available
    from provers.isabelle import IsabelleProver as IsabelleProver
    from provers.isabelle import isabelle_available as isabelle_available
    from provers.model_eval import evaluate as evaluate
    from provers.registry import BACKENDS as BACKENDS
    from provers.registry import DEFAULT_PROVER as DEFAULT_PROVER
    from provers.registry import PROVER_NAMES as PROVER_NAMES
    from provers.registry import Backend as Backend
    from provers.registry import get_prover as get_prover
    from provers.sat_prover import SatProver as SatProver
    from provers.sat_session import SatSession as SatSession
    from provers.smtlib import to_smtlib as to_smtlib
    from provers.tptp import to_tptp as to_tptp
    from provers.z3_prover import Z3Prover as Z3Prover

_HOMES = {
    "BACKENDS": "provers.registry",
    "Backend": "provers.registry",
    "ProverConformanceError": "provers.conformance",
    "check_prover": "provers.conformance",
    "Cvc5Prover": "provers.cvc5_prover",
    "DEFAULT_PROVER": "provers.registry",
    "EProver": "provers.eprover",
    "IsabelleProver": "provers.isabelle",
    "PROVER_NAMES": "provers.registry",
    "SatProver": "provers.sat_prover",
    "SatSession": "provers.sat_session",
    "Z3Prover": "provers.z3_prover",
    "eprover_available": "provers.eprover",
    "evaluate": "provers.model_eval",
    "get_prover": "provers.registry",
    "isabelle_available": "provers.isabelle",
    "to_smtlib": "provers.smtlib",
    "to_tptp": "provers.tptp",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
