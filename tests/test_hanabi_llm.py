"""Watson, Sherlock and Mycroft through the scripted chat server: prompts, decisions, fallbacks,
record and replay of ``gumshoe bench hanabi``, and the audit of Mycroft's stated deductions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.runner import MemoryLog
from formalize.hanabi.deck import COLORS, NUM_RANKS
from games.core import get_game, replay
from games.core.log import SeatInfo
from games.core.loop import play
from games.core.play import play_game
from games.hanabi.agents import AGENTS, HanabiAgentSettings
from games.hanabi.audit import audit_log, tally
from games.hanabi.engine import HanabiGame, HanabiObservation
from games.hanabi.entry import ENTRY
from games.hanabi.events import DecisionEvent, HanabiConfig, HanabiMove, SlotClaim
from games.hanabi.knowledge import seat_knowledge
from games.hanabi.llm_agents import REPROMPT_BOUND
from games.hanabi.symbolic import SymbolicAgent
from reasoning.llm import LLMEndpointError, LLMSettings, load_recording
from reasoning.llm.scripted_server import ChatRequest, Reply, ScriptedChatServer

runner = CliRunner()
LEGAL = re.compile(r"^  (\d+): ", re.MULTILINE)
SEAT = re.compile(r"You are P(\d+) of (\d+)")
CARDS = re.compile(r"^P(\d+)'s cards \(slot 0 oldest\): (.*)$", re.MULTILINE)


def scripted(request: ChatRequest) -> str:
    """A stand-in model: rates the moves in order, chooses the last one, and (for Mycroft)
    says nothing is known of any slot it can see."""
    prompt = request.last_user
    count = len(LEGAL.findall(prompt.split("Legal moves:")[-1]))
    ratings = [round(-1 + 2 * i / max(1, count - 1), 3) for i in range(count)]
    answer: dict[str, object] = {"reasoning": "scripted", "ratings": ratings, "chosen": count - 1}
    if '"deductions"' in request.messages[0]["content"]:
        seat_match = SEAT.search(prompt.split("Now:")[-1])
        assert seat_match is not None
        seat = int(seat_match[1])
        hands = {int(m[1]): len(m[2].split()) for m in CARDS.finditer(prompt.split("Now:")[-1])}
        hands[seat] = max(hands.values())
        answer["deductions"] = [
            {"seat": s, "slot": j, "colors": COLORS, "ranks": "12345"}
            for s, size in sorted(hands.items())
            for j in range(size)
        ]
    return json.dumps(answer)


@pytest.mark.parametrize("role", ["watson", "sherlock", "mycroft"])
def test_each_setting_logs_a_decision_per_move_and_replays(role: str, tmp_path: Path) -> None:
    with ScriptedChatServer(scripted) as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        settings = HanabiAgentSettings(llm=llm, view="exact")
        agents = [AGENTS.make(role, seat, 4, settings) for seat in range(2)]
        seats = [SeatInfo(name=f"P{i}", agent=role) for i in range(2)]
        config = HanabiConfig(players=2)
        state = ENTRY.new_state(config, 4, seats)
        log = MemoryLog()
        play(state, agents, ENTRY.header(config, 4, seats), log, max_decisions=128)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(line + "\n" for line in log.lines))
    read = ENTRY.read_log(path)
    decisions = [e for e in read.events if isinstance(e, DecisionEvent)]
    assert decisions and all(not d.fallback for d in decisions)
    assert all(len(d.ratings) == len(d.legal) and d.chosen == d.legal[-1] for d in decisions)
    if role == "sherlock":
        assert "(playable " in decisions[0].prompt and "Think aloud" in decisions[0].prompt
    if role == "mycroft":
        assert "Moves since your last turn" in decisions[1].prompt
        assert "Your previous reply" in decisions[2].prompt
        assert "hints say" not in decisions[2].prompt
        counts = tally(audit_log(read))
        assert counts.claims and counts.statuses == {"ENTAILED": counts.claims}
    assert replay(get_game("hanabi"), read).is_terminal()


def test_malformed_answers_are_reprompted_then_fall_back_counted(tmp_path: Path) -> None:
    with ScriptedChatServer(lambda request: "no JSON here") as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        agent = AGENTS.make("watson", 0, 1, HanabiAgentSettings(llm=llm, max_reprompts=1))
        move = agent.act(HanabiGame(HanabiConfig(players=2), 1).observation(0))
        assert len(server.requests) == 2
    assert isinstance(move, HanabiMove) and move.decision.fallback
    assert move.action in move.decision.legal and move.decision.ratings == ()


class TrackingAgent:
    """Symbolic moves with stated deductions: every own slot's exact colours and ranks (true
    and entailed), and on every third turn a planted error on slot 0 naming only colours its
    knowledge excludes; one claim about a slot that does not exist, once."""

    name = "tracker"

    def __init__(self, seat: int) -> None:
        self.inner = SymbolicAgent(seat)
        self.planted = 0
        self.invalid = 0
        self.unstated = 0

    def act(self, obs: HanabiObservation) -> HanabiMove:
        knowledge = seat_knowledge(obs).exact
        self.unstated += sum(len(hand) for s, hand in enumerate(obs.hands) if s != obs.seat)
        claims = []
        for slot, mask in enumerate(knowledge):
            cards = [i for i in range(25) if mask >> i & 1]
            colors = "".join(
                c for k, c in enumerate(COLORS) if any(i // NUM_RANKS == k for i in cards)
            )
            ranks = "".join(str(r + 1) for r in range(5) if any(i % NUM_RANKS == r for i in cards))
            if slot == 0 and len(obs.history) % 3 == 0 and len(colors) < 5:
                colors = "".join(c for c in COLORS if c not in colors)
                self.planted += 1
            claims.append(SlotClaim(seat=obs.seat, slot=slot, colors=colors, ranks=ranks))
        if not self.invalid:
            claims.append(SlotClaim(seat=obs.seat, slot=9, colors="R", ranks="1"))
            self.invalid += 1
        action = self.inner.act(obs)
        decision = DecisionEvent(
            turn=len(obs.history) + 1,
            seat=obs.seat,
            agent=self.name,
            prompt="",
            response="",
            legal=obs.legal_actions,
            ratings=(),
            chosen=action,
            fallback=False,
            claims=tuple(claims),
        )
        return HanabiMove(action, decision)


def test_planted_tracking_errors_are_audited_with_the_right_counts(tmp_path: Path) -> None:
    trackers = [TrackingAgent(0), TrackingAgent(1), TrackingAgent(2)]
    seats = [SeatInfo(name=f"P{i}", agent="tracker") for i in range(3)]
    config = HanabiConfig(players=3)
    state = ENTRY.new_state(config, 11, seats)
    log = MemoryLog()
    play(state, trackers, ENTRY.header(config, 11, seats), log, max_decisions=128)
    path = tmp_path / "mycroft.jsonl"
    path.write_text("".join(line + "\n" for line in log.lines))
    decisions = [e for e in ENTRY.read_log(path).events if isinstance(e, DecisionEvent)]
    stated = sum(len(d.claims) for d in decisions)
    planted = sum(t.planted for t in trackers)
    assert planted > 5
    counts = tally(audit_log(ENTRY.read_log(path)))
    assert counts.invalid == 3 and counts.claims == stated - 3
    assert counts.statuses == {"ENTAILED": stated - 3 - planted, "CONTRADICTED": planted}
    assert counts.kinds == {"sound": stated - 3 - planted, "wrong": planted}
    assert counts.true == counts.complete == stated - 3 - planted
    assert counts.unstated == sum(t.unstated for t in trackers)
    assert counts.own.recall == counts.complete / counts.own.claims and counts.own.unstated == 0
    assert counts.teammate.recall == 0.0 and counts.teammate.unstated == counts.unstated
    result = runner.invoke(app, ["audit", "hanabi", str(path), "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert sum(s["stated"] for s in record["seats"]) == stated
    assert sum(s["unknown"] for s in record["seats"]) == 3 == record["figures"]["invalid"]
    assert sum(s["contradicted"] for s in record["seats"]) == planted
    assert sum(s["wrong"] for s in record["seats"]) == planted
    assert record["figures"]["unstated"] == counts.unstated
    assert record["figures"]["own_recall"] == counts.own.recall
    assert record["figures"]["teammate_recall"] == 0.0


def test_audit_of_a_bad_log_exits_2_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "deal", "turn": 0, "hands": [["R1"]]}\n{"type": "play"}\n')
    result = runner.invoke(app, ["audit", "hanabi", str(path)])
    assert result.exit_code == 2 and "bad.jsonl:2" in result.output


@pytest.mark.parametrize("role", ["watson", "sherlock", "mycroft"])
def test_bench_records_and_replays_each_setting(role: str, tmp_path: Path) -> None:
    recorded, replayed = tmp_path / "rec", tmp_path / "rep"
    base = ["bench", "hanabi", "--players", "2", "--seeds", "1", "--agents", role, "--json"]
    with ScriptedChatServer(scripted) as server:
        result = runner.invoke(
            app,
            [
                *base,
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--record",
                "--out",
                str(recorded),
                "--quiet",
            ],
        )
        assert result.exit_code == 0, result.output
        calls = len(server.requests)
    assert calls > 10
    assert (recorded / "llm" / "hanabi-p2-seed0.seat0.jsonl").is_file()
    again = runner.invoke(
        app,
        [
            *base,
            "--model",
            "scripted",
            "--replay",
            str(recorded),
            "--out",
            str(replayed),
            "--quiet",
        ],
    )
    assert again.exit_code == 0, again.output
    first, second = json.loads(result.output), json.loads(again.output)
    assert first["rows"][0]["scores"] == second["rows"][0]["scores"]
    assert first["rows"][0]["decisions"] == second["rows"][0]["decisions"] > 0
    logs = sorted((recorded / "games").glob("*.jsonl"))
    assert [p.read_text() for p in logs] == [
        p.read_text() for p in sorted((replayed / "games").glob("*.jsonl"))
    ]
    if role == "mycroft":
        assert first["rows"][0]["tracking_accuracy"] == 1.0
    for log in logs:  # each decision names its recorded call, whose reply it logged
        seat_calls = {
            seat: load_recording(recorded / "llm" / f"{log.stem}.seat{seat}.jsonl")
            for seat in (0, 1)
        }
        events = get_game("hanabi").read_log(log).events
        decisions = [e for e in events if isinstance(e, DecisionEvent)]
        assert decisions
        for decision in decisions:
            assert decision.call is not None
            reply = seat_calls[decision.seat][decision.call].reply
            assert reply is not None
            assert json.loads(decision.response)["ratings"] == json.loads(reply.content)["ratings"]


@pytest.mark.parametrize(("options", "calls"), [({"best_of": 3}, 4), ({"mixture": True}, 5)])
def test_best_of_k_and_a_mixture_feed_their_proposals_to_the_final_choice(
    options: dict[str, object], calls: int
) -> None:
    with ScriptedChatServer(scripted) as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        settings = HanabiAgentSettings.model_validate({"llm": llm, **options})
        agent = AGENTS.make("sherlock", 1, 2, settings)
        game = HanabiGame(HanabiConfig(players=2), 2)
        game.apply({0: game.legal_actions(0)[0]})
        move = agent.act(game.observation(1))
        assert len(server.requests) == calls
        prompts = [r.last_user for r in server.requests]
    assert isinstance(move, HanabiMove) and not move.decision.fallback
    assert move.decision.prompt == prompts[-1]
    assert prompts[-1].count("] chooses ") == calls - 1
    if "mixture" in options:
        assert "prefer the rank hint" in prompts[1] and "[discard]" in prompts[-1]
        assert "[history]" not in prompts[-1], "no history analyst at two players"


def test_play_prints_an_llm_seats_decisions_in_cross_play(tmp_path: Path) -> None:
    with ScriptedChatServer(scripted) as server:
        result = runner.invoke(
            app,
            [
                "play",
                "hanabi",
                "--players",
                "2",
                "--agents",
                "mycroft,symbolic",
                "--base-url",
                server.base_url,
                "--model",
                "scripted",
                "--out",
                str(tmp_path),
            ],
        )
    assert result.exit_code == 0, result.output
    assert "P0 (mycroft) rated " in result.output and "stated " in result.output
    assert "turn   2  P1 (symbolic)" in result.output
    log = ENTRY.read_log(tmp_path / "hanabi-p2-seed0.jsonl")
    assert log.header is not None and [s.agent for s in log.header.seats] == ["mycroft", "symbolic"]
    assert {e.seat for e in log.events if isinstance(e, DecisionEvent)} == {0}


def test_audit_and_annotate_refuse_a_log_the_engine_does_not_replay(tmp_path: Path) -> None:
    log = MemoryLog()
    play_game(get_game("hanabi"), ("random",) * 2, 0, log=log)
    lines = list(log.lines)
    lines[1] = lines[1].replace('"R', '"Y', 1)
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    for command in (["audit", "hanabi"], ["hanabi", "annotate"]):
        result = runner.invoke(app, [*command, str(path)])
        assert result.exit_code == 2 and "forged.jsonl:2: logged" in result.output
    missing = runner.invoke(app, ["audit", "hanabi", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_two_models_at_one_table_record_each_seats_model(tmp_path: Path) -> None:
    """Seed 003's cross-play: ``sherlock@A,watson@B`` asks each seat's own model, and the log's
    seats say which model sat where."""
    agents = "sherlock@model-a,watson@model-b,hat"
    with ScriptedChatServer(scripted) as server:
        result = runner.invoke(
            app,
            [
                "bench",
                "hanabi",
                "--players",
                "3",
                "--seeds",
                "1",
                "--agents",
                agents,
                "--base-url",
                server.base_url,
                "--out",
                str(tmp_path),
                "--quiet",
            ],
        )
        assert result.exit_code == 0, result.output
        seen = {(SEAT.search(r.last_user)[1], r.model) for r in server.requests}  # type: ignore[index]
    assert seen == {("0", "model-a"), ("1", "model-b")}
    log = ENTRY.read_log(tmp_path / "games" / "hanabi-p3-seed0.jsonl")
    assert log.header is not None
    assert [s.agent for s in log.header.seats] == ["sherlock@model-a", "watson@model-b", "hat"]


def test_a_model_on_an_agent_without_an_llm_is_refused() -> None:
    with pytest.raises(ValueError, match="only LLM agents take @MODEL"):
        AGENTS.parse("hat@model-a,sherlock")


def test_reasoning_effort_is_sent_and_reasoning_content_is_logged() -> None:
    """A reasoning-effort setting reaches the request; the server's separate reasoning text is
    kept in the decision it led to."""

    def thinking(request: ChatRequest) -> Reply:
        return Reply(scripted(request), reasoning=f"thought {len(request.last_user)}")

    with ScriptedChatServer(thinking) as server:
        llm = LLMSettings(
            base_url=server.base_url, model="scripted", max_retries=0, reasoning_effort="high"
        )
        agent = AGENTS.make("watson", 0, 1, HanabiAgentSettings(llm=llm))
        game = HanabiGame(HanabiConfig(players=2), 1)
        move = agent.act(game.observation(0))
        (request,) = server.requests
    assert request.body["reasoning_effort"] == "high"
    assert isinstance(move, HanabiMove)
    assert move.decision.reasoning_content == f"thought {len(request.last_user)}"
    with ScriptedChatServer(scripted) as server:
        plain = HanabiAgentSettings(
            llm=LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        )
        move = AGENTS.make("watson", 0, 1, plain).act(game.observation(0))
        assert "reasoning_effort" not in server.requests[0].body
    assert isinstance(move, HanabiMove) and move.decision.reasoning_content is None


def test_the_reprompt_policy_asks_again_and_never_plays_a_random_move(tmp_path: Path) -> None:
    """``--invalid reprompt``: an answer that stays invalid is asked again up to the bound, then
    the game errors (counted in the run), where ``fallback`` would have moved at random."""
    with ScriptedChatServer(lambda request: "no JSON here") as server:
        llm = LLMSettings(base_url=server.base_url, model="scripted", max_retries=0)
        agent = AGENTS.make("watson", 0, 1, HanabiAgentSettings(llm=llm, invalid="reprompt"))
        with pytest.raises(LLMEndpointError, match="no valid answer in 11 asks"):
            agent.act(HanabiGame(HanabiConfig(players=2), 1).observation(0))
        assert len(server.requests) == 1 + REPROMPT_BOUND
        out = tmp_path / "r"
        args = ["--players", "2", "--seeds", "1", "--agents", "watson,hat", "--model", "scripted"]
        args += ["--base-url", server.base_url, "--invalid", "reprompt", "--out", str(out)]
        result = runner.invoke(app, ["bench", "hanabi", *args, "--quiet"])
    assert result.exit_code == 1 and "every game errored" in result.output
    log = ENTRY.read_log(out / "games" / "hanabi-p2-seed0.jsonl")
    assert log.end is not None and log.end.status == "errored"
    assert not [e for e in log.events if isinstance(e, DecisionEvent)]
