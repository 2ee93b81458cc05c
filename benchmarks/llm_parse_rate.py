"""How often a live model's answers parse on the first try, with structured output on and off.

Short Clue and Undercover-V games are played with one LLM seat; the games' own agents,
prompts and parsers run unchanged. A client between the agent and the endpoint reads the
labels an ask wants from its prompt's answer format (``SUGGESTION: ...``). With structured output
on, an ask that brings the game's answer model is sent with it in the endpoint's structured mode
(the game reads the JSON); an ask without one is asked for its labels as one JSON object, handed
back as labelled lines. Off, every ask goes as plain text. Every call is
counted by answer type: an ask whose first reply parses is never followed by a re-prompt.

Run against the server of ``make llm-server``::

    GUMSHOE_LLM_BASE_URL=http://127.0.0.1:8080/v1 python -m benchmarks.llm_parse_rate --out DIR

It prints a table per answer type and mode and a metering table, and writes ``parse_rate.json``
(and with ``--record`` each game's calls as JSONL, replayable with ``ReplayClient``).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from games.clue.agent import Agent as ClueAgent
from games.clue.agents import random_agent
from games.clue.entry import ENTRY as CLUE
from games.clue.events import ClueConfig, Deduction, DeductionKind
from games.clue.llm_agent import LLMClueAgent
from games.clue.llm_answers import format_deduction
from games.core.agents import agent_meters
from games.core.play import play_agents
from games.core.random_agent import RandomAgent
from games.core.runlog import game_id
from games.undercover.agents import UndercoverAgentSettings, seat_agents
from games.undercover.checker import ProverChecker
from games.undercover.engine import UndercoverGame
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.events import UndercoverConfig, UndercoverSetup
from games.undercover.words import builtin_pairs
from reasoning.llm import (
    ChatClient,
    ChatMessage,
    ChatOptions,
    ChatReply,
    LLMEndpointError,
    LLMSettings,
    MalformedAnswer,
    RecordingClient,
    ReplayClient,
    ReplayError,
    UsageMeter,
    UsageReport,
    complete_with,
    json_objects,
    labelled_fields,
    labelled_text,
    make_client,
)
from reasoning.outfile import json_text, write_atomic

Mode = Literal["on", "off"]
GameName = Literal["clue", "undercover"]

_FORMAT_MARK = "answer in exactly this format"
_LABEL_LINE = re.compile(r"^([A-Z][A-Z_]*):")
# Answer types by the labels their format asks for.
_ANSWER_TYPES: dict[tuple[str, ...], str] = {
    ("ANALYSIS", "DEDUCTIONS"): "clue deduction",
    ("SUMMARY", "REASONING", "SUGGESTION", "ACCUSATION"): "clue move",
    ("SUMMARY", "REASONING", "ACCUSATION"): "clue final accusation",
    ("REASONING", "SHOW"): "clue show card",
    ("DESCRIPTION",): "undercover describe",
    ("VOTE",): "undercover vote",
    ("GUESS",): "undercover guess",
}
CLUE_ROUNDS = 3
UNDERCOVER_PLAYERS = 4
UNDERCOVER_PAIR = "earl-grey-tea-ceylon-tea"
CLUE_PLAYERS = 3
MAX_LIST = 6


def format_labels(prompt: str) -> tuple[str, ...]:
    """The labels of the answer format a prompt asks for (empty when it asks for none)."""
    lowered = prompt.lower()
    start = lowered.rfind(_FORMAT_MARK)
    if start == -1:
        return ()
    labels = []
    for line in prompt[start:].splitlines()[1:]:
        match = _LABEL_LINE.match(line.strip())
        if match is not None and match.group(1) not in labels:
            labels.append(match.group(1))
    return tuple(labels)


def asked_labels(user_messages: Iterable[str]) -> tuple[str, ...]:
    """The labels of the first user message that asks for an answer format (history messages
    before it ask for none)."""
    return next((labels for text in user_messages if (labels := format_labels(text))), ())


@dataclass(frozen=True)
class Choices:
    """The values a label may take, from the game's settings: a string field becomes an enum
    (a list of them for labels in ``lists``); labels without choices stay free text."""

    values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    lists: frozenset[str] = frozenset()

    def model(self, labels: tuple[str, ...]) -> type[BaseModel]:
        """The flat model the model fills as JSON for an ask with these labels."""
        return _model(labels, self)

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.values)), self.lists))


@cache
def _model(labels: tuple[str, ...], choices: Choices) -> type[BaseModel]:
    fields: dict[str, object] = {}
    for label in labels:
        allowed = choices.values.get(label)
        kind: object = str
        if allowed is not None:
            kind = Literal[allowed]
        if label in choices.lists:
            fields[label.lower()] = (list[kind], Field(max_length=MAX_LIST))  # type: ignore[valid-type]
        elif allowed is not None:
            fields[label.lower()] = (kind, ...)
        else:
            fields[label.lower()] = (str, ...)  # no length bound: the reply budget bounds it
    name = "Answer" + "".join(label.title().replace("_", "") for label in labels)
    model: type[BaseModel] = create_model(  # type: ignore[call-overload]
        name, __config__=ConfigDict(extra="forbid"), **fields
    )
    return model


def clue_choices(config: ClueConfig) -> Choices:
    """Clue's labels as enums: every suggestion triple, NONE or a triple as the accusation, a
    card to show, and the deductions in the forms the parser reads."""
    triples = tuple(
        f"{s}, {w}, {r}" for s in config.suspects for w in config.weapons for r in config.rooms
    )
    cards = config.deck.cards
    player_kinds: tuple[DeductionKind, ...] = ("holds", "not_holds")
    about_players = [
        Deduction(kind=kind, card=card, player=seat)
        for kind in player_kinds
        for seat in range(config.players)
        for card in cards
    ]
    about_envelope = [
        Deduction(kind=kind, card=card)
        for kind in ("in_envelope", "not_in_envelope")
        for card in cards
    ]
    return Choices(
        values={
            "SUGGESTION": triples,
            "ACCUSATION": ("NONE", *triples),
            "SHOW": tuple(card.name for card in cards),
            "DEDUCTIONS": tuple(format_deduction(d) for d in about_players + about_envelope),
        },
        lists=frozenset({"DEDUCTIONS"}),
    )


def undercover_choices(players: int) -> Choices:
    """Undercover-V's vote as an enum of seats."""
    return Choices(values={"VOTE": tuple(f"player {seat}" for seat in range(players))})


@dataclass
class AskTally:
    """Asks of one answer type: how many, how many first replies had the asked format (every
    label, or the JSON object), how many the game accepted on the first reply, all calls."""

    asks: int = 0
    first_try: int = 0
    calls: int = 0
    format_first: int = 0

    @property
    def rate(self) -> float:
        """Share of asks whose first reply parsed."""
        return self.first_try / self.asks if self.asks else 0.0


@dataclass
class LabelledJSONClient:
    """Asks for a prompt's labelled answer as JSON (structured output) and returns it as
    labelled lines; with ``structured`` off it passes calls through. Tallies asks by type."""

    inner: ChatClient
    structured: bool
    choices: Choices = field(default_factory=Choices)
    tallies: dict[str, AskTally] = field(default_factory=dict)
    seat_meter: UsageMeter | None = None
    _current: str | None = None
    _reprompted: bool = False

    @property
    def model(self) -> str:
        """The wrapped client's model."""
        return self.inner.model

    @property
    def meter(self) -> UsageMeter:
        """The wrapped client's meter."""
        return self.inner.meter

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        seed: int | None = None,
        options: ChatOptions | None = None,
    ) -> ChatReply:
        """Ask ``inner``; a first ask opens a tally entry, a re-prompt marks it failed. With
        structured output on, an ask that brings the game's answer model is passed on with it;
        off, every ask goes as plain text."""
        labels = asked_labels(m.content for m in messages if m.role == "user")
        kind = _ANSWER_TYPES.get(labels, "+".join(labels) or "free text")
        reprompt = any(m.role == "assistant" for m in messages)
        self._tally(kind, reprompt=reprompt)
        answer = None if options is None else options.answer
        if self.structured and answer is not None:
            reply = complete_with(self.inner, messages, seed=seed, options=options)
            if not reprompt and _fills(reply.content, answer):
                self.tallies[kind].format_first += 1
            return reply
        plain = None if options is None else replace(options, answer=None)
        if not self.structured or not labels:
            reply = complete_with(self.inner, messages, seed=seed, options=plain)
            if not reprompt and labels and _has_labels(reply.content, labels):
                self.tallies[kind].format_first += 1
            return reply
        schema = self.choices.model(labels)
        reply = complete_with(self.inner, messages, seed=seed, options=ChatOptions(answer=schema))
        for candidate in json_objects(reply.content):
            try:
                filled = schema.model_validate(candidate)
            except ValueError:
                continue
            if not reprompt:
                self.tallies[kind].format_first += 1
            return reply.model_copy(update={"content": labelled_text(filled)})
        return reply

    def _tally(self, kind: str, *, reprompt: bool) -> None:
        tally = self.tallies.setdefault(kind, AskTally())
        tally.calls += 1
        if not reprompt:
            tally.asks += 1
            tally.first_try += 1
            self._current, self._reprompted = kind, False
        elif not self._reprompted and self._current is not None:
            self.tallies[self._current].first_try -= 1
            self._reprompted = True


def _fills(text: str, answer: type[BaseModel]) -> bool:
    """Whether ``text`` holds a JSON object that fills ``answer``."""
    for candidate in json_objects(text):
        try:
            answer.model_validate(candidate)
        except ValueError:
            continue
        return True
    return False


def _has_labels(text: str, labels: tuple[str, ...]) -> bool:
    """Whether ``text`` has a non-empty line for every label."""
    try:
        labelled_fields(text, labels, required=labels)
    except MalformedAnswer:
        return False
    return True


def play_one(
    game: GameName, seed: int, client: ChatClient, clue_rounds: int = CLUE_ROUNDS
) -> UsageMeter:
    """One short game of ``game`` with the LLM at seat 0 and offline agents elsewhere; the LLM
    seat's own meter (its re-prompts and fallbacks included)."""
    if game == "clue":
        clue_config = ClueConfig(players=CLUE_PLAYERS, max_rounds=clue_rounds)
        llm = LLMClueAgent(client, seed=seed)
        clue_agents: list[ClueAgent | RandomAgent] = [
            llm,
            random_agent(seed + 1),
            random_agent(seed + 2),
        ]
        play_agents(CLUE, clue_agents, seed, clue_config)
        return llm.meter
    pair = next(p for p in builtin_pairs() if p.id == UNDERCOVER_PAIR)
    uc_game = UndercoverGame(
        UndercoverConfig.model_validate({"players": UNDERCOVER_PLAYERS}), pair, seed
    )
    settings = UndercoverAgentSettings.create(client=client)
    specs = ["nli"] + ["prover"] * (UNDERCOVER_PLAYERS - 1)
    agents = seat_agents(specs, uc_game, settings)
    setup = UndercoverSetup(config=uc_game.config, pair=pair)
    referee = UNDERCOVER.judged_by(uc_game, ProverChecker(settings.test))
    play_agents(UNDERCOVER, agents, seed, setup, state=referee)
    return agent_meters(agents[0])[0]


def game_choices(game: GameName) -> Choices:
    """The enums of the games this module plays."""
    if game == "clue":
        return clue_choices(ClueConfig(players=CLUE_PLAYERS))
    return undercover_choices(UNDERCOVER_PLAYERS)


def recording_name(game: GameName, mode: Mode, seed: int) -> str:
    """The file a game's calls are recorded to."""
    return f"{game_id(game, seed, 'structured', mode)}.jsonl"


def run_game(
    game: GameName,
    mode: Mode,
    seed: int,
    settings: LLMSettings,
    *,
    record_dir: Path | None = None,
    replay_dir: Path | None = None,
    clue_rounds: int = CLUE_ROUNDS,
) -> LabelledJSONClient:
    """Play one game in ``mode``, recording or replaying its calls; return the tallying client."""
    inner: ChatClient
    if replay_dir is not None:
        inner = ReplayClient(replay_dir / recording_name(game, mode, seed))
    else:
        inner = make_client(settings)
        if record_dir is not None:
            inner = RecordingClient(inner, record_dir / recording_name(game, mode, seed))
    client = LabelledJSONClient(inner, structured=mode == "on", choices=game_choices(game))
    client.seat_meter = play_one(game, seed, client, clue_rounds)
    return client


class TypeResult(BaseModel):
    """One answer type in one mode: asks, first-try parses and their share, all calls."""

    model_config = ConfigDict(frozen=True)

    answer_type: str
    mode: Mode
    asks: int
    format_first: int
    first_try: int
    rate: float
    calls: int


def results(clients: dict[Mode, list[LabelledJSONClient]]) -> list[TypeResult]:
    """Tallies summed per answer type and mode."""
    rows = []
    for mode, group in clients.items():
        totals: dict[str, AskTally] = {}
        for client in group:
            for kind, tally in client.tallies.items():
                total = totals.setdefault(kind, AskTally())
                total.asks += tally.asks
                total.first_try += tally.first_try
                total.calls += tally.calls
                total.format_first += tally.format_first
        rows += [
            TypeResult(
                answer_type=kind,
                mode=mode,
                asks=t.asks,
                format_first=t.format_first,
                first_try=t.first_try,
                rate=t.rate,
                calls=t.calls,
            )
            for kind, t in sorted(totals.items())
        ]
    return rows


def table(rows: Sequence[TypeResult]) -> str:
    """The per-type table, as plain text."""
    lines = [
        f"{'answer type':<24}{'structured':>11}{'asks':>6}{'format ok':>11}{'accepted':>10}"
        f"{'rate':>7}{'calls':>7}"
    ]
    lines += [
        f"{r.answer_type:<24}{r.mode:>11}{r.asks:>6}{r.format_first:>11}{r.first_try:>10}"
        f"{r.rate:>7.0%}{r.calls:>7}"
        for r in rows
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Play the games, print the tables and write ``parse_rate.json``; 2 on bad options."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.llm_parse_rate")
    parser.add_argument("--out", type=Path, required=True, help="directory for the results")
    parser.add_argument("--seeds", default="1", help="comma-separated game seeds")
    parser.add_argument("--modes", default="on,off", help="on, off or on,off")
    parser.add_argument("--games", default="clue,undercover", help="clue, undercover or both")
    parser.add_argument("--clue-rounds", type=int, default=CLUE_ROUNDS, help="Clue round limit")
    parser.add_argument("--record", action="store_true", help="record each game's calls")
    parser.add_argument(
        "--replay", type=Path, default=None, help="replay the calls recorded in this directory"
    )
    args = parser.parse_args(argv)
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
        if args.clue_rounds < 1:
            raise ValueError(f"--clue-rounds: must be at least 1, got {args.clue_rounds}")
        modes = _modes(args.modes)
        games = _games(args.games)
        settings = LLMSettings()
        if not settings.configured and args.replay is None:
            raise ValueError("no endpoint: set GUMSHOE_LLM_BASE_URL (or give --replay DIR)")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    played: dict[Mode, list[LabelledJSONClient]] = {mode: [] for mode in modes}
    meters: dict[str, UsageMeter] = {}
    record_dir = args.out if args.record else None
    try:
        for mode in modes:
            for game in games:
                for seed in seeds:
                    client = run_game(
                        game,
                        mode,
                        seed,
                        settings,
                        record_dir=record_dir,
                        replay_dir=args.replay,
                        clue_rounds=args.clue_rounds,
                    )
                    played[mode].append(client)
                    assert client.seat_meter is not None
                    meters[f"{game} {mode} s{seed}"] = client.seat_meter
    except (OSError, ValueError, ReplayError, LLMEndpointError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rows = results(played)
    report = UsageReport.from_meters(meters)
    print(table(rows))
    print()
    print(report.table())
    payload = {
        "model": next(iter(played[modes[0]])).model,
        "types": [r.model_dump() for r in rows],
        "usage": report.model_dump(),
    }
    write_atomic(args.out / "parse_rate.json", json_text(payload))
    return 0


def _modes(text: str) -> list[Mode]:
    modes: list[Mode] = []
    for value in (v.strip() for v in text.split(",")):
        if value == "on":
            modes.append("on")
        elif value == "off":
            modes.append("off")
        else:
            raise ValueError(f"--modes: {value!r} is not on or off")
    return modes


def _games(text: str) -> list[GameName]:
    games: list[GameName] = []
    for value in (v.strip() for v in text.split(",")):
        if value == "clue":
            games.append("clue")
        elif value == "undercover":
            games.append("undercover")
        else:
            raise ValueError(f"--games: {value!r} is not clue or undercover")
    return games


if __name__ == "__main__":
    sys.exit(main())
