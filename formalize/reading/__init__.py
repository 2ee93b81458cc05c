"""Readings of answers given in words: one interface (``Reader``: a ``ReadingTask`` and a text
in, a ``Reading`` out, per slot asserted / several / rejected / none / unsure), an offline
deterministic reader (the default), an LLM reader under the early-stop vote, and a combined
reader that asks the LLM only where the offline reader is unsure.

The generic part, for any question with typed slots: ``reading`` (the outcome vocabulary and the
records), ``task``, ``reader`` (the protocol and the combined reader), ``llm_reader`` and
``llm_schemas`` (the LLM reader, its prompt and answer schema), ``text`` (folding with offsets
kept) and ``fuzzy``. The offline reader of typed answers about a mystery world (detective slots,
WellPlay letters): ``offline``, with ``lexicon`` (the words for each option, from the world and
the generator's vocabulary) and ``words`` (its function words). ``statements`` reads a story's
sentences about such a world back into the facts they state (a model's rewrite of a case's
cards), with the same lexicon and folding."""

from typing import TYPE_CHECKING

from reasoning.lazy import lazy_exports

if TYPE_CHECKING:
    from formalize.reading.llm_reader import LLMReader as LLMReader
    from formalize.reading.llm_reader import reading_prompt as reading_prompt
    from formalize.reading.llm_schemas import reading_answer_model as reading_answer_model
    from formalize.reading.offline import OfflineReader as OfflineReader
    from formalize.reading.reader import CombinedReader as CombinedReader
    from formalize.reading.reader import Reader as Reader
    from formalize.reading.reading import OUTCOMES as OUTCOMES
    from formalize.reading.reading import Evidence as Evidence
    from formalize.reading.reading import Outcome as Outcome
    from formalize.reading.reading import Reading as Reading
    from formalize.reading.reading import SlotReading as SlotReading
    from formalize.reading.reading import Stance as Stance
    from formalize.reading.reading import VoteRecord as VoteRecord
    from formalize.reading.statements import StatementReader as StatementReader
    from formalize.reading.statements import StatementReading as StatementReading
    from formalize.reading.task import Option as Option
    from formalize.reading.task import ReadingTask as ReadingTask
    from formalize.reading.task import SlotSpec as SlotSpec

_HOMES = {
    "CombinedReader": "formalize.reading.reader",
    "Evidence": "formalize.reading.reading",
    "LLMReader": "formalize.reading.llm_reader",
    "OUTCOMES": "formalize.reading.reading",
    "OfflineReader": "formalize.reading.offline",
    "Option": "formalize.reading.task",
    "Outcome": "formalize.reading.reading",
    "Reader": "formalize.reading.reader",
    "Reading": "formalize.reading.reading",
    "ReadingTask": "formalize.reading.task",
    "SlotReading": "formalize.reading.reading",
    "SlotSpec": "formalize.reading.task",
    "Stance": "formalize.reading.reading",
    "StatementReader": "formalize.reading.statements",
    "StatementReading": "formalize.reading.statements",
    "VoteRecord": "formalize.reading.reading",
    "reading_answer_model": "formalize.reading.llm_schemas",
    "reading_prompt": "formalize.reading.llm_reader",
}

__getattr__ = lazy_exports(__name__, _HOMES)
__all__ = sorted(_HOMES)
