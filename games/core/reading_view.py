"""An answer given in words as the viewer shows it (``formalize.reading``): its text with the words
that decided each slot marked, who read it, and each slot's reading in words.

Evidence spans are offsets into the text as given (Python code points); the text is cut into
segments here, so the page never counts offsets itself (JavaScript counts UTF-16 units, which
differ after any character beyond the Basic Multilingual Plane, such as an emoji).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from formalize.reading.reading import Evidence, Outcome, Reading, SlotReading, Stance
from games.core.view import Segment

OptionWords = Callable[[str, str], str]
"""The words of option ``value`` of slot ``slot``: ``words(slot, value)``."""

_DOES: dict[Stance, str] = {
    "asserted": "{words} asserts {options}",
    "hedged": "{words} offers {options} with a hedge",
    "listed": "{words} lists {options}",
    "rejected": "{words} rejects {options}",
    "unclear": "{words} names {options} in a way the reader cannot place",
    "no answer": "{words}: no answer",
}
_FIRST: tuple[Stance, ...] = ("asserted", "rejected", "hedged", "listed", "unclear", "no answer")
"""The stance a stretch is marked with when it bears on several slots in different ways."""
_OUTCOMES: dict[Outcome, str] = {
    "several": "several, not credited",
    "rejected": "only rejected, not credited",
    "none": "no answer",
    "unsure": "unread: the reader could not decide",
}
_BALLOTS = {"several": "several", "none": "no answer", "unsure": "unsure"}
"""A ballot's outcome other than an option, in words."""
_READERS = {"offline": "offline", "llm": "by the LLM"}


def _listing(words: Sequence[str], last: str = "and") -> str:
    return ", ".join(words[:-1]) + f" {last} {words[-1]}" if len(words) > 1 else "".join(words)


def evidence_words(evidence: Evidence, slot: str, words: OptionWords) -> str:
    """What the words of ``evidence`` do, in words: “the butler” asserts Hugo Marsh."""
    said = f"“{evidence.words}”"
    if not evidence.options:
        return f"{said}: {evidence.stance}"
    named = _listing([words(slot, o) for o in evidence.options])
    return _DOES[evidence.stance].format(words=said, options=named)


def _placed(text: str, evidence: Evidence) -> bool:
    """Whether ``evidence``'s span holds its words in ``text`` (a log edited by hand may not)."""
    return 0 <= evidence.start < evidence.end <= len(text) and (
        text[evidence.start : evidence.end] == evidence.words
    )


def marked_text(text: str, reading: Reading, words: OptionWords) -> list[Segment]:
    """``text`` cut into segments, the words of each slot's evidence marked with the stance the
    answer takes (where words bear on several slots, the first of asserted, rejected, hedged,
    listed, unclear, no answer) and a note naming the slots and options."""
    spans = [(s.slot, e) for s in reading.slots for e in s.evidence if _placed(text, e)]
    cuts = sorted({0, len(text)} | {e.start for _, e in spans} | {e.end for _, e in spans})
    out: list[Segment] = []
    for start, end in pairwise(cuts):
        over = [(slot, e) for slot, e in spans if e.start <= start and end <= e.end]
        piece = text[start:end]
        if not over:
            out.append(Segment(text=piece))
            continue
        stance = min((e.stance for _, e in over), key=_FIRST.index)
        notes = list(dict.fromkeys(f"{slot}: {evidence_words(e, slot, words)}" for slot, e in over))
        out.append(Segment(text=piece, stance=stance, note="; ".join(notes)))
    merged: list[Segment] = []
    for segment in out:
        last = merged[-1] if merged else None
        if last is not None and (last.stance, last.note) == (segment.stance, segment.note):
            merged[-1] = last.model_copy(update={"text": last.text + segment.text})
        else:
            merged.append(segment)
    return merged


def reader_words(reading: Reading, words: OptionWords) -> str:
    """Who read an answer: offline, by the LLM, or offline with the LLM where unsure; the LLM
    calls it made and how the vote went (each ballot in words)."""
    calls = f"{reading.calls} LLM call{'' if reading.calls == 1 else 's'}"
    if reading.reader == "offline":
        said = "read offline, no LLM call"
    elif reading.reader == "offline+llm":
        said = (
            f"read offline, the slots it was unsure of by the LLM ({calls})"
            if reading.calls
            else "read offline, sure of every slot (no LLM call)"
        )
    else:
        said = f"read {_READERS.get(reading.reader, 'by ' + reading.reader)} ({calls})"
    vote = reading.vote
    if vote is None:
        return said
    ballots = [_ballot_words(b, words) for b in vote.ballots]
    count = f"{len(ballots)} ballot{'' if len(ballots) == 1 else 's'}"
    decided = (
        f"the vote stopped at the first reading to repeat, after {count}"
        if vote.decided_by == "repeat"
        else f"no reading repeated in {count}, so the vote is unsure"
    )
    return f"{said}; {decided} ({' / '.join(ballots)})"


def _ballot_words(ballot: str, words: OptionWords) -> str:
    """One ballot of a vote (``slot=option; slot=outcome``) in words."""
    said = []
    for part in ballot.split("; "):
        slot, _, value = part.partition("=")
        said.append(_BALLOTS.get(value) or words(slot, value))
    return ", ".join(said)


def slot_words(slot: SlotReading, words: OptionWords, reader: str = "", verdict: str = "") -> str:
    """A slot's reading in words: the outcome (the option asserted, the options it hedged
    between, those it only rejected, no answer, or unread and why) followed by ``verdict``, then
    the words that decided it and what each did; ``reader`` is the answer's reader (a slot read
    by the second of a combined reader says so)."""
    name = slot.slot
    if slot.outcome == "asserted" and slot.option is not None:
        said = f"{words(name, slot.option)}, asserted"
    elif slot.outcome == "several":
        named = slot.options or [o for e in slot.evidence for o in e.options]
        options = _listing([words(name, o) for o in dict.fromkeys(named)], "or")
        said = f"{options}: {_OUTCOMES['several']}" if options else _OUTCOMES["several"]
    elif slot.outcome == "rejected":
        said = f"{_listing([words(name, o) for o in slot.rejected])}: {_OUTCOMES['rejected']}"
    else:
        said = _OUTCOMES[slot.outcome]
        if slot.note:
            said += f" ({slot.note})"
    if reader and slot.reader != reader.split("+")[0]:
        said += f", read {_READERS.get(slot.reader, slot.reader)}"
    shown = "; ".join(dict.fromkeys(evidence_words(e, name, words) for e in slot.evidence))
    return f"{name}: {said}{verdict}" + (f" · {shown}" if shown else "")
