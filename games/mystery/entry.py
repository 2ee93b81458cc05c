"""The interrogation game on the shared game core: its logged actions and ``ENTRY``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from formalize.interrogation.script import Scripts
from formalize.interrogation.script_file import load_scripts
from formalize.interrogation.script_generate import ScriptConfig, generate_scripts
from games.core.log import LogHeader, SeatInfo
from games.core.registry import GameEntry, LoggedActionError
from games.mystery.agents import AGENTS
from games.mystery.engine import INFO, Ask, IllegalAction, Introduce, MysteryState, Reply, Vote
from games.mystery.events import (
    MYSTERY_EVENT,
    Answered,
    Asked,
    Introduction,
    MysteryConfig,
    MysteryEvent,
    Voted,
    record_fact,
    record_question,
)
from provers.sat_prover import SatProver


@lru_cache(maxsize=64)
def scripts_for(seed: int, config: ScriptConfig) -> Scripts:
    """The accepted scripts of game ``seed`` (checked with the SAT prover; kept for reuse)."""
    return generate_scripts(seed, SatProver(), config)


def game_scripts(config: MysteryConfig, seed: int) -> Scripts:
    """The scripts a game plays: its script file's (ScriptFileError, a ValueError, when that
    cannot be read) or those generated for ``seed``."""
    if config.script_file is not None:
        return load_scripts(config.script_file)
    return scripts_for(seed, config.scripts)


def mystery_actions(events: Sequence[MysteryEvent]) -> Iterator[tuple[int, Mapping[int, Any]]]:
    """Every introduction, question, answer and vote a log records, as joint actions."""
    for index, event in enumerate(events):
        try:
            if isinstance(event, Introduction):
                yield index, {event.seat: Introduce()}
            elif isinstance(event, Asked):
                question = record_question(event.question)
                ask = Ask(event.answerer, question, event.stated, event.expected, event.call)
                yield index, {event.seat: ask}
            elif isinstance(event, Answered):
                yield index, {event.seat: Reply(tuple(record_fact(f) for f in event.facts))}
            elif isinstance(event, Voted):
                yield index, {b.voter: Vote(b.target) for b in event.ballots}
        except ValueError as err:
            raise LoggedActionError(index, str(err)) from None


class MysteryEntry(GameEntry[MysteryEvent]):
    """The interrogation game in the registry; the header's config is a ``MysteryConfig``."""

    info = INFO
    play_command = "games.mystery.cli:play_mystery"
    auditor = "games.mystery.audit:audit_record"
    viewer = "games.mystery.view:mystery_view"
    answer_models = "games.mystery.llm_schemas:largest_answer_models"
    reward = "games.mystery.reward:reward"
    config_type = MysteryConfig
    event_adapter = MYSTERY_EVENT
    agents = AGENTS
    illegal_error = IllegalAction

    def default_config(self, players: int) -> MysteryConfig:
        """Three rounds over generated scripts for ``players`` seats."""
        self.info.check_players(players)
        return MysteryConfig(scripts=ScriptConfig(players=players))

    def config_players(self, config: BaseModel) -> int:
        """The characters the scripts are for."""
        return MysteryConfig.model_validate(config).scripts.players

    def new_state(self, config: BaseModel, seed: int, seats: Sequence[SeatInfo]) -> MysteryState:
        """A fresh game over the scripts generated for ``seed``."""
        if not isinstance(config, MysteryConfig):
            raise TypeError(f"an interrogation game needs a MysteryConfig, not {config!r}")
        scripts = game_scripts(config, seed)
        if len(scripts.players) != len(seats):
            raise ValueError(
                f"scripts.players: {len(scripts.players)} characters for {len(seats)} seats"
            )
        return MysteryState(scripts, config, seed)

    def logged_actions(
        self, events: Sequence[MysteryEvent]
    ) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """See ``mystery_actions``."""
        return mystery_actions(events)

    def check_events(
        self, header: LogHeader, events: Sequence[MysteryEvent]
    ) -> tuple[int, str] | None:
        """The game's own log rule: a log opens with ``game_start``."""
        if events and events[0].type != "game_start":
            return 0, "a log must open with game_start"
        return None

    def migrate_record(self, record: dict[str, Any], version: int) -> dict[str, Any]:
        """Before schema 3, ``game_start`` repeated the header's seed."""
        if version >= 3 or record.get("type") != "game_start":
            return record
        return {k: v for k, v in record.items() if k != "seed"}


ENTRY = MysteryEntry()
"""The interrogation game's entry in ``games.core.registry``."""
