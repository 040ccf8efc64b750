"""Rotating partners in Straight: who sits at which table of four each round, with whom.

A whist schedule has every two players partner exactly once and play against each other
exactly twice. One exists for every 4n and 4n + 1 players: for 4n players it takes 4n - 1
rounds and nobody sits out; for 4n + 1 players it takes 4n + 1 rounds and each player sits out
one. The whist schedules kept here are for 4, 5, 8, 9, 12, 13, 16, 17, 20, 21,
24, 25, 28, 29, 32, 37, 40, 41 players.

For any other number of players the closest schedule is searched for, the same one every
time: repeat partners are avoided first, then pairs who never partner, then who plays against
whom is spread as evenly as it will go. 4n + 2 and 4n + 3 players play as many rounds as there
are players, each sitting out two or three of them.

How the rounds are kept: players are numbered as the elements of a small group (the numbers
0 to m - 1 added modulo m; for 9 players, pairs added modulo 3), possibly in two copies, plus
one player for 4n players who stays put. Only a first round is kept; round k is that first
round with k added to every number (with 3k for 4n + 3 players when 3 does not divide them).
A first round's difference between two players is the same in every round turned from it, so
who partners and opposes whom over the night can be counted on the first rounds alone.
Byes come in turn: nobody sits out twice before everybody has sat out once.

Everything here counts players by number, 0 to count - 1; nights/draw.py puts names to them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

#: A table of four by seat: seats 1 and 3 partner against seats 2 and 4.
Four = tuple[int, int, int, int]

#: the first rounds of the whist schedules kept: count -> (the group's moduli, tables). The
#: player numbered count - 1 stays put for 4n players; player 0 sits out the first round
#: for 4n + 1 players.
WHIST_FIRST_ROUNDS: dict[int, tuple[tuple[int, ...], tuple[Four, ...]]] = {
    4: ((3,), ((3, 1, 0, 2),)),
    5: ((5,), ((1, 2, 4, 3),)),
    8: ((7,), ((0, 1, 5, 7), (2, 4, 6, 3))),
    9: ((3, 3), ((1, 3, 2, 6), (4, 5, 8, 7))),
    12: ((11,), ((0, 4, 9, 8), (1, 2, 6, 3), (5, 7, 11, 10))),
    13: ((13,), ((1, 5, 12, 8), (2, 3, 11, 10), (4, 6, 9, 7))),
    16: ((15,), ((0, 6, 2, 7), (1, 3, 11, 14), (4, 13, 10, 5), (8, 9, 15, 12))),
    17: ((17,), ((1, 4, 16, 13), (2, 8, 15, 9), (3, 5, 14, 12), (6, 7, 11, 10))),
    20: ((19,), ((0, 1, 10, 17), (2, 3, 19, 15), (4, 9, 6, 14), (5, 7, 18, 11), (8, 12, 16, 13))),
    21: ((21,), ((1, 2, 11, 9), (3, 4, 16, 19), (5, 15, 17, 20), (6, 12, 8, 13), (7, 18, 10, 14))),
    24: (
        (23,),
        (
            (0, 1, 19, 15),
            (2, 23, 3, 17),
            (4, 13, 20, 7),
            (5, 11, 10, 22),
            (6, 8, 21, 18),
            (9, 14, 12, 16),
        ),
    ),
    25: (
        (25,),
        (
            (1, 10, 24, 15),
            (2, 8, 23, 17),
            (3, 4, 22, 21),
            (5, 7, 20, 18),
            (6, 11, 19, 14),
            (9, 12, 16, 13),
        ),
    ),
    28: (
        (27,),
        (
            (1, 12, 26, 15),
            (2, 7, 25, 20),
            (3, 5, 24, 22),
            (4, 11, 23, 16),
            (8, 9, 19, 18),
            (10, 13, 17, 14),
            (27, 6, 0, 21),
        ),
    ),
    29: (
        (29,),
        (
            (1, 3, 28, 26),
            (2, 9, 27, 20),
            (4, 12, 25, 17),
            (5, 14, 24, 15),
            (6, 11, 23, 18),
            (7, 8, 22, 21),
            (10, 13, 19, 16),
        ),
    ),
    32: (
        (31,),
        (
            (0, 1, 19, 9),
            (2, 22, 6, 7),
            (3, 11, 23, 17),
            (4, 29, 21, 30),
            (5, 8, 26, 15),
            (10, 14, 28, 12),
            (13, 16, 18, 25),
            (20, 24, 31, 27),
        ),
    ),
    37: (
        (37,),
        (
            (1, 4, 36, 33),
            (2, 17, 35, 20),
            (3, 9, 34, 28),
            (5, 12, 32, 25),
            (6, 10, 31, 27),
            (7, 16, 30, 21),
            (8, 18, 29, 19),
            (11, 13, 26, 24),
            (14, 15, 23, 22),
        ),
    ),
    40: (
        (39,),
        (
            (1, 6, 38, 33),
            (2, 8, 37, 31),
            (3, 11, 36, 28),
            (4, 15, 35, 24),
            (5, 17, 34, 22),
            (7, 16, 32, 23),
            (9, 12, 30, 27),
            (10, 14, 29, 25),
            (18, 19, 21, 20),
            (39, 13, 0, 26),
        ),
    ),
    41: (
        (41,),
        (
            (1, 11, 40, 30),
            (2, 3, 39, 38),
            (4, 17, 37, 24),
            (5, 14, 36, 27),
            (6, 20, 35, 21),
            (7, 9, 34, 32),
            (8, 16, 33, 25),
            (10, 13, 31, 28),
            (12, 18, 29, 23),
            (15, 19, 26, 22),
        ),
    ),
}

EXACT_SIZES = tuple(sorted(WHIST_FIRST_ROUNDS))


@dataclass(frozen=True)
class Seating:
    """One round by player number: the tables of four and who sits out."""

    tables: tuple[Four, ...]
    sitting_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pattern:
    """First rounds that make the whole schedule by being turned through a group."""

    moduli: tuple[int, ...]
    firsts: tuple[Seating, ...]
    copies: int = 1
    step: int = 1

    @property
    def size(self) -> int:
        return math.prod(self.moduli)

    def rounds(self) -> tuple[Seating, ...]:
        return tuple(
            self.turned(first, k * self.step % self.size)
            for first in self.firsts
            for k in range(self.size)
        )

    def turned(self, seating: Seating, shift: int) -> Seating:
        def moved(player: int) -> int:
            copy, number = divmod(player, self.size)
            if copy >= self.copies:
                return player  # the player who stays put
            return copy * self.size + _added(number, shift, self.moduli)

        tables = tuple(
            (moved(first), moved(second), moved(third), moved(fourth))
            for first, second, third, fourth in seating.tables
        )
        return Seating(tables, tuple(moved(player) for player in seating.sitting_out))


def _added(number: int, shift: int, moduli: tuple[int, ...]) -> int:
    """Two group elements added, each written as one number (its digits in the moduli)."""
    total, place = 0, 1
    for modulus in reversed(moduli):
        total += (number % modulus + shift % modulus) % modulus * place
        number, shift, place = number // modulus, shift // modulus, place * modulus
    return total


def schedule_for(count: int) -> tuple[Seating, ...]:
    """The rounds for `count` players: the whist schedule if one is kept, else the closest."""
    return pattern_for(count).rounds()


@cache
def pattern_for(count: int) -> Pattern:
    if count < 4:
        raise ValueError("rotating partners needs at least four players")
    if count in WHIST_FIRST_ROUNDS:
        moduli, tables = WHIST_FIRST_ROUNDS[count]
        sitting_out = (0,) if count % 4 else ()
        return Pattern(moduli, (Seating(tables, sitting_out),))
    return _searched(_shape(count), count)


# -- the closest schedule -----------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """How a searched schedule is laid out: its group, how many copies of it the players make
    (each copy with its own first round), who sits out in the first rounds, and whether those
    byes may move (one player from each copy)."""

    size: int
    copies: int
    sitting_out: tuple[int, ...]
    step: int = 1
    byes_move: bool = False


def _shape(count: int) -> Shape:
    tables = count // 4
    if count % 4 == 0:
        return Shape(count - 1, 1, ())
    if count % 4 == 1:
        return Shape(count, 1, (0,))
    if count % 4 == 2:
        # two copies of an odd group: turned through the numbers modulo 4n + 2 with byes in
        # turn, some partners would have to meet twice whenever n is odd
        half = 2 * tables + 1
        return Shape(half, 2, (0, half), byes_move=True)
    if count % 3:
        # 0, 1, 2 out in the first round, then 3, 4, 5: each turn moves three on
        return Shape(count, 1, (0, 1, 2), step=3)
    third = count // 3
    return Shape(count, 1, (0, third, 2 * third))


#: what one step of the search weighs: a repeated partner outweighs every pair who never
#: partner, which outweighs how unevenly opponents meet
REPEAT = 10_000
NEVER = 100
SEARCH_STEPS = 30_000


def _searched(shape: Shape, count: int) -> Pattern:
    """First rounds found by simulated annealing from a fixed seed: swap two players within a
    first round while it helps, now and then taking a worse swap to get out of a dead end."""
    search = _Search(shape, count, random.Random(f"rotating partners for {count}"))
    search.run(SEARCH_STEPS)
    seated = search.seated
    firsts = tuple(
        Seating(_fours(seats[:seated]), tuple(sorted(seats[seated:]))) for seats in search.best
    )
    return Pattern((shape.size,), firsts, shape.copies, shape.step)


def _fours(seats: Sequence[int]) -> tuple[Four, ...]:
    return tuple(
        (seats[seat], seats[seat + 1], seats[seat + 2], seats[seat + 3])
        for seat in range(0, len(seats), 4)
    )


class _Search:
    """The first rounds being searched, with how often each kind of pair partners and opposes.

    Two players' kind is their difference: within one copy, d and -d are one kind; across
    copies, the difference from the first copy to the second. Over the turned rounds every
    pair of a kind partners (or opposes) as often as the first rounds hold pairs of that kind.
    """

    def __init__(self, shape: Shape, count: int, rng: random.Random) -> None:
        self.shape, self.rng = shape, rng
        self.kind = _kinds(shape, count)
        kinds = 1 + max(max(row) for row in self.kind)
        self.partners, self.opponents = [0] * kinds, [0] * kinds
        self.seats: list[list[int]] = []
        for _ in range(shape.copies):
            seated = [player for player in range(count) if player not in shape.sitting_out]
            rng.shuffle(seated)
            self.seats.append(seated + list(shape.sitting_out))
        for seats in self.seats:
            for seat in range(0, self.seated, 4):
                self.sit(seats, seat, 1)
        self.cost = sum(self.weight(kind) for kind in range(kinds))
        self.best = [list(seats) for seats in self.seats]
        self.best_cost = self.cost
        self.least = self._least(kinds)

    @property
    def seated(self) -> int:
        return len(self.seats[0]) - len(self.shape.sitting_out)

    def weight(self, kind: int) -> int:
        if kind < 0:
            return 0
        times, met = self.partners[kind], self.opponents[kind]
        return REPEAT * max(0, times - 1) + NEVER * (times == 0) + met * met

    def sit(self, seats: list[int], seat: int, step: int) -> int:
        """Count the table at `seat` in (step 1) or out (step -1); the change in cost."""
        first, second, third, fourth = seats[seat : seat + 4]
        kind_of_first, kind_of_third = self.kind[first], self.kind[third]
        change = 0
        partners = self.partners
        for kind in (kind_of_first[third], self.kind[second][fourth]):
            if kind >= 0:
                before = partners[kind]
                partners[kind] = after = before + step
                change += REPEAT * (max(0, after - 1) - max(0, before - 1))
                change += NEVER * ((after == 0) - (before == 0))
        opponents = self.opponents
        for kind in (
            kind_of_first[second],
            kind_of_first[fourth],
            kind_of_third[second],
            kind_of_third[fourth],
        ):
            if kind >= 0:
                before = opponents[kind]
                opponents[kind] = before + step
                change += step * (2 * before + step)
        return change

    def _least(self, kinds: int) -> int:
        """The lowest cost there could be: no repeats, opponents spread evenly."""
        partnered = sum(self.partners)
        opposed, extra = divmod(sum(self.opponents), kinds)
        spread = extra * (opposed + 1) ** 2 + (kinds - extra) * opposed**2
        return NEVER * max(0, kinds - partnered) + REPEAT * max(0, partnered - kinds) + spread

    def run(self, steps: int) -> None:
        heat, cooling = 50.0, (0.5 / 50.0) ** (1 / steps)
        for _ in range(steps):
            if self.best_cost <= self.least:
                return
            heat *= cooling
            self.step(heat)

    def step(self, heat: float) -> None:
        seats = self.rng.choice(self.seats)
        i, j = self.rng.randrange(len(seats)), self.rng.randrange(len(seats))
        if not self.swappable(i, j, seats):
            return
        tables = sorted({seat - seat % 4 for seat in (i, j) if seat < self.seated})
        change = sum(self.sit(seats, seat, -1) for seat in tables)
        seats[i], seats[j] = seats[j], seats[i]
        change += sum(self.sit(seats, seat, 1) for seat in tables)
        if change <= 0 or self.rng.random() < math.exp(-change / heat):
            self.cost += change
            if self.cost < self.best_cost:
                self.best_cost, self.best = self.cost, [list(s) for s in self.seats]
            return
        for seat in tables:
            self.sit(seats, seat, -1)
        seats[i], seats[j] = seats[j], seats[i]
        for seat in tables:
            self.sit(seats, seat, 1)

    def swappable(self, i: int, j: int, seats: list[int]) -> bool:
        seated = self.seated
        if i >= seated and j >= seated:
            return False
        if i >= seated or j >= seated:
            # a bye may change for another player of its copy only
            return (
                self.shape.byes_move and seats[i] // self.shape.size == seats[j] // self.shape.size
            )
        return not (i // 4 == j // 4 and i % 2 == j % 2)  # partners trading seats change nothing


def _kinds(shape: Shape, count: int) -> list[list[int]]:
    """Each pair's kind as a number, -1 for pairs with the player who stays put (who meets
    everyone alike)."""
    size = shape.size
    names: dict[tuple[int, int, int], int] = {}
    kind = [[-1] * count for _ in range(count)]
    for a in range(count):
        for b in range(count):
            copy_a, number_a = divmod(a, size)
            copy_b, number_b = divmod(b, size)
            if a == b or max(copy_a, copy_b) >= shape.copies:
                continue
            if copy_a == copy_b:
                difference = (number_a - number_b) % size
                key = (copy_a, copy_b, min(difference, size - difference))
            elif copy_a < copy_b:
                key = (copy_a, copy_b, (number_b - number_a) % size)
            else:
                key = (copy_b, copy_a, (number_a - number_b) % size)
            kind[a][b] = names.setdefault(key, len(names))
    return kind
