"""The public structure of a mystery: who, where, when, with what, and why it could have been.

A ``Setting`` is what every reader of a case may know: the people, the places and the passages
between them, which places are locked and by which key, the time slots, the items (weapons with
the method each implies, and keys), the motives, the relations between people, and each crime's
victim and number of killers. The background theory is built from it alone; the hidden truth is
a ``World`` over it. Ids are lowercase identifiers, so they can be parts of atom names.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_ID = re.compile(r"^[a-z][a-z0-9]*$")


class Named(BaseModel):
    """An id with the words used for it in English text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=_ID.pattern)
    name: str = Field(min_length=1)


class Person(Named):
    """A person of the story; ``role`` says who they are (``the cook``)."""

    role: str = ""


class Place(Named):
    """A place; ``key`` is the id of the key item that opens it, None when it is never locked."""

    key: str | None = None


class Item(Named):
    """An object: a weapon (with the ``method`` its use implies) or a key."""

    kind: Literal["weapon", "key"]
    method: str | None = None


class Relation(BaseModel):
    """How person ``a`` stands to person ``b`` (``kind`` reads "a is b's <kind>")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    a: str
    b: str
    kind: str = Field(min_length=1)


class CrimeSpec(BaseModel):
    """A crime everyone knows happened: its victim and how many killers did it together."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    victim: str
    killers: int = Field(default=1, ge=1, le=2)


class Setting(BaseModel):
    """Everything public about a mystery; references between its parts are checked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str = Field(min_length=1)
    people: list[Person] = Field(min_length=2)
    places: list[Place] = Field(min_length=2)
    passages: list[tuple[str, str]]
    slots: list[str] = Field(min_length=1)
    items: list[Item]
    methods: list[Named] = Field(min_length=1)
    motives: list[Named] = Field(min_length=1)
    relations: list[Relation] = []
    crimes: list[CrimeSpec] = Field(min_length=1, max_length=4)

    @model_validator(mode="after")
    def _references(self) -> Setting:
        groups = {
            "people": [p.id for p in self.people],
            "places": [p.id for p in self.places],
            "items": [i.id for i in self.items],
            "methods": [m.id for m in self.methods],
            "motives": [m.id for m in self.motives],
        }
        for group, ids in groups.items():
            if len(set(ids)) != len(ids):
                raise ValueError(f"{group}: ids must be unique")
        people, places = set(groups["people"]), set(groups["places"])
        keys = {i.id for i in self.items if i.kind == "key"}
        methods = set(groups["methods"])
        for a, b in self.passages:
            if a not in places or b not in places or a == b:
                raise ValueError(f"passages: ({a}, {b}) must join two different known places")
        for place in self.places:
            if place.key is not None and place.key not in keys:
                raise ValueError(f"places: {place.id} is locked by unknown key {place.key!r}")
        for item in self.items:
            if (item.kind == "weapon") != (item.method in methods):
                raise ValueError(f"items: {item.id} needs a known method iff it is a weapon")
        for rel in self.relations:
            if rel.a not in people or rel.b not in people:
                raise ValueError(f"relations: ({rel.a}, {rel.b}) names an unknown person")
        for crime in self.crimes:
            if crime.victim not in people:
                raise ValueError(f"crimes: unknown victim {crime.victim!r}")
        if not any(i.kind == "weapon" for i in self.items):
            raise ValueError("items: at least one weapon is needed")
        return self

    def person(self, pid: str) -> Person:
        """The person with id ``pid``."""
        return next(p for p in self.people if p.id == pid)

    def place(self, lid: str) -> Place:
        """The place with id ``lid``."""
        return next(p for p in self.places if p.id == lid)

    def item(self, oid: str) -> Item:
        """The item with id ``oid``."""
        return next(i for i in self.items if i.id == oid)

    def method(self, mid: str) -> Named:
        """The method with id ``mid``."""
        return next(m for m in self.methods if m.id == mid)

    def motive(self, mid: str) -> Named:
        """The motive with id ``mid``."""
        return next(m for m in self.motives if m.id == mid)

    @property
    def weapons(self) -> list[Item]:
        """The items that are weapons."""
        return [i for i in self.items if i.kind == "weapon"]

    @property
    def keys(self) -> list[Item]:
        """The items that are keys."""
        return [i for i in self.items if i.kind == "key"]

    @property
    def victims(self) -> frozenset[str]:
        """The ids of every crime's victim."""
        return frozenset(c.victim for c in self.crimes)

    @property
    def suspects(self) -> list[Person]:
        """The people who are not victims: everyone who could have killed."""
        return [p for p in self.people if p.id not in self.victims]

    def neighbours(self, lid: str) -> list[str]:
        """The places one passage away from ``lid``, in the order the places are listed."""
        joined = {b for a, b in self.passages if a == lid} | {
            a for a, b in self.passages if b == lid
        }
        return [p.id for p in self.places if p.id in joined]
