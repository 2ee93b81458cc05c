"""Rewards for training from the exact audit: one number per decision, with its parts.

A decision's reward adds three terms, each weighted by ``RewardWeights``:

- the claims term: the mean, over the claims the reply stated, of the weight of each claim's
  judgement (sound, lucky, wrong or unjudged; ``reasoning.verifier.judge``), 0 when it stated
  none;
- the recall term: ``recall`` times the share of what the decision could have stated that it
  stated completely and truly (the game defines it; Hanabi: every tracked slot);
- the value term: ``value`` times the chosen move's value scaled to [0, 1] (Hanabi: the mean
  rollout score over 25), when one is given.

A term that is not available (no recall defined, no value asked for) adds 0. A reply that cannot
be read as an answer scores ``malformed`` and nothing else. With the default weights a reply's
reward lies in [-1, 3]: -1 when every claim is wrong and nothing is recalled, 3 for sound,
complete claims on every slot and a move worth the full score.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from reasoning.claims import Judgement


class RewardWeights(BaseModel):
    """The weight of each judgement in the claims term, of the recall and value terms, and the
    reward of a reply that cannot be read (see the module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sound: float = 1.0
    """A claim entailed by what the speaker knew, and true."""
    lucky: float = 0.0
    """A true claim its speaker could not deduce: a guess that held."""
    wrong: float = -1.0
    """A false claim."""
    unjudged: float = -1.0
    """A claim the audit cannot judge (Hanabi: about a seat or slot that does not exist)."""
    recall: float = 1.0
    value: float = 1.0
    malformed: float = -1.0


class Reward(BaseModel):
    """A decision's reward and what it is made of: the counts of its claims by judgement, the
    claims term, the recall and the scaled value (None where not available)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    total: float
    parsed: bool
    claims: int = Field(default=0, ge=0)
    sound: int = Field(default=0, ge=0)
    lucky: int = Field(default=0, ge=0)
    wrong: int = Field(default=0, ge=0)
    unjudged: int = Field(default=0, ge=0)
    claims_term: float = 0.0
    recall: float | None = None
    value: float | None = None


def malformed(weights: RewardWeights) -> Reward:
    """The reward of a reply that cannot be read as an answer."""
    return Reward(total=weights.malformed, parsed=False)


def reward(
    judgements: Sequence[Judgement],
    weights: RewardWeights,
    *,
    recall: float | None = None,
    value: float | None = None,
) -> Reward:
    """The reward of a readable reply whose stated claims were judged ``judgements``, with its
    ``recall`` and its move's ``value`` in [0, 1] where available (module docstring)."""
    if value is not None and not 0.0 <= value <= 1.0:
        raise ValueError(f"value: must be in [0, 1], got {value}")
    if recall is not None and not 0.0 <= recall <= 1.0:
        raise ValueError(f"recall: must be in [0, 1], got {recall}")
    counts = {kind: judgements.count(kind) for kind in ("sound", "lucky", "wrong", "unjudged")}
    per_claim = {
        "sound": weights.sound,
        "lucky": weights.lucky,
        "wrong": weights.wrong,
        "unjudged": weights.unjudged,
    }
    claims_term = (
        sum(per_claim[kind] * count for kind, count in counts.items()) / len(judgements)
        if judgements
        else 0.0
    )
    total = claims_term
    total += weights.recall * recall if recall is not None else 0.0
    total += weights.value * value if value is not None else 0.0
    return Reward(
        total=total,
        parsed=True,
        claims=len(judgements),
        claims_term=claims_term,
        recall=recall,
        value=value,
        **counts,
    )
