"""The interrogation script file: a game's scripts as JSON a user can save, share and check.

The file holds the public ``setting``; the hidden ``truth`` (each person's room per slot, who
held which weapon when, key holders, motives, and each crime); the ``players`` (living people,
in seat order); and, as formula text over the setting's atoms (one fact per string), the public
``intro``, each player's ``scripts``, its ``secrets`` (facts of its script it may withhold), and
each murderer's ``covers`` (the script it pretends to); ``objectives`` list each player's goals.
Every fact must be one a script can hold (a sighting, a holding, a motive, the crime's scene,
time or method). ``load_scripts`` checks every reference and names the file, line and field of
the first problem; ``dump_scripts`` writes the form it reads back.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from formalize.interrogation.script import Objective, Scripts, secrets_of
from formalize.world.atoms import vocabulary
from formalize.world.facts import Fact, fact_formula, fact_of
from formalize.world.setting import Setting
from formalize.world.world import Crime, World
from reasoning.formula import atoms
from reasoning.jsonpos import FormulaText, line_in, parse_model, read_json_text
from reasoning.syntax import format_formula, parse_formula

SCHEMA_VERSION = 1
MAX_SCRIPT_BYTES = 16 * 1024 * 1024
"""The largest script file read (a generated game's file is about 100 kB)."""


class ScriptFileError(ValueError):
    """A script file that cannot be used; the message names the file, line and field."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Holding(_Model):
    """``person`` held weapon ``item`` during ``slot``."""

    item: str
    slot: int = Field(ge=0)
    person: str


class CrimeTruth(_Model):
    """What really happened in one crime (the setting lists the crimes in the same order)."""

    victim: str
    killers: list[str] = Field(min_length=1)
    weapon: str
    method: str
    place: str
    slot: int = Field(ge=0)
    motive: str


class Truth(_Model):
    """The hidden world: ``positions[person][slot]`` is a place id."""

    positions: dict[str, list[str]]
    holdings: list[Holding] = []
    key_holders: dict[str, list[str]] = {}
    motives: dict[str, list[str]] = {}
    crimes: list[CrimeTruth] = Field(min_length=1)


class ObjectiveEntry(_Model):
    """A goal of a player's script; ``crime`` (1-based) or ``about`` (a person id) say what it
    is about, for scoring (see ``Objective``)."""

    text: str = Field(min_length=1)
    points: int = Field(ge=0)
    kind: str = Field(min_length=1)
    crime: int | None = Field(default=None, ge=1)
    about: str | None = None


class ScriptFile(_Model):
    """A whole script file as stored (see the module docstring)."""

    schema_version: int = SCHEMA_VERSION
    setting: Setting
    truth: Truth
    players: list[str] = Field(min_length=2)
    intro: list[FormulaText]
    scripts: dict[str, list[FormulaText]]
    secrets: dict[str, list[FormulaText]] = {}
    objectives: dict[str, list[ObjectiveEntry]] = {}
    covers: dict[str, list[FormulaText]] = {}


def _check_truth(file: ScriptFile) -> None:
    """ValueError naming the field of the first reference the truth gets wrong."""
    s = file.setting
    people = {p.id for p in s.people}
    places = {p.id for p in s.places}
    weapons = {w.id for w in s.weapons}
    t = file.truth
    if file.schema_version != SCHEMA_VERSION:
        raise ValueError(f"schema_version: this reader knows version {SCHEMA_VERSION}")
    if set(t.positions) != people:
        raise ValueError("truth.positions: must give every person of the setting, and only them")
    for person, path in t.positions.items():
        if len(path) != len(s.slots) or not set(path) <= places:
            raise ValueError(f"truth.positions.{person}: one known place per slot")
    for i, h in enumerate(t.holdings):
        if h.item not in weapons or h.person not in people or h.slot >= len(s.slots):
            raise ValueError(f"truth.holdings.{i}: an unknown weapon, person or slot")
    if len(t.crimes) != len(s.crimes):
        raise ValueError("truth.crimes: one for each crime of the setting")
    for i, (c, spec) in enumerate(zip(t.crimes, s.crimes, strict=True)):
        known = (
            c.victim == spec.victim
            and len(c.killers) == spec.killers
            and set(c.killers) <= people
            and c.weapon in weapons
            and c.method in {m.id for m in s.methods}
            and c.place in places
            and c.slot < len(s.slots)
            and c.motive in {m.id for m in s.motives}
        )
        if not known:
            raise ValueError(f"truth.crimes.{i}: does not fit the setting's crime {i + 1}")
    if len(set(file.players)) != len(file.players) or not set(file.players) <= people:
        raise ValueError("players: distinct people of the setting")
    for group in ("scripts", "secrets", "objectives", "covers"):
        extra = set(getattr(file, group)) - set(file.players)
        if extra:
            raise ValueError(f"{group}: {sorted(extra)[0]!r} is not a player")
    for player, goals in file.objectives.items():
        for i, goal in enumerate(goals):
            if (goal.crime is not None and goal.crime > len(s.crimes)) or (
                goal.about is not None and goal.about not in people
            ):
                raise ValueError(f"objectives.{player}.{i}: an unknown crime or person")
    missing = set(file.players) - set(file.scripts)
    if missing:
        raise ValueError(f"scripts: no script for player {sorted(missing)[0]!r}")


def _facts(texts: list[str], where: str, setting: Setting) -> tuple[Fact, ...]:
    words = vocabulary(setting)
    out = []
    for i, text in enumerate(texts):
        formula = parse_formula(text)
        unknown = sorted({a.pred for a in atoms(formula)} - words)
        if unknown:
            raise ValueError(f"{where}.{i}: {unknown[0]} is not an atom of the setting")
        fact = fact_of(formula, setting)
        if fact is None:
            raise ValueError(f"{where}.{i}: {text!r} is not a fact a script can hold")
        out.append(fact)
    return tuple(out)


def _scripts(file: ScriptFile) -> Scripts:
    """The scripts a validated file describes (ValueError naming the field otherwise)."""
    _check_truth(file)
    s, t = file.setting, file.truth
    world = World(
        setting=s,
        positions={p: tuple(path) for p, path in t.positions.items()},
        holdings={(h.item, h.slot): h.person for h in t.holdings},
        key_holders={k: frozenset(v) for k, v in t.key_holders.items()},
        motives_of={p: frozenset(v) for p, v in t.motives.items()},
        crimes=tuple(
            Crime(c.victim, tuple(c.killers), c.weapon, c.method, c.place, c.slot, c.motive)
            for c in t.crimes
        ),
    )
    scripts = {p: _facts(file.scripts[p], f"scripts.{p}", s) for p in file.players}
    secrets = {
        p: frozenset(_facts(file.secrets[p], f"secrets.{p}", s))
        if p in file.secrets
        else secrets_of(scripts[p], p)
        for p in file.players
    }
    for p, held in secrets.items():
        if not held <= set(scripts[p]):
            raise ValueError(f"secrets.{p}: a secret that is not in its script")
    murderers = {k for c in world.crimes for k in c.killers}
    covers = {p: _facts(f, f"covers.{p}", s) for p, f in file.covers.items()}
    if set(covers) != murderers & set(file.players):
        raise ValueError("covers: one cover story for each murderer among the players, no more")
    return Scripts(
        world=world,
        players=tuple(file.players),
        intro=_facts(file.intro, "intro", s),
        scripts=scripts,
        secrets=secrets,
        objectives={
            p: tuple(
                Objective(o.text, o.points, o.kind, o.crime, o.about)
                for o in file.objectives.get(p, [])
            )
            for p in file.players
        },
        covers=covers,
    )


def parse_scripts(text: str, source: str = "<string>") -> Scripts:
    """Scripts from JSON text; ScriptFileError says ``source:line: field: what is wrong``."""
    file = parse_model(text, ScriptFile, source, ScriptFileError)
    try:
        return _scripts(file)
    except ValueError as err:
        where, _, message = str(err).partition(": ")
        loc = tuple(int(p) if p.isdigit() else p for p in where.split("."))
        raise ScriptFileError(
            f"{source}:{line_in(text, loc)}: field '{where}': {message}"
        ) from None


def load_scripts(path: str | Path) -> Scripts:
    """Read a script file; ScriptFileError names the file and line of the first problem."""
    return parse_scripts(read_json_text(Path(path), MAX_SCRIPT_BYTES, ScriptFileError), str(path))


def _texts(facts: tuple[Fact, ...] | frozenset[Fact], setting: Setting) -> list[str]:
    return [format_formula(fact_formula(f, setting)) for f in facts]


def dump_scripts(scripts: Scripts) -> str:
    """The scripts as indented JSON, the form ``load_scripts`` reads back."""
    world = scripts.world
    s = world.setting
    file = ScriptFile(
        setting=s,
        truth=Truth(
            positions={p: list(path) for p, path in world.positions.items()},
            holdings=[
                Holding(item=item, slot=slot, person=person)
                for (item, slot), person in sorted(world.holdings.items())
            ],
            key_holders={k: sorted(v) for k, v in sorted(world.key_holders.items())},
            motives={p: sorted(v) for p, v in sorted(world.motives_of.items())},
            crimes=[
                CrimeTruth(
                    victim=c.victim,
                    killers=list(c.killers),
                    weapon=c.weapon,
                    method=c.method,
                    place=c.place,
                    slot=c.slot,
                    motive=c.motive,
                )
                for c in world.crimes
            ],
        ),
        players=list(scripts.players),
        intro=_texts(scripts.intro, s),
        scripts={p: _texts(scripts.scripts[p], s) for p in scripts.players},
        secrets={
            p: _texts(tuple(f for f in scripts.scripts[p] if f in scripts.secrets[p]), s)
            for p in scripts.players
        },
        objectives={
            p: [
                ObjectiveEntry(
                    text=o.text, points=o.points, kind=o.kind, crime=o.crime, about=o.about
                )
                for o in objs
            ]
            for p, objs in scripts.objectives.items()
        },
        covers={p: _texts(f, s) for p, f in scripts.covers.items()},
    )
    return file.model_dump_json(indent=2) + "\n"
