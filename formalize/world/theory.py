"""The background theory of a setting: the rules every reader of a case may use.

One place per person per slot; moves only along a passage (or staying put) from one slot to the
next; only a holder of a locked place's key is ever inside it; a weapon is held by at most one
person at a time; per crime exactly one scene, time, weapon, method and motive and exactly the
stated number of killers, none of them its victim; every killer was at the scene at the time, a
killer held the weapon then, a killer had the motive, the weapon fixes the method (and the
method narrows the weapon), and the victim's body lies at the scene from the time on. All of it
is propositional with cardinality constraints, grounded over the setting.
"""

from __future__ import annotations

from functools import lru_cache

from formalize.world import atoms
from formalize.world.setting import Setting
from reasoning.formula import And, Card, Formula, Implies, Not, conj, disj
from reasoning.prover import Axiom


def _whereabouts(setting: Setting) -> list[Axiom]:
    places = [p.id for p in setting.places]
    slots = range(len(setting.slots))
    one_place: list[Formula] = [
        Card("exactly", 1, tuple(atoms.at(p.id, lid, t) for lid in places))
        for p in setting.people
        for t in slots
    ]
    moves: list[Formula] = [
        Implies(
            atoms.at(p.id, lid, t),
            disj(atoms.at(p.id, nid, t + 1) for nid in [lid, *setting.neighbours(lid)]),
        )
        for p in setting.people
        for lid in places
        for t in range(len(setting.slots) - 1)
    ]
    locks: list[Formula] = [
        Implies(atoms.at(p.id, place.id, t), atoms.has_key(p.id, place.key))
        for place in setting.places
        if place.key is not None
        for p in setting.people
        for t in slots
    ]
    holders: list[Formula] = [
        Card("atmost", 1, tuple(atoms.holds(p.id, w.id, t) for p in setting.people))
        for w in setting.weapons
        for t in slots
    ]
    out = [Axiom("one_place", conj(one_place)), Axiom("moves", conj(moves))]
    if locks:
        out.append(Axiom("locks", conj(locks)))
    out.append(Axiom("one_holder", conj(holders)))
    return out


def _crime(setting: Setting, index: int) -> list[Axiom]:
    spec = setting.crimes[index - 1]
    people = [p.id for p in setting.people]
    slots = range(len(setting.slots))
    weapons = setting.weapons
    roles: list[Formula] = [
        Card("exactly", spec.killers, tuple(atoms.culprit(index, p) for p in people)),
        Not(atoms.culprit(index, spec.victim)),
        Card("exactly", 1, tuple(atoms.scene(index, p.id) for p in setting.places)),
        Card("exactly", 1, tuple(atoms.time(index, t) for t in slots)),
        Card("exactly", 1, tuple(atoms.weapon(index, w.id) for w in weapons)),
        Card("exactly", 1, tuple(atoms.method(index, m.id) for m in setting.methods)),
        Card("exactly", 1, tuple(atoms.motive(index, m.id) for m in setting.motives)),
    ]
    presence: list[Formula] = [
        Implies(
            And((atoms.culprit(index, p), atoms.scene(index, lid.id), atoms.time(index, t))),
            atoms.at(p, lid.id, t),
        )
        for p in people
        for lid in setting.places
        for t in slots
    ]
    body: list[Formula] = [
        Implies(
            And((atoms.scene(index, lid.id), atoms.time(index, t))),
            conj(atoms.at(spec.victim, lid.id, later) for later in range(t, len(setting.slots))),
        )
        for lid in setting.places
        for t in slots
    ]
    armed: list[Formula] = [
        Implies(
            And((atoms.time(index, t), atoms.weapon(index, w.id))),
            disj(And((atoms.culprit(index, p), atoms.holds(p, w.id, t))) for p in people),
        )
        for w in weapons
        for t in slots
    ]
    means: list[Formula] = [
        Implies(atoms.weapon(index, w.id), atoms.method(index, w.method or "")) for w in weapons
    ]
    means += [
        Implies(
            atoms.method(index, m.id),
            disj(atoms.weapon(index, w.id) for w in weapons if w.method == m.id),
        )
        for m in setting.methods
    ]
    motives: list[Formula] = [
        Implies(
            atoms.motive(index, m.id),
            disj(And((atoms.culprit(index, p), atoms.has_motive(p, m.id))) for p in people),
        )
        for m in setting.motives
    ]
    name = f"crime{index}"
    return [
        Axiom(f"{name}_roles", conj(roles)),
        Axiom(f"{name}_presence", conj(presence)),
        Axiom(f"{name}_body", conj(body)),
        Axiom(f"{name}_armed", conj(armed)),
        Axiom(f"{name}_means", conj(means)),
        Axiom(f"{name}_motive", conj(motives)),
    ]


@lru_cache(maxsize=16)
def _theory_of(setting_json: str) -> tuple[Axiom, ...]:
    setting = Setting.model_validate_json(setting_json)
    out = _whereabouts(setting)
    for index in range(1, len(setting.crimes) + 1):
        out += _crime(setting, index)
    return tuple(out)


def background_theory(setting: Setting) -> list[Axiom]:
    """The setting's rules as named axioms (one per kind of rule), all propositional.

    Built once per distinct setting (a few recent ones are kept), since checks ask for it often.
    """
    return list(_theory_of(setting.model_dump_json()))
