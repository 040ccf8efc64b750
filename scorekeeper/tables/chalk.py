"""The chalk tally: how a Texas hall writes a Straight Dominoes score on the board.

A stroke for each five, ten strokes to a house of fifty. A house is drawn stroke by stroke:
the two walls, the floor, the ceiling, the two slopes of the roof, the cross inside and the
two sides of the door, so a half-built house still shows how many fives it holds.
A score beyond what a board has room for is written as a number instead: the picture stays the
same size whatever the score.
Pure Python: returns SVG with nothing in it but strokes (one path), or the number.
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


@lru_cache(maxsize=4096)
def chalk_svg(points: int, label: str = "") -> str:
    """The score as chalk strokes; ``label`` (already worded, in the reader's language: see
    templatetags/chalk_tags.py) names it for screen readers, else the number does."""
    houses, strokes, _ = tally(points)
    name = escape(label or shown(points))
    if houses > MOST_HOUSES or (houses == MOST_HOUSES and strokes):
        return _written(points, name)
    drawn = [STROKES_PER_HOUSE] * houses + ([strokes] if strokes else [])
    width = max(1, len(drawn)) * (_WIDTH + _GAP)
    # one path, a move and a line for each stroke: a tap's answer carries every side's tally
    strokes = []
    for index, count in enumerate(drawn):
        dx = index * (_WIDTH + _GAP)
        strokes.extend(_stroke(x1 + dx, y1, x2 + dx, y2) for x1, y1, x2, y2 in _HOUSE[:count])
    path = f'<path d="{"".join(strokes)}"/>' if strokes else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chalk" viewBox="0 0 {width} {_HEIGHT}" '
        f'role="img" aria-label="{name}">'
        f'<g stroke="currentColor" stroke-width="2.2" stroke-linecap="round" fill="none">{path}</g>'
        "</svg>"
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
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chalk" viewBox="0 0 {width} {_HEIGHT}" '
        f'role="img" aria-label="{name}">'
        f'<text x="0" y="24" fill="currentColor" font-size="26" textLength="{width}" '
        f'lengthAdjust="spacingAndGlyphs">{digits}</text></svg>'
    )
