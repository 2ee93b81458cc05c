"""The LLM reader: any OpenAI-compatible endpoint reads the answer, with structured output
constrained to each slot's options plus ``several`` / ``none`` / ``unsure``
(``llm_schemas``), under seed 002's early-stop majority vote: the same request is asked again
(each attempt with its own sampling seed) until one reading of every slot comes up twice, at
most ``max_attempts`` times; when none repeats, every slot is ``unsure``.

Every call goes through the given chat client, so a recording client records it and a replay
client answers it from the recording; the reading counts its calls and keeps the recorded
calls' indices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from formalize.reading.llm_schemas import reading_answer_model
from formalize.reading.reading import Evidence, Outcome, Reading, SlotReading, Stance, VoteRecord
from formalize.reading.task import ReadingTask, SlotSpec
from formalize.reading.text import MAX_CHARS, fold
from reasoning.llm import (
    ChatClient,
    RecordingClient,
    ReplayClient,
    ask_structured,
    system,
    user,
)
from reasoning.vote import first_repeat

DEFAULT_MAX_ATTEMPTS = 5
"""The vote's cap: five attempts, so three readings seen once each still leave room for two
more to repeat one."""

READER_SYSTEM = (
    "You read answers that people gave in their own words to a question, and say what each "
    "answer asserts. You do not judge whether the answer is right."
)
"""The LLM reader's system message."""


def recorded_call(client: ChatClient) -> int | None:
    """The index, in its recording, of the latest call a recording or replay client made."""
    if isinstance(client, RecordingClient | ReplayClient):
        return client.last_index
    return None


def reading_prompt(task: ReadingTask, text: str) -> str:
    """Ask which option the answer ``text`` asserts for each slot of ``task``."""
    parts = "\n".join(
        f"- {s.name}: " + ", ".join(f'"{o.text}"' for o in s.options) for s in task.slots
    )
    example = ", ".join(f'"{s.name}": {{"words": "...", "reading": "..."}}' for s in task.slots)
    context = f"{task.context.strip()}\n\n" if task.context.strip() else ""
    return (
        f"{context}Question: {task.question}\n"
        f'Answer given: """{text}"""\n\n'
        "For each part below, say which one option the answer asserts, written exactly as "
        "listed, or:\n"
        '- "several" if it offers or lists more than one option for the part (either/or, '
        "maybe this or that, a list), or asserts two at once;\n"
        '- "none" if it gives no option for the part: it says it does not know, says nothing '
        'about the part, or only denies options ("not X" asserts nothing);\n'
        '- "unsure" if you cannot tell.\n'
        'In "words", copy the words of the answer that decide the part (empty if there are '
        "none).\n\n"
        f"Parts and their options:\n{parts}\n\n"
        f"Reply in JSON: {{{example}}}"
    )


@dataclass(frozen=True)
class _Ballot:
    """One attempt: per slot the outcome and option (``key`` is what the vote compares), the
    deciding words, and the calls it made."""

    key: str
    slots: tuple[tuple[Outcome, str | None, str], ...]
    calls: int
    recorded: int | None


def _span(text: str, words: str) -> tuple[int, int] | None:
    """Where ``words`` stand in ``text`` (compared folded), or None."""
    needle = fold(words).strip()
    if not needle:
        return None
    at = fold(text).find(needle)
    return None if at < 0 else (at, at + len(needle))


class LLMReader:
    """The LLM reader over ``client`` (see the module docstring); ``seed`` is the first
    attempt's sampling seed, each later attempt adding one."""

    name = "llm"

    def __init__(
        self,
        client: ChatClient,
        *,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        seed: int = 0,
        recorded: Callable[[ChatClient], int | None] = recorded_call,
    ) -> None:
        if max_attempts < 2:
            raise ValueError(f"max_attempts: a vote needs at least 2, got {max_attempts}")
        self.client = client
        self.max_attempts = max_attempts
        self.seed = seed
        self._recorded = recorded

    def _ballot(self, task: ReadingTask, text: str, attempt: int) -> _Ballot:
        model = reading_answer_model(task)
        outcome = ask_structured(
            self.client,
            [system(READER_SYSTEM), user(reading_prompt(task, text))],
            model,
            answer=model,
            seed=self.seed + attempt,
            max_reprompts=0,
        )
        recorded = self._recorded(self.client)
        slots: tuple[tuple[Outcome, str | None, str], ...]
        if outcome.value is None:
            slots = tuple(_UNREAD for _ in task.slots)
        else:
            given = outcome.value.model_dump(by_alias=True)
            slots = tuple(_slot_answer(s, given.get(s.name, {})) for s in task.slots)
        key = "; ".join(
            f"{s.name}={option or kind}"
            for s, (kind, option, _) in zip(task.slots, slots, strict=True)
        )
        return _Ballot(key, slots, outcome.attempts, recorded)

    def read(self, task: ReadingTask, text: str) -> Reading:
        """The voted reading of ``text`` (every slot ``unsure`` when no ballot repeats, or when
        the text is longer than the offline reader reads: no call is made then)."""
        if len(text) > MAX_CHARS:
            note = f"the answer is longer than {MAX_CHARS} characters"
            slots = [
                SlotReading(slot=s.name, outcome="unsure", reader="llm", note=note)
                for s in task.slots
            ]
            return Reading(reader=self.name, slots=slots)
        ballots, repeated = first_repeat(
            lambda i: self._ballot(task, text, i), lambda b: b.key, self.max_attempts
        )
        vote = VoteRecord(
            ballots=[b.key for b in ballots],
            decided_by="no repeat" if repeated is None else "repeat",
            recorded=[b.recorded for b in ballots if b.recorded is not None],
        )
        calls = sum(b.calls for b in ballots)
        if repeated is None:
            note = f"no reading repeated in {len(ballots)} attempts"
            slots = [
                SlotReading(slot=s.name, outcome="unsure", reader="llm", note=note)
                for s in task.slots
            ]
            return Reading(reader=self.name, slots=slots, calls=calls, vote=vote)
        winner = next(b for b in ballots if b.key == repeated)
        slots = [
            _slot_reading(spec, text, *answer)
            for spec, answer in zip(task.slots, winner.slots, strict=True)
        ]
        return Reading(reader=self.name, slots=slots, calls=calls, vote=vote)


def _slot_answer(spec: SlotSpec, given: object) -> tuple[Outcome, str | None, str]:
    """One slot of a parsed reply: outcome, option value, deciding words."""
    if not isinstance(given, dict):
        return "unsure", None, ""
    said = str(given.get("reading", "")).strip().casefold()
    words = str(given.get("words", ""))
    option = next((o.value for o in spec.options if o.text.strip().casefold() == said), None)
    if option is not None:
        return "asserted", option, words
    if said in ("several", "none"):
        return ("several" if said == "several" else "none"), None, words
    return "unsure", None, words


_UNREAD: tuple[Outcome, str | None, str] = ("unsure", None, "")
"""A slot of a reply that could not be parsed."""

_STANCE: dict[Outcome, Stance] = {
    "asserted": "asserted",
    "several": "hedged",
    "none": "no answer",
    "unsure": "unclear",
    "rejected": "rejected",
}


def _slot_reading(
    spec: SlotSpec, text: str, outcome: Outcome, option: str | None, words: str
) -> SlotReading:
    span = _span(text, words)
    evidence = []
    if span is not None:
        start, end = span
        evidence.append(
            Evidence(
                start=start,
                end=end,
                words=text[start:end],
                options=[option] if option is not None else [],
                stance=_STANCE[outcome],
            )
        )
    note = "the model could not tell" if outcome == "unsure" else ""
    return SlotReading(
        slot=spec.name, outcome=outcome, option=option, evidence=evidence, reader="llm", note=note
    )
