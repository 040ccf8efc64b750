"""The same match with its players known by other keys.

The engine knows each player by the key its front door gives it: a stored match by seat ("0",
"1" ... in playing order), a match file by name. Its sentences keep the keys and are said with
names (rules/text.py). Here a match is given other keys for its players wherever one is named:
a match file's names become seats where it is stored, and seats become names where a match
file is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from scorekeeper.rules.match import SIDE_JOIN, Hand, Match


def rekeyed(value: Match, keys: Mapping[str, str]) -> Match:
    """The same match with each player ``p`` known as ``keys[p]`` wherever a player is named."""
    return Match(
        game=value.game,
        players=tuple(keys[player] for player in value.players),
        partnerships=tuple(tuple(keys[player] for player in team) for team in value.partnerships),
        rules=dict(value.rules),
        hands=tuple(rekeyed_hand(hand, keys) for hand in value.hands),
    )


def rekeyed_hand(hand: Hand, keys: Mapping[str, str]) -> Hand:
    def key(player: str | None) -> str | None:
        return None if player is None else keys[player]

    end = hand.end
    if end is not None:
        end = replace(
            end,
            player=key(end.player),
            pips={side_key(written, keys): pips for written, pips in end.pips.items()},
            double_blank=tuple(keys[player] for player in end.double_blank),
        )
    return replace(
        hand,
        plays=tuple(replace(play, player=keys[play.player]) for play in hand.plays),
        end=end,
        leader=key(hand.leader),
        starter=key(hand.starter),
        opener=key(hand.opener),
        passed_opening=tuple(keys[player] for player in hand.passed_opening),
        claimed={side_key(written, keys): points for written, points in hand.claimed.items()},
    )


def side_key(written: str, keys: Mapping[str, str]) -> str:
    """A claimed number's or pips' key with other keys: a player, or a side as the match file
    writes it ("Ana & Cy", by seat "0 & 2")."""
    if written in keys:
        return keys[written]
    return SIDE_JOIN.join(keys.get(part, part) for part in written.split(SIDE_JOIN))
