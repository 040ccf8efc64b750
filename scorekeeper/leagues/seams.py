"""The one seam through which nights acts on a season: which of its results wait for a
signature, and how many of each player's do.

leagues does not import nights (docs/development.md, *Layers*): nights plugs its part in here
once, from its ``AppConfig.ready()``, and leagues calls the functions below. Nothing plugged in,
no result waits for a signature.

Each function runs the query its plugged part runs, and no other: the seam adds none."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q


def _none_awaits(to_match: str) -> Q:
    return Q(**{f"{to_match}pk__in": ()})


def _none_provisional(season_id: int) -> dict[int, int]:
    return {}


@dataclass
class _Plugged:
    """What is plugged in: the defaults until nights plugs its part."""

    awaits_signature: Callable[[str], Q] = _none_awaits
    provisional_counts: Callable[[int], dict[int, int]] = _none_provisional


_plugged = _Plugged()


def plug(
    *,
    awaits_signature: Callable[[str], Q] | None = None,
    provisional_counts: Callable[[int], dict[int, int]] | None = None,
) -> None:
    """Plug nights' part in, from its ``AppConfig.ready()``: each part given replaces the
    default."""
    if awaits_signature is not None:
        _plugged.awaits_signature = awaits_signature
    if provisional_counts is not None:
        _plugged.provisional_counts = provisional_counts


def awaits_signature(to_match: str = "") -> Q:
    """The condition on a match, as a ``filter()`` takes it, that its result waits for a
    signature (nights: a league night that counts only signed results, nobody having signed it
    yet): the standings count it as a match still being played, and the ratings do not rate it
    (kept_ratings.py). ``to_match``: the path from the rows asked to the match, such as
    ``"match__"``."""
    return _plugged.awaits_signature(to_match)


def provisional_counts(season_id: int) -> dict[int, int]:
    """How many of each player's counted results in the season are not signed yet, by player
    id (only players with one; nights: one query)."""
    return _plugged.provisional_counts(season_id)
