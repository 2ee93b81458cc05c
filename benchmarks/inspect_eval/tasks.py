"""Every registered game as an inspect_ai task: one sample per seed, the model plays the LLM
seats through inspect's model API, the gumshoe audit scores the game.

``inspect eval gumshoe/clue --model MODEL`` finds these through the ``inspect_ai`` entry point;
``-T agents=...`` seats other agents (any LLM agent is played by the model; inspect passes
``a,b`` as a list, one name as a string, and both are taken), ``-T seeds=N`` and
``-T first_seed=K`` choose the deals. A task is named ``gumshoe/<game>``, as a run exported by
``gumshoe export inspect`` is, so ``inspect view`` lists both under one name.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import anyio.to_thread
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import Model, ModelOutput, get_model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.inspect_eval.client import InspectChatClient
from benchmarks.inspect_eval.scores import (
    AUDIT_KEYS,
    SCORER,
    audit_score,
    headline,
    score_keys,
    score_metrics,
)
from games.core.play import check_seats, play_game
from games.core.played import PlayedGame
from games.core.registry import GameEntry, game_names, get_game
from games.core.runlog import EventLog
from games.core.settings import AgentSettings
from reasoning.llm import (
    ChatClient,
    ClientProvider,
    LLMSettings,
    UsageMeter,
    chat_clients_from,
)

LOG_KEY = "gumshoe_log"
"""The sample store key holding the played game's event log (JSONL text)."""
FALLBACKS_KEY = "gumshoe_fallbacks"
"""The sample store key holding how many of the model's answers fell back to a random move."""


def _model_settings(entry: GameEntry[Any, Any, Any, Any]) -> Any:
    """The game's agent settings with every LLM seat asking the model (``chat_clients_from``
    builds the clients from the settings' ``llm``, which every game's settings have from
    ``games.core.settings.AgentSettings``)."""
    settings = entry.default_settings()
    if not isinstance(settings, AgentSettings):
        raise TypeError(f"{entry.info.name}: its agent settings are no AgentSettings")
    llm = LLMSettings(model="", record_path=None, replay_path=None)
    return settings.model_copy(update={"llm": llm})


def _provider(default: Model) -> ClientProvider:
    def provide(settings: LLMSettings, meter: UsageMeter) -> ChatClient:
        model = get_model(settings.model) if settings.model else default
        return InspectChatClient(model, meter)

    return provide


def _play(game: str, specs: tuple[str, ...], seed: int, model: Model) -> tuple[str, int]:
    """Play one game in this worker thread with the model at the LLM seats: its event log and
    the model seats' fallbacks."""
    entry = get_game(game)
    with tempfile.TemporaryDirectory(prefix="gumshoe-inspect-") as folder:
        path = Path(folder) / f"{game}-{seed}.jsonl"
        with chat_clients_from(_provider(model)), EventLog(path) as log:
            settings = _model_settings(entry)
            played: PlayedGame = play_game(entry, specs, seed, settings, log=log)
        return path.read_text(encoding="utf-8"), sum(f.total for f in played.fallbacks)


@solver
def play_seat() -> Solver:
    """Play the sample's game (its ``game``, ``seed`` and ``agents`` metadata) to the end, the
    model answering for every LLM seat; the event log and fallbacks go to the sample's store."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        model = get_model()
        text, fallbacks = await anyio.to_thread.run_sync(
            partial(_play, meta["game"], tuple(meta["agents"]), int(meta["seed"]), model)
        )
        state.store.set(LOG_KEY, text)
        state.store.set(FALLBACKS_KEY, fallbacks)
        end = text.rstrip("\n").rsplit("\n", 1)[-1]
        state.output = ModelOutput.from_content(model=str(model), content=end)
        state.completed = True
        return state

    return solve


@scorer(metrics=score_metrics(AUDIT_KEYS), name=SCORER)
def gumshoe_audit() -> Scorer:
    """The gumshoe audit of the played game (``benchmarks.inspect_eval.scores.audit_score``);
    each task adds its game's outcome keys to the metrics."""

    async def score(state: TaskState, target: Target) -> Score:
        entry = get_game(state.metadata["game"])
        with tempfile.TemporaryDirectory(prefix="gumshoe-inspect-") as folder:
            path = Path(folder) / f"{state.sample_id}.jsonl"
            path.write_text(state.store.get(LOG_KEY), encoding="utf-8")
            log = entry.read_log(path)
            record = entry.audit(log).model_copy(update={"source": None})
        return audit_score(entry, log, record, state.store.get(FALLBACKS_KEY))

    return score


def sample_input(game: str, seed: int | None, seats: Sequence[str]) -> str:
    """A sample's input: the game, its seed and who sits where."""
    return f"{game}, seed {seed}: seats {', '.join(seats)}"


Seats = str | Sequence[str] | None
"""A task's ``agents`` as inspect passes it: ``a,b`` as a list, one name as a string."""
Count = int | str
"""A task's number as inspect passes it (an int) or as a string."""


def seat_list(agents: Seats) -> str | None:
    """``agents`` as the comma-separated seat list the agent registry parses (None: the
    game's default seats)."""
    if agents is None or isinstance(agents, str):
        return agents or None
    return ",".join(str(agent).strip() for agent in agents)


def _count(name: str, value: Count, least: int) -> int:
    """``value`` as a whole number of at least ``least`` (ValueError naming ``name``)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: not a whole number: {value!r}") from None
    if number < least:
        raise ValueError(f"{name}: must be >= {least}, got {number}")
    return number


def game_task(game: str, agents: Seats = None, seeds: Count = 1, first_seed: Count = 0) -> Task:
    """The inspect task ``gumshoe/<game>``: seeds ``first_seed`` .. ``first_seed + seeds - 1``,
    one sample each, seated by ``agents`` (a seat list, as a string or a list; default: the
    entry's ``model_seats``), at least one of them an LLM agent; scored by the audit, the
    game's outcome keys first."""
    entry = get_game(game)
    seats = seat_list(agents)
    specs = entry.agents.parse(seats or entry.model_seats())
    if not entry.agents.needs_llm(specs):
        raise ValueError(f"agents {seats!r}: no LLM agent for the model to play")
    check_seats(entry, len(specs))
    count, first = _count("seeds", seeds, 1), _count("first_seed", first_seed, 0)
    samples = [
        Sample(
            id=seed,
            input=sample_input(game, seed, specs),
            metadata={"game": game, "seed": seed, "agents": list(specs)},
        )
        for seed in range(first, first + count)
    ]
    return Task(
        dataset=MemoryDataset(samples, name=f"gumshoe-{game}"),
        solver=play_seat(),
        scorer=gumshoe_audit(),
        metrics=score_metrics(score_keys(entry)),
        headline_metric=headline(entry),
        name=task_name(game),
        metadata={"game": game, "agents": list(specs)},
    )


def task_name(game: str) -> str:
    """The name of ``game``'s task, live or exported: ``gumshoe/<game>``."""
    return f"gumshoe/{game}"


def registered_task(name: str) -> Callable[..., Task]:
    """The inspect task ``gumshoe/<name>`` of registered game ``name`` (``game_task``)."""

    def play(agents: Seats = None, seeds: Count = 1, first_seed: Count = 0) -> Task:
        return game_task(name, agents, seeds, first_seed)

    seats = get_game(name).model_seats()
    play.__doc__ = f"{name}: the model plays the LLM seats of `{seats}` (the default seats)."
    play.__name__ = name.replace("-", "_")
    made: Callable[..., Task] = task(name=task_name(name))(play)
    return made


@task(name="gumshoe/game")
def any_game(game: str, agents: Seats = None, seeds: Count = 1, first_seed: Count = 0) -> Task:
    """Any registered game (``-T game=NAME``), one registered after this module was loaded too."""
    return game_task(game, agents, seeds, first_seed)


TASKS: dict[str, Callable[..., Task]] = {name: registered_task(name) for name in game_names()}
"""One inspect task per game registered when the module is loaded: ``gumshoe/<game>``."""
