"""Word pairs for Undercover-V: the ten shipped pairs and user-supplied ones, from JSON.

A pair file is ``{"pairs": [{"id": "earl-grey-tea-ceylon-tea", "words": ["Earl Grey Tea",
"Ceylon Tea"]}, ...]}``. Which word of a pair the spy holds is decided per game by the seed, so a
pair's word order carries no meaning.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from games.core.runlog import field_errors
from reasoning.textfile import UserFileError, parse_user_json, read_user_text

BUILTIN_PAIRS_FILE = "word_pairs.json"


class WordPairError(ValueError):
    """A word-pair file is unreadable or invalid; the message names the file and the field."""


class WordPair(BaseModel):
    """Two close but distinct words; one is dealt to the citizens, the other to the spy."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=100)
    words: tuple[str, str]

    @field_validator("words")
    @classmethod
    def _distinct_words(cls, words: tuple[str, str]) -> tuple[str, str]:
        first, second = (w.strip() for w in words)
        if not first or not second:
            raise ValueError("a word must not be empty")
        if first.casefold() == second.casefold():
            raise ValueError(f"the two words must differ, both are {first!r}")
        return first, second

    def other(self, word: str) -> str:
        """The word of the pair that is not ``word``; ValueError if ``word`` is not in the pair."""
        first, second = self.words
        if word == first:
            return second
        if word == second:
            return first
        raise ValueError(f"{word!r} is not a word of pair {self.id!r}")


class WordPairFile(BaseModel):
    """The schema of a word-pair JSON file: a list of pairs with unique ids."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pairs: tuple[WordPair, ...]

    @model_validator(mode="after")
    def _unique_ids(self) -> WordPairFile:
        if not self.pairs:
            raise ValueError("field 'pairs': list at least one pair")
        seen: set[str] = set()
        for index, pair in enumerate(self.pairs):
            if pair.id in seen:
                raise ValueError(f"field 'pairs.{index}.id': pair id {pair.id!r} is used twice")
            seen.add(pair.id)
        return self


def parse_pairs(text: str, source: str = "<string>") -> tuple[WordPair, ...]:
    """Read the pairs of a word-pair JSON document; WordPairError names the source and field."""
    try:
        data = parse_user_json(text, source)
    except UserFileError as err:
        raise WordPairError(str(err)) from None
    try:
        return WordPairFile.model_validate(data).pairs
    except ValidationError as err:
        raise WordPairError(f"{source}: {field_errors(err)}") from None


def load_pairs(path: str | Path) -> tuple[WordPair, ...]:
    """Read the pairs of a word-pair JSON file; WordPairError names the file and field."""
    path = Path(path)
    try:
        text = read_user_text(path)
    except UserFileError as err:
        raise WordPairError(str(err)) from None
    return parse_pairs(text, str(path))


def builtin_pairs() -> tuple[WordPair, ...]:
    """The ten pairs of the Undercover-V specification, shipped as package data."""
    data = resources.files(__package__).joinpath("data")
    text = data.joinpath(BUILTIN_PAIRS_FILE).read_text("utf-8")
    return parse_pairs(text, BUILTIN_PAIRS_FILE)


def pair_catalogue(extra: str | Path | None = None) -> dict[str, WordPair]:
    """The shipped pairs plus those of the ``extra`` file, by id; ids must not collide."""
    pairs = builtin_pairs()
    if extra is not None:
        added = load_pairs(extra)
        known = {pair.id for pair in pairs}
        for index, pair in enumerate(added):
            if pair.id in known:
                raise WordPairError(
                    f"{extra}: field 'pairs.{index}.id': pair id {pair.id!r} "
                    "is already a shipped pair"
                )
        pairs += added
    return {pair.id: pair for pair in pairs}
