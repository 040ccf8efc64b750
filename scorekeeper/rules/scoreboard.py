"""The Scoreboard value, and the one function every front door calls."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.rules.findings import Finding, Severity
from scorekeeper.rules.match import Match, Side
from scorekeeper.rules.text import NOTHING, Says


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

    def as_dict(self) -> dict:
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


def _next_as_dict(next_up: NextUp) -> dict:
    return {
        "hand": next_up.hand,
        "leader": next_up.leader,
        "opener": next_up.opener,
        "double": next_up.double,
        "message": str(next_up.says),
    }


def hand_summary(number: int, points: dict[Side, int]) -> Says:
    """The last line of every hand's explanation: what each side scored in it."""
    return Says(
        "Hand {number}: {points}.",
        number=number,
        points=", ".join(f"{side} {scored}" for side, scored in points.items()),
    )


def score_match(match: Match) -> Scoreboard:
    """Score every hand of ``match`` and say what the rules find wrong with it.

    Expects a well-formed match (known players, whole non-negative numbers), as the match file
    reader and the forms guarantee; everything a table can get wrong is a finding instead.
    """
    from scorekeeper.rules import chickenfoot, sedma, straight

    games = {
        "straight": straight.score_straight,
        "chickenfoot": chickenfoot.score_chickenfoot,
        "sedma": sedma.score_sedma,
    }
    return games[match.game](match)
