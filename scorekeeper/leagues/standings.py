"""League tables from match results. Pure Python: no Django import.

A result says who sat on which side, what each side totalled and who won; everything here is
worked out from those, so the same results always give the same standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
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
    #: wins shared with another side (Chickenfoot's equal lowest totals), within ``won``
    shared_wins: int = 0
    rank: int = 0
    #: the tie-break that separated this row from the one above, if any
    decided_by: str = ""
    #: the player's id where the rows were kept by the database (leagues/kept.py)
    player_id: int | None = None
    #: the name as public pages show it where it is not ``player``: the initials its owner
    #: asked for (tables/models.py: Player.shown_name); ``player`` stays the name that ranks
    shown_name: str = ""

    @property
    def win_percent(self) -> float:
        return 100.0 * self.won / self.played if self.played else 0.0

    @property
    def points(self) -> int:
        """Two for a win, one for a win shared with another side."""
        return 2 * self.won - self.shared_wins

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


@dataclass(frozen=True)
class Ranking:
    """How a league orders its table before the tie-breaks.

    ``win %``: the share of matches won (a player under ``minimum`` matches is ranked after
    everyone who played that many); ``wins``: the matches won, then win %; ``points``: two for
    a win and one for a win shared with another side (Chickenfoot's equal lowest totals), then
    win %."""

    by: str = "win %"
    minimum: int = 0

    def key(self, row: Standing) -> tuple:
        """What the table is sorted on, highest first, before the tie-breaks."""
        percent = round(row.win_percent, 9)
        if self.by == "wins":
            return (row.won, percent)
        if self.by == "points":
            return (row.points, percent)
        return (row.played >= self.minimum, percent)


#: the ranking a table has unless its league chose another (the first standings had it)
BY_WIN_PERCENT = Ranking()


@dataclass
class Tally:
    """Standings rows before ranking: each player's line, and how often each player finished
    ahead of each opponent (the head-to-head tie-break). Kept up to date match by match
    (``count``), so a league keeps it as its matches finish instead of working it out again."""

    rows: dict = field(default_factory=dict)
    #: (player, opponent) -> counted matches the player finished ahead of the opponent in
    beats: dict = field(default_factory=lambda: defaultdict(int))

    def count(self, result: Result, sign: int = 1) -> None:
        """Add a result (``sign`` 1), or take away one added before (``sign`` -1)."""
        if not result.counts:
            return
        shared = len(result.winners) > 1 and result.forfeited_by is None
        for index, side in enumerate(result.sides):
            opponents = sum(t for i, t in enumerate(result.totals) if i != index)
            won = result.won(index)
            for player in side:
                row = self.rows.setdefault(player, Standing(player))
                row.played += sign
                _listed(row.match_ids["played"], result.match_id, sign)
                outcome = "won" if won else "lost"
                setattr(row, outcome, getattr(row, outcome) + sign)
                _listed(row.match_ids[outcome], result.match_id, sign)
                if won and shared:
                    row.shared_wins += sign
                if result.forfeited_by is not None:
                    row.forfeits += sign
                    _listed(row.match_ids["forfeits"], result.match_id, sign)
                    continue
                row.points_for += sign * result.totals[index]
                row.points_against += sign * opponents
                row.total_sum += sign * result.totals[index]
                place = result.place(index)
                row.placings[place] = row.placings.get(place, 0) + sign
                if not row.placings[place]:
                    del row.placings[place]
        for side in result.sides:
            for player in side:
                for other_side in result.sides:
                    for other in other_side:
                        if result.beat(player, other):
                            self.beats[player, other] += sign
                            if not self.beats[player, other]:
                                del self.beats[player, other]
        for side in result.sides:
            for player in side:
                if not self.rows[player].played:
                    del self.rows[player]


def _listed(ids: list[int], match_id: int, sign: int) -> None:
    if sign > 0:
        ids.append(match_id)
    elif match_id in ids:
        ids.remove(match_id)


def tally(results: list[Result]) -> Tally:
    found = Tally()
    for result in results:
        found.count(result)
    return found


def standings(
    results: list[Result], *, lowest_wins: bool = False, ranking: Ranking = BY_WIN_PERCENT
) -> list[Standing]:
    """The league table: a row per player who played a counted match, best first."""
    found = tally(results)
    return ranked(list(found.rows.values()), found.beats, lowest_wins, ranking)


def tied(rows: list[Standing], ranking: Ranking = BY_WIN_PERCENT) -> set:
    """The players who share their place with another before the tie-breaks: only their
    head-to-head records are needed to rank the table."""
    groups: dict[tuple, list[Standing]] = defaultdict(list)
    for row in rows:
        groups[ranking.key(row)].append(row)
    return {row.player for group in groups.values() if len(group) > 1 for row in group}


def ranked(
    rows: list[Standing],
    beats: Mapping,
    lowest_wins: bool,
    ranking: Ranking = BY_WIN_PERCENT,
) -> list[Standing]:
    """The rows in order, each with its rank and what separated it from the row above.
    ``beats`` maps (player, opponent) to the counted matches the player finished ahead in;
    those of the players ``tied`` names are enough."""
    groups: dict[tuple, list[Standing]] = defaultdict(list)
    for row in rows:
        row.decided_by = ""
        groups[ranking.key(row)].append(row)
    ordered: list[Standing] = []
    for key in sorted(groups, reverse=True):
        group = groups[key]
        if len(group) == 1:
            if ordered:
                group[0].decided_by = _first_difference(ranking, ordered[-1], group[0])
            ordered += group
            continue
        names = {row.player for row in group}
        h2h = {
            row.player: sum(beats.get((row.player, other), 0) for other in names - {row.player})
            for row in group
        }

        def third(row: Standing) -> float:
            return row.average_total if lowest_wins else -row.difference

        group.sort(key=lambda row: (-h2h[row.player], third(row), row.player.lower()))
        if ordered:
            group[0].decided_by = _first_difference(ranking, ordered[-1], group[0])
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


def _first_difference(ranking: Ranking, above: Standing, row: Standing) -> str:
    """What put ``above`` ahead of ``row`` when they differ before the tie-breaks."""
    if ranking.by == "win %" and (above.played >= ranking.minimum) != (
        row.played >= ranking.minimum
    ):
        return "minimum played"
    if ranking.by in ("wins", "points") and ranking.key(above)[0] != ranking.key(row)[0]:
        return ranking.by
    return ""


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
