"""Facts about double-N sets."""

from __future__ import annotations


def set_pips(highest: int) -> int:
    """N(N+1)(N+2)/2 pips: double-six 168, double-nine 495, double-twelve 1092."""
    return highest * (highest + 1) * (highest + 2) // 2


def tiles(highest: int) -> list[tuple[int, int]]:
    return [(low, high) for high in range(highest + 1) for low in range(high + 1)]


def parse_tile(text: str) -> tuple[int, int]:
    """'1-2' -> (1, 2). Raises ValueError for anything else."""
    halves = text.replace("|", "-").split("-")
    if len(halves) != 2:
        raise ValueError(text)
    return int(halves[0].strip()), int(halves[1].strip())


def tile_name(tile: tuple[int, int]) -> str:
    return f"{tile[0]}-{tile[1]}"
