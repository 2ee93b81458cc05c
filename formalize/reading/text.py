"""An answer's text as the offline reader sees it: folded character by character (so every
offset is an offset of the text as given) and cut into word tokens.

Folding lower-cases, strips accents, turns Unicode quotes, apostrophes and dashes into their
ASCII forms, and control and other invisible characters into spaces. Contractions are split so
negation reads as a word of its own ("wasn't" -> ``was`` ``not``), and a possessive ``'s`` is a
token of its own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_CHARS = 4000
"""The longest answer the offline reader reads; a longer one is ``unsure`` in every slot."""

_SAME: dict[str, str] = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u02bc": "'",
    "`": "'",
    "\u00b4": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u00ab": '"',
    "\u00bb": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2015": "-",
    "\u2212": "-",
    "\u2026": ".",
    "\uff0c": ",",
    "\uff1b": ";",
    "\uff1a": ":",
    "\u3002": ".",
}


def _fold(ch: str) -> str:
    if ch in _SAME:
        return _SAME[ch]
    if unicodedata.category(ch)[0] in "CZ":
        return " "
    low = ch.lower()
    if len(low) != 1:
        return ch
    if low.isascii():
        return low
    base = unicodedata.normalize("NFKD", low)[0]
    return base if base.isascii() and base.isalpha() else low


def fold(text: str) -> str:
    """``text`` folded character by character: the result has the same length."""
    return "".join(_fold(ch) for ch in text)


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its folded ``word`` and where it stands in the text (``start``, ``end``)."""

    word: str
    start: int
    end: int

    @property
    def ascii_word(self) -> bool:
        """Whether the token is made of ASCII letters and digits (else another script)."""
        return self.word.isascii()


_TOKEN = re.compile(r"\w+(?:'\w+)*|[^\w\s]")
_NEGATED = {"can't": ("can", "not"), "won't": ("will", "not"), "shan't": ("shall", "not")}


def _split(word: str, start: int) -> list[Token]:
    """A word with an apostrophe split into its parts (``n't`` as ``not``, ``'s`` apart)."""
    if word in _NEGATED:
        first, second = _NEGATED[word]
        return [Token(first, start, start + 2), Token(second, start + 2, start + len(word))]
    if word.endswith("n't"):
        stem = len(word) - 3
        return [
            Token(word[:stem], start, start + stem),
            Token("not", start + stem, start + stem + 3),
        ]
    head, _, tail = word.partition("'")
    if tail in ("s", "ll", "re", "ve", "d", "m") and head:
        cut = start + len(head)
        return [Token(head, start, cut), Token("'" + tail, cut, start + len(word))]
    return [Token(word, start, start + len(word))]


def tokens(folded: str) -> list[Token]:
    """The tokens of a folded text: words (with contractions split) and punctuation marks."""
    out: list[Token] = []
    for m in _TOKEN.finditer(folded):
        word = m.group()
        out += _split(word, m.start()) if "'" in word else [Token(word, m.start(), m.end())]
    return out
