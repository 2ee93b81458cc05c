"""Asking for an answer in a given shape, re-prompting with what was wrong until it fits."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from reasoning.llm.chat import ChatClient, ChatOptions, complete_with
from reasoning.llm.errors import ContextLengthError
from reasoning.llm.extract import MalformedAnswer, json_objects, labelled_text
from reasoning.llm.fallback import DEFAULT_MAX_REPROMPTS
from reasoning.llm.messages import ChatMessage, ChatReply, assistant, user
from reasoning.llm.settings import DEFAULT_MAX_TOKENS

M = TypeVar("M", bound=BaseModel)

Parser = Callable[[str], object]


@dataclass(frozen=True, slots=True)
class StructuredOutcome(Generic[M]):
    """What asking produced: the parsed value (None when every attempt failed), the number of
    calls made, every raw reply, the reason each rejected reply was rejected, and each reply's
    finish reason (``length`` for one cut off at the token cap)."""

    value: M | None
    attempts: int
    replies: tuple[str, ...]
    errors: tuple[str, ...]
    finish_reasons: tuple[str | None, ...] = ()

    @property
    def ok(self) -> bool:
        """True when a reply was parsed."""
        return self.value is not None

    @property
    def first_try(self) -> bool:
        """True when the first reply was parsed."""
        return self.ok and self.attempts == 1

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


def _as_fields_of(schema: type[BaseModel], values: dict[str, Any]) -> dict[str, Any]:
    """``values`` keyed by ``schema``'s own field names where they differ only in case (answer
    models name their fields by the labels lower-cased; a schema may keep them upper-case)."""
    names = {name.casefold(): name for name in schema.model_fields}
    return {names.get(key.casefold(), key): value for key, value in values.items()}


def parse_answer(
    text: str,
    schema: type[M],
    parse: Parser | None = None,
    answer: type[BaseModel] | None = None,
) -> M:
    """Read one reply, first as a JSON ``answer`` object, then as ``parse_reply`` would.

    A JSON object that fills ``answer`` is final: with ``parse`` it is handed over as labelled
    lines (``labelled_text``), so the game's own checks run on it; without, it is validated as
    ``schema`` (fields matched regardless of case). A reply with no such object (a server that
    ignored the requested format, or plain text) goes to ``parse_reply``, the labelled-text
    fallback.
    """
    if answer is None:
        return parse_reply(text, schema, parse)
    json_error: ValidationError | None = None
    for candidate in json_objects(text):
        try:
            filled = answer.model_validate(candidate)
        except ValidationError as exc:
            json_error = json_error or exc
            continue
        if parse is not None:
            return parse_reply(labelled_text(filled), schema, parse)
        if isinstance(filled, schema):
            return filled
        try:
            return schema.model_validate(_as_fields_of(schema, filled.model_dump()))
        except ValidationError as exc:
            raise MalformedAnswer(describe_validation_error(exc)) from exc
    try:
        return parse_reply(text, schema, parse)
    except MalformedAnswer:
        if json_error is not None:
            raise MalformedAnswer(describe_validation_error(json_error)) from None
        raise


def reprompt_text(
    problem: str,
    schema: type[BaseModel],
    *,
    json_answer: bool,
    cut_off_at: int | None = None,
) -> str:
    """The short follow-up message that tells the model what was wrong and how to answer.

    ``cut_off_at`` says the reply stopped at that many tokens, so the model is asked to answer
    shorter rather than told only what was missing.
    """
    if json_answer:
        fields = ", ".join(schema.model_fields)
        how = f"Reply with a single JSON object with the fields {fields}."
    else:
        how = "Reply again, keeping exactly to the format asked for above."
    if cut_off_at is not None:
        return (
            f"Your answer was cut off at {cut_off_at} tokens, before it was complete, so it "
            f"could not be used ({problem}). Answer shorter. {how}"
        )
    return f"Your previous answer could not be used: {problem}. {how}"


def attempt_seed(seed: int | None, attempt: int) -> int | None:
    """The sampling seed of attempt ``attempt`` (0 is the first): a new one on each re-prompt,
    so a re-prompt does not draw the same reply again."""
    return None if seed is None else seed + attempt


def ask_structured(
    client: ChatClient,
    messages: Sequence[ChatMessage],
    schema: type[M],
    *,
    parse: Parser | None = None,
    max_reprompts: int = DEFAULT_MAX_REPROMPTS,
    seed: int | None = None,
    answer: type[BaseModel] | None = None,
    max_tokens: int | None = None,
) -> StructuredOutcome[M]:
    """Ask ``client`` and parse the reply into ``schema``, re-prompting on a malformed reply.

    With ``answer`` (a flat pydantic model whose fields are the answer's labels) the client
    asks for it as structured output where the endpoint supports it, and replies are read by
    ``parse_answer``; ``max_tokens`` caps this answer's length (else the settings' cap).
    A reply cut off at its token cap that cannot be read is asked again once, as it was, with
    twice the cap (a reasoning model may have spent the cap thinking); this costs no
    re-prompt. A re-prompt sends the original messages, the last failed reply and what was
    wrong with it (earlier failures are dropped, so the prompt does not grow), with a new
    sampling seed; a reply cut off again is asked again shorter. After ``max_reprompts``
    re-prompts, or when the prompt cannot fit the model's context, the outcome's value is None
    and the caller falls back (see ``choose_with_fallback``). Other endpoint failures raise
    ``LLMEndpointError``.
    """
    if max_reprompts < 0:
        raise ValueError(f"max_reprompts must be >= 0, got {max_reprompts}")
    options = None
    if answer is not None or max_tokens is not None:
        options = ChatOptions(answer=answer, max_tokens=max_tokens)
    follow_up: list[ChatMessage] = []
    replies: list[str] = []
    errors: list[str] = []
    reasons: list[str | None] = []
    enlarged = False
    reprompts = 0
    while reprompts <= max_reprompts:
        try:
            reply = complete_with(
                client,
                [*messages, *follow_up],
                seed=attempt_seed(seed, len(replies)),
                options=options,
            )
        except ContextLengthError as exc:
            errors.append(f"the prompt does not fit the model's context: {exc.detail}")
            break
        replies.append(reply.content)
        reasons.append(reply.finish_reason)
        try:
            value = parse_answer(reply.content, schema, parse, answer)
        except MalformedAnswer as exc:
            errors.append(str(exc))
            if reply.cut_off and not enlarged:
                enlarged = True
                options = ChatOptions(answer=answer, max_tokens=_larger_budget(reply))
                continue
            reprompts += 1
            if reprompts <= max_reprompts:
                client.meter.record_reprompt()
            follow_up = [
                assistant(reply.content),
                user(_problem_text(str(exc), reply, schema, parse, answer)),
            ]
            continue
        return StructuredOutcome(value, len(replies), tuple(replies), tuple(errors), tuple(reasons))
    return StructuredOutcome(None, len(replies), tuple(replies), tuple(errors), tuple(reasons))


def _larger_budget(reply: ChatReply) -> int:
    """Twice the token cap a cut-off reply stopped at (as sent, else as spent)."""
    return 2 * (reply.max_tokens or reply.completion_tokens or DEFAULT_MAX_TOKENS)


def _problem_text(
    problem: str,
    reply: ChatReply,
    schema: type[BaseModel],
    parse: Parser | None,
    answer: type[BaseModel] | None,
) -> str:
    json_reply = answer is not None and reply.response_format is not None
    shape = answer if answer is not None and json_reply else schema
    cut_off_at = None
    if reply.cut_off:
        cut_off_at = reply.completion_tokens or reply.max_tokens
    return reprompt_text(
        problem, shape, json_answer=parse is None or json_reply, cut_off_at=cut_off_at
    )
