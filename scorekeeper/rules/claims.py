"""Checks every game shares: the numbers the table wrote down, and the number of players."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.findings import Finding, finding
from scorekeeper.rules.match import GAME_NAMES, Hand, Match, Side
from scorekeeper.rules.text import N_, NOTHING, Says, Who, joined


def check_claims(
    match: Match,
    number: int,
    hand: Hand,
    # keyed by sides or by players (each their own side): a side is found by its label
    points: dict[Any, int],
    explanation: list[Says],
    *,
    in_round: bool = False,
) -> list[Finding]:
    """A `claimed-mismatch` for each number the table wrote that differs from the app's."""
    findings = []
    arithmetic = joined(explanation)
    # a side written by its label, or a player: said by name either way
    known = {str(key): key for key in points}
    for name, claimed in hand.claimed.items():
        side = known[name] if name in known else match.side_of(name)
        if claimed != points[side]:
            findings.append(
                finding(
                    "claimed-mismatch",
                    number,
                    None,
                    "the table wrote {claimed} for {side}, the app makes it {actual}. {arithmetic}",
                    in_round=in_round,
                    claimed=claimed,
                    side=side if isinstance(side, Side) else Who(side),
                    actual=points[side],
                    arithmetic=arithmetic,
                )
            )
    return findings


def check_player_count(match: Match, low: int, high: int, why: Says | None = None) -> list[Finding]:
    count = len(match.players)
    if low <= count <= high:
        return []
    template = (
        N_("{game} is played by exactly {low} players, not {count}.")
        if low == high
        else N_("{game} is played by {low} to {high} players{why}, not {count}.")
    )
    game = Says(GAME_NAMES[match.game])
    return [
        finding(
            "wrong-player-count",
            None,
            None,
            template,
            game=game,
            low=low,
            high=high,
            why=why or Says(NOTHING),
            count=count,
        )
    ]
