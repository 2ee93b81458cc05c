"""The Clue engine: deal, refutation, privacy, elimination, round limit and ranks, logs, replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from games.clue import (
    AccusationEvent,
    Accuse,
    Agent,
    Card,
    ClueAction,
    ClueConfig,
    ClueEvent,
    ClueGame,
    ClueObservation,
    Deduction,
    DeductionEvent,
    GameEnd,
    GameStart,
    HandEvent,
    IllegalAction,
    LogError,
    NoRefutationEvent,
    PassEvent,
    Phase,
    RefuteEvent,
    ReplayError,
    Show,
    Suggest,
    SuggestionEvent,
    Triple,
    TurnStart,
    random_agent,
    read_clue_log,
    replay,
)
from games.clue.entry import ENTRY as CLUE
from games.core.replay import replay as replay_log
from games.core.runlog import EventLog
from tests.support.played import play_clue

SMALL = ClueConfig(
    players=3,
    suspects=("Scarlet", "Plum"),
    weapons=("Rope", "Knife"),
    rooms=("Hall", "Study", "Lounge"),
)
FAST = settings(max_examples=25, deadline=None)


class FuncAgent:
    """Answers with a function of the observation."""

    def __init__(self, func: Callable[[ClueObservation], ClueAction], name: str = "func") -> None:
        self.func = func
        self.name = name

    def act(self, obs: ClueObservation) -> ClueAction:
        return self.func(obs)


def suggest(t: Triple, deductions: tuple[Deduction, ...] = ()) -> Suggest:
    return Suggest(suspect=t.suspect, weapon=t.weapon, room=t.room, deductions=deductions)


def accuse(t: Triple) -> Accuse:
    return Accuse(suspect=t.suspect, weapon=t.weapon, room=t.room)


def with_card_in(triple: Triple, card: Card) -> Triple:
    """``triple`` with ``card`` in its category's place."""
    return Triple(
        card.name if card.category == "suspect" else triple.suspect,
        card.name if card.category == "weapon" else triple.weapon,
        card.name if card.category == "room" else triple.room,
    )


def with_card(game: ClueGame, card: Card) -> Triple:
    """The envelope with ``card`` in place of the envelope card of its category."""
    return with_card_in(game.envelope, card)


def wrong_triple(game: ClueGame) -> Triple:
    """A triple that is not the envelope, with two of the three envelope cards right."""
    return with_card(game, game.hands[0][0])


def new_events(game: ClueGame, since: int) -> list[ClueEvent]:
    return list(game.events[since:])


def play_random(config: ClueConfig, seed: int, path: Path | None = None) -> ClueGame:
    game = ClueGame(config, seed)
    agents = [random_agent(seed * 10 + seat) for seat in range(config.players)]
    if path is None:
        play_clue(game, agents)
    else:
        with EventLog(path) as log:
            play_clue(game, agents, log)
    return game


# --- deal -------------------------------------------------------------------------------------


EXPECTED_SIZES = {3: (6, 6, 6), 4: (5, 5, 4, 4), 5: (4, 4, 4, 3, 3), 6: (3, 3, 3, 3, 3, 3)}


@FAST
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_deal_sizes_and_partition(n: int, seed: int) -> None:
    config = ClueConfig(players=n)
    game = ClueGame(config, seed)
    assert tuple(len(h) for h in game.hands) == EXPECTED_SIZES[n] == config.hand_sizes()
    env = set(game.deck.triple_cards(game.envelope))
    dealt = [c for hand in game.hands for c in hand]
    assert len(dealt) == len(set(dealt)) == 18
    assert set(dealt) | env == set(game.deck.cards)
    assert not set(dealt) & env
    assert [c.category for c in game.deck.triple_cards(game.envelope)] == [
        "suspect",
        "weapon",
        "room",
    ]


def test_deal_is_fixed_by_seed() -> None:
    config = ClueConfig()
    assert ClueGame(config, 5).deal == ClueGame(config, 5).deal
    assert len({ClueGame(config, s).deal.model_dump_json() for s in range(5)}) == 5


def test_small_deck_hand_sizes_are_public() -> None:
    game = ClueGame(SMALL, 1)
    assert tuple(len(h) for h in game.hands) == (2, 1, 1)
    for seat in range(3):
        assert game.observation(seat).hand_sizes == (2, 1, 1)
        assert game.observation(seat).hand == game.hands[seat]


# --- settings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings_", "field"),
    [
        ({"players": 2}, "players"),
        ({"players": 7}, "players"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"suspects": ()}, "suspects"),
        ({"weapons": ("Rope", "Rope")}, "weapons"),
        ({"rooms": ("Hall", " ")}, "rooms"),
        ({"rooms": ("Hall", "Rope")}, "rooms"),
        ({"players": 3, "first_player": 3}, "first_player"),
        ({"n_players": 3}, "n_players"),
    ],
)
def test_bad_settings_name_the_field(settings_: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        ClueConfig.model_validate(settings_)


# --- refutation -------------------------------------------------------------------------------


@FAST
@given(
    n=st.integers(3, 6),
    seed=st.integers(0, 10_000),
    first=st.integers(0, 5),
    picks=st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 8)),
    choice=st.integers(0, 2),
)
def test_refutation_goes_to_first_holder_after_suggester(
    n: int, seed: int, first: int, picks: tuple[int, int, int], choice: int
) -> None:
    config = ClueConfig(players=n, first_player=first % n)
    game = ClueGame(config, seed)
    suggester = config.first_player
    triple = Triple(config.suspects[picks[0]], config.weapons[picks[1]], config.rooms[picks[2]])
    cards = set(game.deck.triple_cards(triple))
    order = [(suggester + k) % n for k in range(1, n)]
    holders = [seat for seat in order if cards & set(game.hands[seat])]
    start = len(game.events)
    game.apply(suggest(triple))
    events = new_events(game, start)
    assert isinstance(events[0], SuggestionEvent)
    passes = [e.seat for e in events if isinstance(e, PassEvent)]
    if not holders:
        assert passes == order
        assert isinstance(events[-2], NoRefutationEvent)
        assert isinstance(events[-1], TurnStart)
        return
    refuter = holders[0]
    assert passes == order[: order.index(refuter)]
    assert game.phase is Phase.REFUTE and game.current_player == refuter
    matching = game.observation(refuter).matching
    assert set(matching) == cards & set(game.hands[refuter])
    assert game.legal_actions() == [Show(card=c) for c in matching]
    shown = matching[choice % len(matching)]
    start = len(game.events)
    game.apply(Show(card=shown))
    refute, turn = new_events(game, start)
    assert isinstance(refute, RefuteEvent)
    assert (refute.refuter_seat, refute.suggester_seat, refute.card) == (refuter, suggester, shown)
    assert isinstance(turn, TurnStart) and turn.seat == (suggester + 1) % n


def test_refutation_passes_then_first_holder_in_standard_game() -> None:
    game = ClueGame(ClueConfig(), 3)
    third = next(c for c in game.hands[3])
    fifth = next(c for c in game.hands[5] if c.category != third.category)
    game.apply(suggest(with_card_in(with_card(game, third), fifth)))
    kinds = [(type(e).__name__, getattr(e, "seat", None)) for e in game.events[1:]]
    assert kinds == [
        ("SuggestionEvent", 0),
        ("PassEvent", 1),
        ("PassEvent", 2),
    ]
    assert game.current_player == 3


def test_shown_card_is_seen_only_by_suggester_and_refuter() -> None:
    game = ClueGame(ClueConfig(), 11)
    card = game.hands[2][0]
    game.apply(suggest(with_card(game, card)))
    assert game.current_player == 2  # only seat 2 holds a card of this suggestion
    refuter = 2
    game.apply(Show(card=card))
    logged = [e for e in game.events if isinstance(e, RefuteEvent)]
    assert len(logged) == 1 and logged[0].card is not None
    for seat in range(6):
        obs = game.observation(seat)
        (seen,) = [e for e in obs.history if isinstance(e, RefuteEvent)]
        assert seen.refuter_seat == refuter
        if seat in (0, refuter):
            assert seen.card == logged[0].card
        else:
            assert seen.card is None
        assert [s.card for s in obs.shown] == ([logged[0].card] if seat == 0 else [])


def test_observation_hides_other_players_deductions_and_accuracy() -> None:
    game = ClueGame(SMALL, 4)
    deduction = Deduction(kind="in_envelope", card=game.deck.card(game.envelope.room))
    game.apply(accuse(wrong_triple(game)).model_copy(update={"deductions": (deduction,)}))
    mine = game.observation(0).history
    theirs = game.observation(1).history
    assert any(isinstance(e, DeductionEvent) for e in mine)
    assert not any(isinstance(e, DeductionEvent) for e in theirs)
    (own,) = [e for e in mine if isinstance(e, AccusationEvent)]
    (other,) = [e for e in theirs if isinstance(e, AccusationEvent)]
    assert own.accuracy == 2 and other.accuracy is None
    assert other.correct is False and other.eliminated is True


# --- accusations, elimination, round limit ----------------------------------------------------


def test_wrong_accusation_eliminates_and_game_goes_on() -> None:
    game = ClueGame(SMALL, 2)
    start = len(game.events)
    game.apply(accuse(wrong_triple(game)))
    acc, turn = new_events(game, start)
    assert isinstance(acc, AccusationEvent)
    assert (acc.correct, acc.eliminated, acc.accuracy, acc.final) == (False, True, 2, False)
    assert game.eliminated == [True, False, False]
    assert not game.is_terminal()
    assert isinstance(turn, TurnStart) and turn.seat == 1
    assert game.observation(2).eliminated == (True, False, False)


def test_eliminated_player_refutes_but_takes_no_turn() -> None:
    game = ClueGame(SMALL, 2)
    game.apply(suggest(game.envelope))  # seat 0: nobody can refute the envelope
    game.apply(accuse(wrong_triple(game)))  # seat 1 is eliminated
    assert game.current_player == 2
    card = game.hands[1][0]
    game.apply(suggest(with_card(game, card)))  # seat 0 passes, eliminated seat 1 refutes
    assert game.phase is Phase.REFUTE and game.current_player == 1
    last = game.events[-1]
    assert isinstance(last, PassEvent) and last.seat == 0
    game.apply(Show(card=card))
    turns: list[int] = []
    while not game.is_terminal():
        seat = game.current_player
        assert seat is not None
        obs = game.observation(seat)
        if obs.phase is Phase.TURN:
            turns.append(seat)
        game.apply(random_agent(seat).choose(obs, obs.legal_actions()))
    assert turns and 1 not in turns
    finals = [e.seat for e in game.events if isinstance(e, TurnStart) and e.final]
    assert finals == [0, 2]


def test_right_accusation_wins_and_ends() -> None:
    game = ClueGame(ClueConfig(players=4, first_player=2), 8)
    game.apply(suggest(game.envelope))
    assert game.current_player == 3
    game.apply(accuse(game.envelope))
    assert game.is_terminal() and game.phase is Phase.OVER
    assert game.current_player is None and game.legal_actions() == []
    end = game.events[-1]
    assert isinstance(end, GameEnd)
    result = game.result()
    assert result.outcome() == end.outcome()
    assert (result.winner, result.reason, result.rounds) == (3, "correct_accusation", 1)
    assert result.ranks[3] == 1
    assert result.accuracy == (None, None, None, 3)
    assert game.returns() == [0.0, 0.0, 0.0, 1.0]
    with pytest.raises(IllegalAction, match="over"):
        game.apply(accuse(game.envelope))


def test_all_eliminated_ends_without_winner() -> None:
    game = ClueGame(SMALL, 6)
    for _ in range(3):
        game.apply(accuse(wrong_triple(game)))
    result = game.result()
    assert (result.winner, result.reason) == (None, "all_eliminated")
    assert result.ranks == (1, 2, 3)  # equal accuracy and round: earlier accusation first


def test_round_limit_then_final_accusations_for_six_random_players() -> None:
    game = play_random(ClueConfig(), 21)
    turns = [e for e in game.events if isinstance(e, TurnStart)]
    regular = [e for e in turns if not e.final]
    finals = [e for e in turns if e.final]
    assert len(regular) == 30 * 6
    assert [e.seat for e in regular[:7]] == [0, 1, 2, 3, 4, 5, 0]
    assert max(e.round for e in regular) == 30
    assert [e.seat for e in finals] == [0, 1, 2, 3, 4, 5]
    assert all(e.round == 31 for e in finals)
    accusations = [e for e in game.events if isinstance(e, AccusationEvent)]
    assert len(accusations) == 6 and all(a.final for a in accusations)
    result = game.result()
    assert result.reason == "round_limit" and result.rounds == 30
    assert sorted(result.ranks) == [1, 2, 3, 4, 5, 6]
    by_rank = sorted(range(6), key=lambda s: result.ranks[s])
    keys = [(not accusations[s].correct, -(result.accuracy[s] or 0), s) for s in by_rank]
    assert keys == sorted(keys)


def test_ranks_follow_correctness_then_accuracy_then_earlier_round() -> None:
    config = ClueConfig.model_validate({**SMALL.model_dump(), "max_rounds": 2})
    game = ClueGame(config, 9)
    two_right = wrong_triple(game)
    game.apply(accuse(two_right))  # round 1: seat 0 out with accuracy 2
    game.apply(suggest(game.envelope))  # seat 1
    game.apply(suggest(game.envelope))  # seat 2
    game.apply(suggest(game.envelope))  # round 2, seat 1
    game.apply(suggest(game.envelope))  # seat 2
    assert game.phase is Phase.FINAL_ACCUSATION and game.current_player == 1
    assert len(game.legal_actions()) == 2 * 2 * 3
    with pytest.raises(IllegalAction, match="Accuse"):
        game.apply(suggest(game.envelope))
    game.apply(accuse(two_right))  # seat 1: accuracy 2, in the final round
    game.apply(accuse(game.envelope))  # seat 2: right
    result = game.result()
    assert result.winner == 2 and result.reason == "round_limit"
    assert result.ranks == (2, 3, 1)
    assert result.accuracy == (2, 2, 3)
    finals = [e for e in game.events if isinstance(e, AccusationEvent) and e.final]
    assert [(e.seat, e.eliminated) for e in finals] == [(1, False), (2, False)]


def test_first_right_final_accusation_wins() -> None:
    config = ClueConfig.model_validate({**SMALL.model_dump(), "max_rounds": 1, "first_player": 1})
    game = ClueGame(config, 5)
    for _ in range(3):
        game.apply(suggest(game.envelope))
    assert game.phase is Phase.FINAL_ACCUSATION
    finals = [game.current_player]
    game.apply(accuse(wrong_triple(game)))
    finals.append(game.current_player)
    game.apply(accuse(game.envelope))
    finals.append(game.current_player)
    game.apply(accuse(game.envelope))
    assert finals == [1, 2, 0]
    result = game.result()
    assert (result.winner, result.reason) == (2, "round_limit")
    assert result.ranks == (2, 3, 1)
    assert game.returns() == [0.0, 0.0, 1.0]


def test_legal_actions_by_phase() -> None:
    game = ClueGame(ClueConfig(), 1)
    actions = game.legal_actions()
    assert len(actions) == 2 * 6 * 6 * 9
    assert sum(isinstance(a, Accuse) for a in actions) == 6 * 6 * 9
    assert game.observation(0).legal_actions() == actions
    assert game.observation(1).legal_actions() == []


# --- illegal actions --------------------------------------------------------------------------


def test_illegal_actions_are_refused_with_the_reason() -> None:
    game = ClueGame(SMALL, 3)
    env = game.envelope
    with pytest.raises(IllegalAction, match="Suggest or Accuse"):
        game.apply(Show(card=game.hands[0][0]))
    with pytest.raises(IllegalAction, match="unknown card 'Mustard'"):
        game.apply(Suggest(suspect="Mustard", weapon=env.weapon, room=env.room))
    with pytest.raises(IllegalAction, match="is a weapon, not a suspect"):
        game.apply(Suggest(suspect="Rope", weapon=env.weapon, room=env.room))
    bad_card = Deduction(kind="in_envelope", card=Card("room", "Kitchen"))
    with pytest.raises(IllegalAction, match="Kitchen"):
        game.apply(suggest(env, (bad_card,)))
    bad_seat = Deduction(kind="holds", card=game.hands[0][0], player=3)
    with pytest.raises(IllegalAction, match="player 3"):
        game.apply(suggest(env, (bad_seat,)))
    assert game.actions == [] and len(game.events) == 1
    holder_card = game.hands[1][0]
    game.apply(suggest(with_card(game, holder_card)))
    assert game.current_player == 1
    not_matching = next(c for c in game.deck.cards if c != holder_card)
    with pytest.raises(IllegalAction, match="cannot refute"):
        game.apply(Show(card=not_matching))


def test_deduction_needs_player_exactly_for_holding_kinds() -> None:
    card = Card("weapon", "Rope")
    with pytest.raises(ValidationError, match="player"):
        Deduction(kind="holds", card=card)
    with pytest.raises(ValidationError, match="player"):
        Deduction(kind="in_envelope", card=card, player=1)
    with pytest.raises(ValueError, match="category"):
        Card("tool", "Rope")  # type: ignore[arg-type]


def test_play_game_names_agent_that_acts_illegally() -> None:
    game = ClueGame(SMALL, 3)
    bad = FuncAgent(lambda obs: Suggest(suspect="Nobody", weapon="Rope", room="Hall"), "badbot")
    agents: list[Agent] = [random_agent(0), bad, random_agent(2)]
    with pytest.raises(IllegalAction, match=r"agent 'badbot' at seat 1 .*Nobody"):
        play_clue(game, agents)
    with pytest.raises(ValueError, match="agents"):
        play_clue(ClueGame(SMALL, 3), agents[:2])


def test_play_game_needs_fresh_game() -> None:
    game = ClueGame(SMALL, 3)
    game.apply(suggest(game.envelope))
    with pytest.raises(ValueError, match="fresh"):
        play_clue(game, [random_agent(s) for s in range(3)])


def test_random_agent_accuses_only_at_the_end_and_never_its_own_cards() -> None:
    for seed in range(5):
        game = play_random(SMALL, seed)
        accusations = [e for e in game.events if isinstance(e, AccusationEvent)]
        assert accusations and all(a.final for a in accusations)
        for a in accusations:
            own = {c.name for c in game.hands[a.seat]}
            assert not own & {a.suspect, a.weapon, a.room}


# --- logs, determinism, replay ----------------------------------------------------------------


def test_same_seed_gives_the_same_log(tmp_path: Path) -> None:
    play_random(ClueConfig(players=4), 5, tmp_path / "a.jsonl")
    play_random(ClueConfig(players=4), 5, tmp_path / "b.jsonl")
    play_random(ClueConfig(players=4), 6, tmp_path / "c.jsonl")
    a = (tmp_path / "a.jsonl").read_text()
    assert a == (tmp_path / "b.jsonl").read_text()
    assert a != (tmp_path / "c.jsonl").read_text()


def test_game_replays_exactly_from_its_log(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    config = ClueConfig(players=5, max_rounds=6, first_player=2)
    game = ClueGame(config, 13)
    tell = Deduction(kind="not_in_envelope", card=game.hands[0][0])

    def with_deductions(obs: ClueObservation) -> ClueAction:
        action = random_agent(obs.turn).choose(obs, obs.legal_actions())
        return action.model_copy(update={"deductions": (tell,)}) if obs.player == 0 else action

    agents = [FuncAgent(with_deductions, "teller")] + [random_agent(s) for s in range(1, 5)]
    with EventLog(path) as log:
        result = play_clue(game, agents, log)
    log = CLUE.read_log(path)
    events = log.events
    assert isinstance(events[0], GameStart) and events[0].deal == game.deal
    assert log.header.seats[0].agent == "teller"
    assert any(isinstance(e, DeductionEvent) for e in events)
    again = replay(log.header, events)
    assert list(again.events) == events[1:] == list(game.events)
    assert again.result() == result
    cut = replay(log.header, events[: len(events) // 2])
    assert not cut.is_terminal()
    assert list(cut.events[: len(events) // 2 - 1]) == events[1 : len(events) // 2]


def test_replay_names_the_line_where_log_and_engine_differ(tmp_path: Path) -> None:
    game = play_random(SMALL, 4, tmp_path / "g.jsonl")
    log = CLUE.read_log(tmp_path / "g.jsonl")
    header, events = log.header, log.events
    index = next(i for i, e in enumerate(events) if isinstance(e, PassEvent))
    passed = events[index]
    assert isinstance(passed, PassEvent)
    moved = passed.model_copy(update={"seat": 2 - passed.seat})
    with pytest.raises(ReplayError, match=f"<events>:{index + 2}: logged PassEvent") as info:
        replay(header, [*events[:index], moved, *events[index + 1 :]])
    assert info.value.line == index + 2
    start = events[0]
    assert isinstance(start, GameStart) and header.seed is not None
    other = header.model_copy(update={"seed": header.seed + 1})
    with pytest.raises(ReplayError, match="<events>:2: the logged deal"):
        replay(other, events)
    with pytest.raises(ReplayError, match="deal"):
        replay(header, [start.model_copy(update={"deal": None}), *events[1:]])
    assert game.is_terminal()


def test_log_validation_errors_carry_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    play_random(SMALL, 1, path)
    lines = path.read_text().splitlines()
    assert len(read_clue_log(path)) == len(lines) - 2  # the common header and end events
    broken = lines.copy()
    broken[3] = broken[3].replace('"type":"suggestion"', '"type":"shrug"')
    path.write_text("\n".join(broken) + "\n")
    with pytest.raises(LogError, match=r"g\.jsonl:4: .*'shrug'") as info:
        read_clue_log(path)
    assert info.value.line == 4
    missing = lines.copy()
    missing[5] = missing[5].replace('"seq":', '"sequence":')
    path.write_text("\n".join(missing) + "\n")
    with pytest.raises(LogError, match=r":6: .*seq") as info:
        read_clue_log(path)
    assert info.value.line == 6
    path.write_text("\n".join([lines[0], lines[1], lines[3], lines[2]]) + "\n")
    with pytest.raises(LogError, match=":4: seq 1 does not follow seq 2"):
        read_clue_log(path)
    path.write_text(lines[0] + "\n{not json\n")
    with pytest.raises(LogError, match=":2: "):
        read_clue_log(path)


def test_foreign_log_without_deal_with_one_hand_and_hidden_cards(tmp_path: Path) -> None:
    lines = [
        GameStart(seq=0, round=0, turn=0, hand_sizes=(2, 1, 1)),
        HandEvent(seq=1, round=0, turn=0, seat=1, cards=(Card("room", "Hall"),)),
        TurnStart(seq=2, round=1, turn=1, seat=0),
        SuggestionEvent(seq=3, round=1, turn=1, seat=0, suspect="Plum", weapon="Rope", room="Hall"),
        RefuteEvent(seq=4, round=1, turn=1, refuter_seat=1, suggester_seat=0),
    ]
    seats = [{"name": n, "agent": "llm"} for n in "ABC"]
    header = {"type": "header", "schema_version": 3, "game": "clue", "seed": None}
    header |= {"config": SMALL.model_dump(mode="json"), "seats": seats}
    path = tmp_path / "foreign.jsonl"
    body = [e.model_dump_json() for e in lines]
    path.write_text("".join(line + "\n" for line in [json.dumps(header), *body]))
    log = CLUE.read_log(path)
    assert log.events == lines and log.header.seed is None
    first = log.events[0]
    assert isinstance(first, GameStart) and first.deal is None
    with pytest.raises(ReplayError, match=":1: the header gives no seed"):
        replay_log(CLUE, log)
    start = {**json.loads(body[0]), "hand_sizes": [4]}
    path.write_text("".join(line + "\n" for line in [json.dumps(header), json.dumps(start)]))
    with pytest.raises(LogError, match=":2: hand_sizes: 1 listed for 3 seats"):
        CLUE.read_log(path)
