"""The WellPlay loader on small synthetic fixtures in the data set's layout (no WellPlay text)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.mystery.wellplay import WellPlayError, load_script, load_wellplay, read_questions

HEADER = "value,type,question,a,b,c,d,e,truth"
ROWS = [
    "a,a,Who broke the vase?,Ann,Bo,Cy,Di,Ed,a",
    "b,a,Where was Bo at noon?,kitchen,yard",  # ragged: no truth column at all
    "c,a,How is Ann related to Bo?,sister,aunt,friend,,b",  # key shifted into column e
    "b,b,Which rooms did Cy visit?,hall,den,loft,attic,,a;c",
    "a,a,Who left first?,Ann,Bo,Cy,,,,b",  # key one column past the last
]


def write_script(root: Path, name: str = "Glass Key", rows: list[str] | None = None) -> Path:
    folder = root / name.replace(" ", "_")
    (folder / "json").mkdir(parents=True)
    (folder / "final_result").mkdir()
    info = {"agent_num": 2, "script_name": name, "character_name": ["Ann", "Bo"]}
    (folder / "json" / "script_info.json").write_text("\ufeff" + json.dumps(info), "utf-8")
    for who, murderer in (("Ann", "false"), ("Bo", True)):
        data = {
            "script": ["I came at ten.", "I left at noon."],
            "acts_goal": "Find out who broke the vase.",
            "victims": "the vase",
            "kill_by_me": "" if murderer == "false" else "the vase",
            "is_murderer": murderer,
        }
        (folder / "json" / f"{who}.json").write_text(json.dumps(data), "utf-8")
        lines = [HEADER, *(rows if rows is not None else ROWS)]
        (folder / "final_result" / f"{who}.csv").write_text("\ufeff" + "\n".join(lines), "utf-8")
    return folder


def test_a_script_loads_with_boms_ragged_rows_and_shifted_keys(tmp_path: Path) -> None:
    rows = [r for r in ROWS if "noon" not in r]
    script = load_script(write_script(tmp_path, rows=rows))
    assert script.name == "Glass Key" and script.agent_num == 2
    ann, bo = script.characters
    assert (
        not ann.is_murderer and bo.is_murderer and ann.script == "I came at ten.\nI left at noon."
    )
    who, relation, rooms, first = ann.questions
    assert (who.points, who.category, who.multiple) == (10, "objective", False)
    assert {who.options[k] for k in who.key} == {"Ann"}
    assert relation.category == "relation" and {relation.options[k] for k in relation.key} == {
        "aunt"
    }
    assert len(relation.options) == 3
    assert rooms.multiple and {rooms.options[k] for k in rooms.key} == {"hall", "loft"}
    assert {first.options[k] for k in first.key} == {"Bo"}


def test_options_are_shuffled_by_the_seed_and_the_key_follows(tmp_path: Path) -> None:
    folder = write_script(tmp_path, rows=[ROWS[0]] * 12)
    path = folder / "final_result" / "Ann.csv"
    a, b = read_questions(path, 0), read_questions(path, 1)
    assert read_questions(path, 0) == a
    keys = {next(iter(q.key)) for q in a}
    assert len(keys) > 1, "the key should not stay at a"
    assert all({q.options[k] for k in q.key} == {"Ann"} for q in (*a, *b))
    assert [q.options for q in a] != [q.options for q in b]


def test_a_row_without_a_key_names_its_file_and_line(tmp_path: Path) -> None:
    write_script(tmp_path)
    with pytest.raises(WellPlayError, match=r"Ann\.csv:3:9: column 'truth'"):
        load_wellplay(tmp_path)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("x,a,Q?,A,B,,,,a", r":2:1: column 'value': must be a, b or c"),
        ("a,z,Q?,A,B,,,,a", r":2:2: column 'type': must be a or b"),
        ("a,a,Q?,A,B,,,,d", r":2:9: column 'truth': 'd' names an empty option"),
        ("a,a,,A,B,,,,a", r":2:3: column 'question': the question is empty"),
        ("a,a,Q?,A,B,,,,a,x,y", r":2:10: 2 cells past the last column"),
    ],
)
def test_bad_rows_are_named(tmp_path: Path, row: str, message: str) -> None:
    folder = write_script(tmp_path, rows=[row])
    with pytest.raises(WellPlayError, match=message):
        load_script(folder)


def test_bad_json_is_named_by_file_and_field(tmp_path: Path) -> None:
    folder = write_script(tmp_path, rows=ROWS[:1])
    (folder / "json" / "Bo.json").write_text('{"script": "x"}', "utf-8")
    with pytest.raises(WellPlayError, match=r"Bo\.json: field 'acts_goal' is missing"):
        load_script(folder, 0)
    with pytest.raises(WellPlayError, match=r"no \*/json/script_info\.json"):
        load_wellplay(tmp_path / "nothing")


def test_an_llm_answers_the_questions_graded_by_the_key(tmp_path: Path) -> None:
    import json as jsonlib

    from typer.testing import CliRunner

    from benchmarks.console.cli import app
    from reasoning.llm.scripted_server import ScriptedChatServer

    write_script(tmp_path, rows=[r for r in ROWS if "noon" not in r])
    scripts = load_wellplay(tmp_path, 0)
    questions = [q for c in scripts[0].characters for q in c.questions]
    with ScriptedChatServer(lambda _: '{"answer": "a"}') as server:
        result = CliRunner().invoke(
            app,
            [
                "bench",
                "wellplay",
                "--data",
                str(tmp_path),
                "--knowledge",
                "all",
                "--json",
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
            ],
        )
        assert result.exit_code == 0, result.output
        assert "Script of Bo" in server.requests[0].messages[0]["content"]
    metrics = jsonlib.loads(result.output)
    assert metrics["questions"] == len(questions) and metrics["fallbacks"] == 0
    right = [q.key == frozenset("a") for q in questions]
    points = sum(q.points for q, r in zip(questions, right, strict=True) if r)
    assert metrics["overall"] == pytest.approx(points / sum(q.points for q in questions))
    bad = CliRunner().invoke(app, ["bench", "wellplay", "--data", str(tmp_path / "none")])
    assert bad.exit_code == 2 and bad.output.startswith("error:")


def test_llm_characters_play_three_rounds_then_answer_with_the_transcript(tmp_path: Path) -> None:
    from games.mystery.wellplay_answer import answer_all
    from reasoning.llm import LLMSettings, make_client
    from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer

    def reply(request: ChatRequest) -> str:
        text = request.last_user
        if "Ask one of" in text:
            other = text.removeprefix("Ask one of ").split(" one question")[0]
            return json.dumps({"to": other, "question": "Where were you at noon?"})
        if "asks you" in text:
            return '{"answer": "In the yard."}'
        return '{"answer": "a"}'

    write_script(tmp_path, rows=ROWS[:1])
    scripts = load_wellplay(tmp_path)
    with ScriptedChatServer(reply) as server:
        client = make_client(LLMSettings(base_url=server.base_url, model="scripted"))
        graded, fallbacks = answer_all(client, scripts, "played")
        last = server.requests[-1].messages[0]["content"]
    assert fallbacks == 0 and len(graded) == 2
    assert all(g.correct == (g.question.key == frozenset("a")) for g in graded)
    assert last.count("Where were you at noon?") == 6 and "Ann: In the yard." in last
    assert "You are Bo" in last and "Script of Ann" not in last
