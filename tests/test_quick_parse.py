"""The quick reader gives exactly what the grammar gives, or leaves the text to the grammar."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reasoning.formula import Formula
from reasoning.sorts import erase_sorts
from reasoning.strategies import fol_formulas, propositional_formulas
from reasoning.syntax import FormulaSyntaxError, _parse_lalr, format_formula, quick_parse

TOKENS = (
    "p", "q", "P", "a", "b", "true", "false", "exactly", "atmost", "atleast", "of", "forall",
    "x", "1", "0", "12", "~", "&", "|", "->", "<->", "(", ")", "{", "}", ",", " ", "=", ".",
    "#c", '"q"', "∧", "?", "@", ":", "\n", "Tea", "x'",
)  # fmt: skip


def _lalr(text: str) -> Formula | None:
    try:
        return _parse_lalr(text)
    except FormulaSyntaxError:
        return None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=14).map("".join))
def test_quick_reader_agrees_with_the_grammar_on_token_soup(text: str) -> None:
    quick = quick_parse(text)
    if quick is not None:
        assert quick == _lalr(text)


@settings(max_examples=100, deadline=None)
@given(
    st.one_of(
        propositional_formulas(max_leaves=10),
        fol_formulas(max_depth=0, equality=False).map(erase_sorts),
    )
)
def test_quick_reader_reads_printed_quantifier_free_formulas(f: Formula) -> None:
    text = format_formula(f)
    assert quick_parse(text) == f == _lalr(text)
