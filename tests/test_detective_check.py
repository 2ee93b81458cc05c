"""`gumshoe detective check` re-verifies the whole contract of a case file and names the place
that breaks it (exit 2, one line); `play detective --case` refuses such a case before writing
anything; oversized, deeply nested or missing inputs are one line too. A hypothesis suite
mutates a valid case in ways that each break the contract."""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from benchmarks.console.cli import app
from formalize.world.clauses import clause_templates, fill
from formalize.world.facts import Seen, fact_of
from formalize.world.setting import Setting
from games.detective import CaseKnobs, dump_case, generate_case
from games.detective.check import check_case
from provers import SatProver, SatSession
from reasoning.syntax import parse_formula

runner = CliRunner()
Data = dict[str, Any]


@pytest.fixture(scope="module")
def case_data() -> Data:
    """A generated case without its sentence map (optional; the loader checks it against the
    facts itself), so the mutations below reach the contract checks."""
    knobs = CaseKnobs(locations=6, red_herrings=1, distractors=3, words_per_card=30, questions=2)
    data: Data = json.loads(dump_case(generate_case(3, SatProver(), SatSession, knobs)))
    data.pop("intro_sentences", None)
    for loc in data["locations"]:
        loc.pop("sentences", None)
    return data


def _check(tmp_path: Path, data: Data | str, *options: str) -> Result:
    path = tmp_path / "case.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return runner.invoke(app, ["detective", "check", str(path), *options])


def _one_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


def _facts(data: Data, prefix: str = "") -> list[tuple[Data, int]]:
    return [
        (loc, i)
        for loc in data["locations"]
        for i, fact in enumerate(loc["facts"])
        if fact.startswith(prefix)
    ]


def _single(data: Data, rng: random.Random) -> None:
    """Every fact of the first question's first unlock set moved to its first location."""
    by_id = {loc["id"]: loc for loc in data["locations"]}
    first, *rest = data["questions"][0]["unlock_sets"][0]
    for lid in rest:
        by_id[first]["facts"] += by_id[lid]["facts"]
        by_id[first]["text"] += " " + by_id[lid]["text"]
        by_id[lid]["facts"] = []


def _wrong_answer(data: Data, rng: random.Random) -> None:
    slot = rng.choice(rng.choice(data["questions"])["slots"])
    slot["answer"] = rng.choice(
        [c["value"] for c in slot["choices"] if c["value"] != slot["answer"]]
    )


def _contradiction(data: Data, rng: random.Random) -> None:
    loc, i = rng.choice(_facts(data))
    other = rng.choice([x for x in data["locations"] if x is not loc])
    other["facts"].append(f"~({loc['facts'][i]})")


def _text_opposite(data: Data, rng: random.Random) -> None:
    """A sighting's clause in a location's text replaced by the clause of its negation."""
    setting = Setting.model_validate(data["setting"])
    found = []
    for loc in data["locations"]:
        for text in loc["facts"]:
            fact = fact_of(parse_formula(text), setting)
            if isinstance(fact, Seen) and fact.present:
                for template in clause_templates(fact):
                    clause = fill(template, fact, setting)
                    if clause.casefold() in loc["text"].casefold():
                        found.append((loc, fact, clause))
    loc, fact, clause = rng.choice(found)
    start = loc["text"].casefold().index(clause.casefold())
    negation = fill(clause_templates(replace(fact, present=False))[0], fact, setting)
    loc["text"] = loc["text"][:start] + negation + loc["text"][start + len(clause) :]


def _misspelt(data: Data, rng: random.Random) -> None:
    loc, i = rng.choice(_facts(data))
    loc["facts"][i] = re.sub(
        r"[a-z][a-z0-9_]*", lambda m: m.group(0) + "x", loc["facts"][i], count=1
    )


def _unlock_sets(data: Data) -> list[list[str]]:
    every = [q["unlock_sets"] for q in data["questions"]]
    every += [s["unlock_sets"] for q in data["questions"] for s in q["slots"]]
    return [u for sets in every for u in sets]


def _unlock_short(data: Data, rng: random.Random) -> None:
    unlock = rng.choice([u for u in _unlock_sets(data) if len(u) > 1])
    unlock.remove(rng.choice(unlock))


def _unlock_long(data: Data, rng: random.Random) -> None:
    unlock = rng.choice(_unlock_sets(data))
    unlock.append(rng.choice([x["id"] for x in data["locations"] if x["id"] not in unlock]))


def _red_herring(data: Data, rng: random.Random) -> None:
    loc = rng.choice(data["locations"])
    loc["red_herring"] = not loc["red_herring"]


def _no_formula(data: Data, rng: random.Random) -> None:
    slot = rng.choice(rng.choice(data["questions"])["slots"])
    del rng.choice(slot["choices"])["formula"]


def _knobs(data: Data, rng: random.Random) -> None:
    data["knobs"]["locations"] += rng.choice((-1, 1))


MUTATIONS: dict[str, tuple[Callable[[Data, random.Random], None], str]] = {
    "single-location": (_single, "alone settles the answer"),
    "wrong-answer": (_wrong_answer, "the reference answer ("),
    "contradictory-cards": (_contradiction, "contradict"),
    "text-contradicts-fact": (_text_opposite, "the opposite of its fact"),
    "atom-outside-vocabulary": (_misspelt, "is not an atom of the case's setting"),
    "unlock-set-too-small": (_unlock_short, "does not settle the answer"),
    "unlock-set-not-minimal": (_unlock_long, "is not minimal"),
    "red-herring-flag": (_red_herring, "red herring"),
    "choice-without-formula": (_no_formula, "no formula"),
    "knobs-disagree": (_knobs, "knobs.locations"),
}


def test_a_generated_case_passes(tmp_path: Path, case_data: Data) -> None:
    result = _check(tmp_path, case_data)
    assert result.exit_code == 0, result.output
    assert "passes" in result.output


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_a_broken_contract_names_its_place(tmp_path: Path, case_data: Data, name: str) -> None:
    data = copy.deepcopy(case_data)
    mutate, message = MUTATIONS[name]
    mutate(data, random.Random(0))
    line = _one_line(_check(tmp_path, data))
    assert line.startswith(f"error: {tmp_path / 'case.json'}: ")
    assert message in line


def test_clashing_locations_are_named(tmp_path: Path, case_data: Data) -> None:
    data = copy.deepcopy(case_data)
    loc, i = _facts(data, "at_")[0]
    other = next(x for x in data["locations"] if x is not loc)
    other["facts"].append("~" + loc["facts"][i])
    line = _one_line(_check(tmp_path, data))
    assert f"'{loc['id']}'" in line and f"'{other['id']}'" in line
    assert "VALID" not in line


def test_a_case_too_large_or_too_deep_is_one_line(tmp_path: Path, case_data: Data) -> None:
    data = copy.deepcopy(case_data)
    data.pop("knobs")
    for q in data["questions"]:
        q["unlock_sets"] = []
        for slot in q["slots"]:
            slot["unlock_sets"] = []
    first = data["locations"][0]
    data["locations"] = [dict(first, id=f"loc{i}") for i in range(6000)]
    assert "6000 locations" in _one_line(_check(tmp_path, data))
    assert "nested deeper than" in _one_line(_check(tmp_path, "[" * 100_000 + "]" * 100_000))
    assert "expected a JSON object" in _one_line(_check(tmp_path, "[1, 2]"))
    folder = runner.invoke(app, ["detective", "check", str(tmp_path)])
    assert "not a file" in _one_line(folder)


def test_the_time_limit_says_what_it_was_doing(tmp_path: Path, case_data: Data) -> None:
    data = copy.deepcopy(case_data)
    for q in data["questions"]:
        q["unlock_sets"] = []
        for slot in q["slots"]:
            slot["unlock_sets"] = []
    result = _check(tmp_path, data, "--time-limit", "0.1")
    if result.exit_code == 0:
        pytest.skip("the check finished within 0.1 s on this machine")
    assert "gave up after 0.1 s while" in result.output.strip().splitlines()[-1]


def test_check_case_fills_in_missing_unlock_sets(case_data: Data) -> None:
    from games.detective.case import Case

    data = copy.deepcopy(case_data)
    for q in data["questions"]:
        q["unlock_sets"] = []
        for slot in q["slots"]:
            slot["unlock_sets"] = []
    for loc in data["locations"]:
        loc["red_herring"] = False
    filled, problems = check_case(Case.model_validate(data), SatProver(), SatSession)
    assert problems == []
    assert filled == Case.model_validate(case_data)


def test_play_refuses_a_broken_case_before_touching_the_log(
    tmp_path: Path, case_data: Data
) -> None:
    data = copy.deepcopy(case_data)
    _wrong_answer(data, random.Random(0))
    path = tmp_path / "case.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "run"
    out.mkdir()
    log = out / "detective-seed0.jsonl"
    log.write_text("kept\n")
    result = runner.invoke(app, ["play", "detective", "--case", str(path), "--out", str(out)])
    assert "the reference answer (" in _one_line(result)
    assert log.read_text() == "kept\n"


def test_audit_of_a_missing_log_is_one_line(tmp_path: Path) -> None:
    line = _one_line(runner.invoke(app, ["audit", "detective", str(tmp_path / "none.jsonl")]))
    assert "none.jsonl" in line


FUZZ_SEEN: Counter[str] = Counter()
KINDS = [*MUTATIONS, "torn"]


def _every_kind(test: Callable[..., None]) -> Callable[..., None]:
    """Hypothesis examples that try every kind once, whatever the random draws."""
    for kind in KINDS:
        test = example(kind=kind, rng=random.Random(0))(test)
    return test


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@_every_kind
@given(kind=st.sampled_from(KINDS), rng=st.randoms(use_true_random=False))
def test_fuzzed_case_files_are_refused_in_one_line(
    tmp_path: Path, case_data: Data, kind: str, rng: random.Random
) -> None:
    """A contract-breaking mutation at a random place, or a valid case torn at a random byte:
    exit 2 and one line, never a traceback and never a pass."""
    data = copy.deepcopy(case_data)
    if kind == "torn":
        full = json.dumps(data, indent=2)
        text = full[: rng.randrange(len(full))]
    else:
        MUTATIONS[kind][0](data, rng)
        text = json.dumps(data, indent=2)
    line = _one_line(_check(tmp_path, text))
    if kind != "torn":
        assert MUTATIONS[kind][1] in line, (kind, line)
    FUZZ_SEEN[kind] += 1


def test_the_fuzz_tried_every_kind() -> None:
    if not FUZZ_SEEN:
        pytest.skip("runs after the fuzz test")
    assert set(FUZZ_SEEN) == set(KINDS), FUZZ_SEEN
