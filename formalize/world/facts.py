"""Facts a case can state about a world, each with its formula over the theory's atoms.

Closed-world facts ("only X and Y had a key to the cellar", "only Z owed the victim money")
name everyone the statement rules out, so the formula says it outright. ``holds_in`` tells
whether a fact is true of a world; a generator only ever states true facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from formalize.world import atoms
from formalize.world.setting import Setting
from formalize.world.world import World
from reasoning.formula import And, Atom, Formula, Not, Or, conj, disj
from reasoning.formula import atoms as atoms_of


@dataclass(frozen=True, slots=True)
class Seen:
    """``person`` was (``present``) or was not in ``place`` at ``slot``."""

    person: str
    place: str
    slot: int
    present: bool = True


@dataclass(frozen=True, slots=True)
class Met:
    """``a`` and ``b`` were (``together``) or were not in the same place at ``slot``."""

    a: str
    b: str
    slot: int
    together: bool = True


@dataclass(frozen=True, slots=True)
class Held:
    """``person`` held (or did not hold) weapon ``item`` at ``slot``."""

    person: str
    item: str
    slot: int
    held: bool = True


@dataclass(frozen=True, slots=True)
class KeyHolders:
    """Only ``people`` had a copy of ``key`` (closed world)."""

    key: str
    people: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HasMotive:
    """``person`` had (or did not have) ``motive``."""

    person: str
    motive: str
    has: bool = True


@dataclass(frozen=True, slots=True)
class MotiveHolders:
    """Only ``people`` had ``motive`` (closed world)."""

    motive: str
    people: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TimeAmong:
    """Crime ``crime`` happened during one of ``slots``."""

    crime: int
    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SceneAmong:
    """Crime ``crime`` happened in one of ``places``."""

    crime: int
    places: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MethodWas:
    """Crime ``crime`` was done by ``method``."""

    crime: int
    method: str


@dataclass(frozen=True, slots=True)
class WeaponNot:
    """Crime ``crime`` was not done with ``item``."""

    crime: int
    item: str


@dataclass(frozen=True, slots=True)
class MotiveAmong:
    """Crime ``crime`` was done for one of ``motives``."""

    crime: int
    motives: tuple[str, ...]


Fact = (
    Seen
    | Met
    | Held
    | KeyHolders
    | HasMotive
    | MotiveHolders
    | TimeAmong
    | SceneAmong
    | MethodWas
    | WeaponNot
    | MotiveAmong
)


def _sign(formula: Formula, positive: bool) -> Formula:
    return formula if positive else Not(formula)


def fact_formula(fact: Fact, setting: Setting) -> Formula:
    """The fact as a formula over the background theory's atoms."""
    match fact:
        case Seen(person, place, slot, present):
            return _sign(atoms.at(person, place, slot), present)
        case Met(a, b, slot, together):
            met = disj(
                And((atoms.at(a, p.id, slot), atoms.at(b, p.id, slot))) for p in setting.places
            )
            return _sign(met, together)
        case Held(person, item, slot, held):
            return _sign(atoms.holds(person, item, slot), held)
        case KeyHolders(key, people):
            return conj(_sign(atoms.has_key(p.id, key), p.id in people) for p in setting.people)
        case HasMotive(person, motive, has):
            return _sign(atoms.has_motive(person, motive), has)
        case MotiveHolders(motive, people):
            return conj(
                _sign(atoms.has_motive(p.id, motive), p.id in people) for p in setting.people
            )
        case TimeAmong(crime, slots):
            return disj(atoms.time(crime, t) for t in slots)
        case SceneAmong(crime, places):
            return disj(atoms.scene(crime, lid) for lid in places)
        case MethodWas(crime, method):
            return atoms.method(crime, method)
        case WeaponNot(crime, item):
            return Not(atoms.weapon(crime, item))
        case MotiveAmong(crime, motives):
            return disj(atoms.motive(crime, m) for m in motives)


def holds_in(fact: Fact, world: World) -> bool:
    """Whether ``fact`` is true of ``world``."""
    match fact:
        case Seen(person, place, slot, present):
            return (world.positions[person][slot] == place) == present
        case Met(a, b, slot, together):
            return (world.positions[a][slot] == world.positions[b][slot]) == together
        case Held(person, item, slot, held):
            return (world.holdings.get((item, slot)) == person) == held
        case KeyHolders(key, people):
            return world.key_holders.get(key, frozenset()) == frozenset(people)
        case HasMotive(person, motive, has):
            return (motive in world.motives_of.get(person, frozenset())) == has
        case MotiveHolders(motive, people):
            having = {p for p, ms in world.motives_of.items() if motive in ms}
            return having == set(people)
        case TimeAmong(crime, slots):
            return world.crimes[crime - 1].slot in slots
        case SceneAmong(crime, places):
            return world.crimes[crime - 1].place in places
        case MethodWas(crime, method):
            return world.crimes[crime - 1].method == method
        case WeaponNot(crime, item):
            return world.crimes[crime - 1].weapon != item
        case MotiveAmong(crime, motives):
            return world.crimes[crime - 1].motive in motives


def _literals(formula: Formula) -> list[tuple[list[str], bool]]:
    """The formula's atoms split at ``_`` with their signs, read through one And or Or (and a
    negation around it)."""
    whole, outer = formula, True
    if isinstance(formula, Not) and isinstance(formula.body, And | Or):
        whole, outer = formula.body, False
    parts = whole.parts if isinstance(whole, And | Or) else (whole,)
    out: list[tuple[list[str], bool]] = []
    for part in parts:
        body, positive = (part.body, not outer) if isinstance(part, Not) else (part, outer)
        if isinstance(body, And):
            out += [(a.pred.split("_"), positive) for a in atoms_of(body)]
        elif isinstance(body, Atom):
            out.append((body.pred.split("_"), positive))
    return out


def _candidates(formula: Formula) -> list[Fact]:
    """The facts whose formula could be ``formula``, judged by its atoms' names alone."""
    literals = _literals(formula)
    if not literals:
        return []
    (head, sign) = literals[0]
    positive = [name for name, s in literals if s]
    kind = head[0]
    out: list[Fact] = []
    try:
        if kind == "at" and len(head) == 4:
            people = list(dict.fromkeys(name[1] for name, _ in literals))
            slot = int(head[3])
            if len(people) == 1:
                out.append(Seen(head[1], head[2], slot, sign))
            elif len(people) == 2:
                out += [Met(people[0], people[1], slot, t) for t in (True, False)]
        elif kind == "holds" and len(head) == 4:
            out.append(Held(head[1], head[2], int(head[3]), sign))
        elif kind == "key" and len(head) == 3:
            out.append(KeyHolders(head[2], tuple(sorted(name[1] for name in positive))))
        elif kind == "motive" and len(head) == 3:
            out.append(HasMotive(head[1], head[2], sign))
            out.append(MotiveHolders(head[2], tuple(sorted(name[1] for name in positive))))
        elif kind.startswith("c") and kind[1:].isdigit() and len(head) == 3:
            crime, rest = int(kind[1:]), [name[2] for name, _ in literals]
            match head[1]:
                case "time":
                    out.append(TimeAmong(crime, tuple(int(t) for t in rest)))
                case "scene":
                    out.append(SceneAmong(crime, tuple(rest)))
                case "method":
                    out.append(MethodWas(crime, head[2]))
                case "weapon":
                    out.append(WeaponNot(crime, head[2]))
                case "motive":
                    out.append(MotiveAmong(crime, tuple(rest)))
    except ValueError:
        return []
    return out


def fact_of(formula: Formula, setting: Setting) -> Fact | None:
    """The fact whose formula (``fact_formula``) is ``formula``, or None when none is."""
    for fact in _candidates(formula):
        try:
            if fact_formula(fact, setting) == formula:
                return fact
        except (StopIteration, IndexError):
            continue
    return None
