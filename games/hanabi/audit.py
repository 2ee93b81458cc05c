"""Auditing stated Hanabi deductions exactly against the exact card knowledge.

A claim says seat ``s``'s slot ``j`` has a colour among ``colors`` and a rank among ``ranks``.
It is judged at the moment it was stated, against the exact knowledge of the seat whose card it
is (for the speaker's own hand, what the speaker can deduce; for a teammate's hand, what that
teammate can deduce, which is what tracking a teammate means): ENTAILED when every identity the
knowledge allows fits the claim, CONTRADICTED when none does, else UNDETERMINED; TRUE or FALSE by
the card actually there; and sound / lucky / wrong by ``reasoning.verifier.judge``. A claim naming
a seat or slot that does not exist is counted as invalid and not judged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from formalize.hanabi.deck import COLORS, NUM_IDENTITIES, NUM_RANKS, card_name, product_mask
from games.core.audit import AuditRecord, Where, audit_row, judged_record
from games.core.log import GameLog
from games.core.replay import replay
from games.hanabi.config import HanabiConfig
from games.hanabi.engine import HanabiGame
from games.hanabi.entry import ENTRY, hanabi_actions
from games.hanabi.events import HanabiEvent, HanabiMove, SlotClaim
from games.hanabi.knowledge import seat_knowledge
from reasoning.verifier import ClaimStatus, Correctness, Judgement, judge


class ClaimAudit(BaseModel):
    """One stated claim with its standing against knowledge and truth."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int
    speaker: int
    claim: SlotClaim
    card: str | None
    status: ClaimStatus | None
    correctness: Correctness | None
    kind: Judgement | None
    complete: bool = False
    """Whether the claim is as tight as the knowledge allows (its colours and ranks are exactly
    those the knowledge leaves possible)."""


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
        complete=allowed == tightest(known),
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
    """Every claim of a log, judged, and the slots that tracking decisions left unstated."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claims: tuple[ClaimAudit, ...]
    unstated: int


def audit_log(log: GameLog[HanabiEvent]) -> LogAudit:
    """Every claim stated in a log, judged where it was stated, in order, and the slots left
    unstated by tracking decisions (Mycroft's, or any that states a claim, should cover every
    slot of every hand); the log must replay (ReplayError names the line where it parts)."""
    if log.header is None:
        raise ValueError("a Hanabi log needs its header to be audited")
    replay(ENTRY, log)
    config = HanabiConfig.model_validate(log.header.config)
    game = ENTRY.new_state(config, log.header.seed, log.header.seats)
    state_game = game.game
    audits: list[ClaimAudit] = []
    unstated = 0
    for _, joint in hanabi_actions(log.events):
        ((seat, move),) = joint.items()
        if isinstance(move, HanabiMove):
            decision = move.decision
            turn = len(state_game.history) + 1
            audits += [judge_claim(state_game, turn, seat, c) for c in decision.claims]
            if decision.agent == "mycroft" or decision.claims:
                slots = {
                    (s, j) for s, hand in enumerate(state_game.hands) for j in range(len(hand))
                }
                unstated += len(slots - {(c.seat, c.slot) for c in decision.claims})
        game.apply(joint)
    return LogAudit(claims=tuple(audits), unstated=unstated)


@dataclass(frozen=True, slots=True)
class ClaimCounts:
    """Claims by status, truth and kind; ``true`` counts the TRUE ones, ``complete`` those as
    tight as the knowledge allows, ``invalid`` the claims about seats or slots that do not exist,
    ``unstated`` the slots tracking decisions said nothing about; ``recall`` is the share of
    tracked slots (stated or not) given a complete and true claim."""

    claims: int
    invalid: int
    true: int
    complete: int
    unstated: int
    statuses: dict[str, int]
    kinds: dict[str, int]

    @property
    def recall(self) -> float | None:
        """Complete, true claims over every tracked slot (None when nothing was tracked)."""
        tracked = self.claims + self.unstated
        return self.complete / tracked if tracked else None


def tally(audit: LogAudit) -> ClaimCounts:
    """The counts of one log's audit."""
    judged = [a for a in audit.claims if a.status is not None]
    return ClaimCounts(
        claims=len(judged),
        invalid=len(audit.claims) - len(judged),
        true=sum(a.correctness is Correctness.TRUE for a in judged),
        complete=sum(a.complete and a.correctness is Correctness.TRUE for a in judged),
        unstated=audit.unstated,
        statuses=dict(Counter(str(a.status) for a in judged)),
        kinds=dict(Counter(str(a.kind) for a in judged)),
    )


def audit_record(log: GameLog[HanabiEvent]) -> AuditRecord:
    """The audit of a Hanabi log as the record every game yields: a row per stated claim (a
    claim about a seat or slot that does not exist is UNKNOWN, marked invalid), the seat whose
    card it is, the card, and whether the claim is as tight as the knowledge allows as extra
    columns; the tracked slots left unstated and the recall as the game's figures."""
    if log.header is None:
        raise ValueError("a Hanabi log needs its header to be audited")
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
                "card": a.card,
                "complete": a.complete,
                "invalid": a.status is None,
            },
        )
        for a in audit.claims
    ]
    figures = {"invalid": counts.invalid, "unstated": counts.unstated, "recall": counts.recall}
    return judged_record("hanabi", log, log.header.seed, log.header.seats, rows, figures)
