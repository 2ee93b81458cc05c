"""LLM agents play a WellPlay script and answer its questions, graded by the key.

The seed's two no-play settings: ``own`` gives the model its character's script only, ``all``
every character's script. ``played`` first plays the script: three rounds in which each
character, in order, asks one other character one free-text question and gets a free-text
answer (a murderer may lie; WellPlay scripts carry no logic, so nothing is formalised); each
character then answers with its own script and the whole conversation. The model answers each
question with option letters, read by the offline reader of answers in words
(``formalize.reading``): a single-choice answer must assert one option, a multiple-choice one
may list several (a hedge between options chooses none); a reply that stays malformed after the
re-prompts counts as wrong and is counted as a fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from formalize.reading.lexicon import LETTER_KIND
from formalize.reading.offline import OfflineReader
from formalize.reading.task import Option, ReadingTask, SlotSpec
from games.mystery.wellplay import WellPlayCharacter, WellPlayQuestion, WellPlayScript
from games.mystery.wellplay_memory import EVALUATION_TOKENS, Recalled, RetrievalMemory
from reasoning.llm import ChatClient, ask_structured, system, user

Knowledge = Literal["own", "all", "played"]
ROUNDS = 3
"""Questioning rounds of a played script."""


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


class Turn(BaseModel):
    """A character's question (``to`` whom, ``question``) or answer (``answer``)."""

    model_config = ConfigDict(extra="ignore")

    to: str = ""
    question: str = ""
    answer: str = ""


_READER = OfflineReader()


def chosen_letters(question: WellPlayQuestion, answer: str) -> frozenset[str]:
    """The options an answer chooses, read from its words: the option it asserts, or for a
    multiple-choice question the options it lists; none when it hedges, denies or is unsure."""
    task = ReadingTask(
        question=question.question,
        slots=[
            SlotSpec(
                name="answer",
                kind=LETTER_KIND,
                options=[Option(value=k, text=v) for k, v in question.options.items()],
            )
        ],
    )
    (slot,) = _READER.read(task, answer).slots
    if slot.outcome == "asserted" and slot.option is not None:
        return frozenset({slot.option})
    listed = all(e.stance == "listed" for e in slot.evidence if e.options)
    if question.multiple and slot.outcome == "several" and listed:
        return frozenset(slot.options)
    return frozenset()


def character_context(
    script: WellPlayScript,
    character: WellPlayCharacter,
    knowledge: Knowledge,
    transcript: Sequence[str] = (),
    recalled: Recalled | None = None,
) -> str:
    """What a character is told: who it is, the scripts ``knowledge`` shows, its goals, whether
    it may lie, and the conversation so far; with ``recalled`` (a retrieval memory's), the
    passages of its own script and the exchanges recalled for the question instead."""
    if recalled is not None:
        parts = [f"Passages of the script of {character.name} (those that bear on this):"]
        parts[0] += "\n" + (recalled.script or "(none)")
        transcript = recalled.said
    else:
        shown = script.characters if knowledge == "all" else (character,)
        parts = [f"Script of {c.name}:\n{c.script}" for c in shown]
    if character.goal.strip():
        parts.append(f"Your goals:\n{character.goal}")
    if character.is_murderer:
        parts.append("You are a murderer: you may lie to protect yourself.")
    if transcript:
        said = "What was said in the game"
        said += " (the exchanges that bear on this):" if recalled is not None else ":"
        parts.append(said + "\n" + "\n".join(transcript))
    intro = f"You are {character.name} in the murder mystery {script.name}."
    return intro + "\n\n" + "\n\n".join(parts)


def play_script(client: ChatClient, script: WellPlayScript, *, seed: int = 0) -> list[str]:
    """Three rounds of free-text questions between the characters; the transcript's lines."""
    names = [c.name for c in script.characters]
    transcript: list[str] = []
    for _ in range(ROUNDS):
        for asker in script.characters:
            others = [n for n in names if n != asker.name]
            ask = ask_structured(
                client,
                [
                    system(character_context(script, asker, "own", transcript)),
                    user(
                        f"Ask one of {', '.join(others)} one question. "
                        'Answer with a JSON object {"to": name, "question": text}.'
                    ),
                ],
                Turn,
                seed=seed,
            )
            turn = ask.value
            if turn is None or turn.to not in others or not turn.question.strip():
                continue
            target = next(c for c in script.characters if c.name == turn.to)
            reply = ask_structured(
                client,
                [
                    system(character_context(script, target, "own", transcript)),
                    user(
                        f"{asker.name} asks you: {turn.question}\n"
                        'Answer with a JSON object {"answer": text}.'
                    ),
                ],
                Turn,
                seed=seed,
            )
            said = reply.value.answer if reply.value is not None else "(no answer)"
            transcript.append(f"{asker.name} to {target.name}: {turn.question}")
            transcript.append(f"{target.name}: {said}")
    return transcript


def answer_questions(
    client: ChatClient,
    script: WellPlayScript,
    character: WellPlayCharacter,
    knowledge: Knowledge,
    *,
    seed: int = 0,
    transcript: Sequence[str] = (),
    memory: RetrievalMemory | None = None,
) -> tuple[list[Graded], int]:
    """Every question of ``character`` answered by the model (after ``transcript``, if any, or
    with what ``memory`` recalls for each question), graded; and the fallbacks."""
    graded: list[Graded] = []
    fallbacks = 0
    for question in character.questions:
        options = "\n".join(f"{k}. {v}" for k, v in question.options.items())
        recalled = None
        if memory is not None:
            query = f"{question.question}\n{options}"
            recalled = memory.recall(character.name, query, EVALUATION_TOKENS)
        context = character_context(script, character, knowledge, transcript, recalled)
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
            chosen = chosen_letters(question, outcome.value.answer)
        graded.append(Graded(question, chosen, chosen == question.key))
    return graded, fallbacks


def answer_all(
    client: ChatClient, scripts: Sequence[WellPlayScript], knowledge: Knowledge
) -> tuple[list[Graded], int]:
    """Every character's questions of every script (played first with ``played``), answered
    and graded; and the fallbacks."""
    out: list[Graded] = []
    fallbacks = 0
    for script in scripts:
        transcript = play_script(client, script) if knowledge == "played" else []
        for character in script.characters:
            graded, missed = answer_questions(
                client, script, character, knowledge, transcript=transcript
            )
            out += graded
            fallbacks += missed
    return out, fallbacks
