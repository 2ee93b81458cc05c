"""Neo-Davidsonian logical forms: lint, controlled-English rendering.

LLM autoformalisation with repair rounds lives in ``formalize.davidsonian.autoformalize``
(imported from there, since it brings in the LLM client).
"""

from formalize.davidsonian.lint import LintCode, LintMessage, Severity, lint
from formalize.davidsonian.render import ITEM, render_english

__all__ = ["ITEM", "LintCode", "LintMessage", "Severity", "lint", "render_english"]
