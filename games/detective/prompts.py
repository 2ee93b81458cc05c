"""The detective LLM agent's prompts, after the structure of seed 001's Appendix B: every prompt
is fresh and recaps the case (introduction, the locations read so far, the questions), with
instructions marked ``##`` and case text marked ``$$``; answers come back as JSON.

Each answer prompt asks one question and names its parts and their options, so an answer splits
into the elements exact grading counts (one prompt per question keeps each decision's set of
answers small enough to list); the location prompt lists the locations not read yet by title.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from games.detective.case import AnswerSlot, Case

SYSTEM = (
    "You are a careful detective solving a case from written evidence. Follow the instructions "
    "marked ## and treat text marked $$ as evidence from the case."
)
"""The system prompt of every detective prompt."""

BLANK = "unknown"
"""What the model writes for a part it cannot answer yet."""


class AnswerReply(BaseModel):
    """The answer prompt's reply: part name -> the option chosen."""

    model_config = ConfigDict(extra="forbid")

    ANSWER: dict[str, str]


class LocationReply(BaseModel):
    """The location prompt's reply: the title of the location to visit next."""

    model_config = ConfigDict(extra="forbid")

    LOCATION: str


def _options(slot: AnswerSlot) -> str:
    return "; ".join(c.text for c in slot.choices)


def questions_block(case: Case) -> str:
    """The numbered questions."""
    return "\n".join(f"{number}. {q.text}" for number, q in enumerate(case.questions, 1))


def recap(case: Case, read: tuple[str, ...]) -> str:
    """The opening every prompt shares: the introduction (and the house plan, if the case has
    one) and every location read, in order."""
    parts = [
        "OK, you are going to solve a detective case.",
        "When I give you instructions the text starts with ##. Text from the case starts with $$.",
        "## Here is the case introduction.",
        f"$$ Introduction\n{case.introduction}",
    ]
    if case.house_plan:
        parts.append(f"$$ The house plan\n{case.house_plan}")
    parts += [f"$$ Location: {case.location(lid).title}\n{case.location(lid).text}" for lid in read]
    return "\n\n".join(parts)


def answer_prompt(case: Case, read: tuple[str, ...], index: int) -> str:
    """Ask for the most likely answer to question ``index`` (from 0) from what has been read."""
    q = case.questions[index]
    parts = "\n".join(f'- "{s.name}": one of {_options(s)}' for s in q.slots)
    example = ", ".join(f'"{s.name}": "..."' for s in q.slots)
    return "\n\n".join(
        [
            recap(case, read),
            f"## The case asks {len(case.questions)} questions:\n{questions_block(case)}",
            f"## From the case so far, give the most likely answer to question {index + 1}: "
            f"{q.text} Answer every part with one of its options, written as listed, or "
            f'"{BLANK}" when nothing points to an option yet. No explanations.',
            f"## The parts of question {index + 1} are:\n{parts}",
            f'## Reply in JSON: {{"ANSWER": {{{example}}}}}',
        ]
    )


def location_prompt(case: Case, read: tuple[str, ...], unread: list[str]) -> str:
    """Ask which unread location to visit next."""
    options = "\n".join(f"- {case.location(lid).title}" for lid in unread)
    return "\n\n".join(
        [
            recap(case, read),
            f"## The questions to solve are:\n{questions_block(case)}",
            "## Choose the location whose evidence will help most to solve the case. Choose "
            "exactly one.",
            f"## The locations not visited yet are:\n{options}",
            '## Reply in JSON: {"LOCATION": "the title of the location"}',
        ]
    )


def match_choice(slot: AnswerSlot, text: str) -> str | None:
    """The value of the choice ``text`` names (by its text or value, ignoring case and
    surrounding spaces and full stops); None for a blank or an option the slot lacks."""
    key = text.strip().strip(".").casefold()
    return next(
        (c.value for c in slot.choices if key in (c.text.casefold(), c.value.casefold())), None
    )
