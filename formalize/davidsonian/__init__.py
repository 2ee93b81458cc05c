"""Neo-Davidsonian logical forms: lint, controlled-English rendering.

LLM autoformalisation with repair rounds lives in ``formalize.davidsonian.autoformalize``
(imported from there, since it brings in the LLM client).

Each name is imported from its module on first use, so importing one submodule stays cheap.
"""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from formalize.davidsonian.lint import LintCode as LintCode
    from formalize.davidsonian.lint import LintMessage as LintMessage
    from formalize.davidsonian.lint import Severity as Severity
    from formalize.davidsonian.lint import lint as lint
    from formalize.davidsonian.render import ITEM as ITEM
    from formalize.davidsonian.render import render_english as render_english

_HOMES = {
    "ITEM": "formalize.davidsonian.render",
    "LintCode": "formalize.davidsonian.lint",
    "LintMessage": "formalize.davidsonian.lint",
    "Severity": "formalize.davidsonian.lint",
    "lint": "formalize.davidsonian.lint",
    "render_english": "formalize.davidsonian.render",
}

__all__ = sorted(_HOMES)
__getattr__ = lazy_exports(__name__, _HOMES)
