"""The attribute reader's function words: negation, hedges, words that only fill, the ways of
naming the described thing, contrasts, the joints between clauses, and irregular word forms.

These are the reader's own grammar; the words of the attributes themselves come from the
vocabulary (``attributes``) it is given. A word that is part of one of the vocabulary's
predicate names is never dropped as a filler or taken as a hedge ("mainly" in ``Mainly``).
"""

from __future__ import annotations

Phrase = tuple[str, ...]

DENIALS: tuple[Phrase, ...] = (
    ("it", "is", "not", "the", "case", "that"),
    ("it", "is", "not", "true", "that"),
    ("it", "is", "false", "that"),
    ("it", "is", "untrue", "that"),
    ("do", "not"),
    ("does", "not"),
    ("did", "not"),
    ("not",),
    ("never",),
    ("no",),
)
"""Phrases that deny the clause they stand in (a lone "no" is the determiner: "it has no
seeds"); "do not" drops its auxiliary, so "does not live" reads as "live" denied."""

HEDGES: tuple[Phrase, ...] = (
    ("i", "think"),
    ("i", "believe"),
    ("i", "guess"),
    ("i", "suppose"),
    ("i", "would", "say"),
    ("i", "feel"),
    ("it", "seems"),
    ("it", "may", "be", "that"),
    ("some", "say"),
    ("people", "say"),
    ("kind", "of"),
    ("sort", "of"),
    ("in", "a", "way"),
    ("maybe",),
    ("perhaps",),
    ("possibly",),
    ("probably",),
    ("presumably",),
    ("might",),
    ("may",),
    ("could",),
    ("would",),
    ("should",),
    ("likely",),
    ("sometimes",),
    ("often",),
    ("usually",),
    ("typically",),
    ("generally",),
    ("mostly",),
    ("somewhat",),
    ("arguably",),
    ("apparently",),
    ("supposedly",),
    ("seemingly",),
    ("allegedly",),
)
"""Phrases that offer a clause without asserting it ("kind of" and "sort of" only where no
article makes them a kind: "a kind of tea" is a tea)."""

FILLERS: tuple[Phrase, ...] = (
    ("a", "kind", "of"),
    ("a", "type", "of"),
    ("a", "sort", "of"),
    ("a", "variety", "of"),
    ("a", "form", "of"),
    ("one", "kind", "of"),
    ("some", "kind", "of"),
    ("some", "type", "of"),
    ("as", "well"),
    ("in", "fact"),
    ("of", "course"),
    ("a",),
    ("an",),
    ("the",),
    ("some",),
    ("any",),
    ("also",),
    ("really",),
    ("very",),
    ("quite",),
    ("truly",),
    ("actually",),
    ("indeed",),
    ("definitely",),
    ("certainly",),
    ("surely",),
    ("clearly",),
    ("always",),
    ("just",),
    ("even",),
    ("too",),
)
"""Phrases read as nothing: articles, intensifiers and "a kind of" ("a kind of tea" is a tea)."""

SUBJECTS: tuple[Phrase, ...] = (
    ("the", "thing", "on", "my", "card"),
    ("the", "word", "on", "my", "card"),
    ("my", "word"),
    ("my", "item"),
    ("my", "card"),
    ("the", "item"),
    ("the", "word"),
    ("the", "thing"),
    ("this", "thing"),
    ("this", "one"),
    ("this", "word"),
    ("this",),
    ("item",),
    ("they",),
)
"""Other ways of naming the described thing; each reads as "it"."""

CONTRASTS: tuple[Phrase, ...] = (
    ("compared", "to"),
    ("compared", "with"),
    ("in", "contrast", "to"),
    ("as", "opposed", "to"),
    ("just", "like"),
    ("unlike",),
    ("like",),
)
"""Phrases that open a contrast with something else ("Unlike Ceylon tea, it is flavoured"):
set off by a comma at the start or end of a sentence, the contrast says nothing of the thing."""

JOINS = frozenset({"and", "but", "while", "whereas", "yet", "which", "that"})
"""Words that may join two clauses ("which" and "that" open a clause about the thing)."""

IRREGULAR: dict[str, str] = {
    "is": "be",
    "are": "be",
    "was": "be",
    "were": "be",
    "am": "be",
    "been": "be",
    "being": "be",
    "has": "have",
    "had": "have",
    "having": "have",
    "does": "do",
    "did": "do",
    "done": "do",
    "doing": "do",
    "grew": "grow",
    "grown": "grow",
    "arose": "arise",
    "arisen": "arise",
    "ate": "eat",
    "eaten": "eat",
    "made": "make",
    "built": "build",
    "spun": "spin",
    "caught": "catch",
    "taught": "teach",
    "felt": "feel",
    "hung": "hang",
    "came": "come",
    "known": "know",
    "knew": "know",
    "found": "find",
    "thought": "think",
    "brought": "bring",
    "drunk": "drink",
    "drank": "drink",
    "spat": "spit",
    "leaves": "leaf",
    "children": "child",
    "people": "person",
    "men": "man",
    "women": "woman",
}
"""Word forms the suffix rules would not bring to their base form; their base forms then go
through the suffix rules like any word."""

UNSTEMMED = frozenset({"its", "this", "his", "hers", "ours", "yours", "theirs", "thus", "species"})
"""Words the suffix rules would spoil ("its" is not "it")."""
