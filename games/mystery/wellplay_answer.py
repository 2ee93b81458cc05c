"""An LLM answers a character's WellPlay questions, graded by the key.

The seed's two no-play settings: ``own`` gives the model its character's script only, ``all``
every character's script. The model answers each question with option letters; a reply that
stays malformed after the re-prompts counts as wrong and is counted as a fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.mystery.wellplay import LETTERS, WellPlayCharacter, WellPlayQuestion, WellPlayScript
from reasoning.llm import ChatClient, ask_structured, system, user

Knowledge = Literal["own", "all"]


class LetterAnswer(BaseModel):
    """The chosen options' letters (``"a"``, ``"b,d"``)."""

    model_config = ConfigDict(extra="ignore")

    answer: str


@dataclass
class Graded:
    """One answered question: the question, the letters chosen, and whether they are the key."""

    question: WellPlayQuestion
    chosen: frozenset[str]
    correct: bool

    @property
    def category(self) -> Literal["objective", "reasoning", "relation"]:
        """The question's category."""
        return self.question.category

    @property
    def points(self) -> int:
        """The question's points."""
        return self.question.points


def _context(script: WellPlayScript, character: WellPlayCharacter, knowledge: Knowledge) -> str:
    shown = script.characters if knowledge == "all" else (character,)
    parts = [f"Script of {c.name}:\n{c.script}" for c in shown]
    return f"You are {character.name} in the murder mystery {script.name}.\n\n" + "\n\n".join(parts)


def answer_questions(
    client: ChatClient,
    script: WellPlayScript,
    character: WellPlayCharacter,
    knowledge: Knowledge,
    *,
    seed: int = 0,
) -> tuple[list[Graded], int]:
    """Every question of ``character`` answered by the model, graded; and the fallbacks."""
    context = _context(script, character, knowledge)
    graded: list[Graded] = []
    fallbacks = 0
    for question in character.questions:
        options = "\n".join(f"{k}. {v}" for k, v in question.options.items())
        how = "one or more letters, comma-separated" if question.multiple else "one letter"
        prompt = (
            f"{question.question}\n{options}\n"
            f'Answer with a JSON object {{"answer": ...}} giving {how}.'
        )
        outcome = ask_structured(client, [system(context), user(prompt)], LetterAnswer, seed=seed)
        if outcome.value is None:
            fallbacks += 1
            chosen: frozenset[str] = frozenset()
        else:
            chosen = frozenset(ch for ch in outcome.value.answer.lower() if ch in LETTERS)
        graded.append(Graded(question, chosen, chosen == question.key))
    return graded, fallbacks


def answer_all(
    client: ChatClient, scripts: Sequence[WellPlayScript], knowledge: Knowledge
) -> tuple[list[Graded], int]:
    """Every character's questions of every script, answered and graded; and the fallbacks."""
    out: list[Graded] = []
    fallbacks = 0
    for script in scripts:
        for character in script.characters:
            graded, missed = answer_questions(client, script, character, knowledge)
            out += graded
            fallbacks += missed
    return out, fallbacks
