"""Offline prover-backed Undercover-V agents: lexicon facts to describe, T(s, Delta) to judge.

Describing. The agent says a statement about its word that nobody has said yet: one lexicon fact,
or, once those are used, two or three of its word's facts joined in one sentence ("It is a kind of
tea, and it is brewed in hot water."). A statement carries its formula, the conjunction of its
facts' formulas, so every description it gives is true of its card.

- Believing itself a citizen, it prefers statements with a distinctive fact of its word (a clear
  clue to the others holding it), shortest first.
- Believing itself the spy, it blends in: statements made only of facts true of both words (the
  pair's shared facts), shortest first; when none is left, the fewest distinctive facts.
- The plain variant ignores roles and says the shortest unused statement of its word.
Within the preferred group the choice is random, seeded by the game seed, the seat and the round.

Reading. Another player's sentence is read by the offline description reader
(``games.undercover.reading``: attribute phrases with denial, coordination, hedges and the
lexicon's synonyms); a sentence it is unsure of, or that asserts nothing about the card (a
question), gives no evidence. For each other player j the formulas of all j's readable
descriptions, Delta_j, are tested against the agent's card, T(w, Delta_j): inconsistent means j
holds the other word. The guess variant (``prover-guess``) also tests them against the other word
of the pair, T(w', Delta_j), the offline counterpart of seed 002's guess of the opponent's word
(exact for a lexicon pair): inconsistent means j holds the agent's word.

Role, in order of the first rule that applies:
1. two others hold the other word, or a voted-out player (a citizen, since the game went on) holds
   it: I am the spy, because only one player holds the spy word;
2. (guess variant) another player holds my word: I am a citizen, for the same reason;
3. the majority rule: I am the spy when more of the others whose descriptions could be tested
   contradict my card than agree with it (after rules 1 and 2 this means: one contradicts it and
   none agrees with it); a tie is no majority.

Vote. A believed citizen votes for the most suspect living player: suspicion 2 for one shown to
hold the other word, 0 for one shown to hold its own word (guess variant), 1 for the rest. A
believed spy, for whom every other player is a citizen, votes as the citizens would: with the
guess it ranks the others as a citizen holding the other word would; without it, it cannot tell
how the citizens rank them and gives them all the same suspicion. Tie rule: ties go to the seat
that comes first in a permutation of all seats drawn from the game seed and the round
(``tie_order``); every prover agent of a game draws the same permutation, so agents that see the
same evidence vote alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from games.undercover.agent import Description, Observation
from games.undercover.checker import ConsistencyTest
from games.undercover.engine import normalise_description
from games.undercover.events import CheckOutcome, Side
from games.undercover.lexicon import Fact, FactKind, Lexicon, LexiconEntry
from games.undercover.reading import DescriptionReader
from games.undercover.words import WordPair
from reasoning.formula import Formula, conj

MAX_FACTS_PER_STATEMENT = 3
"""The longest statement an agent composes, in facts."""

PROVER_AGENT = "prover"
GUESS_AGENT = "prover-guess"
PLAIN_AGENT = "plain"


def join_sentences(texts: Sequence[str]) -> str:
    """Several one-sentence facts as one sentence: ``A, b, and c.`` (later ones lower-cased)."""
    parts = [t.strip().rstrip(".") for t in texts]
    if not parts:
        raise ValueError("join_sentences needs at least one sentence")
    parts = [parts[0], *(p[:1].lower() + p[1:] for p in parts[1:])]
    if len(parts) == 1:
        return parts[0] + "."
    return ", ".join(parts[:-1]) + ", and " + parts[-1] + "."


@dataclass(frozen=True, slots=True)
class Statement:
    """A description made of lexicon facts: its sentence, the facts, and their conjunction."""

    text: str
    facts: tuple[Fact, ...]
    formula: Formula

    @classmethod
    def of(cls, facts: Sequence[Fact]) -> Statement:
        """The statement saying ``facts`` together, in the order given."""
        return cls(
            join_sentences([f.text for f in facts]), tuple(facts), conj(f.formula for f in facts)
        )

    @property
    def distinctive(self) -> int:
        """How many of its facts are distinctive (true of only one word of the pair)."""
        return sum(1 for f in self.facts if f.kind is FactKind.DISTINCTIVE)

    def description(self) -> Description:
        """The statement as a description with its formula."""
        return Description(self.text, formula=self.formula)


class StatementBook:
    """Every statement of up to three facts of one word of a pair."""

    def __init__(self, lexicon: Lexicon, pair: WordPair) -> None:
        """Compose the statements of both words of ``pair`` from ``lexicon``."""
        self.pair = pair
        self.entries: dict[str, LexiconEntry] = {w: lexicon.entry(w) for w in pair.words}
        self._by_word: dict[str, tuple[Statement, ...]] = {
            word: tuple(
                Statement.of(group)
                for size in range(1, MAX_FACTS_PER_STATEMENT + 1)
                for group in combinations(entry.facts, size)
            )
            for word, entry in self.entries.items()
        }

    def statements(self, word: str) -> tuple[Statement, ...]:
        """Every statement true of ``word`` (a word of the pair, as the lexicon spells it)."""
        return self._by_word[self.entry(word).word]

    def entry(self, word: str) -> LexiconEntry:
        """The lexicon entry of a word of this pair; KeyError for another word."""
        key = normalise_description(word)
        for entry in self.entries.values():
            if normalise_description(entry.word) == key:
                return entry
        raise KeyError(f"{word!r} is not a word of pair {self.pair.id!r}")


def nothing_new(obs: Observation) -> Description:
    """What a player says when every statement of its word has been said."""
    return Description(f"Player {obs.seat} has nothing new to say about it in round {obs.round}.")


class StatementLibrary:
    """The statement books of a lexicon, built on first use, and its offline description
    reader; shared by every agent."""

    def __init__(self, lexicon: Lexicon) -> None:
        """Books for the pairs of ``lexicon``, and the reader of their descriptions."""
        self.lexicon = lexicon
        self.reader = DescriptionReader(lexicon)
        self._books: dict[str, StatementBook] = {}

    def book(self, word: str) -> StatementBook:
        """The book of the pair ``word`` belongs to; UnknownWord when the lexicon lacks it."""
        pair = self.lexicon.entry(word).pair
        book = self._books.get(pair.id)
        if book is None:
            book = StatementBook(self.lexicon, pair)
            self._books[pair.id] = book
        return book


@dataclass(frozen=True, slots=True)
class Judgement:
    """What one other player's descriptions show: T against my card and against the other word
    (``not formalised`` when not tested)."""

    seat: int
    read: int
    card: CheckOutcome
    other: CheckOutcome

    @property
    def holds_other_word(self) -> bool:
        """Its descriptions contradict my card, so it holds the other word."""
        return self.card is CheckOutcome.CONTRADICTS_CARD

    @property
    def holds_my_word(self) -> bool:
        """Its descriptions contradict the other word, so it holds mine."""
        return self.other is CheckOutcome.CONTRADICTS_CARD


@dataclass(frozen=True, slots=True)
class Assessment:
    """An agent's view of a moment of the game: its role belief, why, and each other seat."""

    role: Side
    reason: str
    judgements: tuple[Judgement, ...]

    def judgement(self, seat: int) -> Judgement | None:
        """The judgement of ``seat``, or None when it has said nothing."""
        return next((j for j in self.judgements if j.seat == seat), None)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a prover agent: the phase, round, role belief, and what it said or chose."""

    phase: Literal["describe", "vote"]
    round: int
    role: Side
    reason: str
    action: str


def tie_order(seed: int, round: int, players: int) -> tuple[int, ...]:
    """The seats in the order ties are broken in ``round`` of the game seeded with ``seed``."""
    seats = list(range(players))
    random.Random(f"undercover-tie:{seed}:{round}").shuffle(seats)
    return tuple(seats)


class ProverAgent:
    """The offline prover-backed agent; ``plain=True`` plainly describes its own word whatever
    its role belief, ``guess=True`` also tests the others against the other word of the pair.
    The module docstring states every rule it follows.

    ``seed`` is the game's seed: it seeds the description choice (with the seat and round) and
    the tie order shared by the agents of a game. ``decisions`` keeps every decision made.
    """

    def __init__(
        self,
        test: ConsistencyTest,
        *,
        seed: int,
        seat: int,
        library: StatementLibrary | None = None,
        plain: bool = False,
        guess: bool = False,
        name: str | None = None,
    ) -> None:
        """An agent for ``seat`` testing with ``test``; ``library`` may be shared by a game."""
        self.test = test
        self.seed = seed
        self.seat = seat
        self.library = library if library is not None else StatementLibrary(test.lexicon)
        self.plain = plain
        self.guess = guess
        default = PLAIN_AGENT if plain else GUESS_AGENT if guess else PROVER_AGENT
        self.name = name or default
        self.decisions: list[Decision] = []

    def assess(self, obs: Observation) -> Assessment:
        """Test every other player's descriptions and infer this agent's role."""
        book = self.library.book(obs.word)
        mine = book.entry(obs.word).word
        other = book.pair.other(mine)
        judgements = tuple(
            self._judge(mine, other, seat, obs)
            for seat in range(obs.players)
            if seat != obs.seat and obs.descriptions_by(seat)
        )
        role, reason = infer_role(judgements, obs.eliminated)
        return Assessment(role, reason, judgements)

    def describe(self, obs: Observation) -> Description:
        """An unused statement of its word, chosen by its role belief (see the module docstring)."""
        assessment = self.assess(obs)
        book = self.library.book(obs.word)
        said = {normalise_description(d.text) for d in obs.descriptions}
        fresh = [s for s in book.statements(obs.word) if normalise_description(s.text) not in said]
        rng = random.Random(f"undercover-describe:{self.seed}:{obs.seat}:{obs.round}")
        if fresh:
            key = _preference(self.plain, assessment.role)
            best = min(key(s) for s in fresh)
            choice = rng.choice([s for s in fresh if key(s) == best])
            description = choice.description()
        else:
            description = nothing_new(obs)
        self.decisions.append(
            Decision("describe", obs.round, assessment.role, assessment.reason, description.text)
        )
        return description

    def vote(self, obs: Observation) -> int:
        """The most suspect living player, as a citizen of the believed citizens' word sees it."""
        assessment = self.assess(obs)
        order = tie_order(self.seed, obs.round, obs.players)
        rank = {seat: index for index, seat in enumerate(order)}
        citizen_view = assessment.role is Side.CITIZENS

        def suspicion(seat: int) -> int:
            found = assessment.judgement(seat)
            if found is None:
                return 1
            if citizen_view:
                return 2 if found.holds_other_word else 0 if found.holds_my_word else 1
            if not self.guess:
                return 1
            return 2 if found.holds_my_word else 0 if found.holds_other_word else 1

        target = min(obs.vote_targets(), key=lambda s: (-suspicion(s), rank[s]))
        self.decisions.append(
            Decision("vote", obs.round, assessment.role, assessment.reason, f"seat {target}")
        )
        return target

    def _judge(self, mine: str, other: str, seat: int, obs: Observation) -> Judgement:
        reader = self.library.reader
        formulas = _unique(
            read.formula
            for d in obs.descriptions_by(seat)
            if (read := reader.read(mine, Description(d.text))).formula is not None
        )
        if not formulas:
            return Judgement(seat, 0, CheckOutcome.NOT_FORMALISED, CheckOutcome.NOT_FORMALISED)
        return Judgement(
            seat,
            len(formulas),
            self.test.test(mine, formulas).status,
            self.test.test(other, formulas).status if self.guess else CheckOutcome.NOT_FORMALISED,
        )


def infer_role(judgements: Sequence[Judgement], eliminated: Sequence[int]) -> tuple[Side, str]:
    """The role belief the judgements support, by the three rules of the module docstring."""
    holds_other = [j.seat for j in judgements if j.holds_other_word]
    holds_mine = [j.seat for j in judgements if j.holds_my_word]
    voted_out = [s for s in holds_other if s in eliminated]
    if len(holds_other) >= 2:
        return Side.SPY, f"seats {_seats(holds_other)} contradict my card: I hold the spy word"
    if voted_out:
        return Side.SPY, f"voted-out citizen seat {voted_out[0]} contradicts my card"
    if holds_mine:
        return Side.CITIZENS, f"seat {holds_mine[0]} holds my word: I am a citizen"
    consistent = [j.seat for j in judgements if j.card is CheckOutcome.CONSISTENT]
    tally = f"{len(holds_other)} contradict my card, {len(consistent)} agree with it"
    if len(holds_other) > len(consistent):
        return Side.SPY, f"majority: {tally}"
    return Side.CITIZENS, f"no majority against my card: {tally}"


_Key = Callable[[Statement], tuple[int, int]]


def _preference(plain: bool, role: Side) -> _Key:
    if plain:
        return lambda s: (len(s.facts), 0)
    if role is Side.SPY:
        return lambda s: (s.distinctive, len(s.facts))
    return lambda s: (0 if s.distinctive else 1, len(s.facts))


def _unique(formulas: Iterable[Formula]) -> list[Formula]:
    return list(dict.fromkeys(formulas))


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats)
