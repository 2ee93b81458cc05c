"""Isabelle/HOL backend: theory text, the server lifecycle, the prover and proof sketches."""

from provers.isabelle.prover import IsabelleProver
from provers.isabelle.server import (
    ENV_VAR,
    IsabelleServer,
    IsabelleServerError,
    IsabelleTimeout,
    TheoryCheck,
    TheoryMessage,
    find_isabelle,
    isabelle_available,
    shared_server,
)
from provers.isabelle.sketch import (
    ATP_TAG,
    SketchResult,
    SketchStep,
    SketchSyntaxError,
    check_sketch,
    parse_sketch,
    render_sketch,
)
from provers.isabelle.theory_text import (
    CARD_EXPANSION_LIMIT,
    ProofTextError,
    render_formula,
    render_theory,
)

__all__ = [
    "ATP_TAG",
    "CARD_EXPANSION_LIMIT",
    "ENV_VAR",
    "IsabelleProver",
    "IsabelleServer",
    "IsabelleServerError",
    "IsabelleTimeout",
    "ProofTextError",
    "SketchResult",
    "SketchStep",
    "SketchSyntaxError",
    "TheoryCheck",
    "TheoryMessage",
    "check_sketch",
    "find_isabelle",
    "isabelle_available",
    "parse_sketch",
    "render_formula",
    "render_sketch",
    "render_theory",
    "shared_server",
]
