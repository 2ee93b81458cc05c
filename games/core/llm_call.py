"""Which recorded LLM call a logged claim came from: an optional field that older logs lack.

An LLM seat's calls are recorded one per line in ``RUN/llm/<game_id>.seat<k>.jsonl``
(``games.core.recordings``), each with its ``index``. An event carrying the deductions or claims a
seat stated, and the audit row judging each of them, name the call whose reply they came from, so
the viewer opens exactly that call.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer


def _absent_last(data: Any, key: str) -> Any:
    """``data`` (a model's dump) with ``key`` moved to the end, or left out when None."""
    if isinstance(data, dict):
        value = data.pop(key, None)
        if value is not None:
            data[key] = value
    return data


class LLMCallRef(BaseModel):
    """A record whose claims an LLM seat stated: ``call`` is the index of the call, in that seat's
    recording, whose reply they came from. It is optional (logs written before it, seats that ask
    no model, and runs that record no calls lack it), written last, and left out of the JSON when
    absent, so records without it are written exactly as before."""

    call: int | None = Field(default=None, ge=0)

    @model_serializer(mode="wrap")
    def _without_absent_call(self, handler: SerializerFunctionWrapHandler) -> Any:
        return _absent_last(handler(self), "call")


class LLMCallsRef(BaseModel):
    """A record whose claims came from several calls of one LLM seat (one per question):
    ``calls`` maps each question to the index of its call in the seat's recording. Optional,
    written last and left out when absent, as ``LLMCallRef``'s ``call``."""

    calls: dict[str, int] | None = None

    @model_serializer(mode="wrap")
    def _without_absent_calls(self, handler: SerializerFunctionWrapHandler) -> Any:
        return _absent_last(handler(self), "calls")
