"""Seats, not names: what is stored names a player by their seat, and a name is stored once.

A stored match names its players by seat key ("0", "1" ... in playing order) everywhere below
the seating: in its hands, plays and the hands a change keeps. The engine is given the match
with the players' names as they are now, so a player renamed shows under the new name on every
board, history entry and export. These functions know no database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from scorekeeper import rules
from scorekeeper.rules.match import SIDE_JOIN


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


def by_seat(value: rules.Match) -> rules.Match:
    """``value`` with every player named by their seat key."""
    return renamed(value, dict(zip(value.players, seat_keys(len(value.players)), strict=True)))


def by_name(value: rules.Match, names: tuple[str, ...]) -> rules.Match:
    """``value`` (named by seat keys) with every player named by their name in ``names``."""
    return renamed(value, dict(zip(seat_keys(len(names)), names, strict=True)))


def renamed(value: rules.Match, names: Mapping[str, str]) -> rules.Match:
    """The same match with each player ``p`` called ``names[p]`` wherever a player is named."""
    return rules.Match(
        game=value.game,
        players=tuple(names[player] for player in value.players),
        partnerships=tuple(tuple(names[player] for player in team) for team in value.partnerships),
        rules=dict(value.rules),
        hands=tuple(renamed_hand(hand, names) for hand in value.hands),
    )


def renamed_hand(hand: rules.Hand, names: Mapping[str, str]) -> rules.Hand:
    def name(player: str | None) -> str | None:
        return None if player is None else names[player]

    end = hand.end
    if end is not None:
        end = replace(
            end,
            player=name(end.player),
            pips={_side_renamed(key, names): pips for key, pips in end.pips.items()},
            double_blank=tuple(names[player] for player in end.double_blank),
        )
    return replace(
        hand,
        plays=tuple(replace(play, player=names[play.player]) for play in hand.plays),
        end=end,
        leader=name(hand.leader),
        starter=name(hand.starter),
        opener=name(hand.opener),
        passed_opening=tuple(names[player] for player in hand.passed_opening),
        claimed={_side_renamed(key, names): points for key, points in hand.claimed.items()},
    )


def _side_renamed(key: str, names: Mapping[str, str]) -> str:
    """A claimed number's or pips' key: a player, or a side as the match file writes it (by
    seat: "0 & 2")."""
    if key in names:
        return names[key]
    return SIDE_JOIN.join(names.get(part, part) for part in key.split(SIDE_JOIN))
