"""A formula checked against the sentence it is said to mean, before it is taken as its meaning.

Whoever wrote the formula (a seat's own formaliser, as in seed 002's pipeline, or a reader), it
is accepted only when:

1. its predicates are the vocabulary's, once the synonyms a formaliser may use are read as the
   vocabulary's own names (``canonical``);
2. it is a conjunction of literals (``formalize.davidsonian.literals``) each about the described
   thing and nothing else;
3. rendered back to words (``formalize.davidsonian.render``, from its literal form), those words
   read back, by the offline reader, to the same literals;
4. the sentence itself reads to the same literals (when a reading of it is given: a sentence the
   readers are unsure of confirms no formula).

A formula that fails is not the sentence's meaning; the check says which step failed, and the
words it rendered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from formalize.davidsonian.literals import Claim, about_only, conjunction, literals_of
from formalize.davidsonian.render import render_english
from formalize.reading.attribute_reader import AttributeReader
from formalize.reading.attributes import UnknownLiteral
from formalize.reading.reading import CheckStep, FormulaCheck
from reasoning.formula import Formula, atoms, constants
from reasoning.syntax import format_formula


def check_formula(
    reader: AttributeReader,
    formula: Formula,
    sentence: Sequence[Claim] | None,
    *,
    canonical: Callable[[Formula], Formula] = lambda f: f,
) -> FormulaCheck:
    """Whether ``formula`` is accepted as the meaning of a sentence whose reading is
    ``sentence`` (its literals; None when unsure), over ``reader``'s vocabulary (see the
    module docstring)."""
    vocabulary = reader.vocabulary

    def refused(step: CheckStep, reason: str, rendering: str | None = None) -> FormulaCheck:
        return FormulaCheck(accepted=False, rendering=rendering, failed=step, reason=reason)

    read = canonical(formula)
    unknown = sorted({a.pred for a in atoms(read)} - vocabulary.predicates)
    if unknown:
        return refused("vocabulary", f"predicates not in the vocabulary: {', '.join(unknown)}")
    claims = literals_of(read)
    if claims is None:
        return refused("literals", "not a conjunction of literals")
    if not about_only(claims, vocabulary.subject):
        names = sorted({c.name for claim in claims for c in constants(claim.core)})
        return refused(
            "subject", f"not about {vocabulary.subject!r} alone (it names {', '.join(names)})"
        )
    if not claims:
        rendering = None
    else:
        try:
            ordered = vocabulary.ordered(claims)
        except UnknownLiteral:
            ordered = claims
        rendering = render_english(conjunction(ordered))
        understood = reader.understand(rendering)
        back = {(name, holds) for name, holds in understood.asserted.items()}
        expected = {(vocabulary.slot_of(c), c.holds) for c in claims}
        if understood.unsure is not None or understood.hedged or back != expected:
            why = understood.unsure or "it reads back otherwise"
            return refused(
                "rendering", f"its rendering does not read back to it ({why})", rendering
            )
    if sentence is None:
        return refused("sentence", "the sentence has no reading to confirm it", rendering)
    if set(sentence) != set(claims):
        shown = format_formula(conjunction(vocabulary.ordered(sentence)))
        return refused("sentence", f"the sentence reads otherwise: {shown}", rendering)
    return FormulaCheck(accepted=True, rendering=rendering)
