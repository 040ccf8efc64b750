"""Rounding to the nearest five, as the halls do it."""

from __future__ import annotations

from scorekeeper.rules.text import Says


def round5(pips: int) -> int:
    """Round a non-negative pip count to the nearest multiple of five (there is never a tie)."""
    if pips < 0:
        raise ValueError(f"pips cannot be negative: {pips}")
    return 5 * ((pips + 2) // 5)


def explain_round5(pips: int) -> Says:
    """Say how ``pips`` rounds, e.g. "22 rounds to 20 (22 is nearer 20 than 25)."."""
    rounded = round5(pips)
    if rounded == pips:
        return Says("{pips} is already a multiple of five.", pips=pips)
    other = rounded + 5 if rounded < pips else rounded - 5
    return Says(
        "{pips} rounds to {rounded} ({pips} is nearer {rounded} than {other}).",
        pips=pips,
        rounded=rounded,
        other=other,
    )
