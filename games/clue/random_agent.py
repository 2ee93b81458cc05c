"""A seeded random Clue agent: the baseline and the fallback for agents that fail to answer."""

from __future__ import annotations

import random

from games.clue.agent import Accuse, ClueAction, ClueObservation, Phase, Show, Suggest


class RandomAgent:
    """Suggests three random cards, shows a random matching card, and accuses only when it must.

    Its final accusation picks, per category, a random card outside its own hand. Two agents built
    with the same seed make the same choices from the same observations.
    """

    def __init__(self, seed: int, name: str = "random") -> None:
        self._rng = random.Random(seed)
        self._name = name

    @property
    def name(self) -> str:
        """The agent's name, recorded in the log."""
        return self._name

    def act(self, obs: ClueObservation) -> ClueAction:
        """A random legal action for ``obs.phase``."""
        rng = self._rng
        if obs.phase is Phase.REFUTE:
            return Show(card=rng.choice(obs.matching))
        if obs.phase is Phase.FINAL_ACCUSATION:
            own = {card.name for card in obs.hand}

            def pick(names: tuple[str, ...]) -> str:
                return rng.choice([n for n in names if n not in own])

            return Accuse(
                suspect=pick(obs.suspects), weapon=pick(obs.weapons), room=pick(obs.rooms)
            )
        if obs.phase is Phase.TURN:
            return Suggest(
                suspect=rng.choice(obs.suspects),
                weapon=rng.choice(obs.weapons),
                room=rng.choice(obs.rooms),
            )
        raise ValueError(f"no decision to make in phase {obs.phase.value}")
