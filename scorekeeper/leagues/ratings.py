"""Ratings from match results: openskill's Plackett-Luce model. Pure Python: no Django import.

Each player has a skill estimate (mu) and an uncertainty about it (sigma). A match moves the
estimates of everyone in it by how surprising its result was, given the sides' estimates, and
makes the model surer of them. Partners are rated as individuals: a side's strength is the sum
of its players' estimates, and the side's change is shared out by how unsure the model is of
each (a newcomer moves more than a regular). Chickenfoot's three or four players are ranked by
their places; a shared place is a draw between those sides.

Why Plackett-Luce: it is openskill's default, takes any number of sides of any size with a full
ranking (a Chickenfoot result is a ranking, not a set of pairwise games), treats a shared place
as a draw, and has a closed-form prediction of each side's chance to win (``predict_win``),
which is what every explanation on the pages quotes.

The number players see is the conservative rating ``1000 + 25 * (mu - 3 * sigma)``: the skill
the model is nearly sure (99.7%) the player has at least, on a scale where a newcomer shows 1000
and a regular of average strength about 1450. It rises as the model gets surer, so it rewards
playing as well as winning; while sigma is large the rating is marked provisional.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

#: the model with openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
MODEL = PlackettLuce()
#: the shown rating: BASE + SCALE * (mu - 3 sigma)
BASE = 1000.0
SCALE = 25.0
#: above this sigma a rating is provisional: the model is not yet sure of it (a newcomer has
#: 8.3; about twenty partnership matches, or ten for themselves, bring a player under it)
PROVISIONAL_SIGMA = 6.0

Player = Hashable


@dataclass(frozen=True)
class Skill:
    """What the model believes of a player: the estimate and its uncertainty."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def shown(self) -> int:
        """The rating players see (the conservative estimate on the familiar scale)."""
        return round(shown_rating(self.mu, self.sigma))

    @property
    def margin(self) -> int:
        """How far the shown rating may be off, either way (two sigmas on the shown scale)."""
        return round(2 * SCALE * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def rating(self) -> PlackettLuceRating:
        return MODEL.create_rating([self.mu, self.sigma])


def shown_rating(mu: float, sigma: float) -> float:
    return BASE + SCALE * (mu - 3 * sigma)


NEWCOMER = Skill()


@dataclass(frozen=True)
class Game:
    """A rated result: who sat on which side and where each side placed (1 best; sides that
    share a place drew)."""

    match_id: int
    #: the players of each side
    sides: tuple[tuple[Player, ...], ...]
    #: each side's place, in the same order
    places: tuple[int, ...]


@dataclass(frozen=True)
class Change:
    """One player's rating change in one match, with what explains it."""

    match_id: int
    player: Player
    #: the player's side in the match, and its place
    side: int
    place: int
    before: Skill
    after: Skill
    #: the side's chance to win, as the model predicted before the match
    expected: float
    #: the player's part of the side's move (the partners' parts add up to 1)
    share: float
    #: this is the player's n-th rated match
    number: int = 1

    @property
    def delta(self) -> int:
        """How far the shown rating moved."""
        return self.after.shown - self.before.shown

    @property
    def from_result(self) -> float:
        """The part of the move that the result made (the estimate's change, shown scale)."""
        return SCALE * (self.after.mu - self.before.mu)

    @property
    def from_certainty(self) -> float:
        """The part of the move from the model being surer (or less sure) of the player."""
        return -3 * SCALE * (self.after.sigma - self.before.sigma)

    @property
    def from_result_shown(self) -> int:
        """The result's part as the explanation shows it: rounded."""
        return round(self.from_result)

    @property
    def from_certainty_shown(self) -> int:
        """The certainty's part as the explanation shows it: the rest of the shown move, so
        that the two parts shown add up to it (each rounded on its own, +56 and +10 stood
        beside a move of +67)."""
        return self.delta - self.from_result_shown


def win_chances(sides: Sequence[Sequence[Skill]]) -> list[float]:
    """Each side's chance to win, as the model predicts it: openskill's ``predict_win``, written
    out for plain values (a balanced draw asks it thousands of times; the tests hold it to
    ``predict_win``)."""
    beta_twice = 2 * MODEL.beta**2
    teams = [(sum(s.mu for s in side), sum(s.sigma**2 for s in side)) for side in sides]

    def beats(a: tuple[float, float], b: tuple[float, float]) -> float:
        return _phi((a[0] - b[0]) / math.sqrt(beta_twice + a[1] + b[1]))

    if len(teams) == 2:
        first = beats(teams[0], teams[1])
        return [first, 1 - first]
    count = len(teams)
    chances = [
        sum(beats(team, other) for j, other in enumerate(teams) if j != i) / (count - 1)
        for i, team in enumerate(teams)
    ]
    total = sum(chances)
    return [chance / total for chance in chances]


def _phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def closeness(sides: Sequence[Sequence[Skill]]) -> float:
    """How close a table is predicted to be: 1 when every side is equally likely to win, 0 when
    one side is sure to. For more than two sides, the most and the least likely sides count."""
    if len(sides) < 2:
        return 1.0
    chances = win_chances(sides)
    return 1.0 - (max(chances) - min(chances))


def rate_game(
    game: Game, current: Mapping[Player, Skill], played: Mapping[Player, int]
) -> list[Change]:
    """The changes one game makes, from the players' skills before it (a newcomer's is NEWCOMER)
    and how many rated matches each had played."""
    before = [[current.get(player, NEWCOMER) for player in side] for side in game.sides]
    expected = win_chances(before)
    rated = MODEL.rate(
        [[skill.rating() for skill in side] for side in before], ranks=list(game.places)
    )
    changes = []
    for index, side in enumerate(game.sides):
        after = [Skill(r.mu, r.sigma) for r in rated[index]]
        moves = [a.mu - b.mu for a, b in zip(after, before[index], strict=True)]
        total = sum(moves)
        for position, player in enumerate(side):
            share = moves[position] / total if total else 1.0 / len(side)
            changes.append(
                Change(
                    match_id=game.match_id,
                    player=player,
                    side=index,
                    place=game.places[index],
                    before=before[index][position],
                    after=after[position],
                    expected=expected[index],
                    share=share,
                    number=played.get(player, 0) + 1,
                )
            )
    return changes


def replay(
    games: Iterable[Game],
    current: Mapping[Player, Skill] | None = None,
    played: Mapping[Player, int] | None = None,
) -> list[Change]:
    """Every change the games make, in the order given (the order the matches finished),
    starting from ``current`` skills (newcomers otherwise) and ``played`` counts."""
    skills = dict(current or {})
    counts = dict(played or {})
    changes: list[Change] = []
    for game in games:
        if len(game.sides) < 2:
            continue
        made = rate_game(game, skills, counts)
        for change in made:
            skills[change.player] = change.after
            counts[change.player] = change.number
        changes += made
    return changes


def latest(changes: Iterable[Change]) -> dict[Player, Change]:
    """Each player's last change (so their skill now, and matches rated)."""
    found: dict[Player, Change] = {}
    for change in changes:
        found[change.player] = change
    return found


def partnership_chance(pair: Sequence[Skill], average: Skill) -> float:
    """A pair's chance to beat a pair of two players of ``average`` skill (the field's), as
    the model predicts it: how the pair does together, from its players' ratings."""
    return win_chances([list(pair), [average, average]])[0]
