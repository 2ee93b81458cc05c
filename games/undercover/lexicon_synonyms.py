"""Predicate synonyms: the names a formaliser may pick for the predicates of a pair's lexicon.

A synonym group lists names for one concept, a leading ``~`` marking a name for its negation:
``["Have", "Contain", "Possess"]``, ``["Flavoured", "Flavored", "~Unflavoured"]``. Within a word
pair, the one member the pair's vocabulary uses is canonical and every other member reads as it
(negated when the two polarities differ). Groups come from the shipped ``data/synonyms.json``
(general English, applying to every pair that uses one of their names) and from a pair's own
lexicon file (its ``synonyms`` field). A general group that names none, or more than one, of a
pair's predicates does not apply to that pair.

Besides the groups, a name differing from a predicate of the pair only in case, or the plural of
a one-place predicate (``Seeds`` for ``Seed``, ``Cherries`` for ``Cherry``), reads as it.
``SynonymTable.canonical`` rewrites a formula into the pair's own vocabulary; names it does not
know are left as they are, so the card test sees them as unknown and undetermined.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

from pydantic import BaseModel, ConfigDict, ValidationError

from games.core.runlog import field_errors
from reasoning.formula import Atom, Formula, Not, rebuild, with_children
from reasoning.sorts import Signature
from reasoning.textfile import UserFileError, parse_user_json

SYNONYMS_FILE = "synonyms.json"
MEMBER_PATTERN = r"^~?[A-Z][A-Za-z0-9]*$"
_PLURAL_ES = re.compile(r"(?:s|x|z|ch|sh)$")
_PLURAL_IES = re.compile(r"[^aeiou]y$")

SynonymGroup = tuple[str, ...]
"""Names of one concept; ``~Name`` names its negation."""


class SynonymError(ValueError):
    """A synonyms file or group that cannot be used; the message names the file and field."""


@dataclass(frozen=True, slots=True)
class Synonym:
    """``name`` reads as the pair's predicate ``canonical``, negated when ``negated``."""

    name: str
    canonical: str
    negated: bool = False

    def atom(self, atom: Atom) -> Formula:
        """``atom`` (whose predicate is ``name``) in the pair's vocabulary."""
        renamed = Atom(self.canonical, atom.args)
        return Not(renamed) if self.negated else renamed


def _member(text: str) -> tuple[str, bool]:
    """A group member's name and whether it names the negation."""
    return (text[1:], True) if text.startswith("~") else (text, False)


def plurals(name: str) -> tuple[str, ...]:
    """The English plurals of a predicate name's last word (``Seed`` -> ``Seeds``)."""
    if _PLURAL_IES.search(name):
        return (name[:-1] + "ies",)
    if _PLURAL_ES.search(name):
        return (name + "es",)
    return (name + "s",)


class SynonymTable:
    """The synonyms of one word pair: each name a formaliser may use, read into the pair's
    vocabulary (``vocabulary``: the pair's sorted signature)."""

    def __init__(self, vocabulary: Signature, groups: Iterable[SynonymGroup]) -> None:
        """The table of ``groups`` over ``vocabulary``; a group naming none or several of its
        predicates is left out (``SynonymError`` is the pair loader's business)."""
        self.vocabulary = vocabulary
        explicit: dict[str, Synonym] = {}
        for group in groups:
            canonical = group_canonical(group, vocabulary)
            if canonical is None:
                continue
            name, polarity = canonical
            for member in group:
                other, other_polarity = _member(member)
                if other != name and other not in vocabulary.predicates:
                    explicit.setdefault(other, Synonym(other, name, other_polarity != polarity))
        derived: dict[str, Synonym] = {}
        for predicate, sorts in vocabulary.predicates.items():
            if len(sorts) != 1:
                continue
            for plural in plurals(predicate):
                if plural not in vocabulary.predicates and plural not in explicit:
                    derived.setdefault(plural, Synonym(plural, predicate))
        self._entries = {**derived, **explicit}
        folded: dict[str, Synonym | None] = {}
        names = {p: Synonym(p, p) for p in vocabulary.predicates}
        for name, synonym in {**self._entries, **names}.items():
            key = name.casefold()
            folded[key] = synonym if folded.get(key, synonym) == synonym else None
        self._folded = folded

    @property
    def entries(self) -> tuple[Synonym, ...]:
        """Every synonym by name, sorted: the groups' members and the derived plurals (case
        variants are matched by ``lookup`` and not listed)."""
        return tuple(self._entries[name] for name in sorted(self._entries))

    def lookup(self, name: str, arity: int | None = None) -> Synonym | None:
        """How the predicate ``name`` (with ``arity`` arguments, if given) reads in the pair's
        vocabulary; None for one of the pair's own predicates and for an unknown name."""
        if name in self.vocabulary.predicates:
            return None
        found = self._entries.get(name) or self._folded.get(name.casefold())
        if found is None:
            return None
        sorts = self.vocabulary.predicates[found.canonical]
        if arity is not None and arity != len(sorts):
            return None
        return Synonym(name, found.canonical, found.negated)

    def canonical(self, formula: Formula) -> Formula:
        """``formula`` with every predicate that has a synonym here renamed (and negated) into
        the pair's vocabulary; the rest unchanged."""

        def node(_: int, g: Formula, parts: tuple[Formula, ...]) -> Formula:
            if isinstance(g, Atom):
                synonym = self.lookup(g.pred, len(g.args))
                return g if synonym is None else synonym.atom(g)
            return with_children(g, parts)

        return rebuild(formula, node)


def group_canonical(group: SynonymGroup, vocabulary: Signature) -> tuple[str, bool] | None:
    """The one member of ``group`` the vocabulary uses (name, negated), None when it uses none
    or more than one."""
    used = [_member(m) for m in group if _member(m)[0] in vocabulary.predicates]
    return used[0] if len(used) == 1 else None


class SynonymsFile(BaseModel):
    """The shipped general synonyms: a list of groups."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    synonyms: tuple[tuple[str, ...], ...]


def check_groups(groups: Sequence[Sequence[str]], source: str, field: str) -> None:
    """SynonymError naming ``source`` and the field when a group has fewer than two members, a
    malformed member, or a name twice (across all groups)."""
    seen: dict[str, int] = {}
    for index, group in enumerate(groups):
        if len(group) < 2:
            raise SynonymError(f"{source}: field '{field}.{index}': a group needs two names")
        for member in group:
            if not re.fullmatch(MEMBER_PATTERN, member):
                raise SynonymError(
                    f"{source}: field '{field}.{index}': {member!r} is not a predicate name "
                    "(a capital letter, then letters and digits; '~' in front for a negation)"
                )
            name = _member(member)[0]
            if name in seen:
                raise SynonymError(
                    f"{source}: field '{field}.{index}': {name!r} is already in group {seen[name]}"
                )
            seen[name] = index


def general_groups() -> tuple[SynonymGroup, ...]:
    """The shipped general synonym groups (``data/synonyms.json``)."""
    source = f"data/{SYNONYMS_FILE}"
    text = resources.files(__package__).joinpath("data").joinpath(SYNONYMS_FILE)
    try:
        model = SynonymsFile.model_validate(parse_user_json(text.read_text("utf-8"), source))
    except UserFileError as err:
        raise SynonymError(str(err)) from None
    except ValidationError as err:
        raise SynonymError(f"{source}: {field_errors(err)}") from None
    check_groups(model.synonyms, source, "synonyms")
    return model.synonyms
