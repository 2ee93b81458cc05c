"""Neo-Davidsonian logical forms: lint messages and controlled-English rendering."""

from formalize.davidsonian.lint import LintCode, LintMessage, Severity, lint
from formalize.davidsonian.render import render_english

__all__ = ["LintCode", "LintMessage", "Severity", "lint", "render_english"]
