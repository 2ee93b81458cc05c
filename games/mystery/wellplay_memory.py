"""What a WellPlay character has in context: its whole script and the whole conversation, or what a
retrieval memory recalls for the question at hand (seed 004, Appendix C.1).

The retrieval memory cuts each character's script into segments of at most ``SEGMENT_TOKENS``
tokens (sentences packed together, a longer sentence cut at token boundaries) and keeps every
exchange of the conversation (a question with its answer, an introduction) as one segment. For a
query it ranks each store's segments by cosine similarity of all-MiniLM-L6-v2 embeddings
(``reasoning.embeddings``) and recalls the best ones that fit the budget, ``PLAY_TOKENS`` while
playing and ``EVALUATION_TOKENS`` when answering the questions, the script's and the
conversation's passages each within it, shown in their original order. Tokens are the embedding
model's own (its tokenizer counts and cuts).

The index is plain numpy: a matrix of unit vectors per store, searched exactly by one product.
A character's script holds at most a few hundred segments (WellPlay's longest, about 6,900
tokens, makes some 140) and a play's conversation a few dozen exchanges, so an exact search
costs microseconds; an approximate index (FAISS, as the seed used, with L2 distance, which
ranks unit vectors as cosine does) would add a dependency and nothing measurable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from reasoning.embeddings import load_sentence_model

MemoryKind = Literal["whole", "retrieval"]
"""``whole``: the whole script and conversation in context; ``retrieval``: recalled passages."""
SEGMENT_TOKENS = 50
"""The largest script segment, in tokens."""
PLAY_TOKENS = 4000
"""The budget of recalled script and of recalled conversation while playing."""
EVALUATION_TOKENS = 5000
"""The budget of each when answering the evaluation questions."""
FEATURE = "the WellPlay retrieval memory (MiniLM sentence embeddings)"
"""What the embeddings extra brings to WellPlay, as a missing extra names it."""

_SENTENCE = re.compile(r"(?<=[.!?;\u3002\uff01\uff1f\uff1b])\s*|\n+")
"""Where a sentence ends: after . ! ? ; (or their CJK forms), or at a line break."""


class Embedder:
    """The embedding model's tokenizer and encoder (the offline model unless one is given)."""

    def __init__(self, model: Any | None = None) -> None:
        self._model = model if model is not None else load_sentence_model(FEATURE)

    def _offsets(self, text: str) -> list[tuple[int, int]]:
        encoded = self._model.tokenizer(
            text, add_special_tokens=False, return_offsets_mapping=True, verbose=False
        )
        return [(int(a), int(b)) for a, b in encoded["offset_mapping"]]

    def tokens(self, text: str) -> int:
        """The tokens of ``text``."""
        return len(self._offsets(text))

    def segments(self, text: str, size: int = SEGMENT_TOKENS) -> list[str]:
        """``text`` cut into segments of at most ``size`` tokens: whole sentences packed
        together, a sentence longer than ``size`` cut at token boundaries."""
        out: list[str] = []
        current: list[str] = []
        count = 0
        for sentence in (s.strip() for s in _SENTENCE.split(text)):
            if not sentence:
                continue
            offsets = self._offsets(sentence)
            if count and count + len(offsets) > size:
                out.append(" ".join(current))
                current, count = [], 0
            if len(offsets) > size:
                out += _cut(sentence, offsets, size)
                continue
            current.append(sentence)
            count += len(offsets)
        if current:
            out.append(" ".join(current))
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        """Unit vectors of ``texts``, one row each."""
        vectors = self._model.encode(
            list(texts), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)


def _cut(sentence: str, offsets: Sequence[tuple[int, int]], size: int) -> list[str]:
    """A sentence of more than ``size`` tokens in pieces of at most ``size``, each cut where a
    word ends (a token after a space) when the piece holds such a place, else at a token."""
    pieces = []
    start = 0
    while start < len(offsets):
        end = min(start + size, len(offsets))
        if end < len(offsets):
            word = next(
                (k for k in range(end, start, -1) if offsets[k][0] > offsets[k - 1][1]), None
            )
            end = word if word is not None else end
        pieces.append(sentence[offsets[start][0] : offsets[end - 1][1]])
        start = end
    return pieces


@dataclass
class Store:
    """Segments with their token counts and unit vectors (one row each)."""

    texts: list[str] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    vectors: np.ndarray[Any, np.dtype[np.float32]] | None = None

    def add(self, embedder: Embedder, texts: Sequence[str]) -> None:
        """Add segments."""
        if not texts:
            return
        vectors = embedder.embed(texts)
        self.vectors = vectors if self.vectors is None else np.vstack([self.vectors, vectors])
        self.texts += texts
        self.tokens += [embedder.tokens(t) for t in texts]

    def recall(self, query: np.ndarray[Any, np.dtype[np.float32]], budget: int) -> list[str]:
        """The most similar segments that fit ``budget`` tokens together, in stored order."""
        if self.vectors is None:
            return []
        order = np.argsort(-(self.vectors @ query), kind="stable")
        chosen: list[int] = []
        used = 0
        for index in order.tolist():
            if used + self.tokens[index] <= budget:
                chosen.append(index)
                used += self.tokens[index]
        return [self.texts[i] for i in sorted(chosen)]


@dataclass(frozen=True)
class Recalled:
    """What a character has in context for one question: its script (whole, or the passages
    recalled, in order) and the exchanges of the conversation."""

    script: str
    said: tuple[str, ...]


class RetrievalMemory:
    """Every character's script segments and the conversation's exchanges, searchable."""

    def __init__(self, scripts: dict[str, str], embedder: Embedder | None = None) -> None:
        self.embedder = embedder if embedder is not None else Embedder()
        self.scripts: dict[str, Store] = {}
        for name, text in scripts.items():
            store = Store()
            store.add(self.embedder, self.embedder.segments(text))
            self.scripts[name] = store
        self.said = Store()
        self._queries: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}

    def remember(self, exchange: str) -> None:
        """Keep one exchange of the conversation (a question and its answer) as one segment."""
        self.said.add(self.embedder, [exchange])

    def recall(self, character: str, query: str, budget: int) -> Recalled:
        """The passages of ``character``'s script and of the conversation that bear most on
        ``query``, each within ``budget`` tokens."""
        if query not in self._queries:
            self._queries[query] = self.embedder.embed([query])[0]
        vector = self._queries[query]
        script = "\n".join(self.scripts[character].recall(vector, budget))
        return Recalled(script, tuple(self.said.recall(vector, budget)))
