"""Auditing stated Hanabi deductions exactly against the exact card knowledge.

A claim says seat ``s``'s slot ``j`` has a colour among ``colors`` and a rank among ``ranks``.
It is judged at the moment it was stated, against the exact knowledge of the seat whose card it
is (for the speaker's own hand, what the speaker can deduce; for a teammate's hand, what that
teammate can deduce, which is what tracking a teammate means): ENTAILED when every identity the
knowledge allows fits the claim, CONTRADICTED when none does, else UNDETERMINED; TRUE or FALSE by
the card actually there; and sound / lucky / wrong by ``reasoning.verifier.judge``. A claim naming
a seat or slot that does not exist is counted as invalid and not judged.

Completeness is graded against a standard the speaker can reach. For its own slot, that is its
own exact knowledge. For a teammate's slot it is not the teammate's exact knowledge (which
depends on the speaker's hidden cards, which the teammate sees) but ``formalize.hanabi.
tracking.reachable_knowledge``: the union of the teammate's exact knowledge over every own hand
the speaker's knowledge allows, i.e. what the speaker can be sure the teammate considers
possible. A claim is *complete* when it is the colour x rank hull of that standard; a perfect
tracker is complete on every slot. Separately, a claim *agrees with the hints* when it is
exactly the slot's hint product (the per-card colour and rank masks the reference engine keeps,
negative hints included), the card knowledge seed 003's judge compares against.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from formalize.hanabi.deck import COLORS, NUM_IDENTITIES, NUM_RANKS, card_name, product_mask
from formalize.hanabi.knowledge import hint_masks, played_cards
from formalize.hanabi.tracking import reachable_knowledge
from games.core.audit import AuditRecord, Where, audit_row, judged_record
from games.core.llm_call import LLMCallRef
from games.core.log import GameLog
from games.core.replay import replay
from games.hanabi.engine import HanabiGame
from games.hanabi.entry import ENTRY, hanabi_actions
from games.hanabi.events import HanabiEvent, HanabiMove, SlotClaim
from games.hanabi.knowledge import seat_knowledge
from reasoning.claims import ClaimStatus, Correctness, Judgement, judge


class ClaimAudit(LLMCallRef):
    """One stated claim with its standing against knowledge and truth, and the recorded LLM
    call it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int
    speaker: int
    claim: SlotClaim
    card: str | None
    status: ClaimStatus | None
    correctness: Correctness | None
    kind: Judgement | None
    own: bool = True
    """Whether the claim is about the speaker's own hand (else a teammate's)."""
    complete: bool = False
    """Whether the claim is the reachable standard's colour x rank hull (the speaker's exact
    knowledge for its own slot, ``reachable_knowledge`` for a teammate's)."""
    hinted: bool = False
    """Whether the claim is exactly the slot's hint product (the reference engine's knowledge)."""


def claim_mask(claim: SlotClaim) -> int:
    """The identities a claim allows."""
    colors = sum(1 << COLORS.index(c) for c in claim.colors)
    ranks = sum(1 << (int(r) - 1) for r in claim.ranks)
    return product_mask(colors, ranks)


def judge_claim(game: HanabiGame, turn: int, speaker: int, claim: SlotClaim) -> ClaimAudit:
    """``claim``, stated by ``speaker`` before move ``turn`` of ``game`` (in its state then)."""
    if claim.seat >= game.players or claim.slot >= len(game.hands[claim.seat]):
        return ClaimAudit(
            turn=turn,
            speaker=speaker,
            claim=claim,
            card=None,
            status=None,
            correctness=None,
            kind=None,
        )
    known = seat_knowledge(game.observation(claim.seat)).exact[claim.slot]
    allowed = claim_mask(claim)
    if known & ~allowed == 0:
        status = ClaimStatus.ENTAILED
    elif known & allowed == 0:
        status = ClaimStatus.CONTRADICTED
    else:
        status = ClaimStatus.UNDETERMINED
    card = game.hands[claim.seat][claim.slot]
    correctness = Correctness.TRUE if allowed >> card & 1 else Correctness.FALSE
    return ClaimAudit(
        turn=turn,
        speaker=speaker,
        claim=claim,
        card=card_name(card),
        status=status,
        correctness=correctness,
        kind=judge(status, correctness),
        own=claim.seat == speaker,
        complete=allowed == tightest(standard(game, speaker, claim.seat)[claim.slot]),
        hinted=allowed == slot_hints(game, claim.seat)[claim.slot],
    )


def slot_hints(game: HanabiGame, seat: int) -> tuple[int, ...]:
    """The hint product of every slot of ``seat``'s hand."""
    return hint_masks(game.color_masks[seat], game.rank_masks[seat])


def standard(game: HanabiGame, speaker: int, seat: int) -> tuple[int, ...]:
    """What ``speaker`` can know ``seat``'s knowledge of each of its slots to be: its own exact
    knowledge when ``seat`` is the speaker, else the reachable standard (module docstring)."""
    if seat == speaker:
        return seat_knowledge(game.observation(speaker)).exact
    shared = list(game.discards) + played_cards(game.fireworks)
    shared += [
        card
        for other, hand in enumerate(game.hands)
        if other not in (speaker, seat)
        for card in hand
    ]
    return reachable_knowledge(
        slot_hints(game, speaker), slot_hints(game, seat), game.hands[seat], shared
    )


def tightest(known: int) -> int:
    """The narrowest colour x rank claim that ``known`` entails: its colours times its ranks."""
    colors = ranks = 0
    for card in range(NUM_IDENTITIES):
        if known >> card & 1:
            colors |= 1 << card // NUM_RANKS
            ranks |= 1 << card % NUM_RANKS
    return product_mask(colors, ranks)


class LogAudit(BaseModel):
    """Every claim of a log, judged, and the slots that tracking decisions left unstated (own
    slots of the deciding seat, and teammates' slots)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claims: tuple[ClaimAudit, ...]
    unstated_own: int
    unstated_teammate: int

    @property
    def unstated(self) -> int:
        """Tracked slots left unstated, own and teammates' together."""
        return self.unstated_own + self.unstated_teammate


def audit_log(log: GameLog[HanabiEvent]) -> LogAudit:
    """Every claim stated in a log, judged where it was stated, in order, and the slots left
    unstated by tracking decisions (Mycroft's, or any that states a claim, should cover every
    slot of every hand); the log must replay (ReplayError names the line where it parts)."""
    replay(ENTRY, log)
    game = ENTRY.replay_state(log)
    state_game = game.game
    audits: list[ClaimAudit] = []
    unstated = Counter[bool]()
    for _, joint in hanabi_actions(log.events):
        ((seat, move),) = joint.items()
        if isinstance(move, HanabiMove):
            decision = move.decision
            turn = len(state_game.history) + 1
            audits += [
                judge_claim(state_game, turn, seat, c).model_copy(update={"call": decision.call})
                for c in decision.claims
            ]
            if decision.agent == "mycroft" or decision.claims:
                stated = {(c.seat, c.slot) for c in decision.claims}
                for s, hand in enumerate(state_game.hands):
                    unstated[s == seat] += sum((s, j) not in stated for j in range(len(hand)))
        game.apply(joint)
    return LogAudit(
        claims=tuple(audits), unstated_own=unstated[True], unstated_teammate=unstated[False]
    )


@dataclass(frozen=True, slots=True)
class SlotCounts:
    """Judged claims about one kind of slot (own or teammates'), those complete and true, and
    the tracked slots of that kind left unstated."""

    claims: int
    complete: int
    unstated: int

    @property
    def recall(self) -> float | None:
        """Complete, true claims over every tracked slot of this kind (None when none was)."""
        tracked = self.claims + self.unstated
        return self.complete / tracked if tracked else None


@dataclass(frozen=True, slots=True)
class ClaimCounts:
    """Claims by status, truth and kind; ``true`` counts the TRUE ones, ``complete`` those that
    are the reachable standard's hull and true, ``hinted`` those that are exactly the slot's
    hint product, ``invalid`` the claims about seats or slots that do not exist, ``unstated``
    the slots tracking decisions said nothing about; ``own`` and ``teammate`` split the judged
    claims and unstated slots by whose hand they are about."""

    claims: int
    invalid: int
    true: int
    complete: int
    hinted: int
    unstated: int
    own: SlotCounts
    teammate: SlotCounts
    statuses: dict[str, int]
    kinds: dict[str, int]

    @property
    def hle_agreement(self) -> float | None:
        """Claims equal to the hint product over every tracked slot (None when none was)."""
        tracked = self.claims + self.unstated
        return self.hinted / tracked if tracked else None


def tally(audit: LogAudit) -> ClaimCounts:
    """The counts of one log's audit."""
    judged = [a for a in audit.claims if a.status is not None]

    def slots(own: bool, unstated: int) -> SlotCounts:
        mine = [a for a in judged if a.own == own]
        return SlotCounts(
            claims=len(mine),
            complete=sum(a.complete and a.correctness is Correctness.TRUE for a in mine),
            unstated=unstated,
        )

    return ClaimCounts(
        claims=len(judged),
        invalid=len(audit.claims) - len(judged),
        true=sum(a.correctness is Correctness.TRUE for a in judged),
        complete=sum(a.complete and a.correctness is Correctness.TRUE for a in judged),
        hinted=sum(a.hinted for a in judged),
        unstated=audit.unstated,
        own=slots(True, audit.unstated_own),
        teammate=slots(False, audit.unstated_teammate),
        statuses=dict(Counter(str(a.status) for a in judged)),
        kinds=dict(Counter(str(a.kind) for a in judged)),
    )


def audit_record(log: GameLog[HanabiEvent]) -> AuditRecord:
    """The audit of a Hanabi log as the record every game yields: a row per stated claim (a
    claim about a seat or slot that does not exist is UNKNOWN, marked invalid), the seat whose
    card it is, the card, and whether the claim is as tight as the knowledge allows as extra
    columns; the tracked slots left unstated (in all, in the speaker's own hand and in
    teammates'), own-hand and teammate recall and the agreement with the hint knowledge as the
    game's figures."""
    audit = audit_log(log)
    counts = tally(audit)
    rows = [
        audit_row(
            a.speaker,
            Where(turn=a.turn),
            f"P{a.claim.seat} slot {a.claim.slot} is [{a.claim.colors}][{a.claim.ranks}]",
            a.status or ClaimStatus.UNKNOWN,
            a.correctness,
            detail={
                "about": a.claim.seat,
                "own": a.own,
                "card": a.card,
                "complete": a.complete,
                "hinted": a.hinted,
                "invalid": a.status is None,
            },
            call=a.call,
        )
        for a in audit.claims
    ]
    figures = {
        "invalid": counts.invalid,
        "unstated": counts.unstated,
        "unstated_own": counts.own.unstated,
        "unstated_teammate": counts.teammate.unstated,
        "own_recall": counts.own.recall,
        "teammate_recall": counts.teammate.recall,
        "hle_agreement": counts.hle_agreement,
    }
    return judged_record("hanabi", log, log.header.seed, log.header.seats, rows, figures)
