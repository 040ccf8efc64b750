"""Small line charts drawn as SVG on the server: no charting library, readable on a phone.

Pure Python; the caller marks the returned SVG safe (every label is escaped here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 28
#: colours that stay apart for colour-blind eyes and on a dark background
PALETTE = ("#1f77b4", "#d95f02", "#1b9e77", "#e7298a", "#7570b3", "#a6761d", "#666666", "#e6ab02")


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float]


def _nice_step(span: float) -> float:
    raw = span / 4 if span > 0 else 1
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    for step in (1, 2, 2.5, 5, 10):
        if raw <= step * magnitude:
            return step * magnitude
    return 10 * magnitude


def line_chart(
    series: list[Series],
    *,
    title: str,
    x_label: str,
    x_start: int = 0,
    low: float | None = None,
) -> str:
    """One line per series over x = x_start, x_start + 1 ... with a legend and gridlines."""
    points = [v for s in series for v in s.values]
    if not points:
        return ""
    bottom = min(points) if low is None else min(low, min(points))
    top = max(points)
    if top == bottom:
        top, bottom = top + 1, bottom - 1
    step = _nice_step(top - bottom)
    bottom = step * (bottom // step)
    top = step * -(-top // step)
    count = max(len(s.values) for s in series)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (top - v) / (top - bottom)

    legend_h = 18 * ((len(series) + 1) // 2)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT + legend_h}" '
        f'role="img" aria-label="{escape(title)}" class="chart">',
        f"<title>{escape(title)}</title>",
    ]
    tick = bottom
    while tick <= top + 1e-9:
        label = f"{tick:g}"
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            'class="grid"/>'
            f'<text x="{LEFT - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{label}</text>'
        )
        tick += step
    every = max(1, count // 8)
    for i in range(0, count, every):
        parts.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle">'
            f"{x_start + i}</text>"
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" text-anchor="middle" '
        f'class="axis-label">{escape(x_label)}</text>'
    )
    for n, line in enumerate(series):
        colour = PALETTE[n % len(PALETTE)]
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line.values))
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{path}"/>'
        )
        if len(line.values) == 1:
            parts.append(
                f'<circle cx="{x(0):.1f}" cy="{y(line.values[0]):.1f}" r="3" fill="{colour}"/>'
            )
        lx = LEFT + (n % 2) * (plot_w / 2)
        ly = HEIGHT + 14 + 18 * (n // 2)
        parts.append(
            f'<rect x="{lx:.1f}" y="{ly - 9}" width="12" height="4" fill="{colour}"/>'
            f'<text x="{lx + 16:.1f}" y="{ly - 4}">{escape(line.name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
