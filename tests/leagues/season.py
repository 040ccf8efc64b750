"""A season of generated league matches, and what the rules say about them, worked out here.

The generator plays short matches from a seeded random generator and keeps the score itself as
it goes, by docs/rules.md, so the tests compare the app's standings and ratings with numbers the app
never produced. Nothing here asks the app for a score.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from scorekeeper import rules

ROSTER = ("Ana", "Bo", "Cy", "Di", "Eve", "Flo")
#: a short Straight Dominoes target, so a match takes a few hands
TARGET = 60
CHICKENFOOT_ROUNDS = 7
DOUBLE_BLANK = 50


def round5(pips: int) -> int:
    """docs/rules.md: the nearest five, never a tie."""
    return 5 * ((pips + 2) // 5)


@dataclass(frozen=True)
class Generated:
    """A match as the table played it, with the result the rules give it."""

    value: rules.Match
    #: the players of each side, in seat order
    sides: tuple[tuple[str, ...], ...]
    totals: tuple[int, ...]
    finished: bool
    #: indexes of the winning sides
    winners: frozenset[int]
    lowest_wins: bool = False

    def side_of(self, player: str) -> int | None:
        for index, side in enumerate(self.sides):
            if player in side:
                return index
        return None

    @property
    def players(self) -> tuple[str, ...]:
        return self.value.players


# -- Straight Dominoes ------------------------------------------------------------------------


def straight_match(
    rng: random.Random,
    players: tuple[str, ...],
    *,
    partnerships: bool = False,
    target: int = TARGET,
    most_hands: int | None = None,
) -> Generated:
    """Hands of scoring plays, each ended by a domino or a block, until a side reaches
    ``target`` (at once, even mid-hand) or ``most_hands`` hands have been played."""
    if partnerships:
        sides = ((players[0], players[2]), (players[1], players[3]))
    else:
        sides = tuple((player,) for player in players)
    side_of = {player: index for index, side in enumerate(sides) for player in side}
    totals = [0] * len(sides)
    hands: list[rules.Hand] = []
    winner: int | None = None
    while winner is None and (most_hands is None or len(hands) < most_hands):
        plays: list[rules.Play] = []
        for _ in range(rng.randint(0, 2)):
            player = rng.choice(players)
            points = rng.choice((5, 10, 15, 20))
            plays.append(rules.Play(player, points=points))
            totals[side_of[player]] += points
            if totals[side_of[player]] >= target:
                winner = side_of[player]
                break
        if winner is not None:
            # the match ended mid-hand: nothing more may be recorded
            hands.append(rules.Hand(plays=tuple(plays)))
            break
        end, scoring_side, points = straight_hand_end(rng, players, sides, side_of)
        hands.append(rules.Hand(plays=tuple(plays), end=end))
        if scoring_side is not None:
            totals[scoring_side] += points
            if totals[scoring_side] >= target:
                winner = scoring_side
    value = rules.Match(
        "straight",
        players,
        partnerships=sides if partnerships else (),
        rules={"target": target} if target != 250 else {},
        hands=tuple(hands),
    )
    return Generated(
        value=value,
        sides=sides,
        totals=tuple(totals),
        finished=winner is not None,
        winners=frozenset() if winner is None else frozenset({winner}),
    )


def straight_hand_end(
    rng: random.Random,
    players: tuple[str, ...],
    sides: tuple[tuple[str, ...], ...],
    side_of: dict[str, int],
) -> tuple[rules.HandEnd, int | None, int]:
    """A domino (the side going out scores the opponents' pips, the total rounded) or a block
    (the side with the fewest pips scores the others' pips; a tie for fewest scores nothing)."""
    if rng.random() < 0.8:
        out = rng.choice(players)
        pips = {player: 0 if player == out else rng.randint(0, 20) for player in players}
        side = side_of[out]
        opponents = sum(pips[player] for player in players if side_of[player] != side)
        return rules.HandEnd("domino", player=out, pips=pips), side, round5(opponents)
    pips = {player: rng.randint(1, 25) for player in players}
    held = [sum(pips[player] for player in side) for side in sides]
    fewest = min(held)
    if held.count(fewest) > 1:
        return rules.HandEnd("blocked", pips=pips), None, 0
    side = held.index(fewest)
    return rules.HandEnd("blocked", pips=pips), side, round5(sum(held) - fewest)


# -- Chickenfoot ------------------------------------------------------------------------------


def chickenfoot_match(
    rng: random.Random, players: tuple[str, ...], *, rounds: int = CHICKENFOOT_ROUNDS
) -> Generated:
    """Rounds from 6-6 down: each player scores the pips left in hand, 0-0 left counts 50,
    the player who went out scores 0; after the seventh round the lowest total wins."""
    totals = dict.fromkeys(players, 0)
    hands = []
    for number in range(1, rounds + 1):
        double = CHICKENFOOT_ROUNDS - number
        out = rng.choice(players) if rng.random() < 0.85 else None
        pips = {player: 0 if player == out else rng.randint(1, 30) for player in players}
        holder = None
        if double != 0 and rng.random() < 0.2:
            holder = rng.choice([player for player in players if player != out])
        for player in players:
            totals[player] += pips[player] + (DOUBLE_BLANK if player == holder else 0)
        end = rules.HandEnd(
            "domino" if out else "blocked",
            player=out,
            pips=pips,
            double_blank=(holder,) if holder else (),
        )
        hands.append(rules.Hand(double=double, starter=rng.choice(players), end=end))
    finished = rounds == CHICKENFOOT_ROUNDS
    lowest = min(totals.values())
    return Generated(
        value=rules.Match("chickenfoot", players, hands=tuple(hands)),
        sides=tuple((player,) for player in players),
        totals=tuple(totals[player] for player in players),
        finished=finished,
        winners=frozenset(i for i, p in enumerate(players) if totals[p] == lowest)
        if finished
        else frozenset(),
        lowest_wins=True,
    )


# -- a season ---------------------------------------------------------------------------------


def unfinished_straight(rng: random.Random, players: tuple[str, ...]) -> Generated:
    """A one-hand match that nobody has won yet."""
    while True:
        match = straight_match(rng, players, most_hands=1)
        if not match.finished:
            return match


def straight_season(rng: random.Random, count: int, *, in_progress: int = 1) -> list[Generated]:
    """``count`` finished matches (two and three players each for themselves, and 4-player
    partnerships) among the roster, then ``in_progress`` matches still being played."""
    season = []
    for _ in range(count):
        kind = rng.choice(("two", "two", "three", "partners", "partners"))
        if kind == "partners":
            season.append(straight_match(rng, tuple(rng.sample(ROSTER, 4)), partnerships=True))
        else:
            seats = 2 if kind == "two" else 3
            season.append(straight_match(rng, tuple(rng.sample(ROSTER, seats))))
    for _ in range(in_progress):
        season.append(unfinished_straight(rng, tuple(rng.sample(ROSTER, 2))))
    return season


def chickenfoot_season(rng: random.Random, count: int, *, in_progress: int = 1) -> list[Generated]:
    season = [
        chickenfoot_match(rng, tuple(rng.sample(ROSTER, rng.randint(2, 4)))) for _ in range(count)
    ]
    season += [
        chickenfoot_match(rng, tuple(rng.sample(ROSTER, 3)), rounds=rng.randint(1, 6))
        for _ in range(in_progress)
    ]
    return season


# -- the standings, worked out independently ---------------------------------------------------


@dataclass
class Record:
    """One player's line in the league table, as the rules and the issue define it."""

    player: str
    played: int = 0
    won: int = 0
    lost: int = 0
    forfeits: int = 0
    points_for: int = 0
    points_against: int = 0
    totals: list[int] = field(default_factory=list)
    places: Counter[int] = field(default_factory=Counter)
    matches: dict[str, set[int]] = field(
        default_factory=lambda: {"played": set(), "won": set(), "lost": set(), "forfeits": set()}
    )

    @property
    def win_fraction(self) -> Fraction:
        return Fraction(self.won, self.played) if self.played else Fraction(0)

    @property
    def win_percent(self) -> float:
        return float(100 * self.win_fraction)

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def average_total(self) -> Fraction:
        return Fraction(sum(self.totals), len(self.totals)) if self.totals else Fraction(0)


def ahead(match: Generated, mine: int, theirs: int) -> bool:
    """Whether side ``mine`` finished ahead of side ``theirs``: a winner ahead of a loser, and
    among sides alike in that, the better total (lower in Chickenfoot)."""
    won_mine, won_theirs = mine in match.winners, theirs in match.winners
    if won_mine != won_theirs:
        return won_mine
    if match.lowest_wins:
        return match.totals[mine] < match.totals[theirs]
    return match.totals[mine] > match.totals[theirs]


def expected_records(
    season: dict[int, Generated], forfeits: dict[int, int] | None = None
) -> dict[str, Record]:
    """The table from the generated results: ``season`` maps match id to match; ``forfeits``
    maps match id to the side that gave the match up."""
    forfeits = forfeits or {}
    records: dict[str, Record] = {}
    for match_id, match in season.items():
        forfeited_by = forfeits.get(match_id)
        if not match.finished and forfeited_by is None:
            continue
        for index, side in enumerate(match.sides):
            if forfeited_by is not None:
                won = index != forfeited_by
            else:
                won = index in match.winners
            for player in side:
                record = records.setdefault(player, Record(player))
                record.played += 1
                record.matches["played"].add(match_id)
                outcome = "won" if won else "lost"
                setattr(record, outcome, getattr(record, outcome) + 1)
                record.matches[outcome].add(match_id)
                if forfeited_by is not None:
                    record.forfeits += 1
                    record.matches["forfeits"].add(match_id)
                    continue
                record.points_for += match.totals[index]
                record.points_against += sum(match.totals) - match.totals[index]
                record.totals.append(match.totals[index])
                beaten_by = sum(
                    1 for other in range(len(match.sides)) if ahead(match, other, index)
                )
                record.places[1 + beaten_by] += 1
    return records


def expected_ranks(
    season: dict[int, Generated],
    records: dict[str, Record],
    *,
    lowest_wins: bool = False,
    forfeits: dict[int, int] | None = None,
    by: str = "wins",
) -> dict[str, int]:
    """Rank by matches won then win % (a league's default ranking; ``by="win %"``: win % alone),
    then head-to-head wins among the players level on those, then point difference (lower
    average total in Chickenfoot); players level on all of them share a rank."""
    forfeits = forfeits or {}

    def beat(match_id: int, match: Generated, player: str, other: str) -> bool:
        mine, theirs = match.side_of(player), match.side_of(other)
        if mine is None or theirs is None or mine == theirs:
            return False
        forfeited_by = forfeits.get(match_id)
        if forfeited_by is not None:
            return theirs == forfeited_by
        return match.finished and ahead(match, mine, theirs)

    def first(record: Record) -> tuple:
        if by == "wins":
            return (record.won, record.win_fraction)
        return (record.win_fraction,)

    def key(record: Record) -> tuple:
        level = [r.player for r in records.values() if first(r) == first(record)]
        h2h = sum(
            1
            for match_id, match in season.items()
            for other in level
            if other != record.player and beat(match_id, match, record.player, other)
        )
        third = -record.average_total if lowest_wins else record.difference
        return (*first(record), h2h, third)

    keys = {player: key(record) for player, record in records.items()}
    return {
        player: 1 + sum(1 for other in keys.values() if other > mine)
        for player, mine in keys.items()
    }
