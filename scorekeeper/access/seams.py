"""The one seam through which nights tells the access rules which matches are at a league
night played today: the phones holding links to them are the hall's own, whose starts are
never counted against the address (throttle.py).

access does not import nights (docs/development.md, *Layers*): nights plugs its part in here
once, from its ``AppConfig.ready()``, and access calls the function below. Nothing plugged in,
no match is at a night.

The function adds a condition to the caller's query, and no query of its own."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q


def _at_no_night(to_match: str, day: datetime.date) -> Q:
    return Q(**{f"{to_match}pk__in": ()})


@dataclass
class _Plugged:
    """What is plugged in: the default until nights plugs its part."""

    at_a_night_on: Callable[[str, datetime.date], Q] = _at_no_night


_plugged = _Plugged()


def plug(*, at_a_night_on: Callable[[str, datetime.date], Q] | None = None) -> None:
    """Plug nights' part in, from its ``AppConfig.ready()``."""
    if at_a_night_on is not None:
        _plugged.at_a_night_on = at_a_night_on


def at_a_night_on(to_match: str, day: datetime.date) -> Q:
    """The condition on a match, as a ``filter()`` takes it, that it is a table of a league
    night played on ``day``. ``to_match``: the path from the rows asked to the match, such as
    ``"match__"``."""
    return _plugged.at_a_night_on(to_match, day)
