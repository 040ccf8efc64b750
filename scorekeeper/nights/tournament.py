"""A tournament night: a league night whose rounds are Swiss or round robin.

Its entries are fixed: partnerships the organizer pairs once (Straight in partnerships), or
players alone (Straight heads-up). Each round pairs two entries a table with the events engine
(events/pairing.py) from the night's results so far (events/standings.py), and is stored as any
night's round: a partnership's players in seats 1 & 3, the other's in 2 & 4, so starting it,
its cards, boards and results are the league night's own.

An entry is known by key: a player's id, or the two partners' ids in order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.events import pairing
from scorekeeper.events.standings import Bye, Entry, Game, Result, Row, entries_of, standings
from scorekeeper.nights import draw
from scorekeeper.nights.models import CheckIn, Night, NightRound, NightTable

#: the tie-breaks an organizer may tick, in the order the standings apply them (match points
#: always come first)
TIEBREAK_CHOICES = (
    ("wins", _("Wins")),
    ("points_difference", _("Point difference")),
    ("buchholz", _("Buchholz (opponents' match points)")),
    ("opponents_win_percentage", _("Opponents' win %")),
    ("head_to_head", _("Head-to-head")),
)
#: the column headings and the "decided by" words of the standings
TIEBREAK_NAMES = {
    "match_points": _("Match points"),
    "wins": _("Wins"),
    "points_difference": _("Point difference"),
    "buchholz": _("Buchholz"),
    "opponents_win_percentage": _("Opponents' win %"),
    "head_to_head": _("Head-to-head"),
}
NO_PAIRING = {
    "rematch": gettext_lazy("Every pairing of this round has a rematch."),
    "rematch_or_second_bye": gettext_lazy(
        "Every pairing of this round has a rematch or gives someone a second bye."
    ),
}


class TournamentError(ValueError):
    """The round cannot be paired as asked; the message says why."""


class RematchesNeeded(TournamentError):
    """Every Swiss pairing of the round has a rematch (or a second bye): the organizer may
    ask for the fewest."""


def refusal(game: str) -> str:
    """Why the game cannot have Swiss or round robin rounds, or "" when it can: they pair two
    entries a table, which only Straight Dominoes plays (partnerships or heads-up)."""
    if game == "straight":
        return ""
    return gettext(
        "Swiss and round robin rounds pair two entries at a table: Straight Dominoes only. "
        "Chickenfoot and Sedma seat three or more players who each score alone: use a blind "
        "or balanced draw."
    )


def in_partnerships(night: Night) -> bool:
    return night.partnerships and night.season.league.game == "straight"


def entry_of(player: int, partner: int | None, partnerships: bool) -> Entry:
    return tuple(sorted((player, partner))) if partnerships and partner else player


def entries_in(night: Night, check_ins: Sequence[CheckIn]) -> list[Entry]:
    """The entries of the players playing a round (``check_ins``), refused when someone here
    has no partner here in a night of partnerships."""
    if not in_partnerships(night):
        return [check_in.player_id for check_in in check_ins]
    here = {check_in.player_id for check_in in check_ins}
    left = sorted(c.player.name for c in check_ins if c.partner_id and c.partner_id not in here)
    if left:
        raise TournamentError(
            gettext(
                "The partner of %(players)s has left: a partnership plays together or not at "
                "all, so they leave too (or their partner comes back)."
            )
            % {"players": ", ".join(left)}
        )
    alone = [c.player.name for c in check_ins if c.partner_id is None]
    if alone:
        raise TournamentError(
            gettext("Pair every player here with a partner first: %(players)s.")
            % {"players": ", ".join(sorted(alone))}
        )
    return sorted({entry_of(c.player_id, c.partner_id, True) for c in check_ins}, key=str)


def _entry_by_player(night: Night) -> dict[int, Entry]:
    partnerships = in_partnerships(night)
    return {
        check_in.player_id: entry_of(check_in.player_id, check_in.partner_id, partnerships)
        for check_in in night.check_ins.all()
    }


def side_entries(seats: Sequence[int], by_player: dict[int, Entry]) -> tuple[Entry, Entry]:
    """A table's two entries, from its seats (1 & 3 against 2 & 4 in partnerships). Someone
    who took a seat mid-match plays for the entry of the partner they joined."""
    if len(seats) == 4:
        sides = (seats[0::2], seats[1::2])
        return tuple(  # type: ignore[return-value]  # two sides: two entries
            next(
                (by_player[pk] for pk in side if isinstance(by_player.get(pk), tuple)),
                by_player.get(side[0], side[0]),
            )
            for side in sides
        )
    return by_player.get(seats[0], seats[0]), by_player.get(seats[1], seats[1])


def night_results(night: Night, played: Iterable[NightRound]) -> list[Result]:
    """The results of the started rounds (``played``, their tables and matches prefetched as
    results.rounds_of gives them): a game for each finished or forfeited match, a bye for each
    entry that sat a round out. Matches still being played count for nothing yet."""
    by_player = _entry_by_player(night)
    found: list[Result] = []
    for night_round in played:
        if night_round.started_at is None:
            continue
        for table in night_round.tables.all():
            match = table.match
            if match is None or len(table.player_ids) not in (2, 4):
                continue
            first, second = side_entries(table.player_ids, by_player)
            totals = [int(total) for total in match.totals] + [0, 0]
            mine, theirs = totals[0], totals[1]
            forfeited = match.league_entry.forfeited_by
            if forfeited is not None:
                # the side that stayed wins: the points as they stood, one more than the
                # forfeiting side's where it was behind
                if forfeited == 0:
                    theirs = max(theirs, mine + 1)
                else:
                    mine = max(mine, theirs + 1)
            elif not match.finished:
                continue
            found.append(Game(first, second, mine, theirs))
        byes = {by_player.get(pk, pk) for pk in night_round.sitting_out_ids}
        found.extend(Bye(entry) for entry in sorted(byes, key=str))
    return found


def tiebreaks_of(night: Night) -> tuple[str, ...]:
    return ("match_points", *(key for key in night.tiebreaks if key != "match_points"))


def ranking(night: Night, entries: Sequence[Entry], results: Sequence[Result]) -> list[Entry]:
    """The entries playing the next round, best first by the night's standings."""
    playing = set(entries)
    rows = standings({*entries, *entries_of(results)}, results, tiebreaks_of(night))
    return [row.entry for row in rows if row.entry in playing]


def pair_round(
    night: Night,
    number: int,
    check_ins: Sequence[CheckIn],
    played: Sequence[NightRound],
    *,
    allow_rematches: bool = False,
) -> draw.Round:
    """Round ``number``'s tables for the players here (their seats by player id) and the bye:
    Swiss by the standings so far, or the round robin's next round."""
    entries = entries_in(night, check_ins)
    if len(entries) < 2:
        raise TournamentError(gettext("A round needs at least two entries."))
    started = [r for r in played if r.started_at is not None and r.number < number]
    if night.draw == Night.Draw.SWISS:
        results = night_results(night, started)
        try:
            paired = pairing.swiss_round(
                ranking(night, entries, results), results, allow_rematches=allow_rematches
            )
        except pairing.NoPairing as refused:
            raise RematchesNeeded(
                gettext("%(reason)s Tick “pair with fewest rematches” to pair it anyway.")
                % {"reason": NO_PAIRING[refused.reason]}
            ) from None
    else:
        paired = _robin_round(night, entries, started)
    partnerships = in_partnerships(night)
    tables = tuple(
        draw.Table(at, _seats(one, other), partnerships)
        for at, (one, other) in enumerate(paired.tables, start=1)
    )
    bye = () if paired.bye is None else _players(paired.bye)
    return draw.Round(tables, bye)


def _robin_round(
    night: Night, entries: list[Entry], started: Sequence[NightRound]
) -> pairing.Pairing:
    """The next round of the circle schedule for these entries: it starts afresh when the
    entries change (someone came or left), as a schedule is for one field."""
    schedule = pairing.round_robin(entries)
    by_player = _entry_by_player(night)
    field = set(entries)
    done = 0
    for earlier in sorted(started, key=lambda r: -r.number):
        drawn = {by_player.get(pk, pk) for t in earlier.tables.all() for pk in t.player_ids}
        if drawn | {by_player.get(pk, pk) for pk in earlier.sitting_out_ids} != field:
            break
        done += 1
    if done >= len(schedule):
        raise TournamentError(gettext("Everyone has met everyone: the round robin is complete."))
    return schedule[done]


def _players(entry: Entry) -> tuple[int, ...]:
    return entry if isinstance(entry, tuple) else (entry,)


def _seats(one: Entry, other: Entry) -> tuple[int, ...]:
    """Partners opposite each other: seats 1 & 3 one entry, 2 & 4 the other."""
    first, second = _players(one), _players(other)
    if len(first) == 2:
        return (first[0], second[0], first[1], second[1])
    return (*first, *second)


def entry_name(entry: Entry, names: dict[int, str]) -> str:
    return " & ".join(names.get(pk, "?") for pk in _players(entry))


@dataclass(frozen=True)
class StandingShown:
    """A line of a tournament night's standings as its pages show it."""

    place: int
    shared: bool
    entry: str
    played: int
    won: int
    lost: int
    values: list[str]
    decided_by: str
    #: each tie-break's value as the engine has it (None where it has none), in ``values``' order
    exact: tuple[Fraction | None, ...] = ()
    #: the key of the tie-break that put the row below the row above (``match_points`` too),
    #: "" for the first row and a row still tied with the one above
    decided_key: str = ""


def shown_standings(night: Night, played: Sequence[NightRound], names: dict[int, str]) -> dict:
    """The night's standings by entry, each tie-break's value and what decided each tie:
    {"columns": [...], "rows": [StandingShown]}."""
    results = night_results(night, played)
    # in partnerships, a player without a partner (a stand-in) is no entry of their own
    partnerships = in_partnerships(night)
    checked_in = _entry_by_player(night).values()
    entries = {e for e in checked_in if isinstance(e, tuple) or not partnerships}
    entries |= entries_of(results)
    keys = tiebreaks_of(night)
    rows = standings(entries, results, keys)
    games: dict[Entry, list[Game]] = {entry: [] for entry in entries}
    byes: Counter = Counter()
    for result in results:
        if isinstance(result, Game):
            games[result.first].append(result)
            games[result.second].append(result)
        else:
            byes[result.entry] += 1
    shown = []
    previous: Row | None = None
    for row in rows:
        played_games = games[row.entry]
        # a bye is a round played and won, as the engine's `wins` counts it
        won = byes[row.entry] + sum(1 for game in played_games if _won(game, row.entry) > 0)
        lost = sum(1 for game in played_games if _won(game, row.entry) < 0)
        tie = row.decided_by is not None and row.decided_by != keys[0]
        shown.append(
            StandingShown(
                place=row.place,
                shared=previous is not None and previous.place == row.place,
                entry=entry_name(row.entry, names),
                played=len(played_games) + byes[row.entry],
                won=won,
                lost=lost,
                values=[_value(key, row.values[key]) for key in keys],
                decided_by=(
                    str(TIEBREAK_NAMES[row.decided_by])
                    if tie and row.decided_by is not None
                    else ""
                ),
                exact=tuple(row.values[key] for key in keys),
                decided_key=row.decided_by or "",
            )
        )
        previous = row
    return {"columns": [TIEBREAK_NAMES[key] for key in keys], "keys": keys, "rows": shown}


def _won(game: Game, entry: Entry) -> int:
    mine, theirs = game.points(entry)
    return (mine > theirs) - (mine < theirs)


def _value(key: str, value: Fraction | None) -> str:
    if value is None:
        return "–"
    if key == "opponents_win_percentage":
        return f"{round(100 * value)}%"
    whole, half = divmod(value, 1)
    if half == Fraction(1, 2):
        return f"{whole}½" if whole or value > 0 else "½"
    if value.denominator != 1:
        return f"{float(value):.2f}"
    return str(value.numerator)


def is_tournament_match(match_id: int) -> bool:
    """Whether a match is a table of a Swiss or round robin night: its board offers no
    Rematch (the next round's pairing decides who plays whom). One small query."""
    return NightTable.objects.filter(
        match_id=match_id, night_round__night__draw__in=(Night.Draw.SWISS, Night.Draw.ROUND_ROBIN)
    ).exists()
