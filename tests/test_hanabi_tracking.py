"""Hanabi tracking recall against a standard the speaker can reach, and agreement with the hints.

The reachable standard of a teammate's slot is checked against brute force over the speaker's
possible own hands; trackers that state exactly the standard (from their own observation only)
get recall 1.0 on own and teammate slots, and trackers that state the hint masks get full
HLE-hint agreement, in the audit and in ``bench hanabi``'s row.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchmarks.console.cli import app
from benchmarks.hanabi_bench import (
    COLUMNS,
    HanabiRunConfig,
    HanabiSummary,
    hanabi_id,
    summarise_count,
    table_rows,
)
from benchmarks.runner import MemoryLog
from formalize.hanabi.deck import COLORS, COPIES, NUM_IDENTITIES, NUM_RANKS
from formalize.hanabi.knowledge import hand_knowledge, hint_masks, played_cards, unseen_counts
from formalize.hanabi.tracking import reachable_knowledge
from games.core.log import SeatInfo
from games.core.loop import play
from games.core.runlog import RunDir
from games.hanabi.audit import audit_log, tally, tightest
from games.hanabi.engine import HanabiGame, HanabiObservation
from games.hanabi.entry import ENTRY
from games.hanabi.events import DecisionEvent, HanabiConfig, HanabiMove, SlotClaim
from games.hanabi.knowledge import seat_knowledge
from games.hanabi.symbolic import SymbolicAgent


def _brute_reachable(
    own_hints: Sequence[int], team_hints: Sequence[int], team_hand: Sequence[int], unseen: list[int]
) -> tuple[int, ...]:
    """The union of the teammate's exact knowledge over every own hand the speaker may hold."""
    mine = list(unseen)
    for card in team_hand:
        mine[card] -= 1
    found = [0] * len(team_hints)
    choices = [[c for c in range(NUM_IDENTITIES) if mask >> c & 1] for mask in own_hints]
    for hand in itertools.product(*choices):
        left = list(mine)
        for card in hand:
            left[card] -= 1
        if min(left) < 0:
            continue
        rest = list(unseen)
        for card in hand:
            rest[card] -= 1
        for slot, mask in enumerate(hand_knowledge(team_hints, rest).exact):
            found[slot] |= mask
    return tuple(found)


def _mask(rng: random.Random, card: int, width: int) -> int:
    mask = 1 << card
    for other in rng.sample(range(NUM_IDENTITIES), width):
        mask |= 1 << other
    return mask


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 3), st.integers(1, 4), st.integers(0, 30))
def test_reachable_standard_is_the_union_over_own_hands(
    seed: int, size: int, width: int, shown: int
) -> None:
    rng = random.Random(seed)
    deck = [c for c in range(NUM_IDENTITIES) for _ in range(COPIES[c])]
    rng.shuffle(deck)
    own, team, shared = deck[:size], deck[size : 2 * size], deck[2 * size : 2 * size + shown]
    own_hints = [_mask(rng, c, width) for c in own]
    team_hints = [_mask(rng, c, rng.randint(0, 6)) for c in team]
    unseen = list(unseen_counts(shared))
    got = reachable_knowledge(own_hints, team_hints, team, shared)
    assert got == _brute_reachable(own_hints, team_hints, team, unseen)
    assert all(mask >> card & 1 for mask, card in zip(got, team, strict=True))


def _standard_from(obs: HanabiObservation, seat: int) -> tuple[int, ...]:
    """The reachable standard of ``seat``'s hand, from the speaker's observation alone."""
    if seat == obs.seat:
        return seat_knowledge(obs).exact
    shared = list(obs.discards) + played_cards(obs.fireworks)
    shared += [c for s, hand in enumerate(obs.hands) if s not in (obs.seat, seat) for c in hand]
    own_hints = hint_masks(obs.color_masks[obs.seat], obs.rank_masks[obs.seat])
    team_hints = hint_masks(obs.color_masks[seat], obs.rank_masks[seat])
    return reachable_knowledge(own_hints, team_hints, obs.hands[seat], shared)


def _hints_from(obs: HanabiObservation, seat: int) -> tuple[int, ...]:
    return hint_masks(obs.color_masks[seat], obs.rank_masks[seat])


def _claim(seat: int, slot: int, mask: int) -> SlotClaim:
    hull = tightest(mask)
    cards = [c for c in range(NUM_IDENTITIES) if hull >> c & 1]
    colors = "".join(
        COLORS[k] for k in range(len(COLORS)) if any(c // NUM_RANKS == k for c in cards)
    )
    ranks = "".join(str(r + 1) for r in range(NUM_RANKS) if any(c % NUM_RANKS == r for c in cards))
    return SlotClaim(seat=seat, slot=slot, colors=colors, ranks=ranks)


class StatingAgent:
    """Symbolic moves; every decision states one claim per slot of every hand, the hull of
    ``masks(obs, seat)`` for that seat's slot."""

    name = "tracker"

    def __init__(self, seat: int, masks: Callable[[HanabiObservation, int], Sequence[int]]):
        self.inner = SymbolicAgent(seat)
        self.masks = masks

    def act(self, obs: HanabiObservation) -> HanabiMove:
        claims = tuple(
            _claim(seat, slot, mask)
            for seat in range(obs.players)
            for slot, mask in enumerate(self.masks(obs, seat))
        )
        action = self.inner.act(obs)
        decision = DecisionEvent(
            turn=len(obs.history) + 1,
            seat=obs.seat,
            agent="tracker",
            prompt="",
            response="",
            legal=obs.legal_actions,
            ratings=(),
            chosen=action,
            fallback=False,
            claims=claims,
        )
        return HanabiMove(action, decision)


MaskFn = Callable[[HanabiObservation, int], Sequence[int]]


def _played(path: Path, players: int, seed: int, masks: Callable[[HanabiGame], MaskFn]) -> Path:
    """A game of ``StatingAgent`` seats written to ``path``; ``masks`` is given the real game
    (only a tracker of what no seat could know reads it)."""
    seats = [SeatInfo(name=f"P{i}", agent="tracker") for i in range(players)]
    config = HanabiConfig(players=players)
    state = ENTRY.new_state(config, seed, seats)
    agents = [StatingAgent(s, masks(state.game)) for s in range(players)]
    log = MemoryLog()
    play(state, agents, ENTRY.header(config, seed, seats), log, max_decisions=200)
    path.write_text("".join(line + "\n" for line in log.lines))
    return path


def test_a_perfect_tracker_gets_recall_one_on_own_and_teammate_slots(tmp_path: Path) -> None:
    counts = tally(
        audit_log(ENTRY.read_log(_played(tmp_path / "g.jsonl", 3, 5, lambda _: _standard_from)))
    )
    assert counts.own.claims and counts.teammate.claims and counts.unstated == 0
    assert counts.own.recall == counts.teammate.recall == 1.0
    assert counts.statuses == {"ENTAILED": counts.claims} and counts.true == counts.claims
    assert counts.hle_agreement is not None and counts.hle_agreement < 1.0
    printed = CliRunner().invoke(app, ["audit", "hanabi", str(tmp_path / "g.jsonl"), "--json"])
    assert printed.exit_code == 0, printed.output
    figures = json.loads(printed.output)["figures"]
    assert figures["own_recall"] == figures["teammate_recall"] == 1.0
    assert figures["hle_agreement"] == counts.hle_agreement


def _teammates_view(game: HanabiGame) -> MaskFn:
    """Each teammate's own exact knowledge, read from the real game (the speaker's hidden cards
    included), which is the old, unreachable target."""

    def masks(obs: HanabiObservation, seat: int) -> tuple[int, ...]:
        return seat_knowledge(game.observation(seat)).exact

    return masks


def test_stating_the_teammates_own_knowledge_is_not_what_the_speaker_can_know(
    tmp_path: Path,
) -> None:
    path = _played(tmp_path / "g.jsonl", 2, 8, _teammates_view)
    counts = tally(audit_log(ENTRY.read_log(path)))
    assert counts.own.recall == 1.0 and counts.statuses == {"ENTAILED": counts.claims}
    assert counts.teammate.recall is not None and counts.teammate.recall < 1.0


def test_a_tracker_stating_the_hint_masks_agrees_with_the_hints_fully(tmp_path: Path) -> None:
    counts = tally(
        audit_log(ENTRY.read_log(_played(tmp_path / "g.jsonl", 2, 3, lambda _: _hints_from)))
    )
    assert counts.hle_agreement == 1.0 and counts.hinted == counts.claims
    assert counts.statuses == {"ENTAILED": counts.claims}
    assert counts.own.recall is not None and counts.own.recall < 1.0


def test_bench_row_reports_own_teammate_recall_and_hint_agreement(tmp_path: Path) -> None:
    config = HanabiRunConfig(players=(2,), seeds=(0, 1), agents="tracker")
    rundir = RunDir(tmp_path / "run", config)
    for seed in config.seeds:
        _played(rundir.log_path(hanabi_id(2, seed)), 2, seed, lambda _: _standard_from)
    row = summarise_count(rundir, 2)
    assert row.own_recall == row.teammate_recall == 1.0
    assert row.hle_agreement is not None and 0.0 < row.hle_agreement < 1.0
    summary = HanabiSummary(config=config, rows=(row,), play_wall_s=0.0, play_cpu_s=0.0)
    cells = table_rows(summary)[0]
    assert {"own_recall", "teammate_recall", "hle_agreement"} <= set(COLUMNS)
    assert cells["own_recall"] == cells["teammate_recall"] == "1.000"


def test_bench_row_from_the_audit_records_matches_the_games_own_counts(tmp_path: Path) -> None:
    """The bench reads each log's audit record; own and teammate recall differ here, so a row
    that mixed them up would show it."""
    config = HanabiRunConfig(players=(2,), seeds=(8,), agents="tracker")
    rundir = RunDir(tmp_path / "run", config)
    path = _played(rundir.log_path(hanabi_id(2, 8)), 2, 8, _teammates_view)
    counts = tally(audit_log(ENTRY.read_log(path)))
    row = summarise_count(rundir, 2)
    assert row is not None and row.claims == counts.claims
    assert row.own_recall == counts.own.recall == 1.0
    assert row.teammate_recall == counts.teammate.recall
    assert row.teammate_recall is not None and row.teammate_recall < 1.0
    assert row.hle_agreement == counts.hle_agreement
    assert row.tracking_accuracy == counts.true / counts.claims
