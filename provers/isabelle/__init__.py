"""Isabelle/HOL backend: theory text, the server lifecycle, the prover and proof sketches.

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from provers.isabelle.prover import IsabelleProver as IsabelleProver
    from provers.isabelle.server import ENV_VAR as ENV_VAR
    from provers.isabelle.server import IsabelleServer as IsabelleServer
    from provers.isabelle.server import IsabelleServerError as IsabelleServerError
    from provers.isabelle.server import IsabelleTimeout as IsabelleTimeout
    from provers.isabelle.server import TheoryCheck as TheoryCheck
    from provers.isabelle.server import TheoryMessage as TheoryMessage
    from provers.isabelle.server import find_isabelle as find_isabelle
    from provers.isabelle.server import isabelle_available as isabelle_available
    from provers.isabelle.server import shared_server as shared_server
    from provers.isabelle.sketch import ATP_TAG as ATP_TAG
    from provers.isabelle.sketch import SketchResult as SketchResult
    from provers.isabelle.sketch import SketchStep as SketchStep
    from provers.isabelle.sketch import SketchSyntaxError as SketchSyntaxError
    from provers.isabelle.sketch import check_sketch as check_sketch
    from provers.isabelle.sketch import parse_sketch as parse_sketch
    from provers.isabelle.sketch import render_sketch as render_sketch
    from provers.isabelle.theory_text import CARD_EXPANSION_LIMIT as CARD_EXPANSION_LIMIT
    from provers.isabelle.theory_text import ProofTextError as ProofTextError
    from provers.isabelle.theory_text import render_formula as render_formula
    from provers.isabelle.theory_text import render_theory as render_theory

_HOMES = {
    "ATP_TAG": "provers.isabelle.sketch",
    "CARD_EXPANSION_LIMIT": "provers.isabelle.theory_text",
    "ENV_VAR": "provers.isabelle.server",
    "IsabelleProver": "provers.isabelle.prover",
    "IsabelleServer": "provers.isabelle.server",
    "IsabelleServerError": "provers.isabelle.server",
    "IsabelleTimeout": "provers.isabelle.server",
    "ProofTextError": "provers.isabelle.theory_text",
    "SketchResult": "provers.isabelle.sketch",
    "SketchStep": "provers.isabelle.sketch",
    "SketchSyntaxError": "provers.isabelle.sketch",
    "TheoryCheck": "provers.isabelle.server",
    "TheoryMessage": "provers.isabelle.server",
    "check_sketch": "provers.isabelle.sketch",
    "find_isabelle": "provers.isabelle.server",
    "isabelle_available": "provers.isabelle.server",
    "parse_sketch": "provers.isabelle.sketch",
    "render_formula": "provers.isabelle.theory_text",
    "render_sketch": "provers.isabelle.sketch",
    "render_theory": "provers.isabelle.theory_text",
    "shared_server": "provers.isabelle.server",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
