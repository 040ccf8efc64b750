"""The chalk tally: how a Texas hall writes a Straight Dominoes score on the board.

A stroke for each five, ten strokes to a house of fifty. A house is drawn stroke by stroke:
the two walls, the floor, the ceiling, the two slopes of the roof, the cross inside and the
two sides of the door, so a half-built house still shows how many fives it holds.
A score beyond what a board has room for is written as a number instead: the picture stays the
same size whatever the score.

The strokes are drawn once a page (``chalk_defs``: a house stroke by stroke, and rows of one to
ten houses); each tally points at what it needs, a row of houses and the house being built, so
it weighs the same at 5 points as at 495, and a tap's answer, which carries every side's tally,
stays small.
Pure Python: returns SVG as HTML carries it inline (its namespace is implied), with nothing in it
but strokes, or the number.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

STROKES_PER_HOUSE = 10
POINTS_PER_STROKE = 5
#: ten houses, 500 points, twice the usual target: past them the board shows the number
MOST_HOUSES = 10
#: no match reaches this; a number beyond it is shown as this and a plus, never spelled out
MOST_SHOWN = 10**15

# one house in a 24 x 30 box: (x1, y1, x2, y2) for each stroke, in the order they are drawn
_HOUSE = (
    (2, 12, 2, 28),  # left wall
    (22, 12, 22, 28),  # right wall
    (2, 28, 22, 28),  # floor
    (2, 12, 22, 12),  # ceiling
    (2, 12, 12, 2),  # roof, left
    (12, 2, 22, 12),  # roof, right
    (2, 28, 22, 12),  # cross
    (2, 12, 22, 28),  # cross
    (9, 28, 9, 20),  # door
    (15, 28, 15, 20),  # door
)
_WIDTH, _HEIGHT, _GAP = 24, 30, 6


def tally(points: int) -> tuple[int, int, int]:
    """(whole houses, strokes in the house being built, points left over below five)."""
    strokes, left_over = divmod(max(points, 0), POINTS_PER_STROKE)
    houses, strokes = divmod(strokes, STROKES_PER_HOUSE)
    return houses, strokes, left_over


def shown(points: int) -> str:
    """``points`` as digits, or a bound and a plus for a number no match reaches."""
    return str(points) if points < MOST_SHOWN else f"{MOST_SHOWN}+"


def chalk_defs() -> str:
    """What every tally on the page draws from, hidden: ``chalk-s1`` to ``chalk-s10``, a house
    of one to ten strokes, and ``chalk-h1`` to ``chalk-h10``, a row of that many houses. The
    strokes take their colour and width from where they are shown (``.chalk use`` in app.css)."""
    return _DEFS


def _defs() -> str:
    parts = []
    for count in range(1, STROKES_PER_HOUSE + 1):
        lines = "".join(_stroke(*line) for line in _HOUSE[:count])
        parts.append(f'<path id="chalk-s{count}" d="{lines}"/>')
    for houses in range(1, MOST_HOUSES + 1):
        # a row is the row one shorter and a whole house after it
        before = f'<use href="#chalk-h{houses - 1}"/>' if houses > 1 else ""
        x = f' x="{(houses - 1) * (_WIDTH + _GAP)}"' if houses > 1 else ""
        parts.append(
            f'<g id="chalk-h{houses}">{before}<use href="#chalk-s{STROKES_PER_HOUSE}"{x}/></g>'
        )
    return (
        '<svg class="visually-hidden" aria-hidden="true" focusable="false" width="0" height="0">'
        f"<defs>{''.join(parts)}</defs></svg>"
    )


@lru_cache(maxsize=4096)
def chalk_svg(points: int, label: str = "") -> str:
    """The score as chalk strokes, drawn from ``chalk_defs`` (which the page carries once);
    ``label`` (already worded, in the reader's language: see templatetags/chalk_tags.py) names
    it for screen readers, else the number does."""
    houses, strokes, _ = tally(points)
    name = escape(label or shown(points))
    if houses > MOST_HOUSES or (houses == MOST_HOUSES and strokes):
        return _written(points, name)
    width = max(1, houses + (1 if strokes else 0)) * (_WIDTH + _GAP)
    drawn = f'<use href="#chalk-h{houses}"/>' if houses else ""
    if strokes:
        x = f' x="{houses * (_WIDTH + _GAP)}"' if houses else ""
        drawn += f'<use href="#chalk-s{strokes}"{x}/>'
    return (
        f'<svg class="chalk" viewBox="0 0 {width} {_HEIGHT}" role="img" aria-label="{name}">'
        f"{drawn}</svg>"
    )


def _stroke(x1: int, y1: int, x2: int, y2: int) -> str:
    """One stroke as path data: a move, then a vertical, horizontal or slanted line."""
    if x1 == x2:
        return f"M{x1} {y1}V{y2}"
    if y1 == y2:
        return f"M{x1} {y1}H{x2}"
    return f"M{x1} {y1}L{x2} {y2}"


def _written(points: int, name: str) -> str:
    """A score too large for strokes, written in chalk as a number, no wider than ten houses."""
    digits = shown(points)
    width = min(len(digits) * 16, MOST_HOUSES * (_WIDTH + _GAP))
    return (
        f'<svg class="chalk" viewBox="0 0 {width} {_HEIGHT}" role="img" aria-label="{name}">'
        f'<text x="0" y="24" textLength="{width}" lengthAdjust="spacingAndGlyphs">{digits}</text>'
        "</svg>"
    )


_DEFS = _defs()
