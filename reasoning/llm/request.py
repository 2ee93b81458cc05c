"""Building one chat-completions request for a model and what its endpoint takes.

OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 and later) take the reply cap as
``max_completion_tokens`` (it bounds the hidden reasoning and the answer together) and refuse a
``temperature`` other than their default; other servers take ``max_tokens`` and any
temperature. The shape of a request follows the settings (``token_parameter``, ``temperature``
None), the model's name, and what the endpoint refused before: a 400 naming a parameter is
answered by the shape without it (``RequestShape.without``), and the endpoint remembers it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Literal

import openai
from pydantic import BaseModel

from reasoning.llm.endpoint import StructuredMode
from reasoning.llm.schema_limits import answer_schema, check_answer_model, strict_ready
from reasoning.llm.settings import LLMSettings

TokenParameter = Literal["max_tokens", "max_completion_tokens"]
"""The name a request gives its reply cap."""

# o1, o3-mini, o4-mini-2025-04-16, gpt-5, gpt-5.1, gpt-5-mini, ... (a provider prefix such as
# ``openai/`` allowed); gpt-5's chat-tuned variants take sampling settings as chat models do.
_REASONING_NAME = re.compile(
    r"(?:^|/)(?:o[1-9][0-9]*(?:-[\w.-]*)?|gpt-(?:[5-9]|[1-9][0-9])\b(?!.*-chat)[\w.-]*)$"
)
# The parameter a 400 refuses, as OpenAI words it when the body names none.
_REFUSED_WORDING = re.compile(r"Unsupported (?:parameter|value): '(\w+)'")
_REFUSAL_CODES = frozenset({"unsupported_parameter", "unsupported_value"})
ADJUSTABLE = frozenset({"max_tokens", "max_completion_tokens", "temperature", "reasoning_effort"})
"""The request parameters a refusal can be answered for by sending the request without them."""


def reasoning_model(model: str) -> bool:
    """Whether ``model`` names one of OpenAI's reasoning models (by the o-series and gpt-5-and-
    later naming), which take ``max_completion_tokens`` and no temperature."""
    return _REASONING_NAME.search(model.strip().lower()) is not None


def refused_parameter(code: object, param: object, message: str) -> str | None:
    """The request parameter an endpoint error refuses (OpenAI's ``unsupported_parameter`` or
    ``unsupported_value`` with its ``param``, or the same said in the message), if it is one a
    request can do without (``ADJUSTABLE``)."""
    name: str | None = None
    if isinstance(code, str) and code in _REFUSAL_CODES and isinstance(param, str):
        name = param
    else:
        match = _REFUSED_WORDING.search(message)
        name = match.group(1) if match else None
    return name if name in ADJUSTABLE else None


@dataclass(frozen=True, slots=True)
class RequestShape:
    """Which optional parameters a request carries: the name of its reply cap, and whether it
    sends the temperature and the reasoning effort the settings give."""

    token_parameter: TokenParameter
    temperature: bool
    reasoning_effort: bool

    @classmethod
    def for_model(
        cls, settings: LLMSettings, model: str, refused: frozenset[str] = frozenset()
    ) -> RequestShape:
        """The shape for ``model``: the settings' choices, the model's kind where they say
        ``auto``, then the parameters the endpoint refused for it."""
        reasoning = reasoning_model(model)
        token: TokenParameter
        if settings.token_parameter != "auto":
            token = settings.token_parameter
        else:
            token = "max_completion_tokens" if reasoning else "max_tokens"
        shape = cls(
            token_parameter=token,
            temperature=settings.temperature is not None and not reasoning,
            reasoning_effort=settings.reasoning_effort is not None,
        )
        for name in sorted(refused):
            shape = shape.without(name) or shape
        return shape

    def without(self, parameter: str) -> RequestShape | None:
        """The shape after the endpoint refused ``parameter``: the other name for the reply cap,
        or the sampling option left out; None when the request does not send it (a refusal this
        shape cannot answer)."""
        if parameter == self.token_parameter:
            other: TokenParameter = (
                "max_completion_tokens" if parameter == "max_tokens" else "max_tokens"
            )
            return replace(self, token_parameter=other)
        if parameter == "temperature" and self.temperature:
            return replace(self, temperature=False)
        if parameter == "reasoning_effort" and self.reasoning_effort:
            return replace(self, reasoning_effort=False)
        return None


def request_options(
    settings: LLMSettings,
    shape: RequestShape,
    reply_cap: int | None,
    seed: int | None,
    mode: StructuredMode | None,
    answer: type[BaseModel] | None,
) -> dict[str, Any]:
    """The keyword arguments of ``chat.completions.create`` besides the model and messages:
    sampling, the reply cap under the shape's name, the seed, the reasoning effort and the
    response format; what the shape leaves out is omitted."""
    omit: Any = openai.omit
    cap = reply_cap if reply_cap is not None else omit
    temperature = settings.temperature if shape.temperature else None
    return {
        "temperature": temperature if temperature is not None else omit,
        "max_tokens": cap if shape.token_parameter == "max_tokens" else omit,
        "max_completion_tokens": cap if shape.token_parameter == "max_completion_tokens" else omit,
        "seed": seed if seed is not None else omit,
        "reasoning_effort": settings.reasoning_effort if shape.reasoning_effort else omit,
        "extra_body": format_body(mode, answer) or None,
    }


def format_body(mode: StructuredMode | None, answer: type[BaseModel] | None) -> dict[str, Any]:
    """The request's ``response_format`` for ``answer`` in ``mode`` (nothing for plain text):
    ``json_schema`` (strict where the schema keeps to the subset strict mode takes), or
    ``json_object`` carrying the schema (the form llama.cpp servers build a grammar from).
    ValueError for a schema whose grammar would be too large (``schema_limits``): it is never
    sent, as it can crash the server."""
    if mode is None or mode == "off" or answer is None:
        return {}
    check_answer_model(answer)
    schema = answer_schema(answer)
    if mode == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": answer.__name__, "schema": schema}
                | ({"strict": True} if strict_ready(answer) else {}),
            }
        }
    return {"response_format": {"type": "json_object", "schema": schema}}
