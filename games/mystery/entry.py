"""The interrogation game on the shared game core: its logged actions and ``ENTRY``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from formalize.interrogation.script import Scripts
from formalize.interrogation.script_file import load_scripts
from formalize.interrogation.script_generate import ScriptConfig, generate_scripts
from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.printer import Echo
from games.core.registry import GameEntry, LoggedActionError, PlaySetup
from games.core.settings import AgentSettings
from games.mystery.agents import AGENTS
from games.mystery.engine import INFO, Ask, Introduce, MysteryState, Reply, Vote
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
from games.mystery.playing import MysteryOptions, MysteryPrinter
from provers.registry import get_prover

if TYPE_CHECKING:
    from pydantic import BaseModel

    from games.core.audit import AuditRecord
    from games.core.view import ViewParts


@lru_cache(maxsize=64)
def scripts_for(seed: int, config: ScriptConfig) -> Scripts:
    """The accepted scripts of game ``seed`` (checked with the SAT prover; kept for reuse)."""
    return generate_scripts(seed, get_prover("sat"), config)


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


class MysteryEntry(GameEntry[MysteryEvent, MysteryConfig, AgentSettings, MysteryOptions]):
    """The interrogation game in the registry; the header's config is a ``MysteryConfig``."""

    info = INFO
    play_options = MysteryOptions
    model_agents = "llm-cot,prover*3"
    default_agents = "prover*5"
    config_type = MysteryConfig
    event_adapter = MYSTERY_EVENT
    agents = AGENTS

    def default_config(self, players: int) -> MysteryConfig:
        """Three rounds over generated scripts for ``players`` seats."""
        self.info.check_players(players)
        return MysteryConfig(scripts=ScriptConfig(players=players))

    def config_players(self, config: MysteryConfig) -> int:
        """The characters the scripts are for."""
        return config.scripts.players

    def new_state(
        self, config: MysteryConfig, seed: int, seats: Sequence[SeatInfo]
    ) -> MysteryState:
        """A fresh game over the scripts generated for ``seed``."""
        scripts = game_scripts(config, seed)
        if len(scripts.players) != len(seats):
            raise ValueError(
                f"scripts.players: {len(scripts.players)} characters for {len(seats)} seats"
            )
        return MysteryState(scripts, config, seed)

    def reward_function(self) -> Callable[..., list[float | None]]:
        """The interrogation game's reward function in TRL's shape (``games.mystery.reward``)."""
        from games.mystery.reward import reward

        return reward

    def answer_models(self) -> list[type[BaseModel]]:
        """The interrogation game's answer models, largest (``games.mystery.llm_schemas``)."""
        from games.mystery.llm_schemas import largest_answer_models

        return largest_answer_models()

    def audit(self, log: GameLog[MysteryEvent]) -> AuditRecord:
        """The interrogation game's audit (``games.mystery.audit``)."""
        from games.mystery.audit import audit_record

        return audit_record(log)

    def view(self, log: GameLog[MysteryEvent]) -> ViewParts:
        """The interrogation game's step texts and knowledge panels (``games.mystery.view``)."""
        from games.mystery.view import mystery_view

        return mystery_view(log)

    def play_setup(
        self,
        options: MysteryOptions,
        specs: tuple[str, ...],
        seed: int,
        settings: AgentSettings,
        recorded: MysteryConfig | None,
    ) -> PlaySetup[MysteryConfig, AgentSettings]:
        """Generated scripts for ``len(specs)`` characters, or ``options.script`` once it passes
        the acceptance checks (the command ends there with status 2 and the failing part when
        it does not); alibis in the introductions when asked."""
        if recorded is not None:
            return PlaySetup(recorded, settings, specs)
        from games.mystery.cli import checked_scripts, game_config

        if options.script is not None:
            checked_scripts(options.script, len(specs))
        return PlaySetup(game_config(len(specs), options.script, options.alibis), settings, specs)

    def printer(
        self, options: MysteryOptions, settings: AgentSettings, echo: Echo
    ) -> MysteryPrinter:
        """The game in English with its exact audit (``games.mystery.playing``)."""
        return MysteryPrinter(echo)

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
