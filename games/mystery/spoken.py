"""A character's spoken answer, formalised and matched to the replies it may give.

The answer's English goes through the autoformalisation loop (``formalize.davidsonian``) with the
mystery's propositional atoms as a closed vocabulary and a prover for the backend check. The
logical form counts only when the prover shows it equivalent, both ways, to the facts of one
legal reply (the truth, the truth less secrets, a decline, a murderer's cover story); that
reply's typed facts are what everyone hears. Anything else raises ``UnreadAnswer`` with the
reason, to send back to the model.
"""

from __future__ import annotations

from collections.abc import Sequence

from formalize.davidsonian.autoformalize import Autoformalizer
from formalize.interrogation.questions import Question, render_question
from formalize.world import atoms
from formalize.world.facts import Fact, fact_formula
from formalize.world.setting import Setting
from games.mystery.engine import MysteryView, Reply
from reasoning.formula import Formula, conj
from reasoning.prover import Axiom, Prover
from reasoning.sorts import Signature
from reasoning.verdict import Verdict


class UnreadAnswer(ValueError):
    """A spoken answer that is not formalised or matches no legal reply; the message says why."""


def answer_vocabulary(setting: Setting) -> Signature:
    """Every atom an answer may use: where each person was and who held each weapon, per time."""
    slots = range(len(setting.slots))
    names = [
        atoms.at(p.id, lid.id, t).pred
        for p in setting.people
        for lid in setting.places
        for t in slots
    ]
    names += [
        atoms.holds(p.id, w.id, t).pred
        for p in setting.people
        for w in setting.weapons
        for t in slots
    ]
    return Signature(predicates={name: () for name in names})


def answer_hints(setting: Setting, question: Question) -> list[str]:
    """The lines that tell the formaliser the mystery's vocabulary and the question answered."""

    def table(pairs: Sequence[tuple[str, str]]) -> str:
        return ", ".join(f"{key} = {name}" for key, name in pairs)

    return [
        f"The sentence is a character's answer to: {render_question(setting, question)}",
        "Write it in propositional logic over these atoms only (no quantifiers, no events, "
        "no other names): at_P_L_T (person P was in place L at time T) and holds_P_W_T "
        "(person P held weapon W at time T).",
        "People: " + table([(p.id, p.name) for p in setting.people]),
        "Places: " + table([(lid.id, lid.name) for lid in setting.places]),
        "Times: " + table([(str(t), name) for t, name in enumerate(setting.slots)]),
        "Weapons: " + table([(w.id, w.name) for w in setting.weapons]),
        "'No one else was there' negates the at_ atom of every other person. Two people saw "
        "each other at T when they were in one place then: the | over every place L of "
        "(at_A_L_T & at_B_L_T). A refusal, or an answer that states nothing, is the formula "
        "true.",
    ]


def facts_formula(setting: Setting, facts: Sequence[Fact]) -> Formula:
    """The conjunction of the facts' formulas (true for no facts)."""
    return conj(fact_formula(f, setting) for f in facts)


def equivalent(prover: Prover, a: Formula, b: Formula, timeout: float | None = None) -> bool:
    """Whether the prover shows ``a`` entails ``b`` and ``b`` entails ``a``."""
    return all(
        prover.prove((Axiom("said", premise),), goal, timeout).verdict is Verdict.VALID
        for premise, goal in ((a, b), (b, a))
    )


class AnswerReader:
    """Turns a seat's spoken answer into one of its legal replies (see the module docstring)."""

    def __init__(self, formalizer: Autoformalizer, prover: Prover) -> None:
        self.formalizer = formalizer
        self.prover = prover

    def read(self, text: str, obs: MysteryView) -> Reply:
        """The legal reply ``text`` states; raises UnreadAnswer saying why there is none.

        LLMEndpointError from the formaliser's client propagates.
        """
        if obs.pending is None:
            raise UnreadAnswer("there is no question to answer")
        if not text.strip():
            raise UnreadAnswer('"say" is empty: answer the question in one or two sentences')
        s = obs.setting
        done = self.formalizer.formalize(
            text,
            vocabulary=answer_vocabulary(s),
            allowed_constants=(),
            hints=answer_hints(s, obs.pending.question),
        )
        if done.formula is None:
            raise UnreadAnswer(f"your answer could not be put into logic: {done.error}")
        for reply in obs.legal:
            if isinstance(reply, Reply) and equivalent(
                self.prover, done.formula, facts_formula(s, reply.facts), self.formalizer.timeout
            ):
                return reply
        may = "tell what you remember, leave out what you keep secret, or decline"
        if obs.murderer:
            may += ", or tell your cover story"
        raise UnreadAnswer(
            f"your answer reads as {done.formula_text}, which is not an answer you may give; "
            f"you may {may}, and say it completely"
        )
