"""The rules engine: pure Python, no Django.

Front doors call :func:`score_match` with a :class:`Match` and show the :class:`Scoreboard`.
"""

from __future__ import annotations

from scorekeeper.rules.findings import Finding, Severity
from scorekeeper.rules.games import score_match
from scorekeeper.rules.match import Hand, HandEnd, Match, Play, Side
from scorekeeper.rules.scoreboard import HandScore, NextUp, Scoreboard

__all__ = [
    "Finding",
    "Hand",
    "HandEnd",
    "HandScore",
    "Match",
    "NextUp",
    "Play",
    "Scoreboard",
    "Severity",
    "Side",
    "score_match",
]
