"""League tables from match results. Pure Python: no Django import.

A result says who sat on which side, what each side totalled and who won; everything here is
worked out from those, so the same results always give the same standings.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

#: the tie-break order, as the standings page states it (which translates each)
TIE_BREAKS = ("win %", "head-to-head wins among the tied players", "point difference")
TIE_BREAKS_LOWEST = ("win %", "head-to-head wins among the tied players", "lower average total")


@dataclass(frozen=True)
class Result:
    """One league match as the standings see it."""

    match_id: int
    #: the players of each side, in seat order
    sides: tuple[tuple[str, ...], ...]
    #: each side's total, in the same order
    totals: tuple[int, ...]
    finished: bool
    #: indexes of the winning sides (more than one for a shared win)
    winners: frozenset[int] = frozenset()
    #: Chickenfoot: the lowest total wins
    lowest_wins: bool = False
    #: index of the side that forfeited, if the match was forfeited
    forfeited_by: int | None = None

    @property
    def counts(self) -> bool:
        return self.finished or self.forfeited_by is not None

    def side_of(self, player: str) -> int | None:
        for index, side in enumerate(self.sides):
            if player in side:
                return index
        return None

    def won(self, side: int) -> bool:
        if self.forfeited_by is not None:
            return side != self.forfeited_by
        return side in self.winners

    def place(self, side: int) -> int:
        """1 for the best, sharing a place on equal standing (1, 1, 3 ...)."""
        return 1 + sum(1 for other in range(len(self.sides)) if self._ahead(other, side))

    def _ahead(self, first: int, second: int) -> bool:
        """Whether side ``first`` finished ahead of side ``second``."""
        if self.won(first) != self.won(second):
            return self.won(first)
        if self.forfeited_by is not None:
            return False
        if self.lowest_wins:
            return self.totals[first] < self.totals[second]
        return self.totals[first] > self.totals[second]

    def beat(self, player: str, opponent: str) -> bool:
        mine, theirs = self.side_of(player), self.side_of(opponent)
        if mine is None or theirs is None or mine == theirs:
            return False
        return self._ahead(mine, theirs)


@dataclass
class Standing:
    player: str
    played: int = 0
    won: int = 0
    lost: int = 0
    forfeits: int = 0
    points_for: int = 0
    points_against: int = 0
    total_sum: int = 0
    placings: dict[int, int] = field(default_factory=dict)
    #: the matches behind each number, for links from the table
    match_ids: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    rank: int = 0
    #: the tie-break that separated this row from the one above, if any
    decided_by: str = ""

    @property
    def win_percent(self) -> float:
        return 100.0 * self.won / self.played if self.played else 0.0

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def scored_matches(self) -> int:
        return self.played - self.forfeits

    @property
    def average_total(self) -> float:
        return self.total_sum / self.scored_matches if self.scored_matches else 0.0

    @property
    def average_place(self) -> float:
        placed = sum(self.placings.values())
        return sum(place * n for place, n in self.placings.items()) / placed if placed else 0.0


def standings(results: list[Result], *, lowest_wins: bool = False) -> list[Standing]:
    """The league table: a row per player who played a counted match, best first."""
    rows: dict[str, Standing] = {}
    for result in results:
        if not result.counts:
            continue
        for index, side in enumerate(result.sides):
            opponents = sum(t for i, t in enumerate(result.totals) if i != index)
            for player in side:
                row = rows.setdefault(player, Standing(player))
                row.played += 1
                row.match_ids["played"].append(result.match_id)
                outcome = "won" if result.won(index) else "lost"
                setattr(row, outcome, getattr(row, outcome) + 1)
                row.match_ids[outcome].append(result.match_id)
                if result.forfeited_by is not None:
                    row.forfeits += 1
                    row.match_ids["forfeits"].append(result.match_id)
                    continue
                row.points_for += result.totals[index]
                row.points_against += opponents
                row.total_sum += result.totals[index]
                place = result.place(index)
                row.placings[place] = row.placings.get(place, 0) + 1
    return _rank(list(rows.values()), results, lowest_wins)


def _rank(rows: list[Standing], results: list[Result], lowest_wins: bool) -> list[Standing]:
    # each player's counted matches, for the head-to-head among tied players
    played_by: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        if result.counts:
            for side in result.sides:
                for player in side:
                    played_by[player].append(result)
    by_percent: dict[float, list[Standing]] = defaultdict(list)
    for row in rows:
        by_percent[round(row.win_percent, 9)].append(row)
    ordered: list[Standing] = []
    for percent in sorted(by_percent, reverse=True):
        group = by_percent[percent]
        if len(group) == 1:
            ordered += group
            continue
        names = {row.player for row in group}
        h2h = {
            row.player: sum(
                1
                for result in played_by[row.player]
                for other in names - {row.player}
                if result.beat(row.player, other)
            )
            for row in group
        }

        def third(row: Standing) -> float:
            return row.average_total if lowest_wins else -row.difference

        group.sort(key=lambda row: (-h2h[row.player], third(row), row.player.lower()))
        for above, row in zip(group, group[1:], strict=False):
            if h2h[above.player] != h2h[row.player]:
                row.decided_by = "head-to-head"
            elif third(above) != third(row):
                row.decided_by = "average total" if lowest_wins else "point difference"
            else:
                row.decided_by = "tied"
        ordered += group
    for rank, row in enumerate(ordered, 1):
        previous = ordered[rank - 2] if rank > 1 else None
        row.rank = previous.rank if previous is not None and row.decided_by == "tied" else rank
    return ordered


@dataclass
class Pairing:
    """How a player does with a partner, or against an opponent."""

    name: str
    played: int = 0
    won: int = 0

    @property
    def win_percent(self) -> float:
        return 100.0 * self.won / self.played if self.played else 0.0


def partners(results: list[Result], player: str) -> list[Pairing]:
    """Partnership records, best win rate first (more matches breaks a tie)."""
    found: dict[str, Pairing] = {}
    for result in results:
        side = result.side_of(player)
        if not result.counts or side is None:
            continue
        for partner in result.sides[side]:
            if partner != player:
                pairing = found.setdefault(partner, Pairing(partner))
                pairing.played += 1
                pairing.won += result.won(side)
    return sorted(found.values(), key=lambda p: (-p.win_percent, -p.played, p.name.lower()))


def opponents(results: list[Result], player: str) -> list[Pairing]:
    """Records against each opponent, toughest (lowest win rate against them) first."""
    found: dict[str, Pairing] = {}
    for result in results:
        side = result.side_of(player)
        if not result.counts or side is None:
            continue
        for index, other_side in enumerate(result.sides):
            if index == side:
                continue
            for opponent in other_side:
                pairing = found.setdefault(opponent, Pairing(opponent))
                pairing.played += 1
                pairing.won += result.beat(player, opponent)
    return sorted(found.values(), key=lambda p: (p.win_percent, -p.played, p.name.lower()))
