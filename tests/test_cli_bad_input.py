"""Every bad input file a CLI entry point reads gets exit status 2 and one line on stderr.

Each entry point registers a ``BadInput``: the command words, the file suffix and a strategy of
bad file contents (bytes). A game that adds an entry point (``audit clue``) adds its generator
to ``BAD_INPUTS``; the property below then covers it too.
"""

from __future__ import annotations

import codecs
import json
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import COMMANDS, app
from benchmarks.console.command_group import Group, Lazy
from reasoning.syntax import MAX_NESTING

runner = CliRunner()

NOT_UTF8 = (b"\xff", b"\xfe", b"\xc3(", b"\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80")
"""Byte sequences that are never UTF-8."""


@dataclass(frozen=True)
class BadInput:
    """An entry point that reads a file: ``args(path)`` is its command line."""

    args: Callable[[Path], list[str]]
    suffix: str
    contents: st.SearchStrategy[bytes]


def with_bad_bytes(good: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    """Valid contents with a byte sequence that is not UTF-8 spliced in somewhere."""

    @st.composite
    def build(draw: st.DrawFn) -> bytes:
        data = draw(good)
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.sampled_from(NOT_UTF8)) + data[at:]

    return build()


def _utf8(texts: st.SearchStrategy[str]) -> st.SearchStrategy[bytes]:
    return texts.map(lambda t: t.encode("utf-8"))


deep = st.integers(MAX_NESTING + 1, 2000)
names = st.sampled_from(["p", "q", "Tea", "r2", "x_y"])

# theory files

GOOD_THEORY = "axiom a: p & (q -> r)\naxiom b: forall x. P(x) -> Q(x)\ngoal: exists x. Q(x)\n"


def _deep_not(n: int) -> str:
    return "~" * n + "p"


def _deep_and(n: int) -> str:
    return "(" * n + "p" + " & q)" * n


bad_theories = st.one_of(
    with_bad_bytes(st.just(GOOD_THEORY.encode())),
    _utf8(st.builds(lambda n: f"axiom a: {_deep_not(n)}\n", deep)),
    _utf8(st.builds(lambda n: f"axiom a: p\ngoal: {_deep_and(n)}\n", deep)),
    _utf8(st.builds(lambda name: f"axiom a: {name} &\n", names)),
    _utf8(st.builds(lambda name: f"axiom a: ({name} | q\n", names)),
    _utf8(st.builds(lambda n: f"axiom a: {'(' * n}p\n", st.integers(1, 3000))),
    _utf8(st.just("axiom a: P(c)\naxiom b: P(c, d)\n")),
    _utf8(st.just("axiom a: P(c:entity)\ngoal: P(c:event)\n")),
    _utf8(st.just("axiom a: p\naxiom a: q\n")),
    _utf8(st.just("goal: p\ngoal: q\n")),
    _utf8(st.just("axiom a:\n")),
    _utf8(st.just("  indented first\n")),
    _utf8(st.text(min_size=1).map(lambda t: "x" + t.replace("\n", " ") + "\n")),
    _utf8(st.just(GOOD_THEORY[: GOOD_THEORY.index("->") + 2])),
)

# traces

GOOD_TRACE = (
    '{"kind": "truth", "formulas": ["p"]}\n'
    '{"kind": "step", "observe": ["p | q"], "claims": ["p"]}\n'
)


def _line(obj: object) -> str:
    return json.dumps(obj) + "\n"


def _not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


def _not_texts(value: object) -> bool:
    return not (isinstance(value, list) and all(isinstance(v, str) for v in value))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)

bad_traces = st.one_of(
    with_bad_bytes(st.just(GOOD_TRACE.encode())),
    _utf8(st.builds(lambda n: "[" * n + "]" * n + "\n", st.integers(2000, 50_000))),
    _utf8(st.builds(lambda n: '{"kind": "step", "observe": ' + "[" * n + "\n", deep)),
    _utf8(st.builds(lambda n: _line({"kind": "step", "claims": [_deep_not(n)]}), deep)),
    _utf8(st.builds(lambda n: _line({"kind": "truth", "formulas": [_deep_and(n)]}), deep)),
    _utf8(st.text(min_size=1).filter(lambda t: "\n" not in t and _not_json(t)).map(_line)),
    _utf8(
        st.builds(lambda v: _line({"kind": "step", "observe": v}), json_values.filter(_not_texts))
    ),
    _utf8(
        st.builds(
            lambda v: _line({"kind": "step", "claims": [v]}),
            json_values.filter(lambda v: not isinstance(v, str)),
        )
    ),
    _utf8(
        st.builds(
            lambda v: _line({"kind": v}), json_values.filter(lambda v: v not in ("step", "truth"))
        )
    ),
    _utf8(st.builds(lambda v: _line(v), st.lists(json_values) | st.integers() | st.text())),
    _utf8(st.just(_line({"kind": "step", "observe": ["p"], "seen": 1}))),
    _utf8(st.just(_line({"kind": "step", "observe": ["p &"]}))),
    _utf8(st.just(_line({"kind": "step", "observe": ["P(c)"], "claims": ["P(c, d)"]}))),
    _utf8(
        st.just(
            _line({"kind": "truth", "formulas": ["Q(c:entity)"]})
            + _line({"kind": "step", "observe": ["p"], "claims": ["Q(c:event)"]})
        )
    ),
    _utf8(st.just(GOOD_TRACE[: GOOD_TRACE.index("claims")])),
)


BAD_INPUTS: dict[str, BadInput] = {
    "prove": BadInput(lambda p: ["prove", str(p)], ".thy", bad_theories),
    "prove --json": BadInput(lambda p: ["prove", "--json", str(p)], ".thy", bad_theories),
    "audit trace": BadInput(lambda p: ["audit", "trace", str(p)], ".jsonl", bad_traces),
    "audit trace --json": BadInput(
        lambda p: ["audit", "trace", "--json", str(p)], ".jsonl", bad_traces
    ),
}
"""Entry points and their bad files; a new entry point adds itself here."""


def run_on(entry: BadInput, data: bytes) -> tuple[int, list[str], str]:
    """Run the entry point on a file holding ``data``: exit code, stderr lines, all output."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{entry.suffix}"
        path.write_bytes(data)
        result = runner.invoke(app, entry.args(path))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    return result.exit_code, lines, result.output


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bad_file_exits_2_with_one_line(name: str, data: st.DataObject) -> None:
    entry = BAD_INPUTS[name]
    contents = data.draw(entry.contents, label="contents")
    code, lines, output = run_on(entry, contents)
    assert code == 2, output
    assert len(lines) == 1, lines
    assert "Traceback" not in output


@pytest.mark.parametrize(("name", "good"), [("prove", GOOD_THEORY), ("audit trace", GOOD_TRACE)])
def test_byte_order_mark_is_accepted(name: str, good: str) -> None:
    code, lines, output = run_on(BAD_INPUTS[name], codecs.BOM_UTF8 + good.encode())
    assert code == 0, output
    assert lines == []


def test_not_utf8_names_file_and_line() -> None:
    code, lines, _ = run_on(BAD_INPUTS["audit trace"], GOOD_TRACE.encode() + b'{"k\xff"}\n')
    assert code == 2
    assert lines[0].endswith(":3: not UTF-8: byte 0xff at line 3, column 4")
    code, lines, _ = run_on(BAD_INPUTS["prove"], b"axiom a: p\naxiom b: \xc3(\n")
    assert code == 2
    assert ":2:10: not UTF-8: byte 0xc3 at line 2, column 10" in lines[0]


def test_nesting_limit_is_named() -> None:
    text = f"axiom a: {_deep_not(MAX_NESTING + 1)}\n"
    code, lines, _ = run_on(BAD_INPUTS["prove"], text.encode())
    assert code == 2
    assert f"nested deeper than {MAX_NESTING} levels" in lines[0]
    code, lines, _ = run_on(
        BAD_INPUTS["prove"], f"axiom a: {_deep_not(MAX_NESTING - 1)}\n".encode()
    )
    assert code == 0


def _commands(entries: Mapping[str, Lazy | Group], path: tuple[str, ...] = ()) -> list[list[str]]:
    found: list[list[str]] = []
    for name, entry in entries.items():
        if isinstance(entry, Group):
            found += _commands(entry.entries, (*path, name))
        else:
            found.append([*path, name])
    return found


USAGE_ERRORS = [
    (["prove", "examples/tea.thy", "--timeout", "abc"], "'--timeout'"),
    (["bench", "undercover", "--players", "six"], "'--players'"),
    (["bench", "clue", "--games", "0"], "'--games'"),
    (["bench", "provers", "--problems", "x"], "'--problems'"),
    (["prove"], "'file'"),
    (["audit", "trace"], "Missing argument 'file'"),
    (["play", "nosuch"], "'nosuch'"),
    (["nosuch"], "'nosuch'"),
    (["--bogus"], "--bogus"),
    *(([*command, "--no-such-option"], "--no-such-option") for command in _commands(COMMANDS)),
]
"""Command lines click cannot parse, and what the one-line error must name."""


@pytest.mark.parametrize(
    ("args", "named"), USAGE_ERRORS, ids=[" ".join(args) for args, _ in USAGE_ERRORS]
)
def test_usage_error_exits_2_with_one_line_naming_the_option(args: list[str], named: str) -> None:
    result = runner.invoke(app, args, prog_name="gumshoe")
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: gumshoe")
    assert named in lines[0]


LLM_COMMANDS = [
    ["play", "clue", "--agents", "llm,random,random"],
    ["play", "hanabi", "--agents", "sherlock,random", "--players", "2"],
    ["play", "mystery", "--agents", "llm-cot,questum,questum,questum"],
    ["play", "detective", "--agents", "llm"],
    ["bench", "clue", "--games", "1", "--agents", "llm,random,random"],
]
"""Commands that take the LLM endpoint options."""


@pytest.mark.parametrize("command", LLM_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_bad_endpoint_names_its_option_or_variable(
    command: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GUMSHOE_LLM_BASE_URL", raising=False)
    given = runner.invoke(app, [*command, "--base-url", "notaurl"])
    assert given.exit_code == 2, given.output
    assert "error: option '--base-url': not an http(s) URL" in given.output
    assert len(given.output.strip().splitlines()) == 1
    monkeypatch.setenv("GUMSHOE_LLM_BASE_URL", "nope")
    from_env = runner.invoke(app, command)
    assert from_env.exit_code == 2, from_env.output
    assert "environment variable GUMSHOE_LLM_BASE_URL: not an http(s) URL" in from_env.output
