"""The neuro-symbolic pipeline of the Undercover-V agent (seed 002, Appendix B).

For every other player j, against the agent's own word w:

1. knowledge base: j's descriptions are the facts F_j; the LLM adds rules R_j linking them to
   the candidate words (w, and the guess of the other word);
2. autoformalisation of every sentence of F_j and R_j into a Neo-Davidsonian logical form
   (``formalize.davidsonian.autoformalize``), giving the axioms A; the theorem tau is
   ``W(item)``, "the item is my word", with W the predicate of w;
3. syntax refinement (Algorithm 1): the theory is checked (parsed, sorted, then handed to the
   backend); while it has a syntax error the error goes back to the LLM, at most 5 times;
4. the early-stop majority vote (Algorithm 2, ``reasoning.vote``) over backend attempts decides;
5. the record V labels j's descriptions valid (tau proved), invalid (not proved: a countermodel,
   or no proof found, as in the seed) or syntax error.

After a vote that removed player j, the guess g of the other word is checked against j's
theory with theorem ``G(item)``; when the prover cannot prove it, its trace (a countermodel
counts as one; with Isabelle, the first failing step of an LLM proof sketch) goes to the LLM,
which updates or keeps the guess (eqs. 11-13).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from formalize.davidsonian.autoformalize import Autoformalizer, Formalization
from formalize.davidsonian.render import ITEM
from games.undercover import prompts
from games.undercover.agent import Observation
from games.undercover.llm_schemas import guess_update_answer_model
from provers.isabelle.prover import IsabelleProver
from provers.isabelle.server import isabelle_available
from provers.isabelle.sketch import SketchSyntaxError, check_sketch
from provers.isabelle.theory_text import ProofTextError, render_theory
from provers.registry import FIRST_ORDER_NAMES, get_prover
from provers.signature import MalformedProblem
from reasoning.formula import Atom, Const, Formula
from reasoning.llm import (
    ChatClient,
    FallbackCounter,
    FallbackReason,
    FallbackSnapshot,
    MalformedAnswer,
    ask_structured,
    labelled_fields,
    system,
    user,
)
from reasoning.prover import Prover
from reasoning.sorts import Signature, SortError, erase_sorts
from reasoning.syntax import format_formula, format_name
from reasoning.theory import Theory, TheoryError, parse_theory
from reasoning.verdict import ProofResult, Verdict
from reasoning.vote import DEFAULT_MAX_ATTEMPTS, early_stop_vote, outcome_class

MAX_SYNTAX_REFINEMENTS = 5
"""Algorithm 1's cap on syntax-refinement rounds."""

AUTO_BACKEND = "auto"
"""The pipeline's default backend: Isabelle where installed, else Z3."""

_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)```", re.DOTALL)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_WORD_PART = re.compile(r"\w+")
_GOAL_LINE = re.compile(r"goal[ \t]*:")


class Validity(StrEnum):
    """An entry of the logical record V: do a player's descriptions entail my word?"""

    VALID = "valid"
    INVALID = "invalid"
    SYNTAX_ERROR = "syntax error"


def validity_of(verdict: Verdict) -> Validity:
    """The record label of a vote's verdict: no proof (INVALID, UNKNOWN, TIMEOUT) is invalid."""
    if verdict is Verdict.VALID:
        return Validity.VALID
    if verdict is Verdict.SYNTAX_ERROR:
        return Validity.SYNTAX_ERROR
    return Validity.INVALID


class PipelineSettings(BaseModel):
    """How the pipeline runs: backend, refinement and repair caps, vote size, prover time limit."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    backend: str = AUTO_BACKEND
    """``auto`` or a first-order backend of ``provers.registry.BACKENDS``."""
    max_refinements: int = Field(default=MAX_SYNTAX_REFINEMENTS, ge=0, le=MAX_SYNTAX_REFINEMENTS)
    formalize_repairs: int = Field(default=2, ge=0)
    max_rules: int = Field(default=4, ge=0)
    vote_attempts: int = Field(default=DEFAULT_MAX_ATTEMPTS, ge=1)
    timeout_s: float = Field(default=10.0, gt=0.0)
    max_reprompts: int = Field(default=3, ge=0)
    proof_sketches: bool = True

    @field_validator("backend")
    @classmethod
    def _first_order(cls, value: str) -> str:
        if value != AUTO_BACKEND and value not in FIRST_ORDER_NAMES:
            choices = ", ".join((AUTO_BACKEND, *FIRST_ORDER_NAMES))
            raise ValueError(f"must be one of {choices}, got {value!r}")
        return value


def select_backend(backend: str = AUTO_BACKEND) -> Prover:
    """The prover a setting names: ``auto`` is Isabelle where installed, else Z3.

    ProverUnavailable (with an install hint) when the named backend cannot run here.
    """
    if backend == AUTO_BACKEND:
        return get_prover("isabelle" if isabelle_available() else "z3")
    return get_prover(backend)


def word_predicate(word: str) -> str:
    """The predicate naming a word in logical forms: ``Earl Grey Tea`` -> ``EarlGreyTea``."""
    parts = _WORD_PART.findall(word.replace("_", " "))
    name = "".join(p[:1].upper() + p[1:] for p in parts)
    if not name:
        raise ValueError(f"the word {word!r} has no letters or digits to name a predicate")
    return name if not name[0].isdigit() else "W" + name


def word_goal(word: str) -> Formula:
    """The theorem "the item is ``word``": ``W(item)``."""
    return Atom(word_predicate(word), (Const(ITEM),))


class KnowledgeBase(BaseModel):
    """KB_j = F_j united with R_j: one player's descriptions and the LLM's rules about them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    facts: tuple[str, ...]
    rules: tuple[str, ...]


class PlayerVerification(BaseModel):
    """One entry of the record V: the verdict on one player's descriptions against my word.

    ``label`` is the record's three-way label; ``verdict`` the vote's verdict (which tells a
    countermodel, INVALID, from no proof found, UNKNOWN/TIMEOUT); ``theory`` the theory text
    checked last; ``refinements`` the Algorithm 1 rounds used; ``ballots`` the vote's attempts;
    ``trace`` the countermodel or the prover's message; ``unformalised`` the sentences for which
    no logical form was obtained (left out of the theory).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    word: str
    label: Validity
    verdict: Verdict
    facts: tuple[str, ...]
    rules: tuple[str, ...]
    theory: str
    refinements: int = Field(ge=0)
    ballots: tuple[Verdict, ...] = ()
    message: str = ""
    trace: str | None = None
    unformalised: tuple[str, ...] = ()


class LogicalRecord(BaseModel):
    """The record V of one agent at one moment: an entry per other living player who spoke."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    word: str
    guess: str | None
    entries: tuple[PlayerVerification, ...]

    def entry(self, seat: int) -> PlayerVerification | None:
        """The entry for ``seat``, or None when it has none."""
        return next((e for e in self.entries if e.seat == seat), None)

    def labels(self) -> dict[int, Validity]:
        """Each seat's label."""
        return {e.seat: e.label for e in self.entries}

    def validity_text(self) -> str:
        """The labels as lines for a prompt."""
        if not self.entries:
            return "No other player has described their word yet."
        return "\n".join(f"- {prompts.player(e.seat)}: {e.label.value}" for e in self.entries)

    def reasoning_text(self) -> str:
        """Every player's facts and rules as lines for a prompt."""
        if not self.entries:
            return "None yet."
        blocks = []
        for e in self.entries:
            lines = [f"{prompts.player(e.seat)}:"]
            lines += [f"  fact: {f}" for f in e.facts]
            lines += [f"  rule: {r}" for r in e.rules]
            blocks.append("\n".join(lines))
        return "\n".join(blocks)

    def prompt_block(self) -> str:
        """The prover's record as shown to the agent."""
        return (
            f"Facts and rules behind the prover's checks:\n{self.reasoning_text()}\n\n"
            f"Does each player's description entail your word card?\n{self.validity_text()}"
        )


class GuessRefinement(BaseModel):
    """What guess-word refinement did after ``seat`` was voted out (seed 002, eqs. 11-13).

    ``decision`` is ``skipped`` (the voted-out player's entry was not invalid, or there was no
    guess), ``kept`` or ``updated``; ``provable`` is valid(Theta') (None when not checked);
    ``trace`` is what was shown to the LLM.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    seat: int
    old_guess: str | None
    new_guess: str | None
    decision: Literal["skipped", "kept", "updated"]
    provable: bool | None = None
    trace: str | None = None
    reason: str = ""


class RulesAnswer(BaseModel):
    """The LLM's rules for a knowledge base."""

    rules: tuple[str, ...] = Field(min_length=1)


class GuessUpdateAnswer(BaseModel):
    """The LLM's decision on its guess of the other word."""

    decision: Literal["keep", "update"]
    guess: str = Field(min_length=1)


def read_rules(text: str) -> RulesAnswer:
    """The bulleted lines under ``RULES:``; MalformedAnswer when there are none."""
    body = labelled_fields(text, [prompts.RULES], required=[prompts.RULES])[prompts.RULES]
    rules = tuple(
        stripped
        for line in body.splitlines()
        if (stripped := " ".join(_BULLET.sub("", line).split()))
    )
    if not rules:
        raise MalformedAnswer(f"no rule listed under {prompts.RULES}:")
    return RulesAnswer(rules=rules)


def read_guess_update(text: str) -> GuessUpdateAnswer:
    """The ``DECISION:`` and ``GUESS:`` lines of a guess-update answer."""
    fields = labelled_fields(
        text,
        [prompts.REASONING, prompts.ROLE, prompts.DECISION, prompts.GUESS],
        required=[prompts.DECISION, prompts.GUESS],
    )
    decision = fields[prompts.DECISION].strip().strip(".").lower()
    if decision not in ("keep", "update"):
        raise MalformedAnswer(f"{prompts.DECISION}: must be keep or update, not {decision!r}")
    return GuessUpdateAnswer.model_validate(
        {"decision": decision, "guess": clean_word(fields[prompts.GUESS])}
    )


def clean_word(text: str) -> str:
    """A guessed word as answered, without quotes, trailing dots or extra spaces."""
    return " ".join(text.strip().strip("\"'`*.").split())


def theory_text(entries: Sequence[tuple[str, str, str]], goal: Formula, header: str = "") -> str:
    """A theory in the project's theory syntax: ``(name, sentence, formula text)`` per axiom,
    each under a comment holding its sentence, then the goal."""
    lines = [f"# {' '.join(header.split())}"] if header else []
    for name, sentence, formula in entries:
        one_line = formula.replace("\r", " ").replace("\n", " ")
        lines.append(f"# {' '.join(sentence.split())}")
        lines.append(f"axiom {format_name(name)}: {one_line}")
    lines.append(f"goal: {format_formula(erase_sorts(goal))}")
    return "\n".join(lines) + "\n"


def with_goal_line(text: str, goal: Formula) -> str:
    """A theory text with its goal statement (and the lines continuing it) replaced by ``goal``."""
    kept: list[str] = []
    in_goal = False
    for line in text.splitlines():
        if _GOAL_LINE.match(line):
            in_goal = True
            continue
        if in_goal and line[:1].isspace():
            continue
        in_goal = False
        kept.append(line)
    return "\n".join([*kept, f"goal: {format_formula(erase_sorts(goal))}"]) + "\n"


@dataclass(frozen=True, slots=True)
class CheckedTheory:
    """One check of a theory text: the theory (None if it does not read), the backend's first
    answer, and the syntax problem to send back (None when there is none)."""

    theory: Theory | None
    result: ProofResult | None
    problem: str | None


class NeuroSymbolicPipeline:
    """Builds and checks every other player's theory against the agent's word; refines guesses.

    The LLM ``client`` writes rules, logical forms, syntax repairs and guess updates; ``prover``
    (default: ``select_backend(settings.backend)``) checks theories. Rules, logical forms and
    verifications are cached, so a round only pays for what is new. Unusable LLM answers after
    the re-prompts are counted, by phase (``rules`` and ``guess``), in ``fallbacks``.
    """

    def __init__(
        self,
        client: ChatClient,
        prover: Prover | None = None,
        settings: PipelineSettings | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        self.client = client
        self.settings = settings if settings is not None else PipelineSettings()
        self.prover = prover if prover is not None else select_backend(self.settings.backend)
        self._fallbacks = FallbackCounter()
        self.seed = seed
        self.formalizer = Autoformalizer(
            client,
            max_repairs=self.settings.formalize_repairs,
            timeout=self.settings.timeout_s,
            seed=seed,
        )
        self._rules: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}
        self._forms: dict[str, Formalization] = {}
        self._verified: dict[tuple[int, tuple[str, ...], str, str | None], PlayerVerification] = {}

    @property
    def fallbacks(self) -> FallbackSnapshot:
        """The pipeline's fallbacks so far, by phase (``rules``, ``guess``) and reason."""
        return self._fallbacks.snapshot()

    def candidates(self, word: str, guess: str | None) -> tuple[str, ...]:
        """The candidate words rules are written for: my word, and the guess if any."""
        return (word,) if guess is None or _same_word(guess, word) else (word, guess)

    def knowledge_base(
        self, seat: int, facts: Sequence[str], word: str, guess: str | None
    ) -> KnowledgeBase:
        """KB_j: the facts and the LLM's rules linking them to the candidate words."""
        facts = tuple(facts)
        words = self.candidates(word, guess)
        key = (facts, words)
        if key not in self._rules:
            self._rules[key] = self._ask_rules(facts, words)
        return KnowledgeBase(seat=seat, facts=facts, rules=self._rules[key])

    def formalize(self, sentence: str, signature: Signature, hints: Sequence[str]) -> Formalization:
        """The logical form of ``sentence`` (cached by sentence)."""
        key = " ".join(sentence.split())
        if key not in self._forms:
            self._forms[key] = self.formalizer.formalize(sentence, signature=signature, hints=hints)
        return self._forms[key]

    def verify(
        self, seat: int, facts: Sequence[str], word: str, guess: str | None
    ) -> PlayerVerification:
        """The record entry for ``seat``'s descriptions ``facts`` against ``word``."""
        key = (seat, tuple(facts), word, guess)
        if key not in self._verified:
            self._verified[key] = self._verify(seat, tuple(facts), word, guess)
        return self._verified[key]

    def record(self, obs: Observation, guess: str | None) -> LogicalRecord:
        """V for ``obs``: every other living player who has spoken, in seat order."""
        entries = []
        for seat in obs.living:
            spoken = obs.descriptions_by(seat)
            if seat == obs.seat or not spoken:
                continue
            entries.append(self.verify(seat, [d.text for d in spoken], obs.word, guess))
        return LogicalRecord(round=obs.round, word=obs.word, guess=guess, entries=tuple(entries))

    def check_theory(self, text: str, goal: Formula) -> tuple[str, CheckedTheory, int]:
        """Algorithm 1: check ``text`` with ``goal`` and send syntax errors back to the LLM.

        Returns the last theory text, its check and the number of refinement rounds used.
        """
        checked = self._check(text, goal)
        rounds = 0
        while checked.problem is not None and rounds < self.settings.max_refinements:
            text = self._refine(text, checked.problem)
            rounds += 1
            checked = self._check(text, goal)
        return text, checked, rounds

    def refine_guess(
        self, obs: Observation, guess: str | None, role: str | None
    ) -> GuessRefinement | None:
        """After a vote that removed a player, refine ``guess`` from that player's theory.

        None when the last finished vote removed nobody. ``role`` is the agent's current belief
        (``citizen`` or ``spy``), which the update prompt asks it to weigh.
        """
        if not obs.votes or obs.votes[-1].eliminated is None:
            return None
        seat = obs.votes[-1].eliminated
        base = GuessRefinement(
            round=obs.round, seat=seat, old_guess=guess, new_guess=guess, decision="skipped"
        )
        spoken = [d.text for d in obs.descriptions_by(seat)]
        if guess is None or not spoken:
            return base.model_copy(update={"reason": "no guess, or nothing to check it against"})
        entry = self.verify(seat, spoken, obs.word, guess)
        if entry.label is not Validity.INVALID:
            return base.model_copy(
                update={"reason": f"player {seat}'s descriptions were labelled {entry.label.value}"}
            )
        provable, trace, shown = self._guess_check(entry, guess)
        if provable:
            return base.model_copy(
                update={
                    "decision": "kept",
                    "provable": True,
                    "reason": "the guess follows from the voted-out player's theory",
                }
            )
        checked = base.model_copy(update={"decision": "kept", "provable": False, "trace": trace})

        def parse(text: str) -> GuessUpdateAnswer:
            answer = read_guess_update(text)
            if _same_word(answer.guess, obs.word):
                raise MalformedAnswer(f"{prompts.GUESS}: the other word differs from your own")
            return answer

        outcome = ask_structured(
            self.client,
            prompts.conversation(obs, prompts.update_guess_prompt(obs, seat, guess, shown, trace)),
            GuessUpdateAnswer,
            parse=parse,
            max_reprompts=self.settings.max_reprompts,
            seed=self.seed,
            answer=guess_update_answer_model(),
        )
        answer = outcome.value
        if answer is None:
            self._give_up("guess")
            return checked.model_copy(update={"reason": "no usable answer; the guess is kept"})
        updated = answer.decision == "update" and not _same_word(answer.guess, guess)
        return checked.model_copy(
            update={
                "new_guess": answer.guess if updated else guess,
                "decision": "updated" if updated else "kept",
                "reason": f"the LLM chose to {answer.decision} the guess "
                f"(role belief: {role or 'none'})",
            }
        )

    def _verify(
        self, seat: int, facts: tuple[str, ...], word: str, guess: str | None
    ) -> PlayerVerification:
        kb = self.knowledge_base(seat, facts, word, guess)
        goal = word_goal(word)
        words = self.candidates(word, guess)
        signature = Signature(
            predicates={word_predicate(w): ("entity",) for w in words},
            constants={ITEM: "entity"},
        )
        hints = [f'The word "{w}" is written as the predicate {word_predicate(w)}.' for w in words]
        axioms: list[tuple[str, str, str]] = []
        unformalised: list[str] = []
        for kind, sentences in (("fact", kb.facts), ("rule", kb.rules)):
            for index, sentence in enumerate(sentences, start=1):
                form = self.formalize(sentence, signature, hints)
                if form.formula is not None:
                    signature = form.signature
                    text = format_formula(erase_sorts(form.formula))
                else:
                    unformalised.append(sentence)
                    text = form.last_text or ""
                if text:
                    axioms.append((f"{kind}_{index}", sentence, text))
        base = PlayerVerification(
            seat=seat,
            word=word,
            label=Validity.SYNTAX_ERROR,
            verdict=Verdict.SYNTAX_ERROR,
            facts=kb.facts,
            rules=kb.rules,
            theory="",
            refinements=0,
            unformalised=tuple(unformalised),
        )
        if not any(name.startswith("fact_") for name, _, _ in axioms):
            return base.model_copy(update={"message": "no description could be formalised"})
        header = f"player {seat}'s descriptions against the word card {word!r}"
        text, checked, rounds = self.check_theory(theory_text(axioms, goal, header), goal)
        base = base.model_copy(update={"theory": text, "refinements": rounds})
        if checked.theory is None or checked.result is None:
            return base.model_copy(update={"message": checked.problem or ""})
        theory, first = checked.theory, checked.result
        assert theory.goal is not None
        sorted_goal = theory.goal
        vote = early_stop_vote(
            lambda i: (
                first
                if i == 0
                else self.prover.prove(theory.axioms, sorted_goal, self.settings.timeout_s)
            ),
            self.settings.vote_attempts,
        )
        evidence = next(
            (r for r in vote.attempts if outcome_class(r.verdict) is vote.verdict), first
        )
        return base.model_copy(
            update={
                "label": validity_of(vote.verdict),
                "verdict": vote.verdict,
                "ballots": tuple(r.verdict for r in vote.attempts),
                "message": evidence.message,
                "trace": None if vote.verdict is Verdict.VALID else _trace(evidence),
            }
        )

    def _check(self, text: str, goal: Formula) -> CheckedTheory:
        try:
            parsed = parse_theory(text, source="theory")
        except TheoryError as err:
            return CheckedTheory(None, None, f"{err}\n{err.excerpt}")
        if not parsed.axioms:
            return CheckedTheory(None, None, "the theory has no axioms")
        try:
            theory = Theory.build(parsed.axioms, goal)
        except (SortError, ValueError) as err:
            return CheckedTheory(None, None, f"the goal does not fit the axioms: {err}")
        assert theory.goal is not None
        result = self.prover.prove(theory.axioms, theory.goal, self.settings.timeout_s)
        if result.verdict is Verdict.SYNTAX_ERROR:
            return CheckedTheory(theory, result, f"{result.prover}: {result.message}")
        return CheckedTheory(theory, result, None)

    def _refine(self, text: str, problem: str) -> str:
        reply = self.client.complete(
            [system(prompts.REFINE_SYSTEM), user(prompts.refine_request(text, problem))],
            seed=self.seed,
        ).content
        fenced = _FENCE.search(reply)
        return (fenced.group(1) if fenced is not None else reply).strip() + "\n"

    def _ask_rules(self, facts: tuple[str, ...], words: tuple[str, ...]) -> tuple[str, ...]:
        if self.settings.max_rules == 0:
            return ()
        outcome = ask_structured(
            self.client,
            [system(prompts.RULES_SYSTEM), user(prompts.rules_request(facts, words))],
            RulesAnswer,
            parse=read_rules,
            max_reprompts=self.settings.max_reprompts,
            seed=self.seed,
        )
        if outcome.value is None:
            self._give_up("rules")
            return ()
        return outcome.value.rules[: self.settings.max_rules]

    def _give_up(self, phase: str) -> None:
        """Count a fallback of ``phase`` by reason and in the client's meter."""
        self._fallbacks.record(phase, FallbackReason.UNPARSED.value)
        self.client.meter.record_fallback()

    def _guess_check(self, entry: PlayerVerification, guess: str) -> tuple[bool, str, str]:
        """valid(Theta') for the guess, the trace when not valid, and the theory text shown."""
        goal = word_goal(guess)
        try:
            parsed = parse_theory(entry.theory, source="theory")
            theory = Theory.build(parsed.axioms, goal)
        except (TheoryError, SortError, ValueError) as err:
            return False, f"the theory could not be built for the guess: {err}", entry.theory
        shown = with_goal_line(entry.theory, goal)
        assert theory.goal is not None
        final_goal = theory.goal
        vote = early_stop_vote(
            lambda _: self.prover.prove(theory.axioms, final_goal, self.settings.timeout_s),
            self.settings.vote_attempts,
        )
        if vote.verdict is Verdict.VALID:
            return True, "", shown
        evidence = next(
            (r for r in vote.attempts if outcome_class(r.verdict) is vote.verdict),
            vote.attempts[0],
        )
        if evidence.countermodel is None and self.settings.proof_sketches:
            proved, sketch = self._sketch_trace(theory, final_goal)
            if proved:
                return True, "", shown
            if sketch is not None:
                return False, sketch, shown
        return False, _trace(evidence) or evidence.message, shown

    def _sketch_trace(self, theory: Theory, goal: Formula) -> tuple[bool, str | None]:
        """With Isabelle, check an LLM proof sketch (seed 002, Fig. 8): whether it proves the
        goal, and else its first failing step as the trace (None without Isabelle)."""
        if not isinstance(self.prover, IsabelleProver):
            return False, None
        try:
            isabelle_theory = render_theory(theory.axioms, goal, proof="oops")
        except (MalformedProblem, ProofTextError):
            return False, None
        reply = self.client.complete(
            [system(prompts.SKETCH_SYSTEM), user(prompts.sketch_request(isabelle_theory))],
            seed=self.seed,
        ).content
        fenced = _FENCE.search(reply)
        sketch = (fenced.group(1) if fenced is not None else reply).strip()
        try:
            result = check_sketch(self.prover, theory.axioms, goal, sketch, self.settings.timeout_s)
        except SketchSyntaxError as err:
            return False, f"the proof sketch could not be read: {err}"
        if result.ok:
            return True, None
        return False, (
            f"proof sketch:\n{sketch}\n"
            f"first failing step ({result.verdict.value}): {result.failed_text}\n{result.message}"
        )


def _trace(result: ProofResult) -> str | None:
    """A prover's trace: its countermodel when it has one, else its message."""
    if result.countermodel is not None:
        return "countermodel:\n" + result.countermodel.render()
    return result.message or None


def _same_word(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()
