"""Seats, not names: what is stored names a player by their seat, and a name is stored once.

A stored match names its players by seat key ("0", "1" ... in playing order) everywhere below
the seating: in its hands, plays and the hands a change keeps, and the engine is given them so.
A page says who each key is with the players' names as they are now, so a player renamed shows
under the new name on every board, history entry and export; a match file written carries the
names. These functions know no database.
"""

from __future__ import annotations

from scorekeeper import rules
from scorekeeper.rules.keys import rekeyed


def seating(game: str, seats: list[tuple[str, int | None]], house_rules: dict) -> rules.Match:
    """The engine's view of a match from its seats in playing order, each a player's name and
    their partnership (None without one), and its house rules; no hands."""
    teams: dict[int, list[str]] = {}
    for name, team in seats:
        if team is not None:
            teams.setdefault(team, []).append(name)
    return rules.Match(
        game=game,
        players=tuple(name for name, _ in seats),
        partnerships=tuple(tuple(team) for _, team in sorted(teams.items())),
        rules=dict(house_rules),
    )


def seat_keys(count: int) -> tuple[str, ...]:
    return tuple(str(seat) for seat in range(count))


def seat_names(names: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Each seat's key and the name of its player: how a page says who the engine means."""
    return dict(zip(seat_keys(len(names)), names, strict=True))


def by_seat(value: rules.Match) -> rules.Match:
    """``value`` with every player named by their seat key."""
    return rekeyed(value, dict(zip(value.players, seat_keys(len(value.players)), strict=True)))


def by_name(value: rules.Match, names: tuple[str, ...]) -> rules.Match:
    """``value`` (named by seat keys) with every player named by their name in ``names``."""
    return rekeyed(value, dict(zip(seat_keys(len(names)), names, strict=True)))
