"""The vocabulary every audit speaks: how a claim stands against what was known (``ClaimStatus``)
and against the hidden truth (``Correctness``), and the judgement of the two together (sound,
lucky, wrong). Kept apart from the Verifier, so a game's events and audit rows name these without
loading the formula parser or a prover."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class ClaimStatus(StrEnum):
    """How a claim stands against the knowledge it was made from."""

    ENTAILED = "ENTAILED"
    CONTRADICTED = "CONTRADICTED"
    UNDETERMINED = "UNDETERMINED"
    UNKNOWN = "UNKNOWN"


class Correctness(StrEnum):
    """How a claim stands against the hidden truth."""

    TRUE = "TRUE"
    FALSE = "FALSE"


Judgement = Literal["sound", "lucky", "wrong", "unjudged"]
"""How a claim fares against knowledge and truth together."""


def judge(status: ClaimStatus, correctness: Correctness | None) -> Judgement:
    """sound (entailed, true), lucky (true, not entailed), wrong (false), or unjudged (no
    truth to judge against): the one judgement every audit uses."""
    if correctness is Correctness.FALSE:
        return "wrong"
    if correctness is Correctness.TRUE:
        return "sound" if status is ClaimStatus.ENTAILED else "lucky"
    return "unjudged"


def correctness_of(truth_status: ClaimStatus) -> Correctness | None:
    """A claim's correctness from its status against the hidden truth: None when unsettled."""
    return {
        ClaimStatus.ENTAILED: Correctness.TRUE,
        ClaimStatus.CONTRADICTED: Correctness.FALSE,
    }.get(truth_status)
