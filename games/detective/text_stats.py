"""How a case reads, measured from its file: length, how many sentences carry facts, repeated
sentences, how often a narration frame comes back, the stumbles found (``stumbles``), the share
of questions with several parts, the share of negative facts, and how many locations each
answer needs.

A generated case keeps, per location and for the introduction, which sentence states which
facts; the measures read that mapping. A fact counts as negative when its formula is a negation
("was not in the cellar", "had no such motive"); closed-world facts ("only X and Y had a key")
count as positive.
"""

from __future__ import annotations

from collections import Counter
from statistics import fmean

from pydantic import BaseModel, ConfigDict

from games.detective.case import Case
from games.detective.narrative import sentences
from games.detective.stumbles import PATTERNS, narration_frames, stumbles
from reasoning.formula import Not
from reasoning.syntax import parse_formula


class TextStats(BaseModel):
    """The measures of one case's text."""

    model_config = ConfigDict(frozen=True)

    seed: int | None
    words: int
    location_words: float
    location_sentences: int
    fact_sentence_share: float
    repeated_sentences: int
    max_frame_uses: int
    stumbles: dict[str, int]
    multi_part_share: float
    negative_fact_share: float
    locations_needed: list[int]


def is_negative_formula(text: str) -> bool:
    """Whether the fact (formula text) is a negation."""
    return isinstance(parse_formula(text), Not)


def text_stats(case: Case) -> TextStats:
    """The measures of ``case``: words of the introduction, the house plan and the locations,
    the share of location sentences that state a fact, how many sentences (introduction,
    locations, solution) occur more than once, the most times one narration frame is used,
    the stumbles per pattern, the share of questions with two parts or more, the share of
    negative facts, and per question the fewest locations that unlock its answer."""
    mapped = [s for loc in case.locations for s in loc.sentences]
    carrying = sum(bool(s.facts) for s in mapped)
    every = [
        *sentences(case.introduction),
        *(s for loc in case.locations for s in sentences(loc.text)),
        *sentences(case.solution),
    ]
    repeated = sum(n - 1 for n in Counter(every).values() if n > 1)
    facts = [*case.intro_facts, *(f for loc in case.locations for f in loc.facts)]
    found = Counter(s.pattern for s in stumbles(case))
    words = len(case.introduction.split()) + len(case.house_plan.split())
    return TextStats(
        seed=case.seed,
        words=words + sum(len(loc.text.split()) for loc in case.locations),
        location_words=fmean(len(loc.text.split()) for loc in case.locations),
        location_sentences=len(mapped),
        fact_sentence_share=carrying / len(mapped) if mapped else 0.0,
        repeated_sentences=repeated,
        max_frame_uses=max(narration_frames(case).values(), default=0),
        stumbles={p: found[p] for p in PATTERNS},
        multi_part_share=fmean(len(q.slots) >= 2 for q in case.questions),
        negative_fact_share=(sum(map(is_negative_formula, facts)) / len(facts) if facts else 0.0),
        locations_needed=[
            min(map(len, q.unlock_sets)) if q.unlock_sets else 0 for q in case.questions
        ],
    )
