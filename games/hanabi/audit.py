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

from formalize.hanabi.deck import COLORS, card_name, product_mask
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
    )


def audit_log(log: GameLog[HanabiEvent]) -> list[ClaimAudit]:
    """Every claim stated in a log, judged where it was stated, in order; the log must replay
    (ReplayError names the line where it and the engine part)."""
    if log.header is None:
        raise ValueError("a Hanabi log needs its header to be audited")
    replay(ENTRY, log)
    config = HanabiConfig.model_validate(log.header.config)
    game = ENTRY.new_state(config, log.header.seed, log.header.seats)
    state_game = game.game
    audits: list[ClaimAudit] = []
    for _, joint in hanabi_actions(log.events):
        ((seat, move),) = joint.items()
        if isinstance(move, HanabiMove):
            turn = len(state_game.history) + 1
            audits += [judge_claim(state_game, turn, seat, c) for c in move.decision.claims]
        game.apply(joint)
    return audits


@dataclass(frozen=True, slots=True)
class ClaimCounts:
    """Claims by status, truth and kind; ``true`` counts the TRUE ones, ``invalid`` the
    claims about seats or slots that do not exist."""

    claims: int
    invalid: int
    true: int
    statuses: dict[str, int]
    kinds: dict[str, int]


def tally(audits: list[ClaimAudit]) -> ClaimCounts:
    """The counts of a list of judged claims."""
    judged = [a for a in audits if a.status is not None]
    return ClaimCounts(
        claims=len(judged),
        invalid=len(audits) - len(judged),
        true=sum(a.correctness is Correctness.TRUE for a in judged),
        statuses=dict(Counter(str(a.status) for a in judged)),
        kinds=dict(Counter(str(a.kind) for a in judged)),
    )
