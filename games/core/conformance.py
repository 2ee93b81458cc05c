"""The conformance suite every registered game passes, as a function a user runs on their own game.

``check_game(entry)`` plays a few seeded games of ``entry`` with its offline agents and checks the
rules below; each failure is a ``ConformanceError`` naming the rule it breaks::

    from games.core.conformance import check_game
    from games.core.registry import get_game

    check_game(get_game("detective"), seeds=(0,))

The rules (``RULES``) cover determinism, the log (it reads back and replays event for event),
legality (agents play only legal actions, illegal ones are refused with the game's error and leave
the state unchanged), the bound on decisions, the shared vocabulary, and the answer schemas the
game's LLM agents send.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.core.log import SeatInfo
from games.core.loop import decide, play
from games.core.play import play_game
from games.core.protocol import IllegalAction
from games.core.registry import GameEntry
from games.core.replay import replay
from reasoning.llm.schema_limits import answer_problems
from reasoning.outfile import write_atomic

RULES: dict[str, str] = {
    "deterministic": "the same seed and seats give a byte-identical log",
    "log-reads": "a played log reads back with the common header and a finished end",
    "log-replays": "a played log replays to the same events and result",
    "legal-actions": "agents are offered, and play, only legal actions",
    "illegal-refused": "an illegal action raises the game's error and leaves the state unchanged",
    "bounded": "a game ends within the game's bound on decisions",
    "vocabulary-seat": "events name a seat `seat` (never `player`, `refuter`, `suggester`)",
    "vocabulary-players": "the config counts its seats in `players`",
    "vocabulary-illegal": "an illegal action raises the core's IllegalAction",
    "vocabulary-end": "the game's last event is a model called GameEnd",
    "vocabulary-config": "the config type lives in the game's events module",
    "answer-schemas": "every answer model the game's LLM agents send keeps to the schema subset "
    "every structured-output server takes (reasoning.llm.schema_limits)",
}
"""Every rule ``check_game`` checks: its name and what it asks of a game."""

SEAT_WORDS = ("player", "refuter", "suggester", "suggesting_player")
"""Field names that say ``seat`` in another word."""


Require = Callable[[str, bool, str], None]
"""Raises ConformanceError for a checked rule whose condition is false."""


class ConformanceError(AssertionError):
    """A game breaking one of ``RULES``; ``rule`` names it."""

    def __init__(self, rule: str, game: str, detail: str) -> None:
        super().__init__(f"{game}: rule {rule!r} ({RULES[rule]}): {detail}")
        self.rule = rule


def offline_mixes(entry: GameEntry[Any, Any, Any, Any]) -> list[tuple[str, ...]]:
    """Two seat lists of offline agents at the smallest table: all the first, and a mix."""
    offline = [n for n, t in entry.agents.types.items() if not t.needs_llm]
    n = entry.info.min_players
    return [(offline[0],) * n, tuple(offline[i % len(offline)] for i in range(n))]


class _Lines:
    """An event sink that keeps each event as its JSON line."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, event: Any) -> None:
        self.lines.append(event.model_dump_json())


def check_game(
    entry: GameEntry[Any, Any, Any, Any],
    seeds: Sequence[int] = (0, 1),
    rules: Sequence[str] | None = None,
) -> None:
    """Check ``entry`` against ``rules`` (default: all of ``RULES``) on games dealt from
    ``seeds`` with its offline agents; ConformanceError names the first rule broken.

    Examples:
        >>> from games.core.registry import get_game
        >>> check_game(get_game("hanabi"), seeds=(0,), rules=["deterministic", "log-replays"])
        >>> check_game(get_game("hanabi"), rules=["fast"])
        Traceback (most recent call last):
          ...
        ValueError: rules: unknown ['fast']; choose from deterministic, log-reads, log-replays, ...
    """
    chosen = tuple(RULES) if rules is None else tuple(rules)
    unknown = [r for r in chosen if r not in RULES]
    if unknown:
        raise ValueError(f"rules: unknown {unknown}; choose from {', '.join(RULES)}")
    name = entry.info.name

    def require(rule: str, ok: bool, detail: str) -> None:
        if rule in chosen and not ok:
            raise ConformanceError(rule, name, detail)

    _check_vocabulary(entry, require)
    if "answer-schemas" in chosen:
        _check_answer_schemas(entry, require)
    for seed in seeds:
        for specs in offline_mixes(entry):
            _check_play(entry, seed, specs, require)
            _check_legality(entry, seed, specs, require)


def _check_play(
    entry: GameEntry[Any, Any, Any, Any], seed: int, specs: tuple[str, ...], require: Require
) -> None:
    """Determinism, and the log reading back and replaying."""
    first, again = _Lines(), _Lines()
    played = play_game(entry, specs, seed, log=first)
    play_game(entry, specs, seed, log=again)
    require("deterministic", first.lines == again.lines, f"seed {seed}, seats {specs}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        write_atomic(path, "".join(line + "\n" for line in first.lines))
        log = entry.read_log(path)
    header, end = log.header, log.end
    require(
        "log-reads",
        header is not None
        and header.game == entry.info.name
        and header.seed == seed
        and [s.agent for s in header.seats] == [s.agent for s in played.seats]
        and end is not None
        and end.status == "finished"
        and len(end.returns) == len(specs),
        f"seed {seed}: header {header}, end {end}",
    )
    state = replay(entry, log)
    require(
        "log-replays",
        state.is_terminal() and list(state.events()) == log.events,
        f"seed {seed}: the replayed game differs from its log",
    )
    for event in log.events:
        words = [w for w in SEAT_WORDS if w in type(event).model_fields]
        require("vocabulary-seat", not words, f"event {event.type!r} has fields {words}")
    require(
        "vocabulary-end",
        bool(log.events) and type(log.events[-1]).__name__ == "GameEnd",
        f"the last event is a {type(log.events[-1]).__name__ if log.events else 'nothing'}",
    )


class _Checked:
    """A seat that checks each action its agent takes against the legal ones and counts them."""

    def __init__(
        self,
        entry: GameEntry[Any, Any, Any, Any],
        state: Any,
        agent: Any,
        seat: int,
        require: Require,
    ):
        self.entry, self.state, self.agent, self.seat = entry, state, agent, seat
        self.require = require
        self.name = agent.name
        self.decisions = 0

    def act(self, obs: Any) -> Any:
        legal = self.state.legal_actions(self.seat)
        action = decide(self.agent, obs, lambda: legal)
        if legal:
            bare = self.entry.bare_action(action)
            self.require("legal-actions", bare in legal, f"seat {self.seat} played {bare!r}")
        self.decisions += 1
        return action


def _check_legality(
    entry: GameEntry[Any, Any, Any, Any], seed: int, specs: tuple[str, ...], require: Require
) -> None:
    """Illegal actions refused, agents legal, the game within its bound."""
    settings = entry.default_settings()
    agents = [entry.make_agent(spec, seat, seed, settings) for seat, spec in enumerate(specs)]
    seats = [SeatInfo(name=f"P{i}", agent=a.name) for i, a in enumerate(agents)]
    config = entry.default_config(len(specs))
    state = entry.new_state(config, seed, seats)
    waiting = list(state.current_players())
    # a single-seat game has no idle seat: then a seat number the game does not have
    idle = next((s for s in range(len(specs)) if s not in waiting), len(specs))
    before = json.dumps([e.model_dump(mode="json") for e in state.events()])
    refused = _refusal(state, {idle: next(iter(state.legal_actions(waiting[0])), None)})
    after = json.dumps([e.model_dump(mode="json") for e in state.events()])
    require("illegal-refused", refused is not None and before == after, f"seat {idle} acted")
    require("vocabulary-illegal", isinstance(refused, IllegalAction), f"{refused!r} was raised")
    checked = [_Checked(entry, state, entry.seat(a), i, require) for i, a in enumerate(agents)]
    header = entry.header(config, seed, seats)
    play(state, checked, header, max_decisions=entry.info.max_decisions)
    decisions = max(c.decisions for c in checked)
    require(
        "bounded",
        state.is_terminal() and not state.current_players() and decisions > 0,
        f"seed {seed}: {decisions} decisions",
    )
    after_end = _refusal(state, {0: None})
    require("illegal-refused", after_end is not None, "an action after the end was accepted")
    require("vocabulary-illegal", isinstance(after_end, IllegalAction), f"{after_end!r} was raised")


def _refusal(state: Any, actions: dict[int, Any]) -> ValueError | None:
    """The error ``apply`` refuses ``actions`` with, or None when it takes them."""
    try:
        state.apply(actions)
    except ValueError as err:
        return err
    return None


def _check_vocabulary(entry: GameEntry[Any, Any, Any, Any], require: Require) -> None:
    """The names every game shares."""
    config = entry.config_type
    require(
        "vocabulary-players",
        "players" in config.model_fields or _nested_players(config),
        f"{config.__name__} has no `players` field",
    )
    home = config.__module__
    require("vocabulary-config", home.endswith(".events"), f"{config.__name__} lives in {home}")


def _check_answer_schemas(entry: GameEntry[Any, Any, Any, Any], require: Require) -> None:
    """Each answer model at its largest: no schema a server could choke on."""
    for model in entry.answer_models():
        problems = answer_problems(model)
        require("answer-schemas", not problems, f"{model.__name__}: {'; '.join(problems)}")


def _nested_players(config: Any) -> bool:
    """Whether a field of ``config`` is a model with a ``players`` field (a setup around the
    game's own config)."""
    for field in config.model_fields.values():
        inner = field.annotation
        if isinstance(inner, type) and "players" in getattr(inner, "model_fields", {}):
            return True
    return False
