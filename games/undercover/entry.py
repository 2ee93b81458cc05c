"""Undercover-V on the shared game core: its log rules, its logged actions, ``ENTRY``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from games.core.log import GameLog, LogHeader, SeatInfo
from games.core.loop import Agent
from games.core.printer import Echo
from games.core.protocol import GameState
from games.core.registry import GameEntry, PlaySetup
from games.core.replay import replay as replay_log
from games.core.runlog import field_errors, game_id
from games.undercover.agent import Description
from games.undercover.agents import AGENTS, UndercoverAgentSettings, make_agent
from games.undercover.engine import (
    INFO,
    DescriptionChecker,
    UndercoverGame,
    UndercoverSeat,
    UndercoverState,
)
from games.undercover.events import (
    UNDERCOVER_EVENT,
    DescriptionEvent,
    GameStart,
    UndercoverConfig,
    UndercoverEvent,
    UndercoverSetup,
    VoteEvent,
    header_of_start,
    migrate_record,
)
from games.undercover.logged import LoggedChecker
from games.undercover.playing import (
    DEFAULT_UNDERCOVER_AGENTS,
    UndercoverOptions,
    UndercoverPrinter,
    find_pair,
)
from games.undercover.words import builtin_pairs
from provers.registry import get_prover

if TYPE_CHECKING:
    from pydantic import BaseModel

    from games.core.audit import AuditRecord
    from games.core.view import ViewParts
    from reasoning.llm import UsageMeter


def check_undercover_events(
    header: LogHeader, events: Sequence[UndercoverEvent]
) -> tuple[int, str] | None:
    """Undercover-V's own log rules: ``game_start`` deals the header's word pair to its seats,
    ``seq`` counts up by one from 0, rounds never go back."""
    try:
        setup = UndercoverSetup.model_validate(header.config)
    except ValidationError as err:
        return 0, "header config: " + field_errors(err)
    players = setup.config.players
    if len(header.seats) != players:
        return 0, f"header seats: {len(header.seats)} listed for {players} players"
    start = events[0] if events else None
    if isinstance(start, GameStart):
        if len(start.words) != players:
            return 0, f"field 'words': {len(start.words)} listed for {players} seats"
        if {start.spy_word, start.citizen_word} != set(setup.pair.words):
            return 0, "field 'spy_word': spy and citizen words must be the pair's words"
    for index, event in enumerate(events):
        if event.seq != index:
            return index, f"seq {event.seq} where {index} was due"
        if index and event.round < events[index - 1].round:
            return index, f"round {event.round} goes back from round {events[index - 1].round}"
    return None


def undercover_actions(
    events: Sequence[UndercoverEvent],
) -> Iterator[tuple[int, Mapping[int, Any]]]:
    """Every description and every vote a log records, as joint actions."""
    for index, event in enumerate(events):
        if isinstance(event, DescriptionEvent):
            description = Description(event.text, formula_text=event.formula, call=event.call)
            yield index, {event.seat: description}
        elif isinstance(event, VoteEvent):
            yield index, {b.voter: b.target for b in event.ballots}


class UndercoverEntry(
    GameEntry[UndercoverEvent, UndercoverSetup, UndercoverAgentSettings, UndercoverOptions]
):
    """Undercover-V in the registry of games; the header's config is an ``UndercoverSetup``."""

    info = INFO
    play_options = UndercoverOptions
    model_agents = "att-nli,prover*3"
    default_agents = DEFAULT_UNDERCOVER_AGENTS
    config_type = UndercoverSetup
    event_adapter = UNDERCOVER_EVENT
    agents = AGENTS

    def default_config(self, players: int) -> UndercoverSetup:
        """The standard settings for ``players`` seats and the first shipped word pair."""
        self.info.check_players(players)
        config = UndercoverConfig.model_validate({"players": players})
        return UndercoverSetup(config=config, pair=builtin_pairs()[0])

    def config_players(self, config: UndercoverSetup) -> int:
        """The seats of the setup's game."""
        return config.config.players

    def make_agent(self, spec: str, seat: int, seed: int, settings: UndercoverAgentSettings) -> Any:
        """See ``games.undercover.agents.make_agent`` (its factories take the game's seed)."""
        return make_agent(spec, seat, seed, settings)

    def adapt(self, agent: Any) -> Agent:
        """The agent describing or voting as the turn asks (``UndercoverSeat``)."""
        return UndercoverSeat(agent)

    def new_state(
        self, config: UndercoverSetup, seed: int, seats: Sequence[SeatInfo]
    ) -> UndercoverState:
        """A fresh game whose descriptions the prover-backed checker judges (Z3, shipped
        lexicon)."""
        from games.undercover.checker import ConsistencyTest, ProverChecker
        from games.undercover.lexicon import Lexicon

        game = UndercoverGame(config.config, config.pair, seed)
        checker = ProverChecker(ConsistencyTest(Lexicon.load()))
        return UndercoverState(game, checker)

    def play_setup(
        self,
        options: UndercoverOptions,
        specs: tuple[str, ...],
        seed: int,
        settings: UndercoverAgentSettings,
        recorded: UndercoverSetup | None,
    ) -> PlaySetup[UndercoverSetup, UndercoverAgentSettings]:
        """The word pair of ``options`` (or the recorded game's), its lexicon and the prover of
        the card checks in the settings, the spy's seat given to ``--spy-agent``; ValueError
        when the offline agents have no lexicon entry for a word of the pair."""
        from games.undercover.lexicon import Lexicon
        from games.undercover.words import pair_catalogue

        catalogue = pair_catalogue(options.pairs_file)
        if recorded is None:
            config = UndercoverConfig.model_validate({"players": len(specs)})
            recorded = UndercoverSetup(config=config, pair=find_pair(options.pair, catalogue))
        catalogue[recorded.pair.id] = recorded.pair
        lexicon = Lexicon.load(options.lexicon, catalogue.values())
        if options.spy_agent is not None:
            self.agents.get(options.spy_agent)
            spy = UndercoverGame(recorded.config, recorded.pair, seed).spy_seat
            specs = (*specs[:spy], options.spy_agent, *specs[spy + 1 :])
        if any(not self.agents.get(s).needs_llm for s in specs):
            for word in recorded.pair.words:
                if not lexicon.has(word):
                    raise ValueError(
                        f"no lexicon entry for {word!r}: the offline agents need one (give a "
                        "lexicon folder with --lexicon)"
                    )
        llm = settings.llm
        if options.reader != "offline" and (
            llm is None or (not llm.configured and llm.replay_path is None)
        ):
            raise ValueError(
                f"--reader {options.reader}: the LLM reader needs an endpoint (--base-url)"
            )
        chosen = UndercoverAgentSettings.create(
            lexicon, get_prover(options.prover), timeout=options.timeout
        )
        update = {"llm": llm, "endpoints": settings.endpoints, "reader": options.reader}
        return PlaySetup(recorded, chosen.model_copy(update=update), specs)

    def game_id(self, config: UndercoverSetup, seed: int) -> str:
        """``undercover-<pair>-seed<seed>``."""
        return game_id("undercover", seed, config.pair.id)

    def play_state(
        self,
        config: UndercoverSetup,
        seed: int,
        seats: Sequence[SeatInfo],
        settings: UndercoverAgentSettings,
    ) -> UndercoverState:
        """A fresh game whose referee checks descriptions with the settings' consistency test
        (their prover and lexicon), read by the settings' reader (an LLM one asks the game's
        endpoint, its calls recorded or replayed beside the seats')."""
        from games.undercover.checker import ProverChecker
        from games.undercover.llm_calls import game_reader_client
        from games.undercover.reading import description_reader
        from reasoning.llm import UsageMeter

        game = UndercoverGame(config.config, config.pair, seed)
        reader = settings.library.reader
        if settings.reader != "offline" and settings.llm is not None:
            client = game_reader_client(settings.llm, UsageMeter.for_settings(settings.llm))
            reader = description_reader(settings.lexicon, settings.reader, client, seed=seed)
        return UndercoverState(game, ProverChecker(settings.test, reader))

    def game_meters(self, state: GameState) -> dict[str, tuple[UsageMeter, ...]]:
        """The LLM description reader's usage, where the referee asked one."""
        from formalize.reading.llm_reader import LLMReader
        from games.undercover.checker import ProverChecker

        if not isinstance(state, UndercoverState) or not isinstance(state.checker, ProverChecker):
            return {}
        llm = state.checker.reader.llm
        if not isinstance(llm, LLMReader):
            return {}
        return {"description reader": (llm.client.meter,)}

    def printer(
        self, options: UndercoverOptions, settings: UndercoverAgentSettings, echo: Echo
    ) -> UndercoverPrinter:
        """Each round as it is played (``games.undercover.playing``)."""
        if not options.scores:
            return UndercoverPrinter(echo)
        from games.undercover.metrics import MiniLMSimilarity

        return UndercoverPrinter(echo, (settings.lexicon, MiniLMSimilarity()))

    def judged_by(
        self, game: UndercoverGame, checker: DescriptionChecker
    ) -> Callable[[Sequence[SeatInfo]], UndercoverState]:
        """The state to play the fresh ``game`` in with ``checker`` as its referee (a chosen
        prover or lexicon), for ``games.core.play.play_agents``."""
        return lambda seats: UndercoverState(game, checker)

    def logged_actions(
        self, events: Sequence[UndercoverEvent]
    ) -> Iterator[tuple[int, Mapping[int, Any]]]:
        """See ``undercover_actions``."""
        return undercover_actions(events)

    def replay_state(self, log: GameLog[UndercoverEvent]) -> UndercoverState:
        """The game the header deals, judged by the checks its log records."""
        setup = UndercoverSetup.model_validate(log.header.config)
        game = UndercoverGame(setup.config, setup.pair, log.seed)
        return UndercoverState(game, LoggedChecker(log.events))

    def migrate_record(self, record: dict[str, Any], version: int) -> dict[str, Any]:
        """See ``migrate_record`` in ``games.undercover.events``."""
        return migrate_record(record, version)

    def header_of_start(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """See ``header_of_start`` in ``games.undercover.events``."""
        return header_of_start(record)

    def check_events(
        self, header: LogHeader, events: Sequence[UndercoverEvent]
    ) -> tuple[int, str] | None:
        """See ``check_undercover_events``."""
        return check_undercover_events(header, events)

    def reward_function(self) -> Callable[..., list[float | None]]:
        """Undercover-V's reward function in TRL's shape (``games.undercover.reward``)."""
        from games.undercover.reward import reward

        return reward

    def answer_models(self) -> list[type[BaseModel]]:
        """Undercover-V's answer models at their largest (``games.undercover.llm_schemas``)."""
        from games.undercover.llm_schemas import largest_answer_models

        return largest_answer_models()

    def audit(self, log: GameLog[UndercoverEvent]) -> AuditRecord:
        """Undercover-V's audit (``games.undercover.audit``)."""
        from games.undercover.audit import audit_record

        return audit_record(log)

    def view(self, log: GameLog[UndercoverEvent]) -> ViewParts:
        """Undercover-V's step texts and knowledge panels (``games.undercover.view``)."""
        from games.undercover.view import undercover_view

        return undercover_view(log)


ENTRY = UndercoverEntry()
"""Undercover-V's entry in ``games.core.registry``."""


def read_undercover_log(path: str | Path) -> list[UndercoverEvent]:
    """Read and validate an Undercover-V log (with or without the common header and end): its
    game events; LogError names the file and line of any problem."""
    return list(ENTRY.read_log(path).events)


def replay(header: LogHeader, events: Sequence[UndercoverEvent]) -> UndercoverGame:
    """Replay events held in memory under their header (event i counts as line i + 2 in
    errors); the game."""
    state = replay_log(ENTRY, GameLog.of_events(header, events))
    assert isinstance(state, UndercoverState)
    return state.game
