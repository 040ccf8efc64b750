"""The match file read field by field (rules/matchfile.py reads the file): every value is
checked where it stands, and a refusal names its JSON path, a code and the reason."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from scorekeeper.rules import limits
from scorekeeper.rules.match import (
    END_HOWS,
    GAMES,
    HOUSE_RULES,
    RULE_CHOICES,
    Hand,
    HandEnd,
    Match,
    Play,
    Side,
)
from scorekeeper.rules.scoreboard import LAST_HAND
from scorekeeper.rules.tiles import parse_tile

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
PLAY_FIELDS = {
    "straight": {"player", "points", "lead"},
    # Chickenfoot hands have no plays: the reader refuses "plays" before it reads one
    "chickenfoot": {"player", "points"},
    "sedma": {"player", "tile"},
}
TOP_FIELDS = {"format", "game", "rules", "players", "partnerships", "hands"}


class MatchFileError(ValueError):
    def __init__(self, path: str, code: str, reason: str) -> None:
        # the path and reason quote the file: keep them short and printable, whatever it holds
        path, reason = _quotable(path), _quotable(reason)
        super().__init__(f"{path}: {code}: {reason}")
        self.path = path
        self.code = code
        self.reason = reason


def _describe(value: Any) -> str:
    """A bad value as the message quotes it: short, whatever the file holds."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:40] + "...")
    text = json.dumps(value)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} digits)"


def _quotable(text: str) -> str:
    """``text`` cut to a sentence's length, with what cannot be shown written as escapes."""
    if len(text) > 300:
        text = text[:300] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class Reader:
    """Reads one match, keeping the match's players to check names against."""

    game: str
    players: tuple[str, ...]
    #: the sides, each found by its label too
    sides: set[Side | str]
    #: the partnerships' labels ("Ana & Cy"): what pips counted together are keyed by
    partnerships: set[str]

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
        rules = self.house_rules(data.get("rules", {}))
        self.players = self._players(self._required(data, "players", "(file)"))
        partnerships = self._partnerships(data.get("partnerships"))
        provisional = Match(game, self.players, partnerships, rules)
        self.sides = set(provisional.sides)
        self.partnerships = {side.label for side in provisional.sides if side.is_partnership}
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

    def _required(self, data: dict[str, Any], key: str, path: str) -> Any:
        if key not in data:
            raise MatchFileError(_join(path, key), "missing-field", "this field is required")
        return data[key]

    def house_rules(self, rules: Any) -> dict[str, int | bool]:
        if not isinstance(rules, dict):
            raise MatchFileError(
                "rules", "bad-value", f"expected an object, got {_describe(rules)}"
            )
        known = HOUSE_RULES[self.game]
        result: dict[str, int | bool] = {}
        for name, value in rules.items():
            path = f"rules.{name}"
            if name == LAST_HAND:
                # a round on the clock ran out during this hand: not a house rule, the round's
                result[name] = _whole(value, path, minimum=1, maximum=limits.MOST_HANDS + 1)
                continue
            if name not in known:
                raise MatchFileError(
                    path,
                    "unknown-rule",
                    f"{self.game} has no house rule {name!r}; its rules are {', '.join(known)}",
                )
            choices = RULE_CHOICES[name]
            if not isinstance(choices, tuple):  # int: any whole number
                result[name] = _whole(value, path, minimum=1, maximum=limits.MOST_TARGET)
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
        return {name: value for name, value in result.items() if value != known.get(name)}

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
            if len(name) > limits.MOST_NAME_LENGTH:
                raise MatchFileError(
                    f"players[{i}]",
                    "bad-value",
                    f"a name has at most {limits.MOST_NAME_LENGTH} characters, "
                    f"this one {len(name)}",
                )
            if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
                raise MatchFileError(
                    f"players[{i}]",
                    "bad-value",
                    f"{_describe(name)}: a name holds no control characters and no half of a "
                    "UTF-16 pair",
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

    def _holder(self, name: str, path: str) -> str:
        """Whose pips: a player, or partners counted together, keyed by their partnership."""
        return name if name in self.partnerships else self._player(name, path)

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
            self._object(play, where, PLAY_FIELDS[self.game])
            player = self._player(self._required(play, "player", where), f"{where}.player")
            value = self._required(play, value_key, where)
            if value_key == "points":
                points = _whole(
                    value, f"{where}.points", minimum=1, maximum=limits.MOST_PLAY_POINTS
                )
                lead = play.get("lead", False)
                if not isinstance(lead, bool):
                    raise MatchFileError(
                        f"{where}.lead",
                        "bad-value",
                        f"expected true or false, got {_describe(lead)}",
                    )
                result.append(Play(player, points=points, lead=lead))
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
            self._holder(name, _join(f"{path}.pips", name)): _whole(
                value, _join(f"{path}.pips", name), maximum=limits.MOST_PIPS
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
            result[name] = _whole(value, where, maximum=limits.MOST_CLAIMED)
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
        why = _WHY_AT_MOST.get(maximum, "")
        raise MatchFileError(
            path,
            "invalid-number",
            f"expected a whole number from {minimum} to {maximum}{why}, got {_describe(value)}",
        )
    whole: int = value
    return whole


#: why a number is refused above its bound; below it, a number the rules make impossible is
#: kept and flagged by a finding
_WHY_AT_MOST = {
    limits.MOST_PIPS: " (no set has more pips: double-twelve has 1092)",
    limits.MOST_PLAY_POINTS: " (a play shows at most 35; more is kept and flagged up to 1000)",
    # the claimed points of a hand share the bound of the target
    limits.MOST_TARGET: " (more than the highest target a match is played to)",
}


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
