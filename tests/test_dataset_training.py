"""Exports ready to train on: runs of all five games with recorded LLM seats load in ``datasets``
offline without a warning, their conversations are lists of ``{role, content}``, and each game's
reward function, called as TRL calls one, scores the exported decision rows by the game's exact
audit (the rows' own replies exactly as the claims table judged them; sound above wrong above
unreadable for replies written here)."""

from __future__ import annotations

import json
import logging
import shlex
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benchmarks.console.cli import app
from formalize.davidsonian.autoformalize import Formalization
from games.clue.events import Deduction
from games.clue.llm_answers import format_deduction
from games.core.registry import game_names, get_game
from games.core.reward import CallPosition, Reward
from games.detective.entry import game_case
from games.hanabi.position import Position
from games.hanabi.reward import exact_deductions
from reasoning.llm.scripted_server import ChatRequest, ScriptedChatServer, Step
from reasoning.sorts import Signature
from reasoning.syntax import parse_formula
from tests.test_clue_llm_agent import phase_script
from tests.test_detective_llm import CONFIG as DETECTIVE_CONFIG
from tests.test_detective_llm import SEED as DETECTIVE_SEED
from tests.test_detective_llm import solver
from tests.test_hanabi_llm import scripted as hanabi_answers
from tests.test_mystery_game_llm import answer as mystery_answers
from tests.test_undercover_cli import _scripted as undercover_answers

datasets = pytest.importorskip("datasets", reason="datasets (gumshoe's dev extra)")
pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow (gumshoe's `export` extra)")
runner = CliRunner()
LLM = ["--model", "scripted", "--record", "--quiet"]


@dataclass(frozen=True)
class Bench:
    """One bench with a recorded LLM seat against a scripted server."""

    answers: Callable[[ChatRequest], Step]
    args: tuple[str, ...]


def benches() -> dict[str, Bench]:
    guess = "ANALYSIS: A hunch.\nDEDUCTIONS: Miss Scarlet is in the envelope"
    case = game_case(DETECTIVE_CONFIG, DETECTIVE_SEED)
    return {
        "clue": Bench(
            phase_script(guess),
            ("clue", "--games", "1", "--agents", "llm,prover,prover", "--rounds", "2"),
        ),
        "hanabi": Bench(
            hanabi_answers,
            ("hanabi", "--players", "2", "--seeds", "1", "--agents", "mycroft,symbolic"),
        ),
        "detective": Bench(
            solver(case),
            (
                *shlex.split("detective --cases 1 --agents llm --questions 2 --locations 6"),
                "--first-seed",
                str(DETECTIVE_SEED),
            ),
        ),
        "mystery": Bench(
            mystery_answers,
            tuple(shlex.split("mystery --games 1 --agents llm-cot,prover*4 --no-quiz")),
        ),
        "undercover": Bench(
            undercover_answers,
            tuple(
                shlex.split(
                    "undercover --seeds 1 --pairs 'Earl Grey Tea/Ceylon Tea' --agents att-nli "
                    "--players 5"
                )
            ),
        ),
    }


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One run per game with a recorded LLM seat, exported in both formats."""
    root = tmp_path_factory.mktemp("training")
    runs = []
    for game, bench in benches().items():
        with ScriptedChatServer(bench.answers) as server:
            args = ["bench", *bench.args, *LLM, "--base-url", server.base_url]
            done = runner.invoke(app, [*args, "--out", str(root / game)])
        assert done.exit_code == 0, done.output
        runs.append(str(root / game))
    out = {}
    for fmt in ("parquet", "jsonl"):
        out[fmt] = root / f"ds-{fmt}"
        done = runner.invoke(
            app, ["export", "dataset", *runs, "--out", str(out[fmt]), "--format", fmt]
        )
        assert done.exit_code == 0, done.output
    return out


@pytest.fixture(scope="module")
def decisions(exported: dict[str, Path]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(
        exported["parquet"] / "decisions.parquet"
    ).to_pylist()
    return rows


@pytest.fixture(scope="module")
def claims(exported: dict[str, Path]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(exported["parquet"] / "claims.parquet").to_pylist()
    return rows


def test_every_table_loads_offline_in_datasets_without_a_warning(
    exported: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    chat = datasets.List({"role": datasets.Value("string"), "content": datasets.Value("string")})
    for fmt, folder in exported.items():
        for config in ("claims", "decisions", "games"):
            with caplog.at_level(logging.WARNING), warnings.catch_warnings():
                warnings.simplefilter("error")
                loaded = datasets.load_dataset(
                    str(folder), config, split="train", cache_dir=str(tmp_path / fmt)
                )
            assert [r.getMessage() for r in caplog.records] == [], (fmt, config)
            assert loaded.num_rows > 0
            if config == "decisions":
                for column in ("prompt", "completion", "messages"):
                    assert loaded.features[column] == chat
                row = loaded[0]
                assert row["messages"] == row["prompt"] + row["completion"]
                assert {m["role"] for m in row["messages"]} <= {"system", "user", "assistant"}


def columns_of(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The rows as TRL hands a batch to a reward function: every column but the prompt, as
    keyword lists."""
    return {key: [row[key] for row in rows] for key in rows[0] if key not in ("prompt",)}


def trl_call(game: str, rows: list[dict[str, Any]], completions: list[Any]) -> list[float | None]:
    reward = get_game(game).reward_function()
    columns = columns_of(rows)
    columns.pop("completion")
    return reward(prompts=[r["prompt"] for r in rows], completions=completions, **columns)


def own_scores(game: str, rows: list[dict[str, Any]]) -> list[Reward]:
    score = __import__(f"games.{game}.reward", fromlist=["score"]).score
    return [score(r["position"], r["completion"][-1]["content"], r) for r in rows]


def reply(text: str) -> list[dict[str, str]]:
    return [{"role": "assistant", "content": text}]


@pytest.mark.parametrize("game", game_names())
def test_each_game_scores_exported_rows_as_trl_calls_it(
    game: str, decisions: list[dict[str, Any]], claims: list[dict[str, Any]]
) -> None:
    with_position = [r for r in decisions if r["game"] == game and r["position"] is not None]
    assert with_position, f"no {game} decision with a position"
    mine = with_position[:: -(-len(with_position) // 4)]  # at most four, first and spread
    others = [r for r in decisions if r["game"] != game or r["position"] is None]
    batch = [*mine, *others[:: max(1, len(others) // 8)]]
    totals = trl_call(game, batch, [r["completion"] for r in batch])
    for row, total in zip(batch, totals, strict=True):
        assert (total is None) == (row in others) and (total is None or isinstance(total, float))
    texts = trl_call(game, mine, [r["completion"][-1]["content"] for r in mine])
    assert texts == totals[: len(mine)]
    if game == "hanabi":
        return
    for row, scored in zip(mine, own_scores(game, mine), strict=True):
        where = CallPosition.model_validate_json(row["position"])
        line = len(where.events) + 1
        judged = Counter(
            c["judgement"]
            for c in claims
            if c["game_id"] == row["game_id"] and c["seat"] == row["seat"] and c["line"] == line
        )
        if game == "detective":
            judged = Counter(
                c["judgement"]
                for c in claims
                if c["game_id"] == row["game_id"]
                and c["line"] == line
                and json.loads(c["detail"])["question"] == where.part
            )
        counts = Counter(sound=scored.sound, lucky=scored.lucky, wrong=scored.wrong)
        counts["unjudged"] = scored.unjudged
        assert +judged == +counts, (row["call"], judged, counts)


def first_row(decisions: list[dict[str, Any]], game: str) -> dict[str, Any]:
    return next(r for r in decisions if r["game"] == game and r["position"] is not None)


def test_clue_rewards_a_sound_deduction_over_a_wrong_one(decisions: list[dict[str, Any]]) -> None:
    row = first_row(decisions, "clue")
    where = CallPosition.model_validate_json(row["position"])
    hand = where.events[0]["deal"]["hands"][row["seat"]]
    card = hand[0]
    sound, wrong = (
        "ANALYSIS: I hold it.\nDEDUCTIONS: "
        + format_deduction(Deduction.model_validate({"kind": kind, "card": card}))
        for kind in ("not_in_envelope", "in_envelope")
    )
    texts = [sound, wrong, "I hold nothing of interest.", "ANALYSIS: none.\nDEDUCTIONS: NONE"]
    totals = trl_call("clue", [row] * 4, [reply(t) for t in texts])
    scored = own_scores("clue", [{**row, "completion": reply(t)} for t in texts])
    assert (scored[0].sound, scored[1].wrong, scored[2].parsed, scored[3].claims) == (
        1,
        1,
        False,
        0,
    )
    assert totals[0] is not None and totals[1] is not None
    assert totals[0] == totals[1] + 2.0 and totals[2] == -1.0


def test_detective_rewards_the_solution_over_wrong_options(decisions: list[dict[str, Any]]) -> None:
    rows = [r for r in decisions if r["game"] == "detective" and r["position"] is not None]
    row = rows[-1]  # the last stage: every location read
    where = CallPosition.model_validate_json(row["position"])
    case = game_case(DETECTIVE_CONFIG, DETECTIVE_SEED)
    question = next(q for q in case.questions if q.id == where.part)
    right = {s.name: s.choice(s.answer).text for s in question.slots}
    wrong = {s.name: next(c.text for c in s.choices if c.value != s.answer) for s in question.slots}
    texts = [json.dumps({"ANSWER": a}) for a in (right, wrong)] + ["no idea"]
    totals = trl_call("detective", [row] * 3, [reply(t) for t in texts])
    parts = len(question.slots)
    assert totals == [2.0, -1.0, -1.0]
    scored = own_scores("detective", [{**row, "completion": reply(t)} for t in texts])
    assert (scored[0].sound, scored[1].wrong, scored[2].parsed) == (parts, parts, False)


def test_mystery_judges_the_suspects_a_reply_drops(decisions: list[dict[str, Any]]) -> None:
    row = first_row(decisions, "mystery")
    stated = json.loads(row["completion"][-1]["content"])
    others = list(stated["questions"])  # the scripted seat asks every other player
    keep_all = stated | {"suspects": {victim: others for victim in stated["suspects"]}}
    drop_all = stated | {"suspects": {victim: [] for victim in stated["suspects"]}}
    texts = [json.dumps(keep_all), json.dumps(drop_all), "I ask nobody."]
    scored = own_scores("mystery", [{**row, "completion": reply(t)} for t in texts])
    own = own_scores("mystery", [row])[0]
    assert scored[0].parsed and scored[0].claims == 0
    assert scored[1].claims > max(own.claims, 0) and scored[1].claims == (
        scored[1].sound + scored[1].lucky + scored[1].wrong
    )
    assert not scored[2].parsed and scored[2].total == -1.0


class WordFormalizer:
    """Stands in for the LLM formalizer: the description says the thing is (or is not) the
    word on the card."""

    def __init__(self, negated: bool) -> None:
        self.negated = negated

    def formalize(self, sentence: str, *, signature: Signature, **_: Any) -> Formalization:
        (predicate,) = signature.predicates
        text = f"{'~' if self.negated else ''}{predicate}(item)"
        return Formalization(sentence, parse_formula(text), text, signature, ())


def test_undercover_judges_what_a_description_reads_as(
    decisions: list[dict[str, Any]],
) -> None:
    from games.undercover.reward import reward

    row = first_row(decisions, "undercover")
    columns = columns_of([row])
    columns.pop("completion")
    word = CallPosition.model_validate_json(row["position"]).events[0]["words"][row["seat"]]
    bergamot, island = "It is flavoured with oil of bergamot.", "It is named after an island."
    own, other = (bergamot, island) if word == "Earl Grey Tea" else (island, bergamot)

    def said(sentence: str, formalizer: WordFormalizer | None = None) -> list[float | None]:
        text = f"REASONING: r.\nROLE: citizen\nDESCRIPTION: {sentence}"
        options = {} if formalizer is None else {"formalizer": formalizer}
        return reward([row["prompt"]], [reply(text)], **columns, **options)

    assert said(own) == [1.0] and said(other) == [-1.0]
    assert said("It is what my card names.") == [0.0]  # no reader reads it: unjudged
    # A formalizer's form the sentence does not confirm is not its meaning.
    assert said("It is what my card names.", WordFormalizer(False)) == [0.0]
    assert said(other, WordFormalizer(False)) == [-1.0]
    assert reward([row["prompt"]], [reply("It is tea.")], **columns) == [-1.0]


def test_hanabi_rewards_exact_tracking_and_the_annotated_move_value(
    decisions: list[dict[str, Any]],
) -> None:
    row = first_row(decisions, "hanabi")
    position = Position.model_validate_json(row["position"])
    game = position.game()
    legal = game.observation(game.current).legal_actions
    claims = [c.model_dump() for c in exact_deductions(position)]
    answer = {"reasoning": "r", "deductions": claims, "ratings": [0.0] * len(legal), "chosen": 0}
    values = [25.0] + [0.0] * (len(legal) - 1)
    annotated = {**row, "values": values}
    totals = trl_call("hanabi", [row, annotated], [reply(json.dumps(answer))] * 2)
    assert totals == [2.0, 3.0]


def test_every_game_names_its_reward_function() -> None:
    for game in game_names():
        module = __import__(f"games.{game}.reward", fromlist=["reward"])
        assert get_game(game).reward_function() is module.reward
        assert module.reward.__name__ == f"{game}_reward" and module.reward.__doc__
