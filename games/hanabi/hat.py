"""The ``hat`` agent: the information (hat-guessing) strategy for Hanabi.

Sources: Cox, Fisher, Chen et al., "How to Make the Perfect Fireworks Display: Two Strategies for
Hanabi" (Mathematics Magazine, 2015) introduced hat guessing for Hanabi; Jeff Wu's hanabi.rs
("information" strategy) turned it into a question-and-answer protocol, published at 24.79 /
24.94 / 24.92 points for 3 / 4 / 5 players. This is gumshoe's own implementation of that idea.

Conventions and why they work:

- Public knowledge. Every seat keeps, for every hand, a table of what each card could be, with
  weights (copies not yet played or discarded). Every update below is computed from what all
  seats see or can infer, so all seats hold the same tables.
- A hint's choice is the message, not its content. The hinter chooses among ``N`` hints (three or
  four per teammate: a rank or colour hint touching that teammate's "focus" card, or one not
  touching it), so the choice carries a number mod ``N``. The number is the sum mod ``N`` of one
  answer per teammate, each answer computed from that teammate's cards, which the hinter sees.
  Every teammate sees every hand but its own, subtracts the answers it can compute, and is left
  with its own answer: one hint informs every seat at once (the hat puzzle).
- The questions asked about a hand follow its public table: while no card of the hand is known to
  be playable, "which is the first of these cards that is playable (or, next, dead)?"; then
  "is this card playable?" when the odds are near 0.7; else a partition of one card's remaining
  identities into as many blocks as the information allows. Answers shrink the tables, and
  questions keep being asked while information is left.
- Plays: a card certainly playable is played (lower ranks and cards nobody else holds first). A
  card certainly playable or dead is risked at over 75% while two lives are left and few cards
  are discarded: the information is then worth more than the life.
- Hint or discard: hint when a teammate holds a playable card it does not know of; otherwise
  discard a card known to be useless while the discard budget lasts; otherwise hint while a
  teammate can play or more than four tokens are left. A discard with tokens left tells everyone
  that no teammate needed a hint, so every hand without a known play holds no playable card.
- Discards: several publicly useless cards let the choice of which to discard carry a hat
  number too; else a useless card; else the card most likely seen elsewhere, dispensable and of
  high rank.

HLE forbids discarding with all eight tokens: there the agent hints, which the protocol allows
(the reason to hint is never decoded). When a partner does not follow the protocol and a table
loses every identity, that table restarts from the copies not yet seen in public.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from formalize.hanabi.deck import COPIES, NUM_COLORS, NUM_IDENTITIES, NUM_RANKS
from games.hanabi.config import Scoring
from games.hanabi.engine import MAX_LIVES, MAX_TOKENS, HanabiObservation, Turn
from games.hanabi.moves import Move, move_table

Table = dict[int, int]
"""What one card could be: identity -> weight (copies not yet public); absent means impossible."""

RISKY_PLAY_ODDS = 0.75
"""A card certainly playable or dead is played when at least this likely playable."""
DISCARD_RISK = 0.2
"""Hint rather than discard when the safest discard is this likely the last copy of a needed
card (a gumshoe addition: worth about 0.2 points at 2 players over 200 seeds)."""
ASK_PLAY_CENTRE = 0.7
ASK_PLAY_WIDTH = 0.2
"""Ask "is this card playable?" of a card whose odds are within the width of the centre."""


@dataclass(frozen=True, slots=True)
class Board:
    """The public table state a decision or an inference is made in."""

    fireworks: tuple[int, ...]
    discarded: tuple[int, ...]
    discards: int
    tokens: int
    lives: int
    deck_size: int
    playable: tuple[bool, ...]
    dead: tuple[bool, ...]
    dispensable: tuple[bool, ...]


def make_board(
    fireworks: Sequence[int], discarded: Sequence[int], tokens: int, lives: int, deck: int
) -> Board:
    """A board with its per-identity predicates computed once."""
    played, lost = tuple(fireworks), tuple(discarded)
    playable, dead, dispensable = _predicates(played, lost)
    return Board(played, lost, sum(lost), tokens, lives, deck, playable, dead, dispensable)


@lru_cache(maxsize=4096)
def _predicates(
    fireworks: tuple[int, ...], discarded: tuple[int, ...]
) -> tuple[tuple[bool, ...], tuple[bool, ...], tuple[bool, ...]]:
    playable: list[bool] = []
    dead: list[bool] = []
    for color in range(NUM_COLORS):
        base = color * NUM_RANKS
        height = fireworks[color]
        reach = height
        while reach < NUM_RANKS and discarded[base + reach] < COPIES[base + reach]:
            reach += 1
        playable += [rank == height for rank in range(NUM_RANKS)]
        dead += [rank < height or rank > reach for rank in range(NUM_RANKS)]
    dispensable = tuple(
        dead[card] or discarded[card] < COPIES[card] - 1 for card in range(NUM_IDENTITIES)
    )
    return tuple(playable), tuple(dead), dispensable


def _odds(table: Table, flags: tuple[bool, ...]) -> float:
    total = 0
    hits = 0
    for card, weight in table.items():
        total += weight
        if flags[card]:
            hits += weight
    return hits / total if total else 0.0


def _odds_pair(
    table: Table, first: tuple[bool, ...], second: tuple[bool, ...]
) -> tuple[float, float]:
    """``_odds`` of two predicates in one pass over the table."""
    total = hits = others = 0
    for card, weight in table.items():
        total += weight
        if first[card]:
            hits += weight
        if second[card]:
            others += weight
    return (hits / total, others / total) if total else (0.0, 0.0)


COLOR_BIT = tuple(1 << (card // NUM_RANKS) for card in range(NUM_IDENTITIES))
RANK_BIT = tuple(1 << (card % NUM_RANKS) for card in range(NUM_IDENTITIES))
"""Each identity's colour and rank as one bit, so a table's colours and ranks are bit masks."""


def _masks(table: Table) -> tuple[int, int]:
    """The colours and the ranks a table still allows, as bit masks."""
    colors = ranks = 0
    for card in table:
        colors |= COLOR_BIT[card]
        ranks |= RANK_BIT[card]
    return colors, ranks


def _take(table: Table, card: int) -> None:
    """One copy of ``card`` is accounted for elsewhere: its weight drops by one."""
    weight = table.get(card)
    if weight is not None:
        if weight > 1:
            table[card] = weight - 1
        else:
            del table[card]


def _keep(table: Table, flags: tuple[bool, ...], value: bool) -> None:
    for card in [c for c in table if flags[c] != value]:
        del table[card]


@dataclass(frozen=True, slots=True)
class _Question:
    """Either a chain of yes/no questions about cards ("which is the first yes?", answer 0 for
    none) or, with ``blocks``, which block of a card's identity partition holds it."""

    chain: tuple[tuple[int, bool], ...] = ()
    index: int = -1
    blocks: tuple[tuple[int, int], ...] = ()
    size: int = 2

    def answer(self, hand: Sequence[int], board: Board) -> int:
        """This question's answer for the hand's actual cards."""
        if self.blocks:
            return dict(self.blocks).get(hand[self.index], 0)
        for position, (slot, dead) in enumerate(self.chain):
            flags = board.dead if dead else board.playable
            if flags[hand[slot]]:
                return position + 1
        return 0

    def learn(self, answer: int, tables: list[Table], board: Board) -> None:
        """Narrow the hand's tables to the answer."""
        if self.blocks:
            table = tables[self.index]
            block = dict(self.blocks)
            for card in [c for c in table if block.get(c) != answer]:
                del table[card]
            return
        for position, (slot, dead) in enumerate(self.chain):
            flags = board.dead if dead else board.playable
            if position + 1 == answer:
                _keep(tables[slot], flags, True)
                return
            _keep(tables[slot], flags, False)


def _partition(index: int, limit: int, table: Table, board: Board) -> _Question:
    has_dead = any(board.dead[c] for c in table)
    width = limit - 1 if has_dead else limit
    blocks: list[tuple[int, int]] = []
    block = count = 0
    for card in sorted(table):
        if not board.dead[card]:
            blocks.append((card, block))
            block = (block + 1) % width
            count = min(count + 1, width)
    if has_dead:
        blocks += [(card, count) for card in sorted(table) if board.dead[card]]
        count += 1
    return _Question(index=index, blocks=tuple(blocks), size=count)


def _ask(tables: list[Table], limit: int, board: Board) -> _Question | None:
    """The next question about a hand with these public tables, given ``limit`` answers."""
    odds = [(i, *_odds_pair(t, board.playable, board.dead)) for i, t in enumerate(tables)]
    knows_play = any(p == 1.0 for _, p, _ in odds)
    knows_dead = any(d == 1.0 for _, _, d in odds)
    open_cards = [(i, p, d) for i, p, d in odds if d != 1.0 and len(tables[i]) > 1]
    if not knows_play:
        asks = [(False, i, p) for i, p, _ in open_cards if p != 0.0]
        if not knows_dead:
            asks += [(True, i, d) for i, _, d in open_cards if d != 0.0]
        if len(asks) > limit - 1:
            asks.sort(key=lambda a: (a[0], -a[2]))
            asks = asks[: limit - 1]
        asks.sort(key=lambda a: (a[0], a[2]))
        if asks:
            return _Question(chain=tuple((i, dead) for dead, i, _ in asks), size=len(asks) + 1)
    near = [(abs(p - ASK_PLAY_CENTRE), i) for i, p, _ in open_cards]
    near = [n for n in near if n[0] < ASK_PLAY_WIDTH]
    if near:
        return _Question(chain=((min(near)[1], False),))
    if not open_cards:
        return None
    index = min(open_cards, key=lambda o: (o[2], o[0]))[0]
    return _partition(index, limit, tables[index], board)


def _hat_answer(tables: list[Table], hand: Sequence[int], modulus: int, board: Board) -> int:
    """The hand's answer mod ``modulus``; the tables learn it."""
    size, value = 1, 0
    while True:
        left = (modulus - value - 1) // size + 1
        if left <= 1:
            return value
        question = _ask(tables, left, board)
        if question is None:
            return value
        answer = question.answer(hand, board)
        question.learn(answer, tables, board)
        value += size * answer
        size = min(modulus, size * question.size)


def _hat_learn(tables: list[Table], modulus: int, value: int, board: Board) -> None:
    """Narrow a hand's tables to the answer ``value`` mod ``modulus`` it was given."""
    while modulus > 1:
        question = _ask(tables, modulus, board)
        if question is None:
            return
        answer = value % question.size
        modulus = (modulus - answer - 1) // question.size + 1
        value //= question.size
        question.learn(answer, tables, board)


class PublicInfo:
    """The tables every seat shares, and the counts of copies not yet played or discarded."""

    def __init__(self, players: int, hand_size: int) -> None:
        self.players = players
        self.unseen = list(COPIES)
        fresh = {card: COPIES[card] for card in range(NUM_IDENTITIES)}
        self.hands: list[list[Table]] = [
            [dict(fresh) for _ in range(hand_size)] for _ in range(players)
        ]

    def copy(self) -> PublicInfo:
        """An independent copy."""
        other = PublicInfo.__new__(PublicInfo)
        other.players = self.players
        other.unseen = list(self.unseen)
        other.hands = [[dict(t) for t in hand] for hand in self.hands]
        return other

    def fresh(self) -> Table:
        """The table of a newly drawn card."""
        return {card: n for card, n in enumerate(self.unseen) if n}

    def repair(self) -> None:
        """Restart any table left with no identity (a partner broke the protocol)."""
        for hand in self.hands:
            for slot, table in enumerate(hand):
                if not table:
                    hand[slot] = self.fresh()

    def knows_play(self, seat: int, board: Board) -> bool:
        """Whether it is public that ``seat`` holds a playable card."""
        return any(_odds(t, board.playable) == 1.0 for t in self.hands[seat])

    def ways(self, seat: int) -> int:
        """How many hint kinds ``seat`` can be told apart by: 4 once its hand publicly holds two
        colours and two ranks, else 3."""
        colors = ranks = -1
        for table in self.hands[seat]:
            color_mask, rank_mask = _masks(table)
            colors &= color_mask
            ranks &= rank_mask
        return 3 if colors or ranks else 4

    def focus(self, seat: int, board: Board) -> int:
        """The card a hint to ``seat`` is about: the least determined live card."""

        def score(table: Table) -> int:
            if len(table) <= 1 or _odds(table, board.dead) == 1.0:
                return 0
            colors, ranks = _masks(table)
            return 1 + (colors & (colors - 1) != 0) + (ranks & (ranks - 1) != 0)

        scores = [score(t) for t in self.hands[seat]]
        return scores.index(max(scores))

    def hat_sum(self, modulus: int, hands: Sequence[Sequence[int]], me: int, board: Board) -> int:
        """The hinter ``me``'s number: every teammate's answer summed mod ``modulus``; the tables
        learn the answers."""
        total = 0
        for seat in range(self.players):
            if seat != me:
                total += _hat_answer(self.hands[seat], hands[seat], modulus, board)
        return total % modulus

    def hat_read(
        self,
        modulus: int,
        value: int,
        hands: Sequence[Sequence[int]],
        source: int,
        me: int,
        board: Board,
    ) -> None:
        """Learn from ``source``'s number ``value`` as seat ``me``, who sees ``hands``."""
        for seat in range(self.players):
            if seat not in (source, me):
                value -= _hat_answer(self.hands[seat], hands[seat], modulus, board)
        if me != source:
            _hat_learn(self.hands[me], modulus, value % modulus, board)

    def nobody_needed_hint(self, actor: int, board: Board) -> None:
        """A discard with tokens left: every other hand without a known play has no playable."""
        for seat in range(self.players):
            if seat != actor and not self.knows_play(seat, board):
                for table in self.hands[seat]:
                    _keep(table, board.playable, False)

    def removed(self, seat: int, slot: int, card: int, drew: bool) -> None:
        """A card left ``seat``'s slot (played or discarded) and, if ``drew``, another came."""
        del self.hands[seat][slot]
        if drew:
            self.hands[seat].append(self.fresh())
        for hand in self.hands:
            for table in hand:
                _take(table, card)
        self.unseen[card] -= 1

    def hinted(self, seat: int, move: Move, touched: int) -> None:
        """The direct content of a hint to ``seat``."""
        for slot, table in enumerate(self.hands[seat]):
            hit = bool(touched >> slot & 1)
            if move.kind == "reveal_color":
                keep = [c for c in table if (c // NUM_RANKS == move.color) == hit]
            else:
                keep = [c for c in table if (c % NUM_RANKS == move.rank) == hit]
            for card in [c for c in table if c not in keep]:
                del table[card]


def useless(tables: Sequence[Table], board: Board) -> list[int]:
    """Slots certainly dead, and both slots of a pair known to be the same identity."""
    found: set[int] = set()
    seen: dict[int, int] = {}
    for slot, table in enumerate(tables):
        if _odds(table, board.dead) == 1.0:
            found.add(slot)
        elif len(table) == 1:
            card = next(iter(table))
            if card in seen:
                found.update((slot, seen[card]))
            else:
                seen[card] = slot
    return sorted(found)


class HatAgent:
    """Plays the information strategy; one instance plays one seat of one game and replays the
    public history as the game goes."""

    name = "hat"

    def __init__(
        self, seat: int, risk: float = DISCARD_RISK, scoring: Scoring = "fireworks"
    ) -> None:
        self.seat = seat
        self.scoring = scoring
        self.risk = risk
        self._info: PublicInfo | None = None
        self.last: Decision | None = None
        self._seen = 0
        self._fireworks: list[int] = []
        self._discarded: list[int] = []
        self._tokens = self._lives = self._deck = 0

    def act(self, obs: HanabiObservation) -> int:
        """Choose a legal move number for the observed state."""
        info = self._follow(obs)
        board = make_board(obs.fireworks, self._discarded, obs.tokens, obs.lives, obs.deck_size)
        moves = move_table(obs.players, obs.hand_size)
        self.last = Decision(obs, info, board, moves, self.risk, self.scoring)
        return self.last.choose()

    def tables(self, obs: HanabiObservation) -> list[list[Table]]:
        """The public tables of every hand once the observed history is read."""
        return [[dict(t) for t in hand] for hand in self._follow(obs).hands]

    def _follow(self, obs: HanabiObservation) -> PublicInfo:
        if self._info is None or self._seen > len(obs.history):
            self._info = self._reset(obs)
        self._catch_up(obs, move_table(obs.players, obs.hand_size))
        return self._info

    def clone(self, seat: int) -> HatAgent:
        """An agent for ``seat`` that has read the same history (public state is shared)."""
        other = HatAgent(seat, self.risk, self.scoring)
        other._info = None if self._info is None else self._info.copy()
        other._seen = self._seen
        other._fireworks = list(self._fireworks)
        other._discarded = list(self._discarded)
        other._tokens, other._lives, other._deck = self._tokens, self._lives, self._deck
        return other

    def _reset(self, obs: HanabiObservation) -> PublicInfo:
        self._seen = 0
        self._fireworks = [0] * NUM_COLORS
        self._discarded = [0] * NUM_IDENTITIES
        self._tokens = MAX_TOKENS
        self._lives = MAX_LIVES
        self._deck = sum(COPIES) - obs.players * obs.hand_size
        return PublicInfo(obs.players, obs.hand_size)

    def _catch_up(self, obs: HanabiObservation, moves: tuple[Move, ...]) -> None:
        new = obs.history[self._seen :]
        hands = [list(hand) for hand in obs.hands]
        before: list[list[list[int]]] = []
        for turn in reversed(new):
            move = moves[turn.action]
            if move.kind in ("play", "discard"):
                hand = hands[turn.seat]
                if turn.drew:
                    hand.pop()
                hand.insert(move.slot, turn.card)
            before.append([list(hand) for hand in hands])
        before.reverse()
        for turn, seen in zip(new, before, strict=True):
            self._apply(turn, moves[turn.action], seen)
        self._seen = len(obs.history)

    def _apply(self, turn: Turn, move: Move, hands: list[list[int]]) -> None:
        info = self._info
        assert info is not None
        board = make_board(self._fireworks, self._discarded, self._tokens, self._lives, self._deck)
        seat = turn.seat
        if move.kind in ("reveal_color", "reveal_rank"):
            target = (seat + move.offset) % info.players
            modulus, value = _hint_number(info, seat, target, move, turn.touched, board)
            info.hat_read(modulus, value, hands, seat, self.seat, board)
            info.hinted(target, move, turn.touched)
            self._tokens -= 1
        else:
            if move.kind == "discard":
                known = useless(info.hands[seat], board)
                if self._tokens > 0:
                    info.nobody_needed_hint(seat, board)
                if len(known) > 1 and move.slot in known:
                    info.hat_read(len(known), known.index(move.slot), hands, seat, self.seat, board)
                self._tokens += 1
                self._discarded[turn.card] += 1
            elif turn.scored:
                color = turn.card // NUM_RANKS
                self._fireworks[color] += 1
                if self._fireworks[color] == NUM_RANKS and self._tokens < MAX_TOKENS:
                    self._tokens += 1
            else:
                self._lives -= 1
                self._discarded[turn.card] += 1
            info.removed(seat, move.slot, turn.card, turn.drew)
            if turn.drew:
                self._deck -= 1
        info.repair()


def _others(info: PublicInfo, seat: int) -> list[int]:
    return [(seat + 1 + i) % info.players for i in range(info.players - 1)]


def _hint_number(
    info: PublicInfo, hinter: int, target: int, move: Move, touched: int, board: Board
) -> tuple[int, int]:
    """The number (modulus, value) a hint from ``hinter`` carries."""
    ways = [info.ways(seat) for seat in _others(info, hinter)]
    offset = (target - hinter - 1) % info.players
    focus = info.focus(target, board)
    if touched >> focus & 1:
        kind = 0 if move.kind == "reveal_rank" else 1
    elif ways[offset] == 3:
        kind = 2
    else:
        kind = 2 if move.kind == "reveal_rank" else 3
    return sum(ways), (sum(ways[:offset]) + kind) % sum(ways)


class Decision:
    """One decision of the hat agent."""

    def __init__(
        self,
        obs: HanabiObservation,
        info: PublicInfo,
        board: Board,
        moves: tuple[Move, ...],
        risk: float,
        scoring: Scoring,
    ) -> None:
        self.risk = risk
        self.scoring = scoring
        self.obs = obs
        self.info = info
        self.board = board
        self.moves = moves
        self.me = obs.seat
        self.others = [s for s in range(obs.players) if s != obs.seat]
        self.private: list[Table] = []
        self.unsure = False
        """Whether the move was a judgement call (a risk, a discard of a card that may be
        needed, a hint for want of a better move) rather than forced by what is known."""

    def choose(self) -> int:
        obs, board, info = self.obs, self.board, self.info
        size = obs.hand_size
        private = [dict(t) for t in info.hands[self.me]]
        for seat in self.others:
            for card in obs.hands[seat]:
                for table in private:
                    _take(table, card)
        private = [t if t else dict(info.hands[self.me][i]) for i, t in enumerate(private)]
        self.private = private
        sure = [i for i, t in enumerate(private) if _odds(t, board.playable) == 1.0]
        if sure:
            return size + min(sure, key=lambda i: (-self._play_score(private[i]), i))
        budget = sum(COPIES) - NUM_IDENTITIES - obs.players * size
        if board.lives > 1 and board.discards <= budget:
            usable = [board.playable[c] or board.dead[c] for c in range(NUM_IDENTITIES)]
            risky = [
                (_odds(t, board.playable), i)
                for i, t in enumerate(private)
                if _odds(t, tuple(usable)) == 1.0
            ]
            if risky:
                odds, slot = max(risky, key=lambda r: (r[0], -r[1]))
                if odds > RISKY_PLAY_ODDS:
                    self.unsure = True
                    return size + slot
        public_useless = useless(info.hands[self.me], board)
        private_useless = useless(private, board)
        if obs.tokens and self._needs_hint():
            hint = True
        elif board.discards <= budget and private_useless:
            hint = False
        else:
            self.unsure = True
            hint = obs.tokens > 0 and (
                self._can_play()
                or obs.tokens > MAX_TOKENS // 2
                or self._discard_risk(private) > self.risk
            )
        if hint or obs.tokens == MAX_TOKENS:
            return self.hint()
        self.unsure = True
        if obs.turns_left is not None:
            gamble = self._gamble(private)
            if gamble is not None:
                return size + gamble
        after = info.copy()
        if obs.tokens:
            after.nobody_needed_hint(self.me, board)
        if len(public_useless) > 1:
            value = after.hat_sum(len(public_useless), obs.hands, self.me, board)
            return public_useless[value]
        if private_useless:
            self.unsure = False
            return private_useless[0]
        return self._safest(private)

    def _safest(self, private: list[Table]) -> int:
        return self.discard_order(private)[0]

    def discard_order(self, private: list[Table]) -> list[int]:
        """Slots from the safest to discard when no card is known useless: the card most likely
        seen in a teammate's hand, then dispensable, then of high rank."""
        seen = [False] * NUM_IDENTITIES
        for seat in self.others:
            for card in self.obs.hands[seat]:
                seen[card] = True
        board = self.board

        def keep_value(slot: int) -> tuple[float, int]:
            table = private[slot]
            value = (
                20 * _odds(table, tuple(seen))
                + 10 * _odds(table, board.dispensable)
                + sum((c % NUM_RANKS + 1) * w for c, w in table.items()) / sum(table.values())
            )
            return (-value, slot)

        return sorted(range(len(private)), key=keep_value)

    def _gamble(self, private: list[Table]) -> int | None:
        """In the last round a discard draws nothing: play the likeliest card instead while a
        failed play cannot end the game early (two lives, or the game's last move under
        ``fireworks`` scoring)."""
        odds, slot = max((_odds(t, self.board.playable), -i) for i, t in enumerate(private))
        last = self.obs.turns_left == 1 and self.scoring == "fireworks"
        if odds > 0 and (self.board.lives > 1 or last):
            return -slot
        return None

    def _discard_risk(self, private: list[Table]) -> float:
        """The chance that the safest discard is the last copy of a card still needed."""
        return 1.0 - _odds(private[self._safest(private)], self.board.dispensable)

    def _play_score(self, table: Table) -> float:
        total = 0.0
        for card, weight in table.items():
            holders = 1
            if self.obs.deck_size:
                holders += sum(card in self.obs.hands[s] for s in self.others)
            total += weight * (10 - (card % NUM_RANKS + 1)) / holders
        return total / sum(table.values())

    def _can_play(self) -> bool:
        return any(self.board.playable[c] for seat in self.others for c in self.obs.hands[seat])

    def _needs_hint(self) -> bool:
        return any(
            any(self.board.playable[c] for c in self.obs.hands[seat])
            and not self.info.knows_play(seat, self.board)
            for seat in self.others
        )

    def hint(self) -> int:
        """The hint the protocol gives now (the hat sum picks its target and kind)."""
        obs, board = self.obs, self.board
        after = self.info.copy()
        others = _others(after, self.me)
        ways = [after.ways(seat) for seat in others]
        focus = [after.focus(seat, board) for seat in others]
        value = after.hat_sum(sum(ways), obs.hands, self.me, board)
        offset = 0
        while value >= ways[offset]:
            value -= ways[offset]
            offset += 1
        target = others[offset]
        hand = obs.hands[target]
        card = hand[focus[offset]]
        color, rank = divmod(card, NUM_RANKS)
        options: set[tuple[str, int]]
        if value == 0:
            options = {("rank", rank)}
        elif value == 1:
            options = {("color", color)}
        elif ways[offset] == 3:
            options = {("color", c // NUM_RANKS) for c in hand if c // NUM_RANKS != color}
            options |= {("rank", c % NUM_RANKS) for c in hand if c % NUM_RANKS != rank}
        elif value == 2:
            options = {("rank", c % NUM_RANKS) for c in hand if c % NUM_RANKS != rank}
        else:
            options = {("color", c // NUM_RANKS) for c in hand if c // NUM_RANKS != color}
        ids = sorted(self._move_id(offset + 1, kind, v) for kind, v in options)
        legal = set(obs.legal_actions)
        ids = [i for i in ids if i in legal]
        if not ids:
            return min(a for a in obs.legal_actions if a >= 2 * obs.hand_size)
        return max(ids, key=lambda i: (self._goodness(target, i), -i))

    def _move_id(self, offset: int, kind: str, value: int) -> int:
        base = 2 * self.obs.hand_size + (offset - 1) * NUM_COLORS + value
        return base if kind == "color" else base + (self.obs.players - 1) * NUM_COLORS

    def _goodness(self, target: int, action: int) -> float:
        move = self.moves[action]
        board = self.board
        goodness = 1.0
        for slot, table in enumerate(self.info.hands[target]):
            if len(table) <= 1 or _odds(table, board.dead) == 1.0:
                continue
            card = self.obs.hands[target][slot]
            if move.kind == "reveal_color":
                hit = card // NUM_RANKS == move.color
                kept = {c: w for c, w in table.items() if (c // NUM_RANKS == move.color) == hit}
            else:
                hit = card % NUM_RANKS == move.rank
                kept = {c: w for c, w in table.items() if (c % NUM_RANKS == move.rank) == hit}
            new = sum(kept.values())
            if not new:
                continue
            bonus = 2 if len(kept) == 1 or _odds(kept, board.dead) == 1.0 else 1
            goodness *= bonus * sum(table.values()) / new
        return goodness
