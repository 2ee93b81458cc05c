"""Asking for an answer in a given shape, re-prompting with what was wrong until it fits."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from reasoning.llm.client import ChatClient
from reasoning.llm.extract import MalformedAnswer, json_objects
from reasoning.llm.messages import ChatMessage, assistant, user

M = TypeVar("M", bound=BaseModel)

Parser = Callable[[str], object]
DEFAULT_MAX_REPROMPTS = 3


@dataclass(frozen=True, slots=True)
class StructuredOutcome(Generic[M]):
    """What asking produced: the parsed value (None when every attempt failed), the number of
    calls made, every raw reply, and the reason each rejected reply was rejected."""

    value: M | None
    attempts: int
    replies: tuple[str, ...]
    errors: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when a reply was parsed."""
        return self.value is not None

    @property
    def reprompts(self) -> int:
        """Calls made after the first."""
        return max(0, self.attempts - 1)


def describe_validation_error(error: ValidationError) -> str:
    """A one-line account of what a pydantic validation error found, field by field."""
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"])
        field = f"field '{where}'" if where else "the answer"
        if item["type"] == "missing":
            problems.append(f"{field} is missing")
        elif item["type"] == "extra_forbidden":
            problems.append(f"{field} is not one of the expected fields")
        else:
            message = item["msg"]
            problems.append(f"{field}: {message[:1].lower()}{message[1:]}")
    return "; ".join(problems)


def parse_reply(text: str, schema: type[M], parse: Parser | None = None) -> M:
    """Turn one reply into a ``schema`` instance, or raise ``MalformedAnswer`` saying why.

    Without ``parse`` the reply must hold a JSON object (anywhere, or in a fenced block) that
    validates against ``schema``; the first such object is used. With ``parse``, its result
    (a dict or a ``schema`` instance) is validated; it should raise ``ValueError`` (for example
    ``MalformedAnswer``) or ``LookupError`` on text it cannot read.
    """
    if not text.strip():
        raise MalformedAnswer("the answer was empty")
    if parse is not None:
        try:
            raw = parse(text)
        except ValidationError as exc:
            raise MalformedAnswer(describe_validation_error(exc)) from exc
        except (ValueError, LookupError) as exc:
            raise MalformedAnswer(str(exc) or type(exc).__name__) from exc
        try:
            return schema.model_validate(raw)
        except ValidationError as exc:
            raise MalformedAnswer(describe_validation_error(exc)) from exc
    candidates = json_objects(text)
    if not candidates:
        raise MalformedAnswer("no JSON object was found in the answer")
    first_error: ValidationError | None = None
    for candidate in candidates:
        try:
            return schema.model_validate(candidate)
        except ValidationError as exc:
            first_error = first_error or exc
    assert first_error is not None
    raise MalformedAnswer(describe_validation_error(first_error))


def reprompt_text(problem: str, schema: type[BaseModel], *, json_answer: bool) -> str:
    """The short follow-up message that tells the model what was wrong and how to answer."""
    if json_answer:
        fields = ", ".join(schema.model_fields)
        how = f"Reply with a single JSON object with the fields {fields}."
    else:
        how = "Reply again, keeping exactly to the format asked for above."
    return f"Your previous answer could not be used: {problem}. {how}"


def ask_structured(
    client: ChatClient,
    messages: Sequence[ChatMessage],
    schema: type[M],
    *,
    parse: Parser | None = None,
    max_reprompts: int = DEFAULT_MAX_REPROMPTS,
    seed: int | None = None,
) -> StructuredOutcome[M]:
    """Ask ``client`` and parse the reply into ``schema``, re-prompting on a malformed reply.

    Each failed reply is kept in the conversation and followed by a user message naming the
    problem; after ``max_reprompts`` re-prompts the outcome's value is None and the caller
    falls back (see ``choose_with_fallback``). Endpoint failures raise ``LLMEndpointError``.
    """
    if max_reprompts < 0:
        raise ValueError(f"max_reprompts must be >= 0, got {max_reprompts}")
    conversation = list(messages)
    replies: list[str] = []
    errors: list[str] = []
    for _ in range(max_reprompts + 1):
        text = client.complete(conversation, seed=seed).content
        replies.append(text)
        try:
            value = parse_reply(text, schema, parse)
        except MalformedAnswer as exc:
            errors.append(str(exc))
            problem = reprompt_text(str(exc), schema, json_answer=parse is None)
            conversation += [assistant(text), user(problem)]
            continue
        return StructuredOutcome(value, len(replies), tuple(replies), tuple(errors))
    return StructuredOutcome(None, len(replies), tuple(replies), tuple(errors))
