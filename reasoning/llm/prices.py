"""Per-model token prices for cost estimates: a small built-in table the user extends from JSON.

The file maps a model name to its prices in currency units per 1000 tokens::

    {"my-model": {"input_per_1k": 0.0005, "output_per_1k": 0.0015}, "SmolLM2-135M": {}}

A name also prices the dated or suffixed variants it is a prefix of (``gpt-4o-mini`` prices
``gpt-4o-mini-2024-07-18``); the longest matching name wins. Missing prices count as zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reasoning.textfile import UserFileError, read_user_json


class ModelPrice(BaseModel):
    """One model's prices per 1000 prompt (input) and completion (output) tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_per_1k: float = Field(default=0.0, ge=0.0)
    output_per_1k: float = Field(default=0.0, ge=0.0)

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """The price of the given token counts."""
        return (prompt_tokens * self.input_per_1k + completion_tokens * self.output_per_1k) / 1000


# OpenAI list prices (USD) when this table was written; a price file overrides any of them.
BUILTIN_PRICES: Mapping[str, ModelPrice] = {
    "gpt-4o-mini": ModelPrice(input_per_1k=0.00015, output_per_1k=0.0006),
    "gpt-4o": ModelPrice(input_per_1k=0.0025, output_per_1k=0.01),
    "gpt-4.1-mini": ModelPrice(input_per_1k=0.0004, output_per_1k=0.0016),
    "gpt-4.1": ModelPrice(input_per_1k=0.002, output_per_1k=0.008),
}


class PriceTable:
    """Model name -> price, looked up by exact name or longest prefix."""

    def __init__(self, prices: Mapping[str, ModelPrice] | None = None) -> None:
        self._prices = dict(BUILTIN_PRICES if prices is None else prices)

    @classmethod
    def load(cls, path: Path | None) -> PriceTable:
        """The built-in table extended by the JSON file at ``path`` (when given).

        A missing or malformed file raises ``ValueError`` naming the file and the bad entry.
        """
        table = cls()
        if path is None:
            return table
        try:
            raw = read_user_json(path)
        except UserFileError as exc:
            raise ValueError(f"price table {exc}") from None
        if not isinstance(raw, dict):
            raise ValueError(f"price table {path}: expected an object of model name -> prices")
        for name, entry in raw.items():
            try:
                table._prices[name] = ModelPrice.model_validate(entry)
            except ValidationError as exc:
                problem = exc.errors()[0]
                where = ".".join(str(part) for part in (name, *problem["loc"]))
                raise ValueError(f"price table {path}: {where}: {problem['msg']}") from exc
        return table

    def price(self, model: str) -> ModelPrice | None:
        """The price of ``model``, or None when the table does not know it."""
        exact = self._prices.get(model)
        if exact is not None:
            return exact
        prefixes = [name for name in self._prices if model.startswith(name)]
        return self._prices[max(prefixes, key=len)] if prefixes else None
