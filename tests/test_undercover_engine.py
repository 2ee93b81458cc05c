"""Undercover-V engine: rules, violations, votes and endings, seeding, logs and replay."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from games.core.log import GameLog, LogEnd, LogHeader
from games.core.runlog import EventLog
from games.undercover import (
    CheckOutcome,
    Description,
    IllegalAction,
    LogError,
    Observation,
    ReplayError,
    Side,
    UndercoverConfig,
    UndercoverEvent,
    UndercoverGame,
    UndercoverSetup,
    WordPair,
    WordPairError,
    builtin_pairs,
    pair_catalogue,
    read_undercover_log,
    replay,
)
from games.undercover.engine import CardCheck, normalise_description
from games.undercover.entry import ENTRY as UNDERCOVER
from games.undercover.events import (
    UNDERCOVER_EVENT,
    DescriptionEvent,
    EliminationEvent,
    EndReason,
    GameEnd,
    TieEvent,
    ViolationEvent,
    ViolationKind,
    VoteEvent,
)
from games.undercover.logged import LoggedAgent, LoggedChecker
from games.undercover.words import load_pairs
from reasoning.syntax import parse_formula
from tests.support.played import play_undercover

E = TypeVar("E")

PAIR = WordPair(id="tea", words=("Earl Grey Tea", "Ceylon Tea"))

Describer = Callable[[Observation], Description]
Voter = Callable[[Observation], int]


class ScriptedAgent:
    """Describes and votes through the given functions; records what it observed."""

    def __init__(self, name: str, describe: Describer, vote: Voter) -> None:
        self.name = name
        self._describe = describe
        self._vote = vote
        self.seen: list[Observation] = []

    def describe(self, obs: Observation) -> Description:
        self.seen.append(obs)
        return self._describe(obs)

    def vote(self, obs: Observation) -> int:
        self.seen.append(obs)
        return self._vote(obs)


class FixedChecker:
    """Answers ``outcome`` for every description; remembers the words it was asked about."""

    def __init__(self, outcome: CheckOutcome = CheckOutcome.NOT_FORMALISED) -> None:
        self.outcome = outcome
        self.asked: list[tuple[str, str]] = []

    def check(self, word: str, description: Description) -> CardCheck:
        self.asked.append((word, description.text))
        return CardCheck(self.outcome)


class ListLog:
    """An event sink that keeps the game's (validated) events in a list, and the common header
    and end events apart."""

    def __init__(self) -> None:
        self.events: list[UndercoverEvent] = []
        self.common: list[BaseModel] = []

    def write(self, event: BaseModel) -> None:
        if isinstance(event, LogHeader | LogEnd):
            self.common.append(event)
        else:
            self.events.append(UNDERCOVER_EVENT.validate_python(event))

    @property
    def header(self) -> LogHeader:
        """The log's header (written first)."""
        header = self.common[0]
        assert isinstance(header, LogHeader)
        return header


def unique(obs: Observation) -> Description:
    return Description(f"Seat {obs.seat} in round {obs.round} says something new.")


def agents_voting(target: Callable[[Observation], int], n: int = 6) -> list[ScriptedAgent]:
    return [ScriptedAgent(f"agent{i}", unique, target) for i in range(n)]


def game_with(seed: int = 0, players: int = 6, tie_limit: int = 3) -> UndercoverGame:
    return UndercoverGame(UndercoverConfig(players=players, tie_limit=tie_limit), PAIR, seed)


def seed_with_spy_at(seat: int, players: int = 6) -> int:
    return next(s for s in range(1000) if game_with(s, players).spy_seat == seat)


def of_type(events: list[UndercoverEvent], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def lowest_other(obs: Observation) -> int:
    return obs.vote_targets()[0]


def test_descriptions_come_in_seat_order_and_the_eliminated_stop_speaking() -> None:
    seed = seed_with_spy_at(5)
    game = game_with(seed)
    log = ListLog()
    result = play_undercover(game, agents_voting(lowest_other), FixedChecker(), log)
    descriptions = of_type(log.events, DescriptionEvent)
    by_round: dict[int, list[int]] = {}
    for d in descriptions:
        by_round.setdefault(d.round, []).append(d.seat)
    assert by_round[1] == [0, 1, 2, 3, 4, 5]
    assert by_round[2] == [1, 2, 3, 4, 5]
    assert by_round[3] == [2, 3, 4, 5]
    assert result.eliminated[:2] == (0, 1)


def test_observation_shows_own_word_and_public_history_only() -> None:
    seed = seed_with_spy_at(2)
    game = game_with(seed)
    agents = agents_voting(lowest_other)
    play_undercover(game, agents, FixedChecker())
    first = agents[3].seen[0]
    assert first.seat == 3 and first.word == game.citizen_word and first.round == 1
    assert [d.seat for d in first.descriptions] == [0, 1, 2]
    assert "formula" not in first.model_dump_json()
    spy_view = agents[2].seen[0]
    assert spy_view.word == game.spy_word != game.citizen_word
    vote_view = agents[0].seen[1]
    assert len(vote_view.descriptions_in(1)) == 6 and vote_view.votes == ()
    second_round = agents[3].seen[2]
    assert second_round.round == 2 and second_round.eliminated == (0,)
    assert second_round.votes[0].eliminated == 0 and len(second_round.votes[0].ballots) == 6
    assert 0 not in second_round.living


def test_repeated_description_is_a_violation_and_still_stands() -> None:
    def describe(obs: Observation) -> Description:
        if obs.seat == 1 and obs.round == 1:
            return Description("  it is a KIND of tea!! ")
        if obs.seat == 4 and obs.round == 2:
            return Description("It is a kind of tea.")
        if obs.seat == 0:
            return Description("It is a kind of tea.")
        return unique(obs)

    seed = seed_with_spy_at(5)
    agents = [ScriptedAgent(f"a{i}", describe, lowest_other) for i in range(6)]
    log = ListLog()
    result = play_undercover(game_with(seed), agents, FixedChecker(), log)
    repeats = of_type(log.events, ViolationEvent)
    assert [(v.round, v.seat, v.kind) for v in repeats] == [
        (1, 1, ViolationKind.REPEAT),
        (2, 4, ViolationKind.REPEAT),
    ]
    assert repeats[0].earlier_round == 1 and repeats[0].earlier_seat == 0
    assert repeats[1].earlier_round == 1 and repeats[1].earlier_seat == 0
    spoken = [d.text for d in of_type(log.events, DescriptionEvent) if d.seat == 1]
    assert spoken[0] == "it is a KIND of tea!!"
    assert result.violations == 2


def test_normalised_comparison() -> None:
    same = normalise_description("It is  a KIND of tea!")
    assert same == normalise_description("it is a kind of tea")
    assert normalise_description("\uff34\uff45\uff41") == "tea"
    assert normalise_description("It is a tea.") != normalise_description("It is tea.")


def test_contradiction_of_the_card_is_recorded_with_outcome_and_formula() -> None:
    seed = seed_with_spy_at(3)
    game = game_with(seed)
    formula = parse_formula("exists e y. Flavour(e) & Patient(e, item) & BergamotOil(y)")

    def describe(obs: Observation) -> Description:
        return Description(f"Seat {obs.seat} round {obs.round}: bergamot.", formula=formula)

    class SpyContradicts:
        def check(self, word: str, description: Description) -> CardCheck:
            return CardCheck(
                CheckOutcome.CONTRADICTS_CARD if word == game.spy_word else CheckOutcome.CONSISTENT
            )

    agents = [
        ScriptedAgent(f"a{i}", describe, lambda obs: 3 if obs.seat != 3 else 0) for i in range(6)
    ]
    log = ListLog()
    play_undercover(game, agents, SpyContradicts(), log)
    descriptions = of_type(log.events, DescriptionEvent)
    assert descriptions[0].formula == "exists e y. Flavour(e) & Patient(e, item) & BergamotOil(y)"
    assert [d.outcome for d in descriptions] == [CheckOutcome.CONSISTENT] * 3 + [
        CheckOutcome.CONTRADICTS_CARD
    ] + [CheckOutcome.CONSISTENT] * 2
    violations = of_type(log.events, ViolationEvent)
    assert [(v.seat, v.kind) for v in violations] == [(3, ViolationKind.CONTRADICTION)]
    assert game.spy_word in violations[0].message


def test_checker_is_asked_with_the_speakers_own_word() -> None:
    seed = seed_with_spy_at(4)
    game = game_with(seed)
    checker = FixedChecker()
    play_undercover(game, agents_voting(lambda obs: 4 if obs.seat != 4 else 0), checker)
    words = [word for word, _ in checker.asked]
    assert words == [game.words[s] for s in range(6)]
    assert words[4] == game.spy_word


def test_spy_eliminated_citizens_win() -> None:
    seed = seed_with_spy_at(2)
    log = ListLog()
    result = play_undercover(
        game_with(seed), agents_voting(lambda obs: 2 if obs.seat != 2 else 0), FixedChecker(), log
    )
    assert result.winner is Side.CITIZENS and result.reason is EndReason.SPY_ELIMINATED
    assert result.rounds == 1 and result.eliminated == (2,) and result.citizens_eliminated == 0
    elimination = of_type(log.events, EliminationEvent)[0]
    assert elimination.seat == 2 and elimination.was_spy and elimination.votes == 5
    assert isinstance(log.events[-1], GameEnd)


def test_two_players_left_spy_wins() -> None:
    seed = seed_with_spy_at(3, players=4)
    log = ListLog()
    result = play_undercover(
        game_with(seed, players=4), agents_voting(lowest_other, n=4), FixedChecker(), log
    )
    assert result.winner is Side.SPY and result.reason is EndReason.TWO_PLAYERS_LEFT
    assert result.eliminated == (0, 1) and result.citizens == 3 and result.citizens_eliminated == 2
    assert result.rounds == 2


def circular(obs: Observation) -> int:
    """Everyone votes for the next living seat: every seat gets one vote, a tie."""
    living = obs.living
    return living[(living.index(obs.seat) + 1) % len(living)]


def test_tie_eliminates_nobody_and_three_consecutive_ties_let_the_spy_win() -> None:
    log = ListLog()
    result = play_undercover(game_with(7), agents_voting(circular), FixedChecker(), log)
    ties = of_type(log.events, TieEvent)
    assert [t.consecutive for t in ties] == [1, 2, 3]
    assert ties[0].seats == (0, 1, 2, 3, 4, 5) and ties[0].votes == 1
    assert not of_type(log.events, EliminationEvent)
    assert result.winner is Side.SPY and result.reason is EndReason.TIE_LIMIT
    assert result.rounds == 3 and result.eliminated == ()


def test_an_elimination_resets_the_tie_count() -> None:
    seed = seed_with_spy_at(5)
    game = game_with(seed)
    plan = ["tie", "out", "tie", "tie", "tie"]

    def vote(obs: Observation) -> int:
        if plan[obs.round - 1] == "tie":
            return circular(obs)
        return 0 if obs.seat != 0 else 1

    log = ListLog()
    result = play_undercover(game, agents_voting(vote), FixedChecker(), log)
    ties = of_type(log.events, TieEvent)
    assert [t.consecutive for t in ties] == [1, 1, 2, 3]
    assert [t.round for t in ties] == [1, 3, 4, 5]
    assert result.reason is EndReason.TIE_LIMIT and result.rounds == 5
    assert result.eliminated == (0,)


def test_a_tie_between_two_leaders() -> None:
    game = game_with(seed_with_spy_at(5))
    for seat in range(6):
        game.describe(seat, f"description {seat}", None, CheckOutcome.NOT_FORMALISED)
    events = game.vote({0: 1, 1: 0, 2: 0, 3: 1, 4: 2, 5: 0})
    assert isinstance(events[0], VoteEvent)
    assert isinstance(events[1], EliminationEvent) and events[1].seat == 0 and events[1].votes == 3
    game = game_with(seed_with_spy_at(5))
    for seat in range(6):
        game.describe(seat, f"description {seat}", None, CheckOutcome.NOT_FORMALISED)
    events = game.vote({0: 1, 1: 0, 2: 0, 3: 1, 4: 2, 5: 3})
    assert isinstance(events[1], TieEvent) and events[1].seats == (0, 1) and events[1].votes == 2


@pytest.mark.parametrize(
    ("vote", "message"),
    [
        (lambda obs: obs.seat, "may not vote for itself"),
        (lambda obs: 17, "does not exist"),
        (lambda obs: "2", "names a seat number"),
        (lambda obs: True, "names a seat number"),
    ],
)
def test_illegal_votes_name_the_agent(vote: Voter, message: str) -> None:
    agents = agents_voting(lowest_other)
    agents[2] = ScriptedAgent("bad-voter", unique, vote)
    with pytest.raises(IllegalAction, match=message) as err:
        play_undercover(game_with(1), agents, FixedChecker())
    assert "bad-voter" in str(err.value) and "seat 2" in str(err.value)


def test_vote_for_an_eliminated_player_is_illegal() -> None:
    game = game_with(seed_with_spy_at(5))
    for seat in range(6):
        game.describe(seat, f"first {seat}", None, CheckOutcome.NOT_FORMALISED)
    game.vote({s: 0 if s != 0 else 1 for s in range(6)})
    for seat in range(1, 6):
        game.describe(seat, f"second {seat}", None, CheckOutcome.NOT_FORMALISED)
    with pytest.raises(IllegalAction, match="seat 0, which has been eliminated"):
        game.vote({1: 0, 2: 1, 3: 1, 4: 1, 5: 1})
    with pytest.raises(IllegalAction, match="abstention"):
        game.vote({1: 2, 2: 1, 3: 1, 4: 1})
    with pytest.raises(IllegalAction, match="not living players"):
        game.vote({0: 1, 1: 2, 2: 1, 3: 1, 4: 1, 5: 1})


def test_out_of_turn_and_empty_descriptions_are_illegal() -> None:
    game = game_with(0)
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        game.describe(1, "hello", None, CheckOutcome.NOT_FORMALISED)
    with pytest.raises(IllegalAction, match="empty"):
        game.describe(0, "   ", None, CheckOutcome.NOT_FORMALISED)
    with pytest.raises(IllegalAction, match="one line"):
        game.describe(0, "one\ntwo", None, CheckOutcome.NOT_FORMALISED)
    with pytest.raises(IllegalAction, match="no vote is due"):
        game.vote({})
    agents = agents_voting(lowest_other)
    agents[0] = ScriptedAgent("mute", lambda obs: Description(""), lowest_other)
    with pytest.raises(IllegalAction, match=r"'mute'.*empty"):
        play_undercover(game_with(0), agents, FixedChecker())


def test_same_seed_same_log_and_seeds_vary_the_deal() -> None:
    def run(seed: int) -> list[str]:
        rng = random.Random(seed)
        agents = agents_voting(lambda obs: rng.choice(obs.vote_targets()))
        log = ListLog()
        game = game_with(seed)
        play_undercover(game, agents, FixedChecker(), log)
        return [e.model_dump_json() for e in log.events]

    assert run(11) == run(11)
    deals = {(game_with(s).spy_seat, game_with(s).spy_word) for s in range(60)}
    assert {seat for seat, _ in deals} == set(range(6))
    assert {word for _, word in deals} == set(PAIR.words)
    game = game_with(3)
    assert game.words.count(game.spy_word) == 1
    assert game.words[game.spy_seat] == game.spy_word and game.citizen_word == PAIR.other(
        game.spy_word
    )


def play_logged(tmp_path: Path, seed: int) -> tuple[Path, GameLog[UndercoverEvent]]:
    rng = random.Random(seed)
    agents = agents_voting(lambda obs: rng.choice(obs.vote_targets()))
    path = tmp_path / f"game-{seed}.jsonl"
    with EventLog(path) as log:
        play_undercover(game_with(seed), agents, FixedChecker(CheckOutcome.UNDECIDED), log)
    return path, UNDERCOVER.read_log(path)


def test_replay_from_the_log(tmp_path: Path) -> None:
    _, log = play_logged(tmp_path, 5)
    events = log.events
    assert [e.seq for e in events] == list(range(len(events)))
    game = replay(log.header, events)
    assert game.is_over() and list(game.events) == events[1:]
    end = events[-1]
    assert isinstance(end, GameEnd) and game.result == end.result()
    cut = replay(log.header, events[:4])
    assert not cut.is_over() and list(cut.events) == events[1:4] and cut.current_seat == 3


def test_replay_through_logged_agents_reproduces_the_log(tmp_path: Path) -> None:
    _, logged = play_logged(tmp_path, 8)
    events = logged.events
    assert events[0].type == "game_start"
    agents = [LoggedAgent(logged, seat) for seat in range(6)]
    log = ListLog()
    setup = UndercoverSetup.model_validate(logged.header.config)
    game = UndercoverGame(setup.config, setup.pair, logged.seed)
    play_undercover(game, agents, LoggedChecker(events), log)
    assert log.events == events


def test_replay_detects_a_tampered_log(tmp_path: Path) -> None:
    _, log = play_logged(tmp_path, 5)
    header, events = log.header, log.events
    index = next(i for i, e in enumerate(events) if isinstance(e, VoteEvent))
    vote = events[index]
    assert isinstance(vote, VoteEvent)
    forged = vote.model_copy(
        update={"ballots": tuple(b.model_copy(update={"target": b.voter}) for b in vote.ballots)}
    )
    with pytest.raises(ReplayError, match="illegal") as err:
        replay(header, [*events[:index], forged, *events[index + 1 :]])
    assert err.value.line == index + 2  # the header is line 1
    assert header.seed is not None
    other_seed = header.model_copy(update={"seed": header.seed + 1})
    with pytest.raises(ReplayError, match="<events>:2: logged GameStart"):
        replay(other_seed, events)
    end = events[-1]
    assert isinstance(end, GameEnd)
    wrong_end = end.model_copy(update={"rounds": end.rounds + 1})
    with pytest.raises(ReplayError, match=f"<events>:{len(events) + 1}: logged GameEnd"):
        replay(header, [*events[:-1], wrong_end])


def test_log_reader_names_the_bad_line(tmp_path: Path) -> None:
    path, _ = play_logged(tmp_path, 2)
    lines = path.read_text().splitlines()
    record = json.loads(lines[2])  # after the common header and game_start
    record["outcome"] = "maybe"
    lines[2] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match=r":3: field 'description.outcome'"):
        read_undercover_log(path)
    lines = path.read_text().splitlines()
    del lines[2]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match=r":3: seq 2 where 1 was due"):
        read_undercover_log(path)


def test_bad_settings_name_the_field() -> None:
    for field, value in (("players", 3), ("players", 11), ("tie_limit", 0)):
        with pytest.raises(ValidationError, match=field):
            UndercoverConfig.model_validate({field: value})
    with pytest.raises(ValidationError, match="colour"):
        UndercoverConfig.model_validate({"colour": "red"})
    with pytest.raises(ValueError, match="agents: 5 given for 6 players"):
        play_undercover(game_with(0), agents_voting(lowest_other, n=5), FixedChecker())


def test_builtin_pairs_are_the_ten_of_the_specification() -> None:
    pairs = builtin_pairs()
    assert len(pairs) == 10 and len({p.id for p in pairs}) == 10
    words = {w for p in pairs for w in p.words}
    assert {"Earl Grey Tea", "Ceylon Tea", "Ophiophagus", "Naja", "Saussurella"} <= words


def test_extra_pairs_load_and_join_the_catalogue(tmp_path: Path) -> None:
    path = tmp_path / "pairs.json"
    path.write_text(json.dumps({"pairs": [{"id": "fruit", "words": ["Blueberry", "Strawberry"]}]}))
    assert load_pairs(path) == (WordPair(id="fruit", words=("Blueberry", "Strawberry")),)
    catalogue = pair_catalogue(path)
    assert len(catalogue) == 11 and catalogue["fruit"].other("Blueberry") == "Strawberry"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ({"pairs": [{"id": "x", "words": ["Tea", "tea"]}]}, "field 'pairs.0.words': the two words"),
        ({"pairs": [{"id": "x", "words": ["Tea"]}]}, "field 'pairs.0.words.1'"),
        ({"pairs": [{"id": "Bad Id", "words": ["a", "b"]}]}, "field 'pairs.0.id'"),
        ({"pairs": [{"id": "x", "words": ["a", "b"], "extra": 1}]}, "field 'pairs.0.extra'"),
        (
            {"pairs": [{"id": "x", "words": ["a", "b"]}, {"id": "x", "words": ["c", "d"]}]},
            "field 'pairs.1.id': pair id 'x' is used twice",
        ),
        ({"pairs": []}, "field 'pairs'"),
        ({"pair": []}, "field 'pairs'"),
    ],
)
def test_bad_extra_pairs_name_the_field(tmp_path: Path, content: object, message: str) -> None:
    path = tmp_path / "pairs.json"
    path.write_text(json.dumps(content))
    with pytest.raises(WordPairError, match=message) as err:
        load_pairs(path)
    assert str(path) in str(err.value)


def test_extra_pair_clashing_with_a_shipped_id_and_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "pairs.json"
    path.write_text(json.dumps({"pairs": [{"id": "ethics-morality", "words": ["a", "b"]}]}))
    with pytest.raises(WordPairError, match=r"field 'pairs.0.id'.*already a shipped pair"):
        pair_catalogue(path)
    path.write_text('{"pairs": [\n  {"id": }\n]}')
    with pytest.raises(WordPairError, match=r"pairs.json:2:10: not valid JSON"):
        load_pairs(path)
    with pytest.raises(WordPairError, match=r"missing\.json: no such file"):
        load_pairs(tmp_path / "missing.json")


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(4, 10),
    tie_limit=st.integers(1, 4),
    repeat_rate=st.floats(0, 0.5),
)
def test_random_games_keep_the_rules_and_replay(
    seed: int, players: int, tie_limit: int, repeat_rate: float
) -> None:
    rng = random.Random(seed)

    def describe(obs: Observation) -> Description:
        if obs.descriptions and rng.random() < repeat_rate:
            return Description(rng.choice(obs.descriptions).text.upper())
        return unique(obs)

    def vote(obs: Observation) -> int:
        assert obs.seat in obs.living
        return rng.choice(obs.vote_targets())

    agents = [ScriptedAgent(f"r{i}", describe, vote) for i in range(players)]
    config = UndercoverConfig(players=players, tie_limit=tie_limit)
    game = UndercoverGame(config, PAIR, seed)
    log = ListLog()
    result = play_undercover(game, agents, FixedChecker(), log)
    events = log.events
    living = list(range(players))
    for rnd in range(1, result.rounds + 1):
        speakers = [e.seat for e in of_type(events, DescriptionEvent) if e.round == rnd]
        assert speakers == living
        votes = [e for e in of_type(events, VoteEvent) if e.round == rnd]
        assert len(votes) == 1 and [b.voter for b in votes[0].ballots] == living
        assert all(b.target != b.voter and b.target in living for b in votes[0].ballots)
        out = [e.seat for e in of_type(events, EliminationEvent) if e.round == rnd]
        living = [s for s in living if s not in out]
    assert len(set(result.eliminated)) == len(result.eliminated)
    assert (result.winner is Side.CITIZENS) == (game.spy_seat in result.eliminated)
    if result.reason is EndReason.TWO_PLAYERS_LEFT:
        assert len(living) == 2 and game.spy_seat in living
    if result.reason is EndReason.TIE_LIMIT:
        ties = of_type(events, TieEvent)
        assert ties[-1].consecutive == tie_limit and ties[-1].round == result.rounds
    repeats = [v for v in of_type(events, ViolationEvent) if v.kind is ViolationKind.REPEAT]
    assert result.violations == len(repeats)
    assert list(replay(log.header, events).events) == events[1:]
