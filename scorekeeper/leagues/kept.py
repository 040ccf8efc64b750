"""A season's standings, kept as its matches change (STYLE.md: aggregates kept at write time).

Every change to a season's match that can change what it counts for (it finishes, a finished
one is corrected or reverted, it is forfeited, added to or taken from the season) calls
``standings_count`` in the transaction that makes it (leagues/moves.py). The match's result
as the standings counted it is kept on its entry (``SeasonMatch.counted``): the change takes
that result away from its players' rows and head-to-head records and adds the new one, so a
finish costs a few rows, whatever the size of the season. A play in a match being played
counts for nothing and changes nothing here. Players are kept by id: a renamed player's rows
stand as they are, and pages show the name they have now.

Pages read the rows (``standings_read``): one query for the rows and one for the head-to-head
records of the players who share a place before the tie-breaks; the ranking is worked out from
them (leagues/standings.py), never from the season's matches. ``standings_rebuild`` works a
season's rows out from scratch: for the migration that brought them, for seasons filled in
bulk, outside the app's services (the benchmark; ``manage.py standings_rebuild``), and for the
tests that prove the kept rows equal the standings worked out from every match.
"""

from __future__ import annotations

from types import SimpleNamespace

from django.apps import apps as installed_apps
from django.db.models import F, Q

from scorekeeper.leagues.models import HeadToHead, Season, SeasonMatch, StandingRow
from scorekeeper.leagues.results import results_by_player_id
from scorekeeper.leagues.standings import (
    BY_WIN_PERCENT,
    Ranking,
    Result,
    Standing,
    Tally,
    ranked,
    tally,
    tied,
)
from scorekeeper.tables.models import Seat

#: the columns of a kept row, as Standing has them
_NUMBERS = (
    "played",
    "won",
    "lost",
    "forfeits",
    "shared_wins",
    "points_for",
    "points_against",
    "total_sum",
)


def standings_count(*, match_id: int) -> None:
    """Count the season match's result as it stands now in its season's kept standings (no
    season match: nothing to do). Call inside the transaction that changed the match."""
    entry = SeasonMatch.objects.filter(match_id=match_id).values_list("season_id", flat=True)
    season_id = entry.first()
    if season_id is None:
        return
    # The season's version moves (its cached pages are drawn again) and its row stays locked
    # until the transaction ends: two matches of the season finishing at once change the same
    # players' rows one after the other, never from the same old values.
    Season.objects.filter(pk=season_id).update(version=F("version") + 1)
    entries = SeasonMatch.objects.filter(match_id=match_id)
    ((entry_id, now),) = results_by_player_id(entries, Seat.objects.filter(match_id=match_id))
    before = entries.values_list("counted", flat=True).get()
    counted = _counted(now) if now.counts else None
    if counted == before:
        return
    _change(season_id, _result(before), now)
    entries.update(counted=counted)
    if (before is None) != (counted is None):
        Season.objects.filter(pk=season_id).update(
            counted_matches=F("counted_matches") + (1 if before is None else -1)
        )


def standings_uncount(*, entry: SeasonMatch) -> None:
    """Take a season match leaving its season (deleted, or its match deleted) out of the kept
    standings; call before it is deleted, in the same transaction."""
    before = SeasonMatch.objects.filter(pk=entry.pk).values_list("counted", flat=True).first()
    Season.objects.filter(pk=entry.season_id).update(version=F("version") + 1)
    if before is not None:
        _change(entry.season_id, _result(before), None)
        SeasonMatch.objects.filter(pk=entry.pk).update(counted=None)
        Season.objects.filter(pk=entry.season_id).update(counted_matches=F("counted_matches") - 1)


def _change(season_id: int, before: Result | None, now: Result | None) -> None:
    """Take ``before`` out of the season's rows and put ``now`` in, reading and writing only
    the rows of their players."""
    players = {p for r in (before, now) if r is not None for side in r.sides for p in side}
    kept = Tally()
    for row in StandingRow.objects.filter(season_id=season_id, player_id__in=players):
        kept.rows[row.player_id] = _standing(row, row.player_id)
    pairs = HeadToHead.objects.filter(
        season_id=season_id, player_id__in=players, opponent_id__in=players
    )
    for player_id, opponent_id, wins in pairs.values_list("player_id", "opponent_id", "wins"):
        kept.beats[player_id, opponent_id] = wins
    if before is not None:
        kept.count(before, -1)
    if now is not None:
        kept.count(now)
    StandingRow.objects.filter(season_id=season_id, player_id__in=players).exclude(
        player_id__in=list(kept.rows)
    ).delete()
    _write_rows(StandingRow, season_id, kept)
    gone = Q()
    for player in players:
        for opponent in players:
            if (player, opponent) not in kept.beats:
                gone |= Q(player_id=player, opponent_id=opponent)
    if gone:
        HeadToHead.objects.filter(gone, season_id=season_id).delete()
    _write_beats(HeadToHead, season_id, kept)


def _write_rows(model: type[StandingRow], season_id: int, kept: Tally, *, using: str = "") -> None:
    """Write the rows (``using``: into that database, all new; without: over those kept)."""
    rows = [
        model(
            season_id=season_id,
            player_id=player_id,
            placings={str(place): n for place, n in row.placings.items()},
            **{name: getattr(row, name) for name in _NUMBERS},
        )
        for player_id, row in kept.rows.items()
    ]
    if not using:
        model.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["season", "player"],
            update_fields=[*_NUMBERS, "placings"],
        )
    else:
        model.objects.using(using).bulk_create(rows, batch_size=500)


def _write_beats(model: type[HeadToHead], season_id: int, kept: Tally, *, using: str = "") -> None:
    rows = [
        model(season_id=season_id, player_id=player_id, opponent_id=opponent_id, wins=wins)
        for (player_id, opponent_id), wins in kept.beats.items()
    ]
    if not using:
        model.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["season", "player", "opponent"],
            update_fields=["wins"],
        )
    else:
        model.objects.using(using).bulk_create(rows, batch_size=500)


def _counted(result: Result) -> dict:
    """A result as its entry counts it (``SeasonMatch.counted``, JSON)."""
    counted = {
        "match_id": result.match_id,
        "sides": [list(side) for side in result.sides],
        "totals": list(result.totals),
        "finished": result.finished,
        "winners": sorted(result.winners),
        "lowest_wins": result.lowest_wins,
    }
    if result.forfeited_by is not None:
        counted["forfeited_by"] = result.forfeited_by
    return counted


def _result(counted: dict | None) -> Result | None:
    if counted is None:
        return None
    return Result(
        match_id=counted["match_id"],
        sides=tuple(tuple(side) for side in counted["sides"]),
        totals=tuple(counted["totals"]),
        finished=counted["finished"],
        winners=frozenset(counted["winners"]),
        lowest_wins=counted["lowest_wins"],
        forfeited_by=counted.get("forfeited_by"),
    )


def _standing(row: StandingRow, player: object) -> Standing:
    standing = Standing(
        player,  # type: ignore[arg-type]  # a name, or an id in the kept rows
        placings={int(place): n for place, n in row.placings.items()},
        player_id=row.player_id,
    )
    for name in _NUMBERS:
        setattr(standing, name, getattr(row, name))
    return standing


def standings_read(season: Season, ranking: Ranking = BY_WIN_PERCENT) -> list[Standing]:
    """The season's table from its kept rows, best first, each row named by its player's
    name as it is now: two small queries, whatever the number of matches."""
    kept = list(StandingRow.objects.filter(season=season).select_related("player"))
    rows = [_standing(row, row.player.name) for row in kept]
    level = tied(rows, ranking)
    ids = [row.player_id for row in rows if row.player in level]
    beats = {}
    if ids:
        pairs = HeadToHead.objects.filter(season=season, player_id__in=ids, opponent_id__in=ids)
        beats = {
            (player, opponent): wins
            for player, opponent, wins in pairs.values_list(
                "player__name", "opponent__name", "wins"
            )
        }
    table = ranked(rows, beats, season.league.game == "chickenfoot", ranking)
    # named by their initials where the owner asked, once ranked by the whole name
    initials = {row.player_id: row.player.shown_name for row in kept if row.player.initials_only}
    for standing in table:
        if standing.player_id in initials:
            standing.shown_name = initials[standing.player_id]
    return table


#: the numbers of a kept row whose matches the season's match list traces (``?what=``)
TRACED = ("played", "won", "lost", "forfeits")

#: a season's matches as its match list shows them: being played first, then the newest finished
NEWEST_FIRST = (F("match__finished_at").desc(nulls_first=True), "-created_at", "-pk")


def standings_traced(*, season_id: int, player_id: int, what: str) -> list[int]:
    """The ids of the season's matches behind one number of the player's kept row (``what``:
    one of TRACED), newest first. Read from the results kept on the player's own entries: one
    query over their matches, never the season's others."""
    if what not in TRACED:
        return []
    entries = (
        SeasonMatch.objects.filter(
            season_id=season_id, match__seats__player_id=player_id, counted__isnull=False
        )
        .order_by(*NEWEST_FIRST)
        .values_list("counted", flat=True)
    )
    found = []
    for kept in entries:
        result = _result(kept)
        assert result is not None  # counted: its result is kept
        side = result.side_of(player_id)  # type: ignore[arg-type]  # kept results name ids
        if side is None:
            continue
        forfeit = result.forfeited_by is not None
        won = result.won(side)
        if (
            what == "played"
            or (what == "won" and won)
            or (what == "lost" and not won)
            or (what == "forfeits" and forfeit)
        ):
            found.append(result.match_id)
    return found


def standings_rebuild(
    *, season_id: int, models: SimpleNamespace | None = None, using: str = "default"
) -> None:
    """Work the season's kept standings out from every one of its matches, replacing what
    was kept. ``models``: the models to use (a migration's), the installed ones by default;
    ``using``: the database."""
    installed = models is None
    models = models or _installed()
    entries = models.SeasonMatch.objects.using(using).filter(season_id=season_id)
    seats = models.Seat.objects.using(using).filter(match__league_entry__season_id=season_id)
    # a migration's models are from before results were signed (nights/signing.py)
    found = results_by_player_id(entries, seats, signed=installed)
    models.StandingRow.objects.using(using).filter(season_id=season_id).delete()
    models.HeadToHead.objects.using(using).filter(season_id=season_id).delete()
    kept = tally([result for _, result in found])
    _write_rows(models.StandingRow, season_id, kept, using=using)
    _write_beats(models.HeadToHead, season_id, kept, using=using)
    changed = []
    for entry_id, result in found:
        entry = models.SeasonMatch(pk=entry_id, counted=_counted(result) if result.counts else None)
        changed.append(entry)
    models.SeasonMatch.objects.using(using).bulk_update(changed, ["counted"], batch_size=500)
    models.Season.objects.using(using).filter(pk=season_id).update(
        counted_matches=sum(1 for _, result in found if result.counts)
    )


def _installed() -> SimpleNamespace:
    return SimpleNamespace(
        Season=Season,
        SeasonMatch=SeasonMatch,
        Seat=installed_apps.get_model("tables", "Seat"),
        StandingRow=StandingRow,
        HeadToHead=HeadToHead,
    )
