"""Isabelle/HOL theory text for an entailment problem, in the shape of seed 002's Fig. 7.

One ``typedecl`` per sort, a ``consts`` block typing every predicate and constant, one
``axiomatization`` per axiom (with a comment naming it), the ``hypothesis`` theorem and its proof
text. Every symbol is an encoded identifier behind a prefix per kind (``s_`` sorts, ``p_``
predicates, ``c_`` constants, ``v_`` variables, ``a_`` axioms), so no name can inject Isabelle
text; proof text is checked against a small grammar before it is placed in a theory.

Formulas use Isabelle's ASCII symbol notation (``\\<forall>``, ``\\<and>`` ...), which every
Isabelle tool reads; ``unicode=True`` prints the same symbols as Unicode (∀, ∧ ...) for display.
Cardinality constraints are expanded into a disjunction of conjunctions, one per subset of the
parts, up to ``CARD_EXPANSION_LIMIT`` cases.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from provers.identifiers import axiom_id, const_id, pred_id, sort_id, var_id
from provers.signature import (
    GOAL_PLACE,
    MalformedProblem,
    UnsupportedProblem,
    axiom_place,
    collect_signature,
)
from provers.trampoline import Walk, run
from reasoning.formula import (
    TOP,
    And,
    Atom,
    Card,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Truth,
    Var,
    children,
    conj,
    disj,
)
from reasoning.prover import Axiom

THEOREM_NAME = "hypothesis"
CARD_EXPANSION_LIMIT = 256
DIAGNOSTIC_COMMANDS = frozenset({"sledgehammer", "nitpick", "try0", "try"})

_THEORY_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_STRING = re.compile(r"\"(?:[^\"\\]|\\<\^?[A-Za-z][A-Za-z0-9_']*>)*\"")
_OUTSIDE = re.compile(r"[A-Za-z0-9_'.,:;()\[\]=+\-?!| \t\n]*")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'.]*")
_COMMENT_SAFE = re.compile(r"[A-Za-z0-9 _.,:;!?=+\-/#@%&^~|'<>\[\]$]")
_DENIED_WORDS = frozenset(
    {
        "ML", "ML_val", "ML_command", "ML_prf", "ML_file", "ML_export", "ML_import",
        "SML_file", "SML_import", "SML_export", "setup", "local_setup", "declaration",
        "syntax_declaration", "method_setup", "attribute_setup", "simproc_setup", "oracle",
        "parse_translation", "print_translation", "typed_print_translation",
        "parse_ast_translation", "print_ast_translation", "tactic", "raw_tactic",
        "export_code", "code_reflect", "generate_file", "export_generated_files",
        "compile_generated_files", "external_file", "sorry", "axiomatization", "axioms",
        "theory", "begin", "end", "context", "locale", "interpretation", "sublocale",
        "global_interpretation", "instantiation", "lemma", "theorem", "corollary",
        "proposition", "schematic_goal", "declare", "definition", "consts", "typedecl",
        "notepad", "bundle", "unbundle", "quick_and_dirty",
    }
)  # fmt: skip
_UNICODE_SYMBOLS = {
    "∀": "forall", "∃": "exists", "∄": "nexists", "∧": "and", "\N{LOGICAL OR}": "or", "¬": "not",
    "⟶": "longrightarrow", "→": "longrightarrow", "⟷": "longleftrightarrow",
    "↔": "longleftrightarrow", "⇒": "Rightarrow", "⟹": "Longrightarrow", "⋀": "And",
    "≠": "noteq", "≤": "le", "≥": "ge", "∈": "in", "∉": "notin", "λ": "lambda",
    "⊆": "subseteq", "\N{UNION}": "union", "∩": "inter", "≡": "equiv",
}  # fmt: skip


class ProofTextError(ValueError):
    """Proof text that is refused before it reaches Isabelle; the message names the line."""


@dataclass(frozen=True, slots=True)
class _Symbols:
    forall: str
    exists: str
    conj: str
    disj: str
    neg: str
    implies: str
    iff: str
    arrow: str


_ASCII = _Symbols(
    "\\<forall>",
    "\\<exists>",
    "\\<and>",
    "\\<or>",
    "\\<not>",
    "\\<longrightarrow>",
    "\\<longleftrightarrow>",
    "\\<Rightarrow>",
)
_UNICODE = _Symbols("∀", "∃", "∧", "\N{LOGICAL OR}", "¬", "⟶", "⟷", "⇒")

# Precedences of HOL's concrete syntax: binders 10, iff/implies 25 (right), or 30, and 35,
# not 40, equality 50.
_BINDER, _ARROW, _OR, _AND, _NOT, _EQ, _ATOMIC = 10, 25, 30, 35, 40, 50, 1000


def isabelle_name(ident: str) -> str:
    """An identifier from ``provers.identifiers`` as Isabelle takes it, still injective.

    A trailing underscore marks internal names in Isabelle, so an identifier that would end in
    one gets a prime, a character the encoding never produces.
    """
    return ident + "'" if ident.endswith("_") else ident


def check_theory_name(name: str) -> str:
    """Return ``name`` if it can name a theory (and its file), else raise ValueError."""
    if not _THEORY_NAME.fullmatch(name) or name.endswith("_"):
        raise ValueError(
            f"theory name {name!r} must be a letter followed by letters, digits or underscores "
            "(not ending in an underscore)"
        )
    return name


def expand_card(op: str, k: int, parts: Sequence[Formula], place: str = "the formula") -> Formula:
    """The cardinality constraint as a disjunction of conjunctions, one per subset of ``parts``.

    "exactly k" lists each k-subset true and the rest false, "at least k" each k-subset true,
    "at most k" each (n-k)-subset false. Raises ``UnsupportedProblem`` above
    ``CARD_EXPANSION_LIMIT`` cases.
    """
    n = len(parts)
    if (op == "atmost" and k >= n) or (op == "atleast" and k == 0):
        return TOP
    size = n - k if op == "atmost" else k
    cases = comb(n, size) if 0 <= size <= n else 0
    if cases > CARD_EXPANSION_LIMIT:
        raise UnsupportedProblem(
            f"cardinality constraint '{op} {k} of {n}' expands to {cases} cases, above the "
            f"Isabelle limit of {CARD_EXPANSION_LIMIT}; use the z3 or sat backend (in {place})"
        )
    out: list[Formula] = []
    for subset in combinations(range(n), size) if cases else ():
        chosen = set(subset)
        if op == "exactly":
            out.append(conj(p if i in chosen else Not(p) for i, p in enumerate(parts)))
        elif op == "atleast":
            out.append(conj(parts[i] for i in subset))
        else:
            out.append(conj(Not(parts[i]) for i in subset))
    return disj(out)


def render_formula(f: Formula, *, unicode: bool = False, place: str = "the formula") -> str:
    """``f`` as an Isabelle/HOL term (without quotes); ``f`` must be sorted and closed."""
    return _Printer(_UNICODE if unicode else _ASCII, place).formula(f)


def render_theory(
    axioms: Sequence[Axiom],
    goal: Formula,
    name: str = "Hypothesis",
    *,
    proof: str = "sledgehammer",
    unicode: bool = False,
) -> str:
    """The theory stating ``axioms`` and the theorem ``hypothesis: goal``, proved by ``proof``.

    ``proof`` follows the theorem statement; when its last line is a diagnostic command
    (``sledgehammer``, ``nitpick``, ``try0``, ``try``) an ``oops`` closes the attempt. Raises
    ``MalformedProblem`` for an ill-sorted problem, ``UnsupportedProblem`` for an oversized
    cardinality constraint,
    ``ProofTextError`` for refused proof text and ValueError for a bad theory name.
    """
    check_theory_name(name)
    signature = collect_signature(axioms, goal)
    symbols = _UNICODE if unicode else _ASCII
    lines = [f"theory {name}", "  imports Main", "begin", ""]
    lines += [f"typedecl {isabelle_name(sort_id(sort))}" for sort in signature.sorts]
    consts = [
        f'  {isabelle_name(pred_id(pred))} :: "{_function_type(arg_sorts, symbols)}"'
        for pred, arg_sorts in signature.predicates.items()
    ]
    consts += [
        f'  {isabelle_name(const_id(const))} :: "{isabelle_name(sort_id(sort))}"'
        for const, sort in signature.constants.items()
    ]
    if signature.sorts:
        lines.append("")
    if consts:
        lines += ["consts", *consts, ""]
    for axiom in axioms:
        text = _Printer(symbols, axiom_place(axiom.name)).formula(axiom.formula)
        lines += [
            f"(* axiom {_comment_text(axiom.name)} *)",
            "axiomatization where",
            f'  {isabelle_name(axiom_id(axiom.name))}: "{text}"',
            "",
        ]
    lines += [
        f"theorem {THEOREM_NAME}:",
        f'  shows "{_Printer(symbols, GOAL_PLACE).formula(goal)}"',
        *_proof_lines(proof),
        "",
        "end",
    ]
    return "\n".join(lines) + "\n"


def proof_start_line(theory: str) -> int:
    """The 1-based line where the proof text of ``render_theory``'s theorem starts."""
    marker = f"theorem {THEOREM_NAME}:"
    for number, line in enumerate(theory.splitlines(), start=1):
        if line == marker:
            return number + 2
    raise ValueError(f"no '{marker}' line in the theory")


def isabelle_symbols(text: str) -> str:
    """Replace the Unicode logic symbols in ``text`` by Isabelle's ASCII notation (∀ -> \\<forall>).

    Raises ``ProofTextError`` for any other non-ASCII character.
    """
    out: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        for column, ch in enumerate(line, start=1):
            if ch.isascii():
                out.append(ch)
            elif ch in _UNICODE_SYMBOLS:
                out.append(f"\\<{_UNICODE_SYMBOLS[ch]}>")
            else:
                raise ProofTextError(
                    f"unsupported character {ch!r} (U+{ord(ch):04X}) at line {number}, "
                    f"column {column}"
                )
        out.append("\n")
    return "".join(out[:-1])


def check_proof_text(text: str) -> str:
    """Return ``text`` if it is safe proof text, else raise ``ProofTextError`` naming the line.

    Safe: ASCII; strings are double-quoted with only ``\\<name>`` escapes; outside strings only
    identifiers, numbers, brackets and ``.,:;=+-?!|``; no ``[[`` and no command that runs ML,
    cheats (``sorry``), adds axioms or leaves the proof.
    """
    position = 0
    while position < len(text):
        if text[position] == '"':
            found = _STRING.match(text, position)
            if found is None:
                raise ProofTextError(
                    f"unterminated string or unsupported escape at line {_line_of(text, position)}"
                    " (strings may only contain \\<name> symbols)"
                )
            position = found.end()
            continue
        end = text.find('"', position)
        end = len(text) if end == -1 else end
        _check_outside(text, position, end)
        position = end
    return text


def _check_outside(text: str, start: int, end: int) -> None:
    segment = text[start:end]
    allowed = _OUTSIDE.match(segment)
    if allowed is None or allowed.end() != len(segment):
        bad = allowed.end() if allowed is not None else 0
        raise ProofTextError(
            f"character {segment[bad]!r} is not allowed in proof text outside strings "
            f"(line {_line_of(text, start + bad)})"
        )
    if "[[" in segment:
        where = start + segment.index("[[")
        raise ProofTextError(f"'[[' is not allowed in proof text (line {_line_of(text, where)})")
    for word in _WORD.finditer(segment):
        if word.group(0) in _DENIED_WORDS:
            raise ProofTextError(
                f"{word.group(0)!r} is not allowed in proof text "
                f"(line {_line_of(text, start + word.start())})"
            )


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _proof_lines(proof: str) -> list[str]:
    body = textwrap.dedent(check_proof_text(proof)).strip("\n")
    if not body.strip():
        raise ProofTextError("empty proof text")
    lines = ["  " + line.rstrip() if line.strip() else "" for line in body.split("\n")]
    last = next(line for line in reversed(lines) if line.strip())
    if _WORD.match(last.strip()) and last.split()[0] in DIAGNOSTIC_COMMANDS:
        lines.append("  oops")
    return lines


def _function_type(arg_sorts: Sequence[str], symbols: _Symbols) -> str:
    return f" {symbols.arrow} ".join([*(isabelle_name(sort_id(s)) for s in arg_sorts), "bool"])


def _comment_text(name: str) -> str:
    """``name`` for a comment: safe ASCII kept, anything else (``*``, ``(``, newlines) as U+XXXX."""
    return "".join(ch if _COMMENT_SAFE.fullmatch(ch) else f"U+{ord(ch):04X}" for ch in name)


def _term(t: Term) -> str:
    return isabelle_name(var_id(t.name)) if isinstance(t, Var) else isabelle_name(const_id(t.name))


def _in_atom(name: str, f: Formula) -> bool:
    """True when variable ``name`` (free in ``f``) is an argument of some atom of ``f``."""
    stack = [f]
    while stack:
        match stack.pop():
            case Atom(_, args):
                if any(isinstance(a, Var) and a.name == name for a in args):
                    return True
            case Forall(variables, body) | Exists(variables, body):
                if all(v.name != name for v in variables):
                    stack.append(body)
            case Card(op, k, parts):
                stack.append(expand_card(op, k, parts))
            case g:
                stack.extend(children(g))
    return False


class _Printer:
    """Prints one checked formula with the fewest parentheses HOL's precedences allow."""

    def __init__(self, symbols: _Symbols, place: str) -> None:
        self.symbols = symbols
        self.place = place

    def formula(self, f: Formula, need: int = 0) -> str:
        """``f`` as HOL text, parenthesised when its precedence is below ``need`` (any depth)."""
        return run(self._formula(f, need))

    def _formula(self, f: Formula, need: int = 0) -> Walk[str]:
        text, precedence = yield self._render(f)
        return f"({text})" if precedence < need else text

    def _render(self, f: Formula) -> Walk[tuple[str, int]]:
        s = self.symbols
        match f:
            case Atom(pred, args):
                return " ".join([isabelle_name(pred_id(pred)), *map(_term, args)]), _ATOMIC
            case Eq(left, right):
                return f"{_term(left)} = {_term(right)}", _EQ
            case Truth(value):
                return ("True" if value else "False"), _ATOMIC
            case Not(body):
                return f"{s.neg} {(yield self._formula(body, _NOT))}", _NOT
            case And(parts) | Or(parts) if len(parts) < 2:
                one = conj(parts) if isinstance(f, And) else disj(parts)
                single: tuple[str, int] = yield self._render(one)
                return single
            case And(parts) | Or(parts):
                level = _AND if isinstance(f, And) else _OR
                texts: list[str] = []
                for part in parts:
                    texts.append((yield self._formula(part, level + 1)))
                connective = s.conj if isinstance(f, And) else s.disj
                return f" {connective} ".join(texts), level
            case Implies(left, right) | Iff(left, right):
                symbol_text = s.implies if isinstance(f, Implies) else s.iff
                left_text = yield self._formula(left, _ARROW + 1)
                right_text = yield self._formula(right, _ARROW)
                return f"{left_text} {symbol_text} {right_text}", _ARROW
            case Forall(variables, body) | Exists(variables, body):
                if not variables:
                    bare: tuple[str, int] = yield self._render(body)
                    return bare
                binder = s.forall if isinstance(f, Forall) else s.exists
                body_text = yield self._formula(body)
                return f"{binder}{self._binders(variables, body)}. {body_text}", _BINDER
            case Card(op, k, parts):
                expanded: tuple[str, int] = yield self._render(
                    expand_card(op, k, parts, self.place)
                )
                return expanded
        raise MalformedProblem(f"{f!r} is not a formula (in {self.place})")

    def _binders(self, variables: tuple[Var, ...], body: Formula) -> str:
        """Bound names; a type constraint only where no atom fixes the variable's type."""
        names = []
        for v in variables:
            ident = isabelle_name(var_id(v.name))
            if _in_atom(v.name, body):
                names.append(ident)
            else:
                names.append(f"({ident}::{isabelle_name(sort_id(str(v.sort)))})")
        return " ".join(names)
