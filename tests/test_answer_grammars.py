"""Every game's answer schemas keep to what every structured-output server takes: offline by
``reasoning.llm.schema_limits`` (the conformance rule ``answer-schemas``), and by llama.cpp
itself where the ``[local-llm]`` extra is installed: each schema, at its largest, is turned into
a grammar by llama-cpp-python's own converter and compiled by llama.cpp's grammar parser, the
step that failed, and crashed the server, on a reasoning field bounded to 16,000 characters."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel, Field

from benchmarks.llm_parse_rate import clue_choices
from games.clue.events import ClueConfig
from games.core.registry import game_names, get_game
from reasoning.llm.answer_models import answer_model, text_field
from reasoning.llm.schema_limits import (
    answer_problems,
    answer_schema,
    check_answer_model,
    grammar_problems,
    schema_problems,
)

BOUNDED = answer_model("Bounded", {"reasoning": (str, Field(min_length=1, max_length=16000))})
"""The Hanabi reasoning field as it was when it crashed the server."""


def every_answer_model() -> list[tuple[str, type[BaseModel]]]:
    """Each game's answer models at their largest, found through the game registry, and the
    parse-rate benchmark's."""
    found = [(g, m) for g in game_names() for m in get_game(g).answer_models()]
    labels = ("ANALYSIS", "DEDUCTIONS")
    return [*found, ("parse-rate", clue_choices(ClueConfig(players=6)).model(labels))]


MODELS = every_answer_model()


def test_every_game_names_its_answer_models() -> None:
    games = {game for game, _ in MODELS}
    assert games == {*game_names(), "parse-rate"}


@pytest.mark.parametrize(("game", "model"), MODELS, ids=lambda v: getattr(v, "__name__", v))
def test_each_answer_schema_keeps_to_the_subset(game: str, model: type[BaseModel]) -> None:
    assert answer_problems(model) == ()
    check_answer_model(model)


def test_what_the_subset_refuses_is_named_where_it_is() -> None:
    schema = BOUNDED.model_json_schema()
    assert grammar_problems(schema) == ["reasoning: maxLength 16000 (at most 500)"]
    with pytest.raises(ValueError, match="answer model Bounded: reasoning: maxLength 16000"):
        check_answer_model(BOUNDED)
    loose: dict[str, Any] = {
        "type": "object",
        "properties": {
            "pick": {"type": "array", "items": {"enum": list(range(1001))}, "maxItems": 65},
            "why": {"type": "string", "pattern": "^a{1,100}$", "minLength": 1},
        },
        "required": ["pick"],
    }
    assert schema_problems(loose) == [
        "the root: an object must forbid other keys",
        "the root: an object must require every property",
        "pick: maxItems 65 (at most 64)",
        "why: keyword 'minLength' is outside the subset",
        "why: the pattern counts a repetition past 32",
        "1001 enumerated values (at most 1000)",
    ]
    modest = answer_model("Modest", {"why": (str, Field(max_length=400))})
    check_answer_model(modest)  # outside the subset, yet no grammar it makes is too large
    assert answer_problems(modest) == ("why: keyword 'maxLength' is outside the subset",)
    plain = answer_model("Plain", {"why": text_field()})
    assert answer_schema(plain)["properties"]["why"] == {"title": "Why", "type": "string"}


@pytest.fixture(scope="module")
def llama() -> Any:
    """llama-cpp-python's module (the test skips without it)."""
    return pytest.importorskip(
        "llama_cpp", reason="llama-cpp-python is not installed (gumshoe's [local-llm] extra)"
    )


def compiles(llama: Any, model: type[BaseModel]) -> bool:
    """Whether llama.cpp's grammar parser takes the grammar llama-cpp-python's converter makes
    of the model's schema, as its server does on a ``json_object`` request carrying it."""
    grammar = llama.llama_grammar.json_schema_to_gbnf(json.dumps(answer_schema(model)))
    sampler = llama.llama_sampler_init_grammar(None, grammar.encode(), b"root")
    if not sampler:
        return False
    llama.llama_sampler_free(sampler)
    return True


@pytest.mark.parametrize(("game", "model"), MODELS, ids=lambda v: getattr(v, "__name__", v))
def test_llama_cpp_compiles_each_answer_schema(
    llama: Any, game: str, model: type[BaseModel]
) -> None:
    assert compiles(llama, model), f"{game}: {model.__name__}"


def test_llama_cpp_refuses_the_bounded_reasoning_field_that_crashed_the_server(llama: Any) -> None:
    assert not compiles(llama, BOUNDED)
    short = answer_model("Short", {"reasoning": (str, Field(min_length=1, max_length=600))})
    assert compiles(llama, short)
