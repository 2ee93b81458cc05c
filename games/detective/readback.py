"""A card's text read back and judged by a prover: it passes only when it states exactly the
card's facts.

``read_card`` reads every sentence of a text with ``formalize.reading.statements`` (a witness's
"I" naming the witness) and asks the prover two kinds of question under the setting's
background theory: each sentence that states something must be entailed by the card's facts
(with what the introduction already told every reader), so the text adds nothing and
contradicts nothing; and each fact of the card must be entailed by one sentence alone, so
nothing is lost and every fact has the sentence that states it. A sentence the reader cannot
read decisively fails the card, and so does a question the prover leaves open (a timeout, an
unknown): a text is never passed on a guess. The problems are said in words a writer can act
on; ``check_case`` asks the same of every card a model wrote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from formalize.reading.statements import StatementReader, StatementReading
from formalize.world.clauses import clause_templates, fill
from formalize.world.facts import fact_of
from formalize.world.setting import Setting
from formalize.world.theory import background_theory
from games.detective.narrative import sentences
from reasoning.formula import Formula, atoms, conj
from reasoning.prover import Axiom, Prover, check_consistency
from reasoning.syntax import format_formula
from reasoning.verdict import Verdict

DEFAULT_PROOF_TIMEOUT = 10.0
"""Seconds the prover may take over one question about a card."""

_EXCERPT = 70


@dataclass(frozen=True, slots=True)
class CardReading:
    """A card's text read back: each sentence's reading, per fact of the card the sentence
    that states it (None when none does), the problems (none when the text passes) and the
    number of questions the prover was asked."""

    readings: tuple[StatementReading, ...]
    stated_by: tuple[int | None, ...]
    problems: tuple[str, ...]
    proofs: int

    @property
    def ok(self) -> bool:
        """Whether the text states exactly the card's facts."""
        return not self.problems


def fact_wording(formula: Formula, setting: Setting) -> str:
    """A fact in the plain words of its first clause (its formula when it is none of the
    generator's kinds of fact)."""
    fact = fact_of(formula, setting)
    if fact is None:
        return format_formula(formula)
    return fill(clause_templates(fact)[0], fact, setting)


def _quoted(text: str) -> str:
    short = text if len(text) <= _EXCERPT else text[: _EXCERPT - 3].rstrip() + "..."
    return f'"{short}"'


class _Asker:
    """The prover's questions about one card, counted."""

    def __init__(self, prover: Prover, theory: Sequence[Axiom], timeout: float) -> None:
        self.prover = prover
        self.theory = list(theory)
        self.timeout = timeout
        self.calls = 0

    def entails(self, premises: Sequence[Axiom], goal: Formula, theory: bool = True) -> Verdict:
        """Whether ``premises`` (with the background theory, unless ``theory`` is False)
        entail ``goal``."""
        self.calls += 1
        given = [*self.theory, *premises] if theory else list(premises)
        return self.prover.prove(given, goal, self.timeout).verdict

    def follows(self, premises: Sequence[Axiom], goal: Formula) -> Verdict:
        """``entails``, asked without the theory first: a small question, and what follows
        from fewer premises follows from more."""
        alone = self.entails(premises, goal, theory=False)
        return alone if alone is Verdict.VALID else self.entails(premises, goal)

    def consistent(self, premises: Sequence[Axiom]) -> Verdict:
        """VALID when ``premises`` with the theory are inconsistent, INVALID when they are not."""
        self.calls += 1
        return check_consistency(self.prover, [*self.theory, *premises], self.timeout).verdict

    def stating(self, said: dict[int, Formula], fact: Formula) -> int | Verdict:
        """The sentence of ``said`` that alone entails ``fact`` (asked first without the theory
        of every sentence, sharing an atom with ``fact`` first), or the verdict that stopped the
        search (INVALID when no sentence does)."""
        order = _order(said, fact)
        for i in order:
            if self.entails([Axiom("sentence", said[i])], fact, theory=False) is Verdict.VALID:
                return i
        for i in order:
            verdict = self.entails([Axiom("sentence", said[i])], fact)
            if verdict is Verdict.VALID:
                return i
            if verdict is not Verdict.INVALID:
                return verdict
        return Verdict.INVALID


def _order(said: dict[int, Formula], fact: Formula) -> list[int]:
    """The sentences that state something, those sharing an atom with ``fact`` first."""
    names = {a.pred for a in atoms(fact)}
    return sorted(said, key=lambda i: not names & {a.pred for a in atoms(said[i])})


def read_card(
    text: str,
    facts: Sequence[Formula],
    setting: Setting,
    prover: Prover,
    *,
    speaker: str | None = None,
    known: Sequence[Formula] = (),
    timeout: float = DEFAULT_PROOF_TIMEOUT,
) -> CardReading:
    """Read ``text`` back against the card's ``facts`` (see the module docstring); ``known``
    is what the introduction told, ``speaker`` the witness whose card it is."""
    reader = StatementReader(setting)
    readings = tuple(reader.read(s, speaker) for s in sentences(text))
    problems = [
        f"sentence {i} ({_quoted(r.text)}) cannot be read: {r.note}"
        for i, r in enumerate(readings, 1)
        if r.outcome == "unsure"
    ]
    if problems:
        return CardReading(readings, tuple(None for _ in facts), tuple(problems), 0)
    ask = _Asker(prover, background_theory(setting), timeout)
    told = [Axiom("introduction", conj(known)), Axiom("card", conj(facts))]
    stating = [i for i, r in enumerate(readings) if r.formula is not None]
    said: dict[int, Formula] = {}
    for i in stating:
        formula = readings[i].formula
        assert formula is not None
        said[i] = formula
        verdict = ask.follows(told, formula)
        where = f"sentence {i + 1} ({_quoted(readings[i].text)})"
        if verdict is Verdict.INVALID:
            clash = ask.consistent([*told, Axiom("sentence", formula)])
            if clash is Verdict.VALID:
                problems.append(f"{where} contradicts the facts")
            elif clash is Verdict.INVALID:
                problems.append(f"{where} says something the facts do not")
            else:
                problems.append(f"{where}: the prover could not decide it ({clash.value})")
        elif verdict is not Verdict.VALID:
            problems.append(f"{where}: the prover could not decide it ({verdict.value})")
    stated_by: list[int | None] = []
    for number, fact in enumerate(facts, 1):
        found = ask.stating(said, fact)
        stated_by.append(found if isinstance(found, int) else None)
        wording = _quoted(fact_wording(fact, setting))
        if found is Verdict.INVALID:
            problems.append(f"fact {number} ({wording}) is not stated by any one sentence")
        elif isinstance(found, Verdict):
            problems.append(f"fact {number} ({wording}): the prover could not decide it")
    return CardReading(readings, tuple(stated_by), tuple(problems), ask.calls)
