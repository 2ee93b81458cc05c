"""The failures of an LLM call that a game or a run handles: an endpoint that failed for good, a
conversation too long for its context, a replay that cannot answer. They live apart from the
clients, so code that catches them (the play path, the runner) imports no client library."""

from __future__ import annotations

from pathlib import Path

_EXCERPT = 60


class LLMEndpointError(RuntimeError):
    """The endpoint failed for good: a non-retryable error, or retries ran out."""

    def __init__(self, endpoint: str, attempts: int, detail: str, status: int | None = None):
        self.endpoint = endpoint
        self.attempts = attempts
        self.detail = detail
        self.status = status
        plural = "" if attempts == 1 else "s"
        super().__init__(
            f"chat endpoint {endpoint} failed after {attempts} attempt{plural}: {detail}"
        )


class ContextLengthError(LLMEndpointError):
    """The conversation cannot be made to fit the endpoint's context, even trimmed."""


class ReplayError(RuntimeError):
    """A replay cannot answer the request it was given."""


class ReplayMismatch(ReplayError):
    """The request differs from the recorded one at the same position."""

    def __init__(self, index: int, field: str, recorded: object, requested: object) -> None:
        self.index = index
        self.field = field
        self.recorded = recorded
        self.requested = requested
        old, new = _excerpts(recorded, requested)
        super().__init__(
            f"replay call {index}: {field} differs from the recording "
            f"(recorded {old}, requested {new})"
        )


class ReplayExhausted(ReplayError):
    """More calls were made than the recording holds."""

    def __init__(self, path: Path, index: int) -> None:
        self.path = path
        self.index = index
        super().__init__(f"replay file {path} holds {index} calls; call {index} is not recorded")


def _excerpts(recorded: object, requested: object) -> tuple[str, str]:
    """Short reprs of two values; for strings, windows around where they first differ."""
    if not (isinstance(recorded, str) and isinstance(requested, str)):
        return repr(recorded)[:_EXCERPT], repr(requested)[:_EXCERPT]
    first = next(
        (i for i, (a, b) in enumerate(zip(recorded, requested, strict=False)) if a != b),
        min(len(recorded), len(requested)),
    )
    start = max(0, first - _EXCERPT // 3)

    def window(text: str) -> str:
        head = "..." if start > 0 else ""
        tail = "..." if start + _EXCERPT < len(text) else ""
        return head + repr(text[start : start + _EXCERPT]) + tail

    return window(recorded), window(requested)
