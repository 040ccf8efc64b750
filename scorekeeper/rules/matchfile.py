"""Reading and writing the match file (format "dominoes-match/1": README, *The match file*).

Every problem that stops a file being read as a match raises :class:`MatchFileError` naming the
JSON path of the bad value, a code and the reason, e.g.
``hands[2].end.pips.Bo: invalid-number: expected a whole number >= 0, got -3``.

A file is read within the bounds of :mod:`scorekeeper.rules.limits`: its size, its players,
hands and plays, its names and every number in it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scorekeeper.rules import limits
from scorekeeper.rules.match import (
    Hand,
    Match,
    Play,
)
from scorekeeper.rules.matchfile_reader import FORMAT, Reader
from scorekeeper.rules.matchfile_reader import MatchFileError as MatchFileError
from scorekeeper.rules.tiles import tile_name


def read_match(text: str | bytes) -> Match:
    """Parse the text of a match file, within the limits every door takes."""
    if len(text) > limits.MOST_FILE_BYTES:
        raise MatchFileError(
            "(file)",
            "too-large",
            f"a match file has at most {limits.MOST_FILE_BYTES:,} bytes, this one {len(text):,}",
        )
    try:
        data = json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except _DuplicateKey as error:
        raise MatchFileError("(file)", "not-json", f"the key {error.key!r} appears twice") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise MatchFileError("(file)", "not-json", f"not a JSON document: {error}") from None
    except RecursionError:
        # valid JSON in principle, but nested deeper than Python's parser goes; no match is
        raise MatchFileError("(file)", "not-json", "nested too deeply to be a match") from None
    _check_sizes(data)
    return parse_match(data)


#: a match file nests lists and objects 5 deep (file, hands, a hand, plays, a play); a value of
#: the wrong shape a few levels deeper is still told apart, anything deeper is no match
MOST_DEPTH = 8


def nesting_depth(data: Any, most: int) -> int:
    """How deep lists and objects nest in ``data``, counting no further than ``most`` + 1."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if not isinstance(value, dict | list):
            continue
        deepest = max(deepest, depth)
        if deepest > most:
            return deepest
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _check_sizes(data: Any) -> None:
    """Refuse a file larger than any match before reading it field by field."""
    if nesting_depth(data, MOST_DEPTH) > MOST_DEPTH:
        raise MatchFileError(
            "(file)", "too-deep", f"a match file nests lists and objects {MOST_DEPTH} deep at most"
        )
    if not isinstance(data, dict):
        return
    _at_most(data.get("players"), limits.MOST_PLAYERS, "players", "players")
    hands = data.get("hands")
    _at_most(hands, limits.MOST_HANDS, "hands", "hands")
    for i, hand in enumerate(hands if isinstance(hands, list) else []):
        if not isinstance(hand, dict):
            continue
        _at_most(hand.get("plays"), limits.MOST_PLAYS, f"hands[{i}].plays", "plays in a hand")
        _at_most(
            hand.get("passed_opening"),
            limits.MOST_PLAYERS,
            f"hands[{i}].passed_opening",
            "players",
        )
        end = hand.get("end")
        if isinstance(end, dict):
            _at_most(
                end.get("double_blank"),
                limits.MOST_PLAYERS,
                f"hands[{i}].end.double_blank",
                "players",
            )


def _at_most(value: Any, most: int, path: str, what: str) -> None:
    if isinstance(value, list) and len(value) > most:
        raise MatchFileError(
            path, "too-many", f"a match file holds at most {most} {what}, this one {len(value)}"
        )


def parse_match(data: Any) -> Match:
    """Turn the decoded JSON of a match file into a :class:`Match`."""
    return Reader().match(data)


def parse_rules(game: str, rules: Any) -> dict[str, int | bool]:
    """A ``game``'s house rules as a match file gives them (``rules``), checked as the reader
    checks them; only those that differ from the defaults are kept."""
    reader = Reader()
    reader.game = game
    return reader.house_rules(rules)


def write_match(match: Match) -> dict[str, Any]:
    """The match file for ``match``, as a JSON-ready dict."""
    data: dict[str, Any] = {"format": FORMAT, "game": match.game, "rules": dict(match.rules)}
    data["players"] = list(match.players)
    if match.partnerships:
        data["partnerships"] = [list(team) for team in match.partnerships]
    data["hands"] = write_hands(match.game, match.hands)
    return data


def write_hands(game: str, hands: Sequence[Hand]) -> list[dict[str, Any]]:
    """The match file's ``hands`` for these hands of a ``game``, as JSON-ready dicts."""
    return [_write_hand(game, hand) for hand in hands]


def dumps_match(match: Match) -> str:
    return json.dumps(write_match(match), indent=2, ensure_ascii=False) + "\n"


def _write_hand(game: str, hand: Hand) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if hand.leader is not None:
        data["leader"] = hand.leader
    if hand.double is not None:
        data["double"] = hand.double
    if hand.starter is not None:
        data["starter"] = hand.starter
    if hand.opener is not None:
        data["opener"] = hand.opener
    if hand.passed_opening:
        data["passed_opening"] = list(hand.passed_opening)
    if game == "straight" and hand.plays:
        data["plays"] = [_write_straight_play(play) for play in hand.plays]
    if game == "sedma" and hand.plays:
        data["plays"] = [_write_sedma_play(play) for play in hand.plays]
    if hand.end is not None:
        end: dict[str, Any] = {"how": hand.end.how}
        if hand.end.player is not None:
            end["player"] = hand.end.player
        if hand.end.pips:
            end["pips"] = dict(hand.end.pips)
        if len(hand.end.double_blank) == 1:
            end["double_blank"] = hand.end.double_blank[0]
        elif hand.end.double_blank:
            end["double_blank"] = list(hand.end.double_blank)
        data["end"] = end
    if hand.claimed:
        data["claimed"] = dict(hand.claimed)
    return data


def _write_sedma_play(play: Play) -> dict[str, Any]:
    assert play.tile is not None  # a Sedma play lays a tile
    return {"player": play.player, "tile": tile_name(play.tile)}


def _write_straight_play(play: Play) -> dict[str, Any]:
    data: dict[str, Any] = {"player": play.player, "points": play.points}
    if play.lead:
        data["lead"] = True
    return data


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result
