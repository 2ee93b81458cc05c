"""The part of JSON Schema every structured-output server takes, and a check that a schema
keeps to it.

A server turns an answer's schema into a grammar before it decodes: llama.cpp (and
llama-cpp-python) write every bounded repetition out rule by rule and refuse a grammar whose
repeated rules pass 2,000 (llama-cpp-python then crashes instead of answering), vLLM compiles it
with xgrammar or outlines, and OpenAI's strict mode takes a documented subset within documented
limits. So an answer schema here has no string length bounds (the reply's token budget bounds
free text), bounded lists of at most ``MAX_ITEMS`` items, patterns without large counted
repetitions, and enumerations, properties and nesting within OpenAI's limits; every object
forbids other keys and requires all of its own, as strict mode asks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue

if TYPE_CHECKING:
    from pydantic_core import core_schema

MAX_ITEMS = 64
"""The largest bound on a list's items in an answer schema: llama.cpp's converters spell a bound
of n out as about 2n grammar rules (optional items nested in each other)."""
MAX_PATTERN_REPEAT = 32
"""The largest count a pattern's ``{m,n}`` may give in an answer schema, for the same reason."""
GRAMMAR_BOUND = 500
"""The largest bound (on items, characters, or a pattern's repetition) a schema is ever sent
with: llama.cpp's grammar parser refuses one past 1,000 (2,000 rules), and llama-cpp-python then
crashes rather than answers; half that leaves room for bounds nested in one rule."""
MAX_ENUM_VALUES = 1000
"""Enumerated values in one schema (OpenAI strict mode)."""
MAX_LARGE_ENUM_CHARS = 15_000
"""Characters of the values of one enumeration of more than ``LARGE_ENUM`` values (OpenAI)."""
LARGE_ENUM = 250
MAX_NAME_CHARS = 120_000
"""Characters of all property and definition names, enumerated and constant values (OpenAI)."""
MAX_PROPERTIES = 5000
"""Object properties in one schema (OpenAI)."""
MAX_DEPTH = 10
"""Levels of nested objects (OpenAI)."""

KEYWORDS = frozenset(
    {
        "$defs",
        "$ref",
        "additionalProperties",
        "anyOf",
        "const",
        "description",
        "enum",
        "items",
        "maxItems",
        "minItems",
        "pattern",
        "properties",
        "required",
        "title",
        "type",
    }
)
"""The schema keywords an answer schema may use: those every server above reads."""

_COUNTS = ("minItems", "maxItems", "minLength", "maxLength")
_COUNTED = re.compile(r"(?<!\\)\{(\d+)(?:,(\d*))?\}")


def schema_problems(schema: dict[str, Any]) -> list[str]:
    """Every way ``schema`` leaves the subset (empty when it keeps to it), each naming where."""
    problems: list[str] = []
    if schema.get("type") != "object" or "anyOf" in schema:
        problems.append("the root is not an object")
    enums: list[list[object]] = []
    names = 0
    properties = 0
    depth = _depth(schema, schema.get("$defs", {}), ())
    if depth > MAX_DEPTH:
        problems.append(f"objects nest {depth} deep (at most {MAX_DEPTH})")
    for path, node in _nodes(schema):
        where = path or "the root"
        problems += [f"{where}: keyword {k!r} is outside the subset" for k in _unknown(node)]
        props = node.get("properties")
        if isinstance(props, dict):
            properties += len(props)
            names += sum(len(name) for name in props)
            if node.get("additionalProperties") is not False:
                problems.append(f"{where}: an object must forbid other keys")
            if sorted(node.get("required", [])) != sorted(props):
                problems.append(f"{where}: an object must require every property")
        problems += _size_problems(path, node, ("minItems", "maxItems"), MAX_ITEMS)
        problems += _pattern_problems(path, node, MAX_PATTERN_REPEAT)
        if "enum" in node:
            enums.append(list(node["enum"]))
        if "const" in node:
            enums.append([node["const"]])
    names += sum(len(name) for name in schema.get("$defs", {}))
    values = sum(len(e) for e in enums)
    names += sum(len(_text(v)) for e in enums for v in e)
    if values > MAX_ENUM_VALUES:
        problems.append(f"{values} enumerated values (at most {MAX_ENUM_VALUES})")
    for values_of_one in enums:
        chars = sum(len(_text(v)) for v in values_of_one)
        if len(values_of_one) > LARGE_ENUM and chars > MAX_LARGE_ENUM_CHARS:
            problems.append(
                f"an enumeration of {len(values_of_one)} values takes {chars} characters "
                f"(at most {MAX_LARGE_ENUM_CHARS} past {LARGE_ENUM} values)"
            )
    if names > MAX_NAME_CHARS:
        problems.append(f"names and values take {names} characters (at most {MAX_NAME_CHARS})")
    if properties > MAX_PROPERTIES:
        problems.append(f"{properties} object properties (at most {MAX_PROPERTIES})")
    return problems


def grammar_problems(schema: dict[str, Any]) -> list[str]:
    """The ways ``schema`` would make a grammar too large for llama.cpp's servers (a bounded
    string, list or pattern repetition past ``GRAMMAR_BOUND``), each naming where: what can
    crash a server, not only be refused by one."""
    return [
        problem
        for path, node in _nodes(schema)
        for problem in [
            *_size_problems(path, node, _COUNTS, GRAMMAR_BOUND),
            *_pattern_problems(path, node, GRAMMAR_BOUND),
        ]
    ]


def _size_problems(
    path: str, node: dict[str, Any], counted: tuple[str, ...], bound: int
) -> list[str]:
    """The bounds of ``node`` among ``counted`` past ``bound``."""
    where = path or "the root"
    return [
        f"{where}: {key} {node[key]} (at most {bound})"
        for key in counted
        if isinstance(node.get(key), int) and node[key] > bound
    ]


def _pattern_problems(path: str, node: dict[str, Any], bound: int) -> list[str]:
    """``node``'s pattern, where it counts a repetition past ``bound``."""
    pattern = node.get("pattern")
    if not isinstance(pattern, str):
        return []
    counts = [int(c) for m in _COUNTED.finditer(pattern) for c in m.groups() if c]
    if any(c > bound for c in counts):
        return [f"{path or 'the root'}: the pattern counts a repetition past {bound}"]
    return []


class _PortableSchema(GenerateJsonSchema):
    """pydantic's JSON schema, with a union told apart by a field written as ``anyOf`` (strict
    mode takes no ``oneOf`` and no ``discriminator``; the field's constants still tell the
    branches apart)."""

    def tagged_union_schema(self, schema: core_schema.TaggedUnionSchema) -> JsonSchemaValue:
        generated = super().tagged_union_schema(schema)
        generated.pop("discriminator", None)
        if "oneOf" in generated:
            generated["anyOf"] = generated.pop("oneOf")
        return generated


def answer_schema(answer: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema an answer model is asked for with."""
    return answer.model_json_schema(schema_generator=_PortableSchema)


@cache
def answer_problems(answer: type[BaseModel]) -> tuple[str, ...]:
    """``schema_problems`` of an answer model's schema (worked out once per model)."""
    return tuple(schema_problems(answer_schema(answer)))


@cache
def strict_ready(answer: type[BaseModel]) -> bool:
    """Whether an answer model's schema keeps to the whole subset, so OpenAI's strict mode can
    be asked for (worked out once per model)."""
    return not answer_problems(answer)


def check_answer_model(answer: type[BaseModel]) -> None:
    """ValueError naming the answer model and its first problem when its schema would make a
    grammar too large (``grammar_problems``): such a schema is never sent, since it can crash
    the server that receives it."""
    problems = _grammar_problems_of(answer)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ValueError(f"answer model {answer.__name__}: {problems[0]}{more}")


@cache
def _grammar_problems_of(answer: type[BaseModel]) -> tuple[str, ...]:
    return tuple(grammar_problems(answer_schema(answer)))


def _unknown(node: dict[str, Any]) -> list[str]:
    return sorted(key for key in node if key not in KEYWORDS)


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _nodes(node: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every subschema written in ``node`` (its definitions included), with where it is."""
    yield path, node
    for name, child in node.get("properties", {}).items():
        yield from _nodes(child, f"{path}.{name}" if path else name)
    for name, child in node.get("$defs", {}).items():
        yield from _nodes(child, f"$defs.{name}")
    items = node.get("items")
    if isinstance(items, dict):
        yield from _nodes(items, f"{path}[]")
    for index, child in enumerate(node.get("anyOf", [])):
        yield from _nodes(child, f"{path}|{index}")


def _depth(node: dict[str, Any], defs: dict[str, Any], seen: tuple[str, ...]) -> int:
    """How many objects nest in ``node``, definitions followed where they are referred to
    (a definition that refers to itself counts as deeper than any limit)."""
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name in seen:
            return MAX_DEPTH + 1
        target = defs.get(name)
        return _depth(target, defs, (*seen, name)) if isinstance(target, dict) else 0
    children = [*node.get("properties", {}).values(), *node.get("anyOf", [])]
    items = node.get("items")
    if isinstance(items, dict):
        children.append(items)
    inner = max((_depth(c, defs, seen) for c in children if isinstance(c, dict)), default=0)
    return inner + (1 if isinstance(node.get("properties"), dict) else 0)
