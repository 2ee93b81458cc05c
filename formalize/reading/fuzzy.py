"""Misspelt words: the one known word within a small edit distance of a word the reader does not
know ("Ketering" for Kettering), or none when two are equally near."""

from __future__ import annotations

from collections.abc import Iterable

MIN_LENGTH = 5
"""Words shorter than this are never corrected (too many real words are one edit apart)."""


def edit_distance(a: str, b: str, limit: int) -> int:
    """The optimal-string-alignment distance of ``a`` and ``b`` (insertions, deletions,
    substitutions and swaps of neighbours), or ``limit + 1`` once it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        prev2, prev = prev, row
    return prev[-1]


def allowed_edits(word: str) -> int:
    """How many edits a word of this length may be off by: one, two from eight letters."""
    return 2 if len(word) >= 8 else 1


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The single known word nearest ``word`` within its allowed edits, or None (none near, or
    two equally near)."""
    if len(word) < MIN_LENGTH or not word.isalpha():
        return None
    limit = allowed_edits(word)
    best: list[tuple[int, str]] = []
    for target in known:
        if len(target) < MIN_LENGTH or abs(len(target) - len(word)) > limit:
            continue
        distance = edit_distance(word, target, limit)
        if distance <= limit:
            best.append((distance, target))
    if not best:
        return None
    best.sort()
    if len(best) > 1 and best[1][0] == best[0][0]:
        return None
    return best[0][1]
