"""The Scoreboard value, and what the three games share in working it out (games.py scores a
match by its game)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules.findings import Finding, Severity, finding
from scorekeeper.rules.match import Match, Side
from scorekeeper.rules.text import N_, NOTHING, Says, Who, listed, scored

#: The match's rule of a round played on the clock: time was called while this hand was being
#: played, so it is the last (docs/tournaments.md, *The round clock*). Set by the table's round,
#: not chosen at the table: it is not one of the house rules a table picks.
LAST_HAND = "last_hand"


@dataclass(frozen=True)
class HandScore:
    number: int
    #: points each side scored in this hand (every side, 0 included)
    points: dict[Side, int]
    #: the arithmetic in words, for settling disputes at the table
    explanation: list[Says]
    #: each side's total after this hand
    running: dict[Side, int]
    finished: bool = True


@dataclass(frozen=True)
class NextUp:
    """What comes next: the hand still to be played or finished, and who or what starts it."""

    hand: int
    leader: str | None = None
    opener: str | None = None
    double: int | None = None
    says: Says = field(default_factory=lambda: Says(NOTHING))


@dataclass(frozen=True)
class Scoreboard:
    game: str
    sides: list[Side]
    hands: list[HandScore]
    totals: dict[Side, int]
    finished: bool
    #: a side, a list of sides for a shared win, or None while the match goes on
    winner: Side | list[Side] | None
    findings: list[Finding]
    #: None once the match is over
    next: NextUp | None
    #: Chickenfoot: lowest wins
    lowest_wins: bool = False

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == Severity.ERROR]

    def as_dict(self) -> dict[str, Any]:
        """The shape `scorecheck --json` prints (docs/scorecheck.md)."""
        return {
            "game": self.game,
            "sides": [str(side) for side in self.sides],
            "hands": [
                {
                    "number": hand.number,
                    "points": _written(hand.points),
                    "explanation": [str(line) for line in hand.explanation],
                    "running": _written(hand.running),
                }
                for hand in self.hands
            ],
            "totals": _written(self.totals),
            "finished": self.finished,
            "winner": _winner_written(self.winner),
            "findings": [f.as_dict() for f in self.findings],
            "next": None if self.next is None else _next_as_dict(self.next),
        }


def _written(by_side: dict[Side, int]) -> dict[str, int]:
    """Numbers by side, each side written out as its label."""
    return {str(side): number for side, number in by_side.items()}


def _winner_written(winner: Side | list[Side] | None) -> str | list[str] | None:
    if isinstance(winner, list):
        return [str(side) for side in winner]
    return None if winner is None else str(winner)


def _next_as_dict(next_up: NextUp) -> dict[str, Any]:
    return {
        "hand": next_up.hand,
        "leader": next_up.leader,
        "opener": next_up.opener,
        "double": next_up.double,
        "message": str(next_up.says),
    }


def said_by_name(key: Side | str) -> Side | Who:
    """A side, or a player by their key (Chickenfoot's points are by player)."""
    return key if isinstance(key, Side) else Who(key)


def hand_summary(number: int, points: dict[Side, int]) -> Says:
    """The last line of every hand's explanation: what each side scored in it."""
    return Says(
        "Hand {number}: {points}.",
        number=number,
        points=listed([scored(said_by_name(side), total) for side, total in points.items()]),
    )


def without_last_hand(match: Match) -> Match:
    """The match without the time called on it: its players and house rules, for a rematch."""
    house = {name: value for name, value in match.rules.items() if name != LAST_HAND}
    return Match(match.game, match.players, match.partnerships, house, match.hands)


def decided_at_time(
    match: Match, number: int, running: dict[Side, int], *, lowest_wins: bool = False
) -> tuple[Side | None, Says | None]:
    """Whether time decides the match as hand ``number`` ends with these running totals.

    A match whose round ran out of time (its ``last_hand`` rule) ends when that hand ends: the
    side ahead wins (lowest ahead in Chickenfoot). Level sides play on, and the first hand that
    ends with one side ahead decides. Each game asks after every ended hand until the match is
    won, so a side that reached the target before then has won as always, and once time has
    decided, a target reached in a later hand kept anyway wins nothing: every later hand is
    ``after-match-end``, exactly as after a target. Returns the winner (None while the match
    goes on) and what the explanation says about it (None when time has not been called yet).
    """
    last = match.rules.get(LAST_HAND)
    if not last or number < last or len(running) < 2:
        return None, None
    best = min if lowest_wins else max
    ahead = best(running.values())
    leaders = [side for side, total in running.items() if total == ahead]
    if len(leaders) > 1:
        return None, Says(
            N_("Time is up and the sides are level at {total}: one more hand decides."),
            total=ahead,
        )
    winner = leaders[0]
    said = Says(
        N_("Time is up after hand {hand}: {side} are ahead with {total} and win the match.")
        if winner.is_partnership
        else N_("Time is up after hand {hand}: {side} is ahead with {total} and wins the match."),
        hand=number,
        side=winner,
        total=ahead,
    )
    return winner, said


def after_the_end(number: int, winner: Side, *, in_round: bool = False) -> Finding:
    """The finding on a hand (or round) recorded after ``winner`` had won the match."""
    return finding(
        "after-match-end",
        number,
        None,
        "recorded after {winner} had won the match.",
        in_round=in_round,
        winner=winner,
    )
