"""An event's results, its tie-breaks and its standings.

Pure Python, no Django. An entry is a fixed partnership or a player alone: the caller's id for
it, anything hashable; nothing here cares which. A result is a `Game` (two entries and each
one's points for the match, e.g. 250 to 185: the higher total wins, equal totals are a draw) or a
`Bye` (an entry without an opponent that round).

Every tie-break is a value where higher is better, and every one is a pure function of the
results. The conventions, the ones Swiss events usually keep:

- a win scores 1 match point, a draw 1/2, a loss 0; a bye scores 1, as a win;
- a bye counts in `wins` and `match_points` but adds nothing to the points difference;
- Buchholz is the sum of the match points of every opponent met; a bye has no opponent, so it
  adds nothing to its holder's Buchholz (the opponents' own byes do count in their scores);
- opponents' win % is the average over the opponents met of their match points per round
  they had (byes count as wins for them); an entry that met nobody has 0;
- head-to-head is the match points scored in the games between the entries still tied, only
  among them: it is worked out for each tie separately.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

#: an entry as the caller knows it: a partnership's or a player's id
Entry = Hashable

WIN = Fraction(1)
DRAW = Fraction(1, 2)
LOSS = Fraction(0)


@dataclass(frozen=True)
class Game:
    """One match of a round: two entries and the points each scored in it."""

    first: Entry
    second: Entry
    first_points: int
    second_points: int

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError("an entry cannot play itself")

    def match_points(self, entry: Entry) -> Fraction:
        """What the game scored for one of its entries: 1 for a win, 1/2 a draw, 0 a loss."""
        mine, theirs = self.points(entry)
        return WIN if mine > theirs else DRAW if mine == theirs else LOSS

    def points(self, entry: Entry) -> tuple[int, int]:
        """(the entry's points, its opponent's points)."""
        if entry == self.first:
            return self.first_points, self.second_points
        if entry == self.second:
            return self.second_points, self.first_points
        raise ValueError(f"{entry!r} did not play this game")

    def opponent(self, entry: Entry) -> Entry:
        return self.second if entry == self.first else self.first


@dataclass(frozen=True)
class Bye:
    """An entry without an opponent in a round: it scores as a win."""

    entry: Entry


Result = Game | Bye


@dataclass
class Record:
    """One entry's results, gathered once so each tie-break reads them without a search."""

    games: list[Game] = field(default_factory=list)
    byes: int = 0

    @property
    def rounds(self) -> int:
        return len(self.games) + self.byes


def records(entries: Iterable[Entry], results: Iterable[Result]) -> dict[Entry, Record]:
    """Each entry's record. An entry without results has an empty one; a result naming an
    entry that is not in the event is refused."""
    gathered = {entry: Record() for entry in entries}
    for result in results:
        named = (result.entry,) if isinstance(result, Bye) else (result.first, result.second)
        unknown = [entry for entry in named if entry not in gathered]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not an entry of the event")
        if isinstance(result, Bye):
            gathered[result.entry].byes += 1
        else:
            gathered[result.first].games.append(result)
            gathered[result.second].games.append(result)
    return gathered


def entries_of(results: Iterable[Result]) -> set[Entry]:
    """Every entry the results name."""
    named: set[Entry] = set()
    for result in results:
        named |= {result.entry} if isinstance(result, Bye) else {result.first, result.second}
    return named


def wins(entry: Entry, by_entry: Mapping[Entry, Record]) -> Fraction:
    """Games won, a bye counting as one."""
    record = by_entry[entry]
    won = sum(1 for game in record.games if game.match_points(entry) == WIN)
    return Fraction(won + record.byes)


def match_points(entry: Entry, by_entry: Mapping[Entry, Record]) -> Fraction:
    """1 a win or a bye, 1/2 a draw."""
    record = by_entry[entry]
    return sum((game.match_points(entry) for game in record.games), Fraction(record.byes))


def points_difference(entry: Entry, by_entry: Mapping[Entry, Record]) -> Fraction:
    """Points scored less points conceded, over the games played (a bye adds nothing)."""
    return Fraction(sum(mine - theirs for mine, theirs in _points(entry, by_entry)))


def buchholz(entry: Entry, by_entry: Mapping[Entry, Record]) -> Fraction:
    """The sum of the match points of the opponents met (once per meeting)."""
    return sum(
        (match_points(game.opponent(entry), by_entry) for game in by_entry[entry].games),
        Fraction(0),
    )


def opponents_win_percentage(entry: Entry, by_entry: Mapping[Entry, Record]) -> Fraction:
    """The opponents' average share of match points per round they had, 0 to 1."""
    shares = [
        match_points(opponent, by_entry) / by_entry[opponent].rounds
        for opponent in (game.opponent(entry) for game in by_entry[entry].games)
    ]
    return sum(shares, Fraction(0)) / len(shares) if shares else Fraction(0)


def head_to_head(entry: Entry, tied: Iterable[Entry], by_entry: Mapping[Entry, Record]) -> Fraction:
    """Match points from the games against the other entries of the tie."""
    among = set(tied) - {entry}
    return sum(
        (
            game.match_points(entry)
            for game in by_entry[entry].games
            if game.opponent(entry) in among
        ),
        Fraction(0),
    )


def _points(entry: Entry, by_entry: Mapping[Entry, Record]) -> list[tuple[int, int]]:
    return [game.points(entry) for game in by_entry[entry].games]


#: the tie-breaks an event may choose, by key; head-to-head is the one that needs the tie
EACH_ENTRY = {
    "match_points": match_points,
    "wins": wins,
    "points_difference": points_difference,
    "buchholz": buchholz,
    "opponents_win_percentage": opponents_win_percentage,
}
HEAD_TO_HEAD = "head_to_head"
TIEBREAKS = (*EACH_ENTRY, HEAD_TO_HEAD)

#: what an event ranks by unless it chooses otherwise
DEFAULT_TIEBREAKS = ("match_points", "points_difference", "buchholz", HEAD_TO_HEAD)


@dataclass(frozen=True)
class Row:
    """One entry's line of the standings.

    `place` is shared by entries that no tie-break separates (listed then by id). `values` holds
    each tie-break's value by key; head-to-head's is the one worked out within the tie the entry
    was in, and None where the entry was no longer tied when it came to it. `decided_by` is the
    key of the tie-break that put this row below the row above it: the first key for rows that
    differ on it, a later key for a tie it broke, None for the first row and for a row still
    tied with the row above.
    """

    entry: Entry
    place: int
    values: Mapping[str, Fraction | None]
    decided_by: str | None


def standings(
    entries: Iterable[Entry],
    results: Iterable[Result],
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> tuple[Row, ...]:
    """The event's standings, best first, ranked by the tie-breaks in the order given."""
    unknown = [key for key in tiebreaks if key not in TIEBREAKS]
    if unknown or not tiebreaks or len(set(tiebreaks)) != len(tiebreaks):
        raise ValueError(f"tie-breaks must be distinct keys from {TIEBREAKS}, not {unknown}")
    listed = sorted_entries(entries)
    by_entry = records(listed, results)
    values: dict[Entry, dict[str, Fraction | None]] = {
        entry: {
            key: EACH_ENTRY[key](entry, by_entry) if key in EACH_ENTRY else None
            for key in tiebreaks
        }
        for entry in listed
    }
    # each block holds entries still tied, with the key that put the block below the one
    # above; a key splitting a block leaves that to its first part and names itself for the
    # others (the block's first entry may change as later keys reorder it)
    blocks: list[tuple[str | None, list[Entry]]] = [(None, listed)]
    for key in tiebreaks:
        split: list[tuple[str | None, list[Entry]]] = []
        for decided_by, block in blocks:
            if len(block) == 1:
                split.append((decided_by, block))
                continue
            if key == HEAD_TO_HEAD:
                for entry in block:
                    values[entry][key] = head_to_head(entry, block, by_entry)
            # sorted() keeps the id order among equal values; each of the key's values is worked
            # out by now (head-to-head just above), none is None
            ordered = sorted(
                block, key=lambda entry: cast(Fraction, values[entry][key]), reverse=True
            )
            split.append((decided_by, [ordered[0]]))
            for entry in ordered[1:]:
                if values[entry][key] == values[split[-1][1][0]][key]:
                    split[-1][1].append(entry)
                else:
                    split.append((key, [entry]))
        blocks = split
    rows: list[Row] = []
    for decided_by, block in blocks:
        place = len(rows) + 1
        rows.extend(
            Row(entry, place, values[entry], decided_by if at == 0 else None)
            for at, entry in enumerate(block)
        )
    return tuple(rows)


def sorted_entries(entries: Iterable[Entry]) -> list[Entry]:
    """Entries in one order, by id, whatever order they came in; each may come only once."""
    listed = sorted(entries, key=lambda entry: (str(entry), repr(entry)))
    if len(set(listed)) != len(listed):
        raise ValueError("an entry is listed twice")
    return listed
