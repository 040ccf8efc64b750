"""The draw for a league night: who sits at which table, who partners whom, who sits out.

Pure Python, no Django. A draw is worked out from a seed, so anyone holding the seed and the
list of players checked in can draw it again and see that nobody was favoured.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from scorekeeper.leagues.ratings import MODEL, NEWCOMER, Skill, closeness
from scorekeeper.nights import whist

#: a player as the caller knows them: an id, a name, anything hashable
Player = Hashable

#: the most players one table takes: a double-six set deals to four, a larger set to eight
SEATS_DOUBLE_SIX = 4
SEATS_LARGER_SET = 8


@dataclass(frozen=True)
class Table:
    """One table of the round: players in seat order. In partnerships the players in seats
    1 and 3 play together against the players in seats 2 and 4."""

    number: int
    seats: tuple[Player, ...]
    partnerships: bool = False

    def __post_init__(self) -> None:
        if self.partnerships and len(self.seats) != 4:
            raise ValueError("partnerships are played four to a table")

    @property
    def sides(self) -> tuple[tuple[Player, ...], ...]:
        """Who scores together: the two partnerships, or each player alone."""
        if self.partnerships:
            first, second, third, fourth = self.seats
            return ((first, third), (second, fourth))
        return tuple((player,) for player in self.seats)


@dataclass(frozen=True)
class Round:
    """The tables of one round and the players sitting it out (the byes)."""

    tables: tuple[Table, ...]
    sitting_out: tuple[Player, ...] = ()

    @property
    def players(self) -> tuple[Player, ...]:
        """Everybody seated this round, table by table."""
        return tuple(player for table in self.tables for player in table.seats)


@dataclass(frozen=True)
class Schedule:
    """A night of rotating partners, round by round, and how well it mixes the players.

    `partner_repeats` counts every partnering after a pair's first; `never_partners` the pairs
    who never partner; `opponents` how often each pair plays against each other. A whist
    schedule has every pair partner exactly once and play against each other exactly twice.
    """

    rounds: tuple[Round, ...]
    partner_repeats: int
    never_partners: int
    opponents: Counter[frozenset[Player]] = field(hash=False)
    is_whist: bool


def table_sizes(
    game: str, *, partnerships: bool = False, highest_double: int = 6
) -> tuple[int, ...]:
    """How many players one table of the game takes.

    Straight is two to four players, or four in partnerships; Chickenfoot three to four with a
    double-six set and three to eight with a double-nine set or larger; Sedma four.
    """
    if game not in ("straight", "chickenfoot", "sedma"):
        raise ValueError(f"unknown game: {game!r}")
    if partnerships and game != "straight":
        raise ValueError(f"{game} is not played in partnerships")
    if highest_double != 6 and (game != "chickenfoot" or highest_double < 9):
        raise ValueError(f"{game} is not played with a double-{highest_double} set")
    if game == "straight":
        return (4,) if partnerships else (2, 3, 4)
    if game == "sedma":
        return (4,)
    most = SEATS_DOUBLE_SIX if highest_double == 6 else SEATS_LARGER_SET
    return tuple(range(3, most + 1))


def tables_for(count: int, sizes: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Split `count` players into tables of the allowed sizes.

    Returns the tables' sizes, largest first, and how many sit out. As few sit out as
    possible; then as few tables as possible, so tables are as full as they can be; then the
    tables as even as possible: 10 players at tables of two to four play 4, 3, 3, not 4, 4, 2.
    """
    allowed = tuple(sorted(set(sizes)))
    if count < 0 or not allowed or allowed[0] < 1:
        raise ValueError("a table needs at least one seat, and a night at least zero players")
    for sitting_out in range(count + 1):
        split = _fewest_tables(count - sitting_out, allowed)
        if split is not None:
            return split, sitting_out
    raise AssertionError("nobody seated is always a split")  # pragma: no cover


def _fewest_tables(seated: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    if seated == 0:
        return ()
    fewest = -(-seated // allowed[-1])
    for tables in range(fewest, seated // allowed[0] + 1):
        split = _most_even(seated, tables, allowed)
        if split is not None:
            return split
    return None


def _most_even(seated: int, tables: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """The split into this many tables whose largest and smallest differ least."""
    windows = sorted(
        ((high - low, low, high) for low in allowed for high in allowed if high >= low),
        key=lambda window: (window[0], -window[1]),
    )
    for _, low, high in windows:
        split = _largest_first(seated, tables, tuple(s for s in allowed if low <= s <= high))
        if split is not None:
            return split
    return None


@cache
def _largest_first(seated: int, tables: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    if tables == 0:
        return () if seated == 0 else None
    for size in reversed(allowed):
        rest = _largest_first(seated - size, tables - 1, tuple(s for s in allowed if s <= size))
        if rest is not None:
            return (size, *rest)
    return None


def blind_draw(
    players: Iterable[Player],
    *,
    seed: str | int,
    table_size: int | Sequence[int],
    partnerships: bool = False,
    sitting_out_counts: Mapping[Player, int] | None = None,
) -> Round:
    """Tables and partners drawn at random from the seed.

    The same seed and the same players, in whatever order they checked in, give the same
    draw. Those who have sat out fewest times so far (`sitting_out_counts`: times each player
    sat out before this round) sit out first, so nobody sits out twice before everybody has
    sat out once.
    """
    drawn, sizes, sitting_out = _draw_byes(
        players, seed, table_size, partnerships, sitting_out_counts
    )
    tables: list[Table] = []
    for size in sizes:
        seats, drawn = tuple(drawn[:size]), drawn[size:]
        tables.append(Table(len(tables) + 1, seats, partnerships))
    return Round(tuple(tables), sitting_out)


def balanced_draw(
    players: Iterable[Player],
    ratings: Mapping[Player, Skill],
    *,
    seed: str | int,
    table_size: int | Sequence[int],
    partnerships: bool = False,
    sitting_out_counts: Mapping[Player, int] | None = None,
) -> Round:
    """Tables as close as the ratings predict: each side's chance to win as even as can be.

    The same players sit out as in the blind draw with this seed. The rest are dealt out by
    rating like a snake (first table to last, then back), then swapped between tables while
    that makes the least close table closer, then all tables together; closeness is the
    model's prediction (leagues/ratings.py ``closeness``). Partners at a table of four are the
    pairing the model predicts closest; without partnerships, players of like strength sit
    together. A player without a rating counts as a newcomer, as the ratings do.
    """
    drawn, sizes, sitting_out = _draw_byes(
        players, seed, table_size, partnerships, sitting_out_counts
    )
    skill = {player: ratings.get(player, NEWCOMER) for player in drawn}
    groups = _improved(_snake(drawn, sizes, skill), skill, partnerships)
    drawn_at = {player: place for place, player in enumerate(drawn)}
    tables = tuple(
        Table(number, _seats(group, skill, drawn_at, partnerships), partnerships)
        for number, group in enumerate(groups, start=1)
    )
    return Round(tables, sitting_out)


def _draw_byes(
    players: Iterable[Player],
    seed: str | int,
    table_size: int | Sequence[int],
    partnerships: bool,
    sitting_out_counts: Mapping[Player, int] | None,
) -> tuple[list[Player], tuple[int, ...], tuple[Player, ...]]:
    """The seated players in drawn order, the tables' sizes and who sits out."""
    checked_in = sorted_players(players)
    sizes = (table_size,) if isinstance(table_size, int) else tuple(table_size)
    if partnerships and set(sizes) != {4}:
        raise ValueError("partnerships are played four to a table")
    split, out = tables_for(len(checked_in), sizes)
    drawn = list(checked_in)
    # a string seed makes the same shuffle on every machine and every run
    random.Random(f"{seed}").shuffle(drawn)
    counts = sitting_out_counts or {}
    fewest_first = sorted(drawn, key=lambda player: counts.get(player, 0))
    sitting_out = set(fewest_first[:out])
    seated = [player for player in drawn if player not in sitting_out]
    return seated, split, tuple(sorted_players(sitting_out))


def sorted_players(players: Iterable[Player]) -> list[Player]:
    """Players in one order whatever order they came in; each may come only once."""
    listed = sorted(players, key=lambda player: (str(player), repr(player)))
    if len(set(listed)) != len(listed):
        raise ValueError("a player is checked in twice")
    return listed


def _snake(
    drawn: Sequence[Player], sizes: Sequence[int], skill: Mapping[Player, Skill]
) -> list[list[Player]]:
    """Deal the strongest to table 1, the next to table 2, ..., then back from the last table."""
    # sorted() keeps the drawn order among equal ratings, so the seed settles ties
    strongest_first = sorted(drawn, key=lambda player: -skill[player].mu)
    groups: list[list[Player]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    while strongest_first:
        for number in order:
            if len(groups[number]) < sizes[number] and strongest_first:
                groups[number].append(strongest_first.pop(0))
        order.reverse()
    return groups


def _pairings(group: Sequence[Player]) -> list[tuple[tuple[Player, Player], tuple[Player, Player]]]:
    """The three ways four players make two partnerships."""
    first, second, third, fourth = group
    return [
        ((first, second), (third, fourth)),
        ((first, third), (second, fourth)),
        ((first, fourth), (second, third)),
    ]


def table_closeness(
    group: Sequence[Player], skill: Mapping[Player, Skill], partnerships: bool
) -> float:
    """How close the model predicts the table: its closest pairing in partnerships (the
    largest ``closeness`` of the three)."""
    if partnerships:
        # every pairing of the four has the same spread (the four uncertainties and the
        # model's beta), so the closest is the one whose estimates add up most evenly: one
        # prediction, not three (a draw of 40 tables asks this some hundred thousand times)
        first, second, third, fourth = (skill[player].mu for player in group)
        gap = min(
            abs(first + second - third - fourth),
            abs(first + third - second - fourth),
            abs(first + fourth - second - third),
        )
        spread = math.sqrt(2 * MODEL.beta**2 + sum(skill[player].sigma ** 2 for player in group))
        return math.erfc(gap / spread / math.sqrt(2))
    return closeness([[skill[player]] for player in group])


def _improved(
    groups: list[list[Player]], skill: Mapping[Player, Skill], partnerships: bool
) -> list[list[Player]]:
    """Swap players between tables while the least close table, then all tables together,
    come closer (each table's closeness kept, the two swapped worked out again)."""
    close = [table_closeness(group, skill, partnerships) for group in groups]

    def night() -> tuple[float, float]:
        return (min(close, default=1.0), sum(close))

    best = night()
    swapped = True
    while swapped:
        swapped = False
        for first, second in _table_pairs(len(groups)):
            for i, j in _seat_pairs(groups[first], groups[second]):
                kept = close[first], close[second]
                _swap(groups, first, i, second, j)
                close[first] = table_closeness(groups[first], skill, partnerships)
                close[second] = table_closeness(groups[second], skill, partnerships)
                score = night()
                if score > best:
                    best, swapped = score, True
                else:
                    _swap(groups, first, i, second, j)
                    close[first], close[second] = kept
    return groups


def _table_pairs(count: int) -> list[tuple[int, int]]:
    return [(first, second) for first in range(count) for second in range(first + 1, count)]


def _seat_pairs(first: Sequence[Player], second: Sequence[Player]) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(first)) for j in range(len(second))]


def _swap(groups: list[list[Player]], first: int, i: int, second: int, j: int) -> None:
    groups[first][i], groups[second][j] = groups[second][j], groups[first][i]


def _seats(
    group: Sequence[Player],
    skill: Mapping[Player, Skill],
    drawn_at: Mapping[Player, int],
    partnerships: bool,
) -> tuple[Player, ...]:
    """Partners: the pairing the model predicts closest, partners across from each other.
    Otherwise the players sit in the order the seed drew them, not by strength."""
    as_drawn = sorted(group, key=drawn_at.__getitem__)
    if not partnerships:
        return tuple(as_drawn)
    pairings = _pairings(as_drawn)
    # max() keeps the first of equally close pairings: the seed's order settles ties
    (a, c), (b, d) = max(
        pairings, key=lambda pairing: closeness([[skill[p] for p in side] for side in pairing])
    )
    return (a, b, c, d)


def rotating_partners(players: Iterable[Player]) -> Schedule:
    """Straight in partnerships, four to a table, partners changing every round.

    For 4n or 4n + 1 players this is a whist schedule wherever one is kept
    (nights/whist.py lists them); for other counts the closest one found. The same players
    always get the same schedule, whatever order they come in.
    """
    checked_in = sorted_players(players)
    rounds = tuple(
        Round(
            tuple(
                Table(number, tuple(checked_in[seat] for seat in table), partnerships=True)
                for number, table in enumerate(seating.tables, start=1)
            ),
            tuple(checked_in[player] for player in seating.sitting_out),
        )
        for seating in whist.schedule_for(len(checked_in))
    )
    partners, opponents = meetings(rounds)
    pairs = [frozenset(pair) for pair in combinations(checked_in, 2)]
    return Schedule(
        rounds,
        partner_repeats=sum(max(0, partners[pair] - 1) for pair in pairs),
        never_partners=sum(1 for pair in pairs if partners[pair] == 0),
        opponents=opponents,
        is_whist=all(partners[pair] == 1 and opponents[pair] == 2 for pair in pairs),
    )


def rotating_round(
    schedule: Schedule, played: int, *, sitting_out_counts: Mapping[Player, int] | None = None
) -> Round:
    """The round after ``played`` rounds of a rotating-partners schedule, byes going round.

    A schedule is drawn for a set of players, so it starts afresh whenever someone comes or
    goes. ``sitting_out_counts`` are the rounds each player did not play before it started:
    those who sat out fewest take the schedule's first byes, so nobody sits out twice while
    someone here has not sat out. Renaming the players changes none of the schedule's
    partners, opponents or repeats. With no counts, or equal ones, the schedule is as drawn.
    """
    rounds = schedule.rounds
    counts = sitting_out_counts or {}
    first_bye: dict[Player, int] = {}
    for number, round_ in enumerate(rounds):
        for player in round_.sitting_out:
            first_bye.setdefault(player, number)
    in_schedule = sorted_players([*rounds[0].players, *rounds[0].sitting_out])
    # the schedule's places in the order they first sit out, those never sitting out last
    places = sorted(in_schedule, key=lambda player: first_bye.get(player, len(rounds)))
    # sorted() keeps that order among equal counts
    fewest_first = sorted(places, key=lambda player: counts.get(player, 0))
    taking = dict(zip(places, fewest_first, strict=True))
    chosen = rounds[played % len(rounds)]
    return Round(
        tuple(
            Table(table.number, tuple(taking[player] for player in table.seats), True)
            for table in chosen.tables
        ),
        tuple(sorted_players(taking[player] for player in chosen.sitting_out)),
    )


def meetings(
    rounds: Iterable[Round],
) -> tuple[Counter[frozenset[Player]], Counter[frozenset[Player]]]:
    """How often each two players partnered, and how often they played against each other,
    over the rounds' tables: (partners, opponents), each pair as a frozenset."""
    partners: Counter[frozenset[Player]] = Counter()
    opponents: Counter[frozenset[Player]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            for one, other in combinations(table.sides, 2):
                opponents.update(frozenset((a, b)) for a in one for b in other)
            for side in table.sides:
                partners.update(frozenset(pair) for pair in combinations(side, 2))
    return partners, opponents
