"""Seeded random worlds: a setting and a truth that satisfies its background theory.

Places form a random tree plus a few extra passages; locked places are leaves of the tree, so
the rest stays connected. Each person walks from slot to slot along passages, meeting the
waypoints the crimes impose (killers and victim at the scene at the time, the body there after)
and keeping out of locked places they have no key to; innocents keep away from a scene at its
time, so alibis can clear them. Roles and relations are fitted to names and stations
(``stations``) from the same draws.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from formalize.world import vocabulary as vocab
from formalize.world.setting import CrimeSpec, Item, Named, Person, Place, Relation, Setting
from formalize.world.stations import fitted_relation, fitted_role
from formalize.world.world import Crime, World


class WorldGenerationError(RuntimeError):
    """No world met the requested shape within the attempt budget."""


@dataclass(frozen=True, slots=True)
class WorldConfig:
    """The shape of a generated world; ``killers`` gives each crime's number of killers."""

    suspects: int = 5
    places: int = 15
    slots: int = 5
    weapons: int = 5
    locked: int = 2
    motives: int = 5
    killers: tuple[int, ...] = (1,)

    def __post_init__(self) -> None:
        if not 1 <= len(self.killers) <= 4 or any(k not in (1, 2) for k in self.killers):
            raise ValueError("killers: one entry (1 or 2) per crime, 1 to 4 crimes")
        if self.suspects < max(self.killers) + 2 or self.suspects > len(vocab.ROLES):
            raise ValueError(f"suspects: between {max(self.killers) + 2} and {len(vocab.ROLES)}")
        if not 4 <= self.places <= len(vocab.PLACES):
            raise ValueError(f"places: between 4 and {len(vocab.PLACES)}")
        if not 2 <= self.slots <= len(vocab.HOURS):
            raise ValueError(f"slots: between 2 and {len(vocab.HOURS)}")
        if not 2 <= self.weapons <= len(vocab.WEAPONS):
            raise ValueError(f"weapons: between 2 and {len(vocab.WEAPONS)}")
        if not 0 <= self.locked <= self.places // 3:
            raise ValueError("locked: at most a third of the places")
        if not 2 <= self.motives <= len(vocab.MOTIVES):
            raise ValueError(f"motives: between 2 and {len(vocab.MOTIVES)}")


def _slug(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _distances(setting: Setting, target: str, allowed: set[str]) -> dict[str, int]:
    dist = {target: 0}
    queue = deque([target])
    while queue:
        here = queue.popleft()
        for nxt in setting.neighbours(here):
            if nxt in allowed and nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def _walk(
    rng: random.Random,
    setting: Setting,
    allowed: set[str],
    waypoints: dict[int, str],
    avoid: dict[int, str],
) -> tuple[str, ...] | None:
    """A walk over ``allowed`` places meeting every waypoint and avoiding ``avoid``, or None."""
    n = len(setting.slots)
    dist = {lid: _distances(setting, lid, allowed) for lid in set(waypoints.values())}

    def fits(place: str, slot: int) -> bool:
        if avoid.get(slot) == place:
            return False
        return all(
            dist[goal].get(place, n + 1) <= at - slot
            for at, goal in waypoints.items()
            if at >= slot
        )

    options = [lid for lid in sorted(allowed) if fits(lid, 0)]
    if not options:
        return None
    path = [rng.choice(options)]
    for slot in range(1, n):
        here = path[-1]
        steps = [here, *(nid for nid in setting.neighbours(here) if nid in allowed)]
        options = [lid for lid in steps if fits(lid, slot)]
        if not options:
            return None
        stay = here in options and rng.random() < 0.3
        path.append(here if stay else rng.choice(options))
    return tuple(path)


def _setting(rng: random.Random, cfg: WorldConfig) -> Setting:
    n_people = cfg.suspects + len(cfg.killers)
    firsts = rng.sample(vocab.FIRST_NAMES, n_people)
    surnames = rng.sample(vocab.SURNAMES, n_people)
    roles = rng.sample(vocab.VICTIM_ROLES, len(cfg.killers)) + rng.sample(vocab.ROLES, cfg.suspects)
    people = [
        Person(id=_slug(f), name=f"{f} {s}", role=fitted_role(r, f))
        for f, s, r in zip(firsts, surnames, roles, strict=True)
    ]
    names = rng.sample(vocab.PLACES, cfg.places)
    parent = {i: rng.randrange(i) for i in range(1, cfg.places)}
    passages = {(names[parent[i]], names[i]) for i in parent}
    leaves = [i for i in range(1, cfg.places) if i not in parent.values()]
    locked = set(rng.sample(leaves, min(cfg.locked, len(leaves))))
    free = [i for i in range(cfg.places) if i not in locked]
    for _ in range(cfg.places // 4):
        a, b = rng.sample(free, 2)
        if (names[b], names[a]) not in passages:
            passages.add((names[a], names[b]))
    weapons = rng.sample(vocab.WEAPONS, cfg.weapons)
    items = [Item(id=_slug(w), name=w, kind="weapon", method=m) for w, m in weapons]
    places = []
    for i, name in enumerate(names):
        key = f"{_slug(name)}key" if i in locked else None
        places.append(Place(id=_slug(name), name=name, key=key))
        if key is not None:
            items.append(Item(id=key, name=f"key to the {name}", kind="key"))
    methods = sorted({m for _, m in weapons})
    motives = rng.sample(vocab.MOTIVES, cfg.motives)
    victims = people[: len(cfg.killers)]
    relations = []
    for p in people[len(cfg.killers) :]:
        victim = rng.choice(victims)
        index = rng.randrange(len(vocab.RELATIONS))
        kind = fitted_relation(vocab.RELATIONS[index], index, p.role, p.name)
        relations.append(Relation(a=p.id, b=victim.id, kind=kind))
    return Setting(
        title=rng.choice(vocab.HOUSES),
        people=people,
        places=places,
        passages=sorted((_slug(a), _slug(b)) for a, b in passages),
        slots=list(vocab.HOURS[: cfg.slots]),
        items=items,
        methods=[Named(id=m, name=vocab.METHODS[m]) for m in methods],
        motives=[Named(id=m, name=text) for m, text in motives],
        relations=relations,
        crimes=[
            CrimeSpec(victim=v.id, killers=k) for v, k in zip(victims, cfg.killers, strict=True)
        ],
    )


def _try_world(rng: random.Random, setting: Setting, cfg: WorldConfig) -> World | None:
    suspects = [p.id for p in setting.suspects]
    key_holders = {
        k.id: frozenset(rng.sample(suspects, rng.choice((1, 1, 2)))) for k in setting.keys
    }
    motive_ids = [m.id for m in setting.motives]
    motives_of = {p: frozenset(rng.sample(motive_ids, rng.choice((1, 2)))) for p in suspects}
    unlocked = [p.id for p in setting.places if p.key is None]
    crimes: list[Crime] = []
    waypoints: dict[str, dict[int, str]] = {p.id: {} for p in setting.people}
    avoid: dict[str, dict[int, str]] = {p.id: {} for p in setting.people}
    for spec in setting.crimes:
        killers = tuple(sorted(rng.sample(suspects, spec.killers)))
        slot = rng.randrange(1, len(setting.slots))
        free = [
            w for w in setting.weapons if all((c.weapon, c.slot) != (w.id, slot) for c in crimes)
        ]
        if not free:
            return None
        crime_weapon = rng.choice(free)
        place = rng.choice(unlocked)
        crimes.append(
            Crime(
                victim=spec.victim,
                killers=killers,
                weapon=crime_weapon.id,
                method=crime_weapon.method or "",
                place=place,
                slot=slot,
                motive=rng.choice(sorted(motives_of[killers[0]])),
            )
        )
        for killer in killers:
            if waypoints[killer].get(slot, place) != place:
                return None
            waypoints[killer][slot] = place
        for later in range(slot, len(setting.slots)):
            waypoints[spec.victim][later] = place
        for person in suspects:
            if person not in killers:
                avoid[person][slot] = place
    positions: dict[str, tuple[str, ...]] = {}
    for pid in (p.id for p in setting.people):
        allowed = {p.id for p in setting.places if p.key is None or pid in key_holders[p.key]}
        walk = _walk(rng, setting, allowed, waypoints[pid], avoid[pid])
        if walk is None:
            return None
        positions[pid] = walk
    holdings: dict[tuple[str, int], str] = {}
    for w in setting.weapons:
        for t in range(len(setting.slots)):
            if rng.random() < 0.4:
                holdings[(w.id, t)] = rng.choice(suspects)
    for crime in crimes:
        holdings[(crime.weapon, crime.slot)] = crime.killers[0]
    return World(setting, positions, holdings, key_holders, motives_of, tuple(crimes))


def generate_world(seed: int, config: WorldConfig | None = None, attempts: int = 200) -> World:
    """A random world for ``seed``; the same seed and config give the same world."""
    cfg = config or WorldConfig()
    rng = random.Random(seed)
    for _ in range(attempts):
        setting = _setting(rng, cfg)
        world = _try_world(rng, setting, cfg)
        if world is not None:
            return world
    raise WorldGenerationError(f"no world of this shape found in {attempts} attempts")
