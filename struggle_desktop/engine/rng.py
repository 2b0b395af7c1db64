"""The game's own seeded random generator (PCG32, XSH-RR variant).

Game dice never use the ``random`` module: its algorithms may change between Python versions and
old saves would replay differently. The generator's whole state is two integers, stored in the
game state, so a saved game resumes with the very same future rolls.

>>> rng = Rng.from_seed(1)
>>> [rng.d10() for _ in range(5)]  # doctest: +SKIP
[...]
>>> a, b = Rng.from_seed(7), Rng.from_seed(7)
>>> a.below(1000) == b.below(1000)
True
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005


class Rng:
    """PCG32: 64-bit linear congruential state, 32-bit permuted output."""

    __slots__ = ("state", "inc")

    def __init__(self, state: int, inc: int):
        self.state = state & _MASK64
        self.inc = (inc | 1) & _MASK64

    @classmethod
    def from_seed(cls, seed: int, stream: int = 54) -> "Rng":
        """The reference PCG32 seeding procedure (pcg32_srandom_r)."""
        rng = cls(0, (stream << 1) | 1)
        rng.next_u32()
        rng.state = (rng.state + (seed & _MASK64)) & _MASK64
        rng.next_u32()
        return rng

    @classmethod
    def from_json(cls, data: list[int]) -> "Rng":
        return cls(int(data[0]), int(data[1]))

    def to_json(self) -> list[int]:
        return [self.state, self.inc]

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = (0x100000000 - n) % n
        inc = self.inc
        while True:
            # next_u32, written out: the game's dice come through here thousands of times.
            old = self.state
            self.state = (old * _MULT + inc) & _MASK64
            xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
            rot = old >> 59
            r = ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF
            if r >= threshold:
                return r % n

    # Dice are named by what the rules use (ARCHITECTURE.md section 3).
    def d10(self) -> int:
        """A ten-sided die with faces 0-9."""
        return self.below(10)

    def d6(self) -> int:
        """A six-sided die with faces 1-6."""
        return self.below(6) + 1

    def d66(self) -> int:
        """Two d6 read as tens and units: 11..66."""
        return self.d6() * 10 + self.d6()

    def pick_index(self, n: int) -> int:
        """One uniform draw among n things (a draw from a cup, a random unit...)."""
        return self.below(n)
