"""A round's pairings as the public page shows them: by table, and by name for a player who
looks for their table. Pure Python: names in, rows out, no Django."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TablePairing:
    """A table of the round: its players in seat order, and in partnerships its two sides
    (seats 1 & 3 against 2 & 4)."""

    number: int
    players: tuple[str, ...]
    sides: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class PlayerPairing:
    """Where a player plays this round: table and seat (1-based), their partner in a
    partnership, and who they play against; table 0 for a player sitting the round out."""

    name: str
    table: int = 0
    seat: int = 0
    partners: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()

    @property
    def sits_out(self) -> bool:
        return self.table == 0


def by_table(
    tables: Sequence[tuple[int, Sequence[str]]], *, partnerships: bool
) -> list[TablePairing]:
    """``tables``: each table's number and players in seat order."""
    shown = []
    for number, players in sorted(tables, key=lambda table: table[0]):
        players = tuple(players)
        sides: tuple[tuple[str, ...], ...] = ()
        if partnerships and len(players) == 4:
            sides = (players[0::2], players[1::2])
        shown.append(TablePairing(number, players, sides))
    return shown


def by_name(tables: Sequence[TablePairing], sitting_out: Sequence[str] = ()) -> list[PlayerPairing]:
    """Every player of the round, in alphabetical order (accents and case aside)."""
    rows = [PlayerPairing(name) for name in sitting_out]
    for table in tables:
        for seat, name in enumerate(table.players, start=1):
            if table.sides:
                own = table.sides[(seat - 1) % 2]
                partners = tuple(player for player in own if player != name)
                opponents = table.sides[seat % 2]
            else:
                partners = ()
                opponents = tuple(player for player in table.players if player != name)
            rows.append(PlayerPairing(name, table.number, seat, partners, opponents))
    return sorted(rows, key=lambda row: (folded(row.name), row.name))


def folded(text: str) -> str:
    """``text`` as a search compares it: without accents, case or surrounding spaces, so that
    "jose" finds "José" and "ZOFIA" finds "Zofia"."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def name_matches(name: str, typed: str) -> bool:
    """Whether a player's name contains what was typed (static/js/pairings.js filters the
    same way as one types). Nothing typed matches everyone."""
    wanted = folded(typed)
    if not wanted:
        return True
    return wanted in folded(name)
