"""The deal's randomness, bit for bit as the reference engine draws it.

The reference engine (the Hanabi Learning Environment, C++) seeds one ``std::mt19937`` with the
game's seed and draws every card with ``std::discrete_distribution`` over the card identities
still in the deck, weighted by copies left. libstdc++ normalises the weights, takes partial sums
(the last forced to 1), draws one ``generate_canonical<double, 53>`` from two 32-bit outputs and
returns the first partial sum not below it; with a single weight it returns 0 and draws nothing.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

_N = 624
_M = 397
_MASK = 0xFFFFFFFF
_TWO_32 = 4294967296.0
_TWO_64 = 18446744073709551616.0
_BELOW_ONE = 1.0 - 2.0**-53


class MT19937:
    """The 32-bit Mersenne Twister, seeded as ``std::mt19937::seed(value)``.

    The first ``624 - 397`` words after a twist depend on the untwisted state only, so they are
    computed one at a time as drawn (a game deals at most 100 words); the whole state is twisted
    only when more are needed.
    """

    __slots__ = ("_index", "_lazy", "_state")

    def __init__(self, seed: int) -> None:
        state = [seed & _MASK]
        prev = state[0]
        append = state.append
        for i in range(1, _N):
            prev = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK
            append(prev)
        self._state = state
        self._index = 0
        self._lazy = True

    def _twist(self) -> None:
        mt = self._state
        for i in range(_N):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % _N] & 0x7FFFFFFF)
            value = mt[(i + _M) % _N] ^ (y >> 1)
            if y & 1:
                value ^= 0x9908B0DF
            mt[i] = value
        self._lazy = False

    def next_u32(self) -> int:
        """The next 32-bit output, tempered."""
        i = self._index
        mt = self._state
        if self._lazy and i < _N - _M:
            y = (mt[i] & 0x80000000) | (mt[i + 1] & 0x7FFFFFFF)
            y = mt[i + _M] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        else:
            if self._lazy or i >= _N:
                self._twist()
                i = 0 if i >= _N else i
            y = mt[i]
        self._index = i + 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def canonical(self) -> float:
        """``std::generate_canonical<double, 53>``: a double in [0, 1) from two outputs."""
        low = float(self.next_u32())
        total = low + float(self.next_u32()) * _TWO_32
        value = total / _TWO_64
        return _BELOW_ONE if value >= 1.0 else value


def discrete_index(rng: MT19937, weights: Sequence[float]) -> int:
    """``std::discrete_distribution(weights)(rng)`` as libstdc++ computes it."""
    if len(weights) < 2:
        return 0
    total = 0.0
    for weight in weights:
        total += weight
    cumulative: list[float] = []
    running = 0.0
    for weight in weights:
        running += weight / total
        cumulative.append(running)
    cumulative[-1] = 1.0
    return bisect_left(cumulative, rng.canonical())
