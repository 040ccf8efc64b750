"""The Match value: what the table told the app, in the shape of the match file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from scorekeeper.rules.text import N_

GAMES = ("straight", "chickenfoot", "sedma")

#: the names the halls use; translated by the front doors (the match file keeps the keys)
GAME_NAMES = {
    "straight": N_("Straight Dominoes"),
    "chickenfoot": N_("Chickenfoot"),
    "sedma": N_("Sedma"),
}

#: The house rules each game knows, with their defaults (docs/rules.md, *House rules*).
HOUSE_RULES: dict[str, dict[str, int | bool]] = {
    "straight": {"target": 250, "spinner": True, "round_each_hand": False, "subtract_own": False},
    "chickenfoot": {"set": 6, "double_blank": 50},
    "sedma": {"target": 61},
}

#: The values a house rule may take: a tuple of choices, or ``int`` for any whole number >= 1.
RULE_CHOICES: dict[str, tuple[int | bool, ...] | type] = {
    "target": int,
    "spinner": (True, False),
    "round_each_hand": (True, False),
    "subtract_own": (True, False),
    "set": (6, 9, 12),
    "double_blank": (0, 25, 50),
}

END_HOWS = {
    "straight": ("domino", "blocked"),
    "chickenfoot": ("domino", "blocked"),
    "sedma": ("domino", "blocked", "all-doubles", "target"),
}


#: how a partnership is written out: "Ana & Cy" (the match file, CSV, pages)
SIDE_JOIN = " & "


@dataclass(frozen=True, eq=False)
class Side:
    """Who scores together: one player, or partners in seating order.

    A side is written out as its label, ``"Ana & Cy"``, and stands for that label wherever a
    side is looked up by it: a side compares equal to its label and hashes as it does, so a
    total is found by the name the match file or a table writes for the side.
    """

    players: tuple[str, ...]

    if TYPE_CHECKING:
        # set in __post_init__; declared for mypy only, so not among the dataclass's fields
        _label: str = field(init=False)
        _hash: int = field(init=False)

    def __post_init__(self) -> None:
        # worked out once: a side is looked up by its label (its hash) at every hand and play
        object.__setattr__(self, "_label", SIDE_JOIN.join(self.players))
        object.__setattr__(self, "_hash", hash(self._label))

    @property
    def label(self) -> str:
        return self._label

    @property
    def is_partnership(self) -> bool:
        return len(self.players) > 1

    def said_with(self, names: Mapping[str, str]) -> str:
        """The side said by its players' names: "Ana & Cy"."""
        return SIDE_JOIN.join(names.get(player, player) for player in self.players)

    def __str__(self) -> str:
        return self.label

    def __format__(self, spec: str) -> str:
        return format(self.label, spec)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Side):
            return self.players == other.players
        if isinstance(other, str):
            return self._label == other
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Side | str):
            return self.label < str(other)
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Side | str):
            return self.label > str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True)
class Play:
    """One scoring play (Straight: ``points``) or one tile laid (Sedma: ``tile``)."""

    player: str
    points: int | None = None
    tile: tuple[int, int] | None = None
    #: Straight: the leader's first tile of the hand, alone on the table (scores 5 or 10 at most)
    lead: bool = False

    @property
    def is_double(self) -> bool:
        return self.tile is not None and self.tile[0] == self.tile[1]


@dataclass(frozen=True)
class HandEnd:
    how: str
    #: who dominoed; on a blocked hand, whom the table named as the winner, if it did
    player: str | None = None
    #: pips left in each hand; a player left out holds none. Straight partners' pips may be
    #: counted together: one number keyed by their side's label, "Ana & Cy"
    pips: dict[str, int] = field(default_factory=dict)
    #: Chickenfoot: who was left holding 0-0 (more than one name is itself a finding)
    double_blank: tuple[str, ...] = ()

    def pips_of(self, player: str) -> int:
        return self.pips.get(player, 0)


@dataclass(frozen=True)
class Hand:
    plays: tuple[Play, ...] = ()
    end: HandEnd | None = None
    #: Straight: who led; Chickenfoot: who set the round's double
    leader: str | None = None
    starter: str | None = None
    #: Chickenfoot: the round's starting double as recorded (6 for 6-6)
    double: int | None = None
    #: Sedma: who set the first double, and those before them who had none
    opener: str | None = None
    passed_opening: tuple[str, ...] = ()
    #: the points the table wrote down for this hand, by player or side name
    claimed: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Match:
    game: str
    players: tuple[str, ...]
    partnerships: tuple[tuple[str, ...], ...] = ()
    #: only the house rules that differ from the defaults
    rules: dict[str, int | bool] = field(default_factory=dict)
    hands: tuple[Hand, ...] = ()

    def rule(self, name: str) -> int | bool:
        return self.rules.get(name, HOUSE_RULES[self.game][name])

    @property
    def sides(self) -> list[Side]:
        """Each player on their own, or the partnerships, in seating order."""
        return list(self._sides)

    # The seating is worked out once per match value (it is frozen) rather than at every
    # lookup: scoring a season's hands looked up a player's side some 270 times a match, and
    # sorting the partnerships each time was a third of the engine's time in hands.csv.
    @cached_property
    def _sides(self) -> tuple[Side, ...]:
        if not self.partnerships:
            return tuple(Side((name,)) for name in self.players)
        teams = sorted(self._teams(), key=lambda team: self.players.index(team[0]))
        return tuple(Side(tuple(team)) for team in teams)

    def _teams(self) -> list[list[str]]:
        return [sorted(team, key=self.players.index) for team in self.partnerships]

    @cached_property
    def _side_by_player(self) -> dict[str, Side]:
        found: dict[str, Side] = {}
        for team in self._teams():
            for name in team:
                # a name in two partnerships (a finding) is on the first
                found.setdefault(name, Side(tuple(team)))
        return found

    @cached_property
    def _players_by_side(self) -> dict[Side | str, tuple[str, ...]]:
        # keyed by sides, found by a side or its label: a side hashes and compares as its label
        found: dict[Side, list[str]] = {}
        for name in self.players:
            found.setdefault(self.side_of(name), []).append(name)
        return {side: tuple(names) for side, names in found.items()}

    def side_of(self, player: str) -> Side:
        side = self._side_by_player.get(player)
        return side if side is not None else Side((player,))

    def players_of(self, side: Side | str) -> list[str]:
        return list(self._players_by_side.get(side, ()))

    def left_of(self, player: str) -> str:
        """The next player in playing order, wrapping around."""
        seat = self.players.index(player)
        return self.players[(seat + 1) % len(self.players)]

    def with_hands(self, hands: tuple[Hand, ...]) -> Match:
        return Match(self.game, self.players, self.partnerships, self.rules, hands)
