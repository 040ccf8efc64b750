"""What a night's pages show: each table's score as it stands, and the night's results."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from scorekeeper import rules
from scorekeeper.leagues import bundle
from scorekeeper.leagues.models import SeasonMatch
from scorekeeper.leagues.results import entries_with_seats, results_of
from scorekeeper.leagues.standings import Standing, standings
from scorekeeper.nights.models import Night, NightRound, NightTable, Signature
from scorekeeper.tables.board_scores import scores_of
from scorekeeper.tables.drawn import cached_drawings
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.scoring import with_everything, with_seats


@dataclass(frozen=True)
class TableNow:
    """A table of a round as the night's pages show it."""

    table: NightTable
    #: the players in seat order, as drawn (and as seated now, once someone took a seat)
    players: list[str]
    #: each side's players and total, in seat order (empty before the round starts)
    sides: list[tuple[tuple[str, ...], int]]
    next_up: rules.NextUp | None
    finished: bool
    forfeited: bool
    winner: str = ""
    #: the sides ahead, by index (board_scores.TableScore.leading)
    leading: tuple[int, ...] = ()

    @property
    def done(self) -> bool:
        return self.finished or self.forfeited


def rounds_of(night: Night) -> list[NightRound]:
    """The night's rounds with their tables, matches and season entries, in a fixed number of
    queries. They are kept on ``night`` too, so what nights/rounds.py asks of its rounds next
    (the round to draw, whether the last is done) reads them from there."""
    matches = with_everything(Match.objects.select_related("league_entry"))
    tables = NightTable.objects.order_by("number").prefetch_related(
        Prefetch("match", matches), "seats"
    )
    played = NightRound.objects.order_by("number").prefetch_related(
        Prefetch("tables", tables), "sitting_out"
    )
    prefetch_related_objects([night], Prefetch("night_rounds", played))
    return list(night.night_rounds.all())


def rounds_with_matches(night: Night) -> list[NightRound]:
    """The night's rounds with their tables, each with its match row and season entry but not
    its hands: which round is being played and whether it is done, in three queries. The
    night's board reads this at every change; it scores only the tables that moved
    (``tables_drawn``)."""
    matches = Match.objects.select_related("league_entry")
    tables = NightTable.objects.order_by("number").prefetch_related(
        Prefetch("match", matches), "seats"
    )
    return list(
        NightRound.objects.filter(night=night)
        .order_by("number")
        .prefetch_related(Prefetch("tables", tables), "sitting_out")
    )


def tables_drawn(
    night_round: NightRound, names: dict[int, str], *, season_version: int
) -> list[str]:
    """Each table of the round as the night's board shows it (nights/_table.html), drawn once
    per version of its match (one more with every play or seat taken), of the season (a player
    renamed, a forfeit) and language (tables/drawn.py). A poll after a tap at one table scores and
    draws that table alone, not every table of the hall: drawn in full, the board of 100 tables
    took 290 ms at every change (through the test client, on SQLite). ``night_round``: read
    without hands (``rounds_with_matches``)."""
    language = get_language()
    keys = _table_keys(night_round, "night.table", season_version, language)
    drawn = cached_drawings(
        keys,
        lambda missing: {
            now.table.pk: render_to_string("nights/_table.html", {"table": now, "board_view": True})
            for now in _scored(missing, names)
        },
        shared_key=f"night.tables:{night_round.pk}:{language}",
    )
    return [mark_safe(drawn[pk]) for pk in keys if pk in drawn]


def tables_now_cached(
    night_round: NightRound, names: dict[int, str], *, season_version: int
) -> list[TableNow]:
    """``tables_now`` of a round read without hands (``rounds_with_matches``): each table
    scored once per version of its match and of the season, cached as ``tables_drawn`` caches
    its drawings. The director's desk asks every 3 s; scoring every table at each of its polls took
    250 ms at p50 in the hall benchmark at 90 tables (SQLite)."""
    keys = _table_keys(night_round, "night.now", season_version)
    cached = cached_drawings(
        keys,
        lambda missing: {
            now.table.pk: (
                now.players,
                now.sides,
                now.next_up,
                now.finished,
                now.forfeited,
                now.winner,
                now.leading,
            )
            for now in _scored(missing, names)
        },
        shared_key=f"night.now:{night_round.pk}",
    )
    tables = {table.pk: table for table in night_round.tables.all()}
    return [TableNow(tables[pk], *cached[pk]) for pk in keys if pk in cached]


def _table_keys(night_round: NightRound, kind: str, *also: object) -> dict[int, str]:
    """Each table's key: what it shows moves with its seats, its match's version and forfeit."""
    keys = {}
    for table in night_round.tables.all():
        match = table.match
        entry = getattr(match, "league_entry", None) if match is not None else None
        moved = (
            (match.pk, match.version, entry.forfeited_by if entry else None)
            if match is not None
            else None
        )
        keys[table.pk] = ":".join(map(str, (kind, table.pk, table.player_ids, moved, *also)))
    return {pk: key.replace(" ", "") for pk, key in keys.items()}


def _scored(table_ids: list[int], names: dict[int, str]) -> list[TableNow]:
    """These tables, each with its match, its seats and its score."""
    matches = with_seats(Match.objects.select_related("league_entry"))
    tables = (
        NightTable.objects.filter(pk__in=table_ids)
        .order_by("number")
        .prefetch_related(Prefetch("match", matches), "seats")
    )
    return tables_now(tables, names)


def tables_now(tables: Iterable[NightTable], names: dict[int, str]) -> list[TableNow]:
    """Each table (of a round), a match being played with its score as it now stands, cached
    once per version of the match (tables/board_scores.py). ``tables``: each with its match read
    with its seats and season entry."""
    tables = list(tables)
    scores = scores_of(table.match for table in tables if table.match is not None)
    shown = []
    for table in tables:
        players = [names.get(pk, "?") for pk in table.player_ids]
        match = table.match
        if match is None:
            shown.append(TableNow(table, players, [], None, False, False))
            continue
        score = scores[match.pk]
        forfeited = match.league_entry.forfeited_by is not None
        winner = match.winner_text if match.finished else ""
        shown.append(
            TableNow(
                table,
                list(score.players),
                score.sides,
                # a table done plays no next hand
                None if match.finished or forfeited else score.next_up,
                match.finished,
                forfeited,
                winner,
                score.leading,
            )
        )
    return shown


def player_names(night: Night) -> dict[int, str]:
    """Every player of the night by id (everyone drawn was checked in)."""
    ids = set(night.check_ins.values_list("player_id", flat=True))
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))


def shown_player_names(night: Night) -> dict[int, str]:
    """Every player of the night by id, named as public pages name them (initials where the
    player asked: tables/models.py, Player.shown_name)."""
    return night_names(night).shown


@dataclass(frozen=True)
class NightNames:
    """The night's players by id: their whole names (what an organizer picks players by) and
    the names public pages show (initials where the player asked: Player.shown_name)."""

    names: dict[int, str]
    shown: dict[int, str]

    @property
    def initials(self) -> dict[str, str]:
        """The initials of those who asked for them, by whole name (the night's results name
        players by it)."""
        return {
            self.names[pk]: shown for pk, shown in self.shown.items() if shown != self.names[pk]
        }


def night_names(night: Night, players: Iterable[Player] | None = None) -> NightNames:
    """Every player of the night (everyone drawn was checked in), named both ways: one query,
    none where the night's players were read already (``players``)."""
    if players is None:
        players = Player.objects.filter(check_ins__night=night).distinct()
    found = list(players)
    return NightNames(
        {player.pk: player.name for player in found},
        {player.pk: player.shown_name for player in found},
    )


def shown_results(rows: list[Standing], names: NightNames) -> list[Standing]:
    """The night's results named as public pages name players: initials where asked
    (``Standing.shown_name``); ``player`` stays the whole name."""
    initials = names.initials
    for row in rows:
        if row.player in initials:
            row.shown_name = initials[row.player]
    return rows


def night_entries(night: Night) -> list[SeasonMatch]:
    """The night's matches as season entries, in the order they were started."""
    return list(entries_with_seats(_night_entries(night)))


def _night_entries(night: Night) -> QuerySet[SeasonMatch]:
    return SeasonMatch.objects.filter(match__night_table__night_round__night=night).order_by(
        "match__night_table__night_round__number", "match__night_table__number"
    )


def night_standings(night: Night) -> list[Standing]:
    """The night's results: wins, points and placings, from its counted matches (a night that
    counts only signed results: a match once signed, nights/signing.py)."""
    lowest = night.season.league.game == "chickenfoot"
    found = night_entries(night)
    results = results_of(found)
    if night.signed_only:
        signed = set(
            Signature.objects.filter(match__in=[entry.match_id for entry in found]).values_list(
                "match_id", flat=True
            )
        )
        results = [
            replace(result, finished=False) if result.match_id not in signed else result
            for result in results
        ]
    return standings(results, lowest_wins=lowest)


def board_version(night_id: int) -> str:
    """Moves with anything the night's board shows: a round drawn or started, a play at any
    table, a seat taken, a forfeit, the season's standings. Two small queries: the TV asks
    every two seconds."""
    return _version_of(night_id, "match__version", "match__league_entry__forfeited_by")


def pairings_version(night_id: int) -> str:
    """Moves with what the pairings page shows: a round drawn or started, a table's match set
    up, and any result (the season's version: a match finished, corrected once finished,
    signed, disputed or forfeited, a seat handed over, a player renamed). A play in a match
    that is still being played moves none of them: the page, told of every play in the hall,
    is answered 304 and drawn again only when a pairing or a result moved."""
    return _version_of(night_id, "match_id")


def _version_of(night_id: int, *table_columns: str) -> str:
    """A digest of the season's version and the night's tables, each with its round's drawing
    and start and ``table_columns``: two small queries."""
    night = Night.objects.filter(pk=night_id).values_list("season__version", flat=True).first()
    tables = list(
        NightTable.objects.filter(night_round__night_id=night_id)
        .order_by("pk")
        .values_list("pk", "night_round__started_at", "night_round__drawn_at", *table_columns)
    )
    return hashlib.sha256(repr((night, tables)).encode()).hexdigest()[:16]


def night_bundle(night: Night) -> Iterator[bytes]:
    """The night's matches as a league bundle of their own: imported, its one season's
    standings are the night's."""
    season = night.season
    league = season.league
    day = f" · {night.played_on:%Y-%m-%d}"
    # a league's and a season's name have at most 80 characters, the day's included
    name, season_name = league.name[: 80 - len(day)] + day, season.name[: 80 - len(day)] + day
    played = (season_name, night.played_on, night.played_on, _night_entries(night))
    return bundle.export_bundle(league, name, [played])
