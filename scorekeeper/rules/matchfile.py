"""Reading and writing the match file (format "dominoes-match/1", see MATCHFILE.md).

Every problem that stops a file being read as a match raises :class:`MatchFileError` naming the
JSON path of the bad value, a code and the reason, e.g.
``hands[2].end.pips.Bo: invalid-number: expected a whole number >= 0, got -3``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scorekeeper.rules.match import (
    END_HOWS,
    GAMES,
    HOUSE_RULES,
    RULE_CHOICES,
    Hand,
    HandEnd,
    Match,
    Play,
)
from scorekeeper.rules.tiles import parse_tile, tile_name

FORMAT = "dominoes-match/1"

HAND_FIELDS = {
    "straight": {"leader", "plays", "end", "claimed"},
    "chickenfoot": {"double", "starter", "end", "claimed"},
    "sedma": {"opener", "passed_opening", "plays", "end", "claimed"},
}
END_FIELDS = {
    "straight": {"how", "player", "pips"},
    "chickenfoot": {"how", "player", "pips", "double_blank"},
    "sedma": {"how", "player"},
}
TOP_FIELDS = {"format", "game", "rules", "players", "partnerships", "hands"}


class MatchFileError(ValueError):
    def __init__(self, path: str, code: str, reason: str) -> None:
        super().__init__(f"{path}: {code}: {reason}")
        self.path = path
        self.code = code
        self.reason = reason


def read_match(text: str | bytes) -> Match:
    """Parse the text of a match file."""
    try:
        data = json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except _DuplicateKey as error:
        raise MatchFileError("(file)", "not-json", f"the key {error.key!r} appears twice") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise MatchFileError("(file)", "not-json", f"not a JSON document: {error}") from None
    except RecursionError:
        # valid JSON in principle, but nested deeper than Python's parser goes; no match is
        raise MatchFileError("(file)", "not-json", "nested too deeply to be a match") from None
    return parse_match(data)


def parse_match(data: Any) -> Match:
    """Turn the decoded JSON of a match file into a :class:`Match`."""
    return _Reader().match(data)


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
        data["plays"] = [{"player": p.player, "points": p.points} for p in hand.plays]
    if game == "sedma" and hand.plays:
        data["plays"] = [{"player": p.player, "tile": tile_name(p.tile)} for p in hand.plays]
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


def _describe(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)


class _Reader:
    """Reads one match, keeping the match's players to check names against."""

    game: str
    players: tuple[str, ...]
    sides: set[str]

    def match(self, data: Any) -> Match:
        self._object(data, "(file)", TOP_FIELDS)
        if "format" in data and data["format"] != FORMAT:
            raise MatchFileError(
                "format", "unknown-format", f"expected {FORMAT!r}, got {_describe(data['format'])}"
            )
        game = self._required(data, "game", "(file)")
        if game not in GAMES:
            raise MatchFileError(
                "game", "unknown-game", f"expected one of {', '.join(GAMES)}, got {_describe(game)}"
            )
        self.game = game
        rules = self._rules(data.get("rules", {}))
        self.players = self._players(self._required(data, "players", "(file)"))
        partnerships = self._partnerships(data.get("partnerships"))
        provisional = Match(game, self.players, partnerships, rules)
        self.sides = set(provisional.sides)
        hands = data.get("hands", [])
        if not isinstance(hands, list):
            raise MatchFileError("hands", "bad-value", f"expected a list, got {_describe(hands)}")
        read = tuple(
            self._hand(hand, f"hands[{i}]", last=i == len(hands) - 1, highest=rules.get("set", 6))
            for i, hand in enumerate(hands)
        )
        return provisional.with_hands(read)

    # -- pieces -------------------------------------------------------------------------------

    def _object(self, data: Any, path: str, allowed: set[str]) -> None:
        if not isinstance(data, dict):
            raise MatchFileError(path, "bad-value", f"expected an object, got {_describe(data)}")
        for key in data:
            if key not in allowed:
                raise MatchFileError(
                    _join(path, key),
                    "unknown-field",
                    f"not a field here; expected one of {', '.join(sorted(allowed))}",
                )

    def _required(self, data: dict, key: str, path: str) -> Any:
        if key not in data:
            raise MatchFileError(_join(path, key), "missing-field", "this field is required")
        return data[key]

    def _rules(self, rules: Any) -> dict[str, int | bool]:
        if not isinstance(rules, dict):
            raise MatchFileError(
                "rules", "bad-value", f"expected an object, got {_describe(rules)}"
            )
        known = HOUSE_RULES[self.game]
        result: dict[str, int | bool] = {}
        for name, value in rules.items():
            path = f"rules.{name}"
            if name not in known:
                raise MatchFileError(
                    path,
                    "unknown-rule",
                    f"{self.game} has no house rule {name!r}; its rules are {', '.join(known)}",
                )
            choices = RULE_CHOICES[name]
            if choices is int:
                result[name] = _whole(value, path, minimum=1)
            elif isinstance(known[name], bool):
                if not isinstance(value, bool):
                    raise MatchFileError(
                        path, "bad-value", f"expected true or false, got {_describe(value)}"
                    )
                result[name] = value
            else:
                number = _whole(value, path, minimum=0)
                if number not in choices:
                    raise MatchFileError(
                        path,
                        "invalid-number",
                        f"expected one of {', '.join(map(str, choices))}, got {number}",
                    )
                result[name] = number
        # keep only what differs from the defaults, so a file reads back the same
        return {name: value for name, value in result.items() if value != known[name]}

    def _players(self, players: Any) -> tuple[str, ...]:
        if not isinstance(players, list) or not players:
            raise MatchFileError(
                "players", "bad-value", f"expected a list of names, got {_describe(players)}"
            )
        for i, name in enumerate(players):
            if not isinstance(name, str) or not name.strip():
                raise MatchFileError(
                    f"players[{i}]", "bad-value", f"expected a name, got {_describe(name)}"
                )
            if " & " in name:
                raise MatchFileError(
                    f"players[{i}]",
                    "bad-value",
                    f'{name!r}: a name cannot contain " & ", which joins partners\' names',
                )
            if name in players[:i]:
                raise MatchFileError(
                    f"players[{i}]", "duplicate-player", f"{name!r} is already seated"
                )
        return tuple(players)

    def _partnerships(self, teams: Any) -> tuple[tuple[str, ...], ...]:
        if teams is None or teams == []:
            return ()
        if self.game != "straight" or len(self.players) != 4:
            raise MatchFileError(
                "partnerships",
                "bad-partnership",
                "partnerships are for Straight Dominoes with 4 players only",
            )
        if not isinstance(teams, list) or len(teams) != 2:
            raise MatchFileError(
                "partnerships", "bad-partnership", "expected two partnerships of two players"
            )
        for i, team in enumerate(teams):
            if not isinstance(team, list) or len(team) != 2:
                raise MatchFileError(
                    f"partnerships[{i}]", "bad-partnership", "expected two players"
                )
            for j, name in enumerate(team):
                self._player(name, f"partnerships[{i}][{j}]")
        seat = {name: i for i, name in enumerate(self.players)}
        for i, (first, second) in enumerate(teams):
            if abs(seat[first] - seat[second]) != 2:
                raise MatchFileError(
                    f"partnerships[{i}]",
                    "bad-partnership",
                    f"partners sit opposite (seats 1 and 3, 2 and 4): {first} and {second} do not",
                )
        if teams[0][0] in teams[1]:
            raise MatchFileError(
                "partnerships[1]",
                "bad-partnership",
                "each player belongs to exactly one partnership",
            )
        return tuple(tuple(team) for team in teams)

    def _player(self, name: Any, path: str) -> str:
        if not isinstance(name, str) or name not in self.players:
            raise MatchFileError(
                path,
                "unknown-player",
                f"{_describe(name)} is not one of the players ({', '.join(self.players)})",
            )
        return name

    def _hand(self, data: Any, path: str, *, last: bool, highest: int) -> Hand:
        self._object(data, path, HAND_FIELDS[self.game])
        fields: dict[str, Any] = {}
        for key in ("leader", "starter", "opener"):
            if data.get(key) is not None:
                fields[key] = self._player(data[key], f"{path}.{key}")
        if data.get("double") is not None:
            fields["double"] = _whole(data["double"], f"{path}.double", maximum=highest)
        if "passed_opening" in data:
            passed = data["passed_opening"]
            if not isinstance(passed, list):
                raise MatchFileError(
                    f"{path}.passed_opening", "bad-value", "expected a list of players"
                )
            fields["passed_opening"] = tuple(
                self._player(name, f"{path}.passed_opening[{i}]") for i, name in enumerate(passed)
            )
        if "plays" in data:
            fields["plays"] = self._plays(data["plays"], f"{path}.plays")
        if data.get("end") is not None:
            fields["end"] = self._end(data["end"], f"{path}.end")
        elif not last:
            raise MatchFileError(
                f"{path}.end", "missing-field", "only the last hand may be left without an end"
            )
        if "claimed" in data:
            fields["claimed"] = self._claimed(data["claimed"], f"{path}.claimed")
        return Hand(**fields)

    def _plays(self, plays: Any, path: str) -> tuple[Play, ...]:
        if not isinstance(plays, list):
            raise MatchFileError(path, "bad-value", f"expected a list, got {_describe(plays)}")
        result = []
        for i, play in enumerate(plays):
            where = f"{path}[{i}]"
            value_key = "tile" if self.game == "sedma" else "points"
            self._object(play, where, {"player", value_key})
            player = self._player(self._required(play, "player", where), f"{where}.player")
            value = self._required(play, value_key, where)
            if value_key == "points":
                result.append(Play(player, points=_whole(value, f"{where}.points", minimum=1)))
            else:
                result.append(Play(player, tile=_tile(value, f"{where}.tile")))
        return tuple(result)

    def _end(self, end: Any, path: str) -> HandEnd:
        self._object(end, path, END_FIELDS[self.game])
        how = self._required(end, "how", path)
        if how not in END_HOWS[self.game]:
            raise MatchFileError(
                f"{path}.how",
                "bad-value",
                f"expected one of {', '.join(END_HOWS[self.game])}, got {_describe(how)}",
            )
        player = None
        if how == "domino" and self.game != "sedma":
            player = self._player(self._required(end, "player", path), f"{path}.player")
        elif end.get("player") is not None:
            player = self._player(end["player"], f"{path}.player")
        pips = end.get("pips", {})
        if not isinstance(pips, dict):
            raise MatchFileError(
                f"{path}.pips", "bad-value", "expected an object of pips by player"
            )
        read_pips = {
            self._player(name, _join(f"{path}.pips", name)): _whole(
                value, _join(f"{path}.pips", name)
            )
            for name, value in pips.items()
        }
        holders = end.get("double_blank")
        if holders is None:
            holders = []
        elif isinstance(holders, str):
            holders = [holders]
        if not isinstance(holders, list):
            raise MatchFileError(f"{path}.double_blank", "bad-value", "expected a player's name")
        read_holders = tuple(self._player(name, f"{path}.double_blank") for name in holders)
        return HandEnd(how=how, player=player, pips=read_pips, double_blank=read_holders)

    def _claimed(self, claimed: Any, path: str) -> dict[str, int]:
        if not isinstance(claimed, dict):
            raise MatchFileError(
                path, "bad-value", "expected an object of points by player or side"
            )
        result = {}
        for name, value in claimed.items():
            where = _join(path, name)
            if name not in self.sides:
                self._player(name, where)
            result[name] = _whole(value, where)
        return result


def _join(path: str, key: str) -> str:
    """``hands[0].end`` + ``pips`` -> ``hands[0].end.pips``; an empty key is shown as ``""``."""
    key = key or '""'
    return key if path == "(file)" else f"{path}.{key}"


def _whole(value: Any, path: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        bound = f">= {minimum}" if minimum != 1 else "> 0"
        raise MatchFileError(
            path, "invalid-number", f"expected a whole number {bound}, got {_describe(value)}"
        )
    if maximum is not None and value > maximum:
        raise MatchFileError(
            path,
            "invalid-number",
            f"expected a whole number from {minimum} to {maximum}, got {value}",
        )
    return value


def _tile(value: Any, path: str) -> tuple[int, int]:
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        tile = parse_tile(value)
    except ValueError:
        raise MatchFileError(
            path, "bad-value", f'expected a tile like "4-4", got {_describe(value)}'
        ) from None
    if not all(0 <= half <= 6 for half in tile):
        raise MatchFileError(
            path, "invalid-number", f"a double-six set has halves from 0 to 6, got {value}"
        )
    return tile
