"""Documents the tests share."""

from __future__ import annotations

import copy
from typing import Any

# The example from the README's *The match file*: Ana & Cy 55, Bo & Di 15, a claimed-mismatch
# warning on hand 2.
_MATCHFILE_EXAMPLE: dict[str, Any] = {
    "format": "dominoes-match/1",
    "game": "straight",
    "rules": {"target": 250},
    "players": ["Ana", "Bo", "Cy", "Di"],
    "partnerships": [["Ana", "Cy"], ["Bo", "Di"]],
    "hands": [
        {
            "leader": "Ana",
            "plays": [{"player": "Ana", "points": 10}, {"player": "Bo", "points": 15}],
            "end": {"how": "domino", "player": "Ana", "pips": {"Bo": 12, "Cy": 9, "Di": 11}},
        },
        {
            "end": {"how": "blocked", "pips": {"Ana": 3, "Bo": 12, "Cy": 5, "Di": 9}},
            "claimed": {"Ana": 35},
        },
    ],
}


def matchfile_example() -> dict[str, Any]:
    """A fresh copy of the README's match file example, as decoded JSON: change it freely."""
    return copy.deepcopy(_MATCHFILE_EXAMPLE)
