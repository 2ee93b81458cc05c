"""The one reading interface, and the combined reader that asks a second reader only where the
first is unsure.

A reader turns an answer in words to a ``ReadingTask`` into a ``Reading``. The offline reader
(``offline.OfflineReader``) is the default; the LLM reader (``llm_reader.LLMReader``) asks any
OpenAI-compatible endpoint under the early-stop vote; ``CombinedReader`` reads offline first and
sends only the slots left ``unsure`` to the LLM.
"""

from __future__ import annotations

from typing import Literal, Protocol, get_args, runtime_checkable

from formalize.reading.reading import Reading
from formalize.reading.task import ReadingTask

ReaderKind = Literal["offline", "llm", "combined"]
"""Which reader reads answers in words: offline (the default, no endpoint), the LLM under the
early-stop vote, or offline with the LLM where the offline reader is unsure."""

READER_KINDS: tuple[ReaderKind, ...] = get_args(ReaderKind)


@runtime_checkable
class Reader(Protocol):
    """Anything that reads an answer in words into its slots."""

    @property
    def name(self) -> str:
        """The reader's name, as readings record it."""
        ...

    def read(self, task: ReadingTask, text: str) -> Reading:
        """One reading of ``text`` as an answer to ``task``: a slot reading per slot, in order."""
        ...


class CombinedReader:
    """Reads with ``first``; the slots it leaves ``unsure`` are read again by ``second`` (the
    LLM reader), whose calls are the only ones counted."""

    def __init__(self, first: Reader, second: Reader) -> None:
        self.first = first
        self.second = second
        self.name = f"{first.name}+{second.name}"

    def read(self, task: ReadingTask, text: str) -> Reading:
        """The first reader's reading, its unsure slots replaced by the second's."""
        reading = self.first.read(task, text)
        unsure = {s.slot for s in reading.slots if not s.decided}
        if not unsure:
            return reading.model_copy(update={"reader": self.name})
        again = self.second.read(task.only(unsure), text)
        replaced = {s.slot: s for s in again.slots}
        return Reading(
            reader=self.name,
            slots=[replaced.get(s.slot, s) for s in reading.slots],
            calls=reading.calls + again.calls,
            vote=again.vote,
        )


def reader_of_kind(offline: Reader, kind: ReaderKind, llm: Reader | None) -> Reader:
    """The reader ``kind`` names, from an offline reader and an LLM reader (which the LLM
    kinds need: ValueError without one)."""
    if kind == "offline":
        return offline
    if llm is None:
        raise ValueError(f"--reader {kind}: the LLM reader needs an endpoint (--base-url)")
    return llm if kind == "llm" else CombinedReader(offline, llm)
