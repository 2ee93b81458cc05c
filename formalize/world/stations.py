"""People's stations: which roles fit which names, which relations fit which roles, and a check.

A generated household is drawn from word pools; drawn blindly, a pool gives "Basil, a wealthy
widow" or "the gardener is the widow's employer". Here each role has a station (the gentry a
crime befalls, household staff, employed professionals, a professional adviser, kin, friends),
gendered roles have both forms, and each station names the relations to the gentry it can have.
``fitted_role`` and ``fitted_relation`` turn a blind draw into a fitting one without drawing
again (so a seed's world stays the world it was); ``station_problems`` is the check, run on every
generated case and usable on any setting.
"""

from __future__ import annotations

from typing import Literal

from formalize.world.setting import Setting

Station = Literal["gentry", "staff", "employed", "adviser", "kin", "friend"]
"""Where a person stands in the house."""

FEMININE: frozenset[str] = frozenset(
    {
        "Ada",
        "Cora",
        "Edith",
        "Greta",
        "Irene",
        "Kitty",
        "Maud",
        "Olive",
        "Rosalind",
        "Tabitha",
        "Winifred",
        "Beatrix",
    }
)
MASCULINE: frozenset[str] = frozenset(
    {
        "Basil",
        "Desmond",
        "Felix",
        "Hugo",
        "Jasper",
        "Lionel",
        "Nigel",
        "Percy",
        "Silas",
        "Victor",
        "Alfred",
        "Cecil",
    }
)
"""The first names of the word pools, by the pronoun a story uses for them."""

ROLE_FORMS: tuple[tuple[str, str], ...] = (
    ("the master of the house", "the mistress of the house"),
    ("a wealthy widower", "a wealthy widow"),
    ("a retired colonel", "a retired headmistress"),
    ("the butler", "the lady's maid"),
    ("the steward", "the housekeeper"),
    ("the stable master", "the parlourmaid"),
    ("the tutor", "the governess"),
    ("an old army friend", "an old school friend"),
)
"""Roles with a man's and a woman's form (the other roles fit anyone)."""

STATIONS: dict[str, Station] = {
    "the master of the house": "gentry",
    "the mistress of the house": "gentry",
    "a wealthy widower": "gentry",
    "a wealthy widow": "gentry",
    "a retired colonel": "gentry",
    "a retired headmistress": "gentry",
    "a shipping magnate": "gentry",
    "a celebrated novelist": "gentry",
    "the butler": "staff",
    "the lady's maid": "staff",
    "the cook": "staff",
    "the gardener": "staff",
    "the steward": "staff",
    "the housekeeper": "staff",
    "the chauffeur": "staff",
    "the stable master": "staff",
    "the parlourmaid": "staff",
    "the private secretary": "employed",
    "the nurse": "employed",
    "the tutor": "employed",
    "the governess": "employed",
    "the family solicitor": "adviser",
    "a visiting cousin": "kin",
    "an old army friend": "friend",
    "an old school friend": "friend",
}
"""The station of every role the word pools hold, in both forms."""

RELATIONS_TO_GENTRY: dict[Station, tuple[str, ...]] = {
    "gentry": ("sibling", "cousin", "old friend", "rival", "creditor", "former fiance"),
    "staff": ("servant", "confidant", "creditor"),
    "employed": ("employee", "confidant", "creditor"),
    "adviser": ("solicitor", "creditor", "old friend"),
    "kin": ("cousin",),
    "friend": ("old friend", "rival", "creditor", "former fiance"),
}
"""What a person of each station can be to one of the gentry ("a is b's <kind>"); a woman's
``former fiance`` is written ``former fiancee``."""


def feminine(name: str) -> bool | None:
    """Whether the person called ``name`` is a woman, a man (False), or unknown (None)."""
    first = name.split()[0] if name.split() else ""
    if first in FEMININE:
        return True
    if first in MASCULINE:
        return False
    return None


def fitted_role(role: str, name: str) -> str:
    """``role`` in the form that fits the person called ``name`` (unchanged if ungendered)."""
    woman = feminine(name)
    for man_form, woman_form in ROLE_FORMS:
        if role in (man_form, woman_form) and woman is not None:
            return woman_form if woman else man_form
    return role


def _gendered(kind: str, woman: bool | None) -> str:
    if kind in ("former fiance", "former fiancee"):
        return "former fiancee" if woman else "former fiance"
    return kind


def fitted_relation(drawn: str, index: int, role: str, name: str) -> str:
    """The relation a person of ``role`` called ``name`` has to one of the gentry: ``drawn``
    when the station allows it, else the allowed kind at ``index`` (the draw's position, so no
    second draw is needed); ``drawn`` as it was for a role of no known station."""
    station = STATIONS.get(role)
    if station is None:
        return drawn
    allowed = RELATIONS_TO_GENTRY[station]
    kind = drawn if drawn in allowed else allowed[index % len(allowed)]
    return _gendered(kind, feminine(name))


def station_problems(setting: Setting) -> list[str]:
    """Every role that does not fit its person's name and every relation that does not fit the
    two people's stations, one line each (people of roles outside the pools are not judged)."""
    problems: list[str] = []
    for person in setting.people:
        if fitted_role(person.role, person.name) != person.role:
            problems.append(f"{person.name} is called {person.role!r}")
    for rel in setting.relations:
        a, b = setting.person(rel.a), setting.person(rel.b)
        station_a, station_b = STATIONS.get(a.role), STATIONS.get(b.role)
        if station_a is None or station_b is None:
            continue
        if station_b != "gentry":
            problems.append(f"{a.name} is {b.name}'s {rel.kind}, but {b.name} is {b.role}")
            continue
        allowed = {_gendered(k, feminine(a.name)) for k in RELATIONS_TO_GENTRY[station_a]}
        if rel.kind not in allowed:
            problems.append(f"{a.name}, {a.role}, is {b.name}'s {rel.kind}")
    return problems
