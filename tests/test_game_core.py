"""The shared game core: the log reader, seat lists, game info, settings and the LLM player."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from games.clue import ENTRY as CLUE
from games.clue import ClueConfig, ClueGame, random_agent
from games.core import (
    AgentRegistry,
    AgentSpecError,
    AgentType,
    GameInfo,
    GameSettings,
    LogError,
    get_game,
    read_game_log,
)
from games.core.llm_player import LLMPlayer
from games.core.runlog import EventLog
from games.hanabi.entry import ENTRY as HANABI
from reasoning.llm import LLMSettings, OpenAIChatClient
from reasoning.llm.scripted_server import ScriptedChatServer
from tests.support.played import play_clue

SMALL = ClueConfig(
    players=3,
    suspects=("Plum", "Green"),
    weapons=("Rope", "Knife"),
    rooms=("Hall", "Study", "Lounge"),
)


def clue_log(tmp_path: Path, seed: int = 1) -> list[str]:
    """A played 3-player Clue game's log lines."""
    path = tmp_path / "g.jsonl"
    with EventLog(path) as log:
        play_clue(ClueGame(SMALL, seed), [random_agent(seed + s) for s in range(3)], log)
    return path.read_text().splitlines()


def write(tmp_path: Path, lines: Sequence[str], name: str = "x.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    return path


# --- the log format ---------------------------------------------------------------------------


def test_a_log_has_the_common_header_and_end(tmp_path: Path) -> None:
    lines = clue_log(tmp_path)
    header, end = json.loads(lines[0]), json.loads(lines[-1])
    assert header["type"] == "header" and header["schema_version"] == 3
    assert header["game"] == "clue" and header["seed"] == 1 and len(header["seats"]) == 3
    assert header["seats"][0] == {"name": "P0", "agent": "random"}
    assert end["type"] == "end" and end["status"] == "finished"
    assert sorted(end["ranks"]) == [1, 2, 3] and len(end["returns"]) == 3
    start, game_end = json.loads(lines[1]), json.loads(lines[-2])
    assert not {"config", "seed", "players"} & set(start), "game_start repeats the header"
    assert "ranks" not in game_end, "game_end repeats the end's ranks"
    log = CLUE.read_log(tmp_path / "g.jsonl")
    assert log.header.schema_version == 3 and log.end is not None and log.lines[0] == 2
    assert log.events[-1].type == "game_end"


def version_0(lines: list[str]) -> list[str]:
    """A current Clue log as it was written before the header existed: the header's config,
    seed and seats in ``game_start``, the end's ranks in ``game_end``, no header or end."""
    header, end = json.loads(lines[0]), json.loads(lines[-1])
    start, game_end = json.loads(lines[1]), json.loads(lines[-2])
    config = {("n_players" if k == "players" else k): v for k, v in header["config"].items()}
    start = {**start, "config": config, "seed": header["seed"], "players": header["seats"]}
    game_end = {**game_end, "ranks": end["ranks"]}
    return [json.dumps(start), *lines[2:-2], json.dumps(game_end)]


def test_a_version_0_log_reads_with_a_header_and_replays(tmp_path: Path) -> None:
    from games.core import replay

    lines = clue_log(tmp_path)
    current = CLUE.read_log(tmp_path / "g.jsonl")
    log = CLUE.read_log(write(tmp_path, version_0(lines)))
    assert log.header == current.header and log.end is None
    assert log.events == current.events
    assert replay(CLUE, log).is_terminal()


def test_a_log_without_a_seed_reads_but_does_not_replay(tmp_path: Path) -> None:
    from games.core import replay

    lines = clue_log(tmp_path)
    header = {**json.loads(lines[0]), "seed": None}
    log = CLUE.read_log(write(tmp_path, [json.dumps(header), *lines[1:]]))
    assert log.header.seed is None and log.end is not None
    with pytest.raises(LogError, match=":1: the header gives no seed"):
        replay(CLUE, log)


def test_a_log_of_a_game_without_version_0_logs_needs_its_header(tmp_path: Path) -> None:
    from games.core.play import play_game

    with EventLog(tmp_path / "h.jsonl") as sink:
        play_game(HANABI, ["random", "random"], 0, log=sink)
    lines = (tmp_path / "h.jsonl").read_text().splitlines()
    assert HANABI.read_log(write(tmp_path, lines)).header.seed == 0
    with pytest.raises(LogError, match=r":1: a log opens with its header"):
        HANABI.read_log(write(tmp_path, lines[1:]))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", ":1: the log is empty"),
        (b"  \n\n \n", ":1: the log is empty"),
        (b"\xef\xbb\xbf{}\n", ":1: starts with a UTF-8 byte-order mark"),
        (b' \n\xff\xfe\n{"type": "x"}\n', r":2: not UTF-8: byte 0xff"),
        (b"[1, 2]\n", ":1: expected a JSON object"),
        (b"[" * 100000 + b"\n", ":1: "),
    ],
)
def test_unreadable_logs_are_named_by_file_and_line(
    tmp_path: Path, data: bytes, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    with pytest.raises(LogError, match=r"bad\.jsonl" + message):
        CLUE.read_log(path)


def test_structure_errors_are_named_by_line(tmp_path: Path) -> None:
    lines = clue_log(tmp_path)
    cases = {
        "after_end": [*lines, lines[-2]],
        "after_game_end": [*lines[:-1], lines[2]],
        "late_header": [lines[1], lines[0], *lines[2:]],
        "other_game": [lines[0].replace('"game":"clue"', '"game":"hanabi"'), *lines[1:]],
    }
    expected = {
        "after_end": f":{len(lines) + 1}: an event after the log's end event",
        "after_game_end": f":{len(lines)}: an event after game_end",
        "late_header": ":2: a header event that is not the first line",
        "other_game": ":1: a 'hanabi' log, not a 'clue' log",
    }
    for name, case in cases.items():
        with pytest.raises(LogError, match=expected[name]):
            CLUE.read_log(write(tmp_path, case, f"{name}.jsonl"))


def test_types_are_strict(tmp_path: Path) -> None:
    lines = clue_log(tmp_path)
    seq_true = lines[2].replace('"seq":1,', '"seq":true,')
    with pytest.raises(LogError, match=r":3: field 'turn_start\.seq'"):
        CLUE.read_log(write(tmp_path, [lines[0], lines[1], seq_true, *lines[3:]]))
    index = next(i for i, line in enumerate(lines) if '"type":"suggestion"' in line)
    player = lines[index].replace('"seat":0', '"seat":"0"')
    assert player != lines[index]
    with pytest.raises(LogError, match=f":{index + 1}: field 'suggestion.seat'"):
        CLUE.read_log(write(tmp_path, [*lines[:index], player, *lines[index + 1 :]]))


def test_an_errored_end_needs_its_error(tmp_path: Path) -> None:
    lines = clue_log(tmp_path)
    errored = '{"type": "end", "status": "errored", "reason": "error"}'
    with pytest.raises(LogError, match="error: an errored game says what went wrong"):
        CLUE.read_log(write(tmp_path, [*lines[:3], errored]))
    fine = '{"type": "end", "status": "errored", "reason": "error", "error": "endpoint down"}'
    log = CLUE.read_log(write(tmp_path, [*lines[:3], fine]))
    assert log.end is not None and log.end.error == "endpoint down"


def test_a_log_without_a_game_schema_reads_with_any_adapter(tmp_path: Path) -> None:
    from pydantic import TypeAdapter

    class Step(BaseModel):
        type: str
        n: int

    header = {"type": "header", "schema_version": 3, "game": "toy", "seed": 0, "config": {}}
    header["seats"] = [{"name": "A", "agent": "x"}]
    steps = ['{"type": "step", "n": 1}', '{"type": "game_end", "n": 2}']
    path = write(tmp_path, [json.dumps(header), *steps])
    log = read_game_log(path, TypeAdapter(Step), game="toy")
    assert [e.n for e in log.events] == [1, 2] and log.lines == [2, 3]
    with pytest.raises(LogError, match=":1: a log opens with its header"):
        read_game_log(write(tmp_path, steps), TypeAdapter(Step), game="toy")


# --- registry, seat lists, game info, settings ------------------------------------------------


def test_the_registry_names_its_games() -> None:
    assert get_game("clue") is CLUE
    with pytest.raises(ValueError, match="unknown game 'chess'; choose one of: clue, "):
        get_game("chess")


def test_seat_lists() -> None:
    registry: AgentRegistry[None, str] = AgentRegistry(
        [AgentType(n, n, n == "llm", lambda seat, seed, s, n=n: n) for n in ("prover", "llm")],
        game="test",
        settings=lambda: None,
    )
    assert registry.parse("prover*5,llm") == ("prover",) * 5 + ("llm",)
    assert registry.parse(" prover x2 , llm ") == ("prover", "prover", "llm")
    assert registry.needs_llm(["prover", "llm"]) and not registry.needs_llm(["prover"])
    for bad, message in {
        "prover,,llm": "empty entry",
        "oracle": "unknown agent 'oracle'; choose one of: prover, llm",
        "prover*x": r"write name\*count",
        "prover*0": "count must be 1 to 64",
        "prover*100000000000000000000": "count must be 1 to 64",
        "prover*40,llm*40": "more than 64 seats",
    }.items():
        with pytest.raises(AgentSpecError, match=message):
            registry.parse(bad)


def test_player_counts_are_checked_with_the_range() -> None:
    info = get_game("clue").info
    info.check_players(3)
    with pytest.raises(ValueError, match="players: clue takes 3 to 6 players, got 7"):
        info.check_players(7)
    with pytest.raises(ValidationError, match="max_players"):
        GameInfo(
            name="x",
            min_players=3,
            max_players=2,
            simultaneous=False,
            imperfect_information=False,
            max_decisions=1,
        )


@pytest.mark.parametrize("timeout", [0.0, -1.0, float("nan"), float("inf"), 1e300])
def test_settings_refuse_bad_timeouts(timeout: float) -> None:
    with pytest.raises(ValidationError, match="prover_timeout_s"):
        GameSettings(prover_timeout_s=timeout)
    assert GameSettings().max_reprompts == 3


# --- the LLM player -----------------------------------------------------------------------------


class Pick(BaseModel):
    number: int


class PickPrompter:
    """Pick a number from the observation's list."""

    schema = Pick

    def phase(self, obs: tuple[int, ...]) -> str:
        return "pick"

    def system_prompt(self, obs: tuple[int, ...]) -> str:
        return "You pick numbers."

    def prompt(self, obs: tuple[int, ...]) -> str:
        return f"Pick one of {list(obs)} as JSON with the field number."

    def answer_model(self, obs: tuple[int, ...]) -> None:
        return None

    def action(self, answer: Pick, obs: tuple[int, ...]) -> int:
        return answer.number

    def legal_actions(self, obs: tuple[int, ...]) -> tuple[int, ...]:
        return obs


def test_the_llm_player_reprompts_then_falls_back_and_meters_its_seat() -> None:
    script = ["no idea", '{"number": 2}', *(["nonsense"] * 4), '{"number": 9}']
    with ScriptedChatServer(script) as srv:
        client = OpenAIChatClient(
            LLMSettings(base_url=srv.base_url, model="m"), sleep=lambda _: None
        )
        player = LLMPlayer(PickPrompter(), client, seed=3, name="llm")
        assert player.act((1, 2, 3)) == 2
        fallback = player.act((1, 2, 3))
        assert fallback in (1, 2, 3)
        assert player.act((7,)) == 7  # one legal action: no call
        illegal = player.act((4, 5))
        assert illegal in (4, 5)
    assert player.fallbacks.counts == {"pick": {"unparsed": 1, "illegal": 1}}
    assert player.usage.calls == 7 and len(srv.requests) == 7
    assert player.usage.fallbacks == 2 and player.usage.reprompts == 4
