"""Statements about a thing as the attribute reader compares them: folded, cut into pieces, each
word brought to a stem, the function words marked (denials, hedges, joints) or dropped
(articles, intensifiers), other names of the thing read as "it", and the names a formaliser may
give a predicate read as the vocabulary's own (``contains`` as ``has``, ``unflavoured`` as
``not flavoured``).

Every piece keeps where it stands in the text as given, so a reading can point at the words
that decided it. A statement and a phrase of the vocabulary are compared piece by piece after
this normalisation, so both go through the same steps.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from formalize.davidsonian.render import words as name_words
from formalize.reading import attribute_words as aw
from formalize.reading.text import Token, fold, tokens

PieceKind = Literal["word", "not", "hedge", "comma", "end", "question"]
"""What a piece is: a word (its stem), a denial, a hedge, a comma (or colon), the end of a
statement (full stop, "!", ";"), or the question mark that ends a question."""

_VARIABLE = re.compile(r"^(?:[b-hj-z]|[a-z]\d+)$")
_AFTER_BE = frozenset({"it", "this", "that", "there", "what", "who", "which"})
_CONTRACTED = {"'ll": "will", "'re": "are", "'ve": "have", "'d": "would", "'m": "am"}
_DROPPED = frozenset({"-", '"', "'", "`", "*", "_"})
_ENDS = frozenset({".", "!", ";"})
_COMMAS = frozenset({",", ":"})
_LINKS = frozenset({"of", "and", "to", "in", "on", "at", "for", "with", "from", "by", "a", "the"})
"""Words of predicate names ("OilOfBergamot") that do not stop a phrase from being a filler."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of a statement: ``word`` (the stem of a word; "not", "hedge", ",", "." or "?"
    for the others), the folded words it stands for (``raw``), its kind and its span."""

    word: str
    raw: str
    kind: PieceKind
    start: int
    end: int


def stem(word: str) -> str:
    """A crude, consistent stem: irregular forms to their base, then plural, past and -ing
    endings and a final "e" cut ("flavoured", "flavouring" and "flavour" share "flavour")."""
    word = aw.IRREGULAR.get(word, word)
    if not word.isalpha() or len(word) <= 3 or word in aw.UNSTEMMED:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "ches", "shes", "xes", "zzes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ied") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ed") and len(word) > 4:
        word = _undouble(word[:-2])
    elif word.endswith("ing") and len(word) > 5:
        word = _undouble(word[:-3])
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _undouble(word: str) -> str:
    if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "aeioulsz":
        return word[:-1]
    return word


def stems(text: str) -> tuple[str, ...]:
    """The stems of a name's or phrase's words (a CamelCase name is split first)."""
    return (
        tuple(stem(w) for w in name_words(text) if w.isalnum())
        if text[:1].isupper()
        else tuple(stem(t.word) for t in tokens(fold(text)) if t.word.isalnum())
    )


class Normaliser:
    """Cuts statements into pieces for one vocabulary: ``synonyms`` are (name, canonical name,
    negated) triples of predicate names, ``predicates`` the vocabulary's own names; a word of any
    of these names is never taken for a filler or a hedge."""

    def __init__(
        self, predicates: Iterable[str], synonyms: Iterable[tuple[str, str, bool]] = ()
    ) -> None:
        names = list(predicates)
        triples = list(synonyms)
        keep = {w for n in names for w in name_words(n)}
        keep |= {
            w for name, canonical, _ in triples for w in (*name_words(name), *name_words(canonical))
        }
        self.keep = frozenset(w.lower() for w in keep) - _LINKS
        self._marks: dict[aw.Phrase, PieceKind | Literal["drop", "it"]] = {}
        for phrase in aw.DENIALS:
            self._marks[phrase] = "not"
        for phrase in aw.HEDGES:
            if not set(phrase) & self.keep:
                self._marks[phrase] = "hedge"
        for phrase in aw.FILLERS:
            if not set(phrase) & self.keep:
                self._marks[phrase] = "drop"
        for phrase in aw.SUBJECTS:
            self._marks[phrase] = "it"
        self._longest_mark = max(len(p) for p in self._marks)
        rewrites: dict[tuple[str, ...], tuple[tuple[str, ...], bool] | None] = {}
        for name in names:
            rewrites[stems(name)] = (stems(name), False)
        for name, canonical, negated in triples:
            source, target = stems(name), (stems(canonical), negated)
            if not source or (source in rewrites and rewrites[source] not in (None, target)):
                if stems(name) not in {stems(n) for n in names}:
                    rewrites[source] = None
                continue
            rewrites[source] = target
        self._rewrites = {k: v for k, v in rewrites.items() if v is not None and k}
        self._longest_rewrite = max((len(k) for k in self._rewrites), default=1)

    def pieces(self, text: str) -> list[Piece]:
        """``text`` as pieces (see the module docstring)."""
        return self._synonyms(self._marked(_expanded(tokens(fold(text)))))

    def _marked(self, toks: list[Token]) -> list[Piece]:
        out: list[Piece] = []
        i = 0
        while i < len(toks):
            for n in range(min(self._longest_mark, len(toks) - i), 0, -1):
                phrase = tuple(t.word for t in toks[i : i + n])
                mark = self._marks.get(phrase)
                if mark is None:
                    continue
                first, last = toks[i], toks[i + n - 1]
                raw = " ".join(phrase)
                if mark == "it":
                    out.append(Piece("it", raw, "word", first.start, last.end))
                elif mark != "drop":
                    out.append(Piece(mark, raw, mark, first.start, last.end))
                i += n
                break
            else:
                out.append(_piece(toks[i]))
                i += 1
        return out

    def _synonyms(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        i = 0
        while i < len(pieces):
            run = 0
            while i + run < len(pieces) and pieces[i + run].kind == "word":
                run += 1
            for n in range(min(self._longest_rewrite, run), 0, -1):
                key = tuple(p.word for p in pieces[i : i + n])
                target = self._rewrites.get(key)
                if target is None:
                    continue
                first, last = pieces[i], pieces[i + n - 1]
                raw = " ".join(p.raw for p in pieces[i : i + n])
                words, negated = target
                if negated:
                    out.append(Piece("not", raw, "not", first.start, last.end))
                out.extend(Piece(w, raw, "word", first.start, last.end) for w in words)
                i += n
                break
            else:
                out.append(pieces[i])
                i += 1
        return out


def _expanded(toks: Sequence[Token]) -> list[Token]:
    """Contractions spelt out ("it's" is "it is", "cannot" is "can not"), quotes, dashes and
    the variables of a rendered formula ("y1") dropped."""
    out: list[Token] = []
    for t in toks:
        word = t.word
        if word in _DROPPED or _VARIABLE.match(word):
            continue
        if word == "'s" and out and out[-1].word in _AFTER_BE:
            out.append(Token("is", t.start, t.end))
        elif word in _CONTRACTED:
            out.append(Token(_CONTRACTED[word], t.start, t.end))
        elif word == "cannot":
            out += [Token("can", t.start, t.start + 3), Token("not", t.start + 3, t.end)]
        else:
            out.append(t)
    return out


def _piece(t: Token) -> Piece:
    if t.word in _ENDS:
        return Piece(".", t.word, "end", t.start, t.end)
    if t.word == "?":
        return Piece("?", t.word, "question", t.start, t.end)
    if t.word in _COMMAS:
        return Piece(",", t.word, "comma", t.start, t.end)
    return Piece(stem(t.word), t.word, "word", t.start, t.end)
