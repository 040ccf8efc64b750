"""The one function every front door calls: a match scored by the rules of its game. Apart from
scoreboard.py, which the games import for the values they return."""

from __future__ import annotations

from scorekeeper.rules.chickenfoot import score_chickenfoot
from scorekeeper.rules.match import Match
from scorekeeper.rules.scoreboard import Scoreboard
from scorekeeper.rules.sedma import score_sedma
from scorekeeper.rules.straight import score_straight

#: how each game scores a match, by its name in the match file
GAMES = {
    "straight": score_straight,
    "chickenfoot": score_chickenfoot,
    "sedma": score_sedma,
}


def score_match(match: Match) -> Scoreboard:
    """Score every hand of ``match`` and say what the rules find wrong with it.

    Expects a well-formed match (known players, whole non-negative numbers), as the match file
    reader and the forms guarantee; everything a table can get wrong is a finding instead.
    """
    return GAMES[match.game](match)
