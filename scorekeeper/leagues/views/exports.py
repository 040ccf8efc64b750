"""The downloads of a league: a season's standings and hands as CSV, and the league's bundle
(a zip), with the versions that tell when a kept export is stale."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from scorekeeper.leagues.exports import Export, export_answer, hands_written, league_written
from scorekeeper.leagues.kept import standings_read
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.results import playing_versions
from scorekeeper.leagues.standings import Standing
from scorekeeper.leagues.views.seasons import get_season, with_newest_entry
from scorekeeper.tables.spreadsheet import SafeWriter


@require_safe
def standings_csv(request: HttpRequest, league_id: int, pk: int) -> HttpResponse:
    season = get_season(league_id, pk)
    rows = standings_read(season, season.league.ranking_rule)
    return standings_csv_response(
        rows, f"standings-{season.pk}.csv", lowest_wins=season.league.game == "chickenfoot"
    )


#: the CSV's placings columns, Chickenfoot's: a table seats at most eight
PLACINGS = ("firsts", "seconds", "thirds", "fourths", "fifths", "sixths", "sevenths", "eighths")


def standings_csv_response(
    rows: list[Standing], filename: str, *, lowest_wins: bool = False
) -> HttpResponse:
    """Standings as CSV, a row per player, best first: a season's, or a league night's.

    Where the lowest total wins (Chickenfoot) points for and against mean nothing: the
    placings, the average place and the pips each player was left with say how they did."""
    response = _csv_response(filename)
    writer = SafeWriter(response)
    record = ["rank", "player", "played", "won", "lost", "forfeits", "win %"]
    if lowest_wins:
        most = max((place for row in rows for place in row.placings), default=1)
        places = range(1, min(most, len(PLACINGS)) + 1)
        writer.writerow(
            [*record, *PLACINGS[: len(places)], "average place", "average total", "total pips"]
        )
    else:
        writer.writerow(
            [
                *record,
                *("points for", "points against", "difference"),
                *("average total", "average place"),
            ]
        )
    for row in rows:
        cells = [
            row.rank,
            # initials where the player asked (kept.standings_read)
            row.shown_name or row.player,
            row.played,
            row.won,
            row.lost,
            row.forfeits,
            f"{row.win_percent:.1f}",
        ]
        if lowest_wins:
            cells += [row.placings.get(place, 0) for place in places]
            cells += [f"{row.average_place:.2f}", f"{row.average_total:.1f}", row.total_sum]
        else:
            cells += [row.points_for, row.points_against, row.difference]
            cells += [f"{row.average_total:.1f}", f"{row.average_place:.2f}"]
        writer.writerow(cells)
    return response


@require_safe
def hands_csv(request: HttpRequest, league_id: int, pk: int) -> HttpResponseBase:
    """Every hand of the season: one row per side per hand, with the running total. Built once
    per version of the season by the worker and kept as a file (exports.py); while it is being
    built the page says so. Read without an account, it counts as a heavy export."""
    season = get_season(league_id, pk)
    export = Export(kind="hands", pk=season.pk, version=season_export_version(season))
    return export_answer(request, export, hands_written(season.pk))


def season_export_version(season: Season) -> str:
    """What a season's export holds moves this (read with get_season): the season's version
    (a match finished, forfeited, corrected, added or taken away, a player renamed), its
    newest entry (entries written in bulk, outside the app's services) and each match being
    played with its version (a play changes them, not the season's version). One small
    query."""
    newest = season.newest_entry or 0  # type: ignore[attr-defined]  # with_newest_entry's
    return f"{season.version}.{newest}.{playing_versions(season.pk)}"


def league_export_version(league: League) -> str:
    """What a league's bundle holds moves this: the league's name, game and rules, its
    members, and each season as season_export_version has it. Three small queries."""
    seasons = with_newest_entry(league.seasons.order_by("pk")).values_list(  # type: ignore[misc]  # newest_entry: with_newest_entry's annotation
        "pk", "name", "starts_on", "ends_on", "version", "newest_entry"
    )
    members = league.members.order_by("pk").values_list("pk", "name")
    playing = (
        SeasonMatch.objects.filter(season__league=league, match__finished=False)
        .order_by("match_id")
        .values_list("match_id", "match__version")
    )
    held = (league.name, league.game, league.rules, list(seasons), list(members), list(playing))
    return repr(held)


def _csv_response(filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def export_bundle(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The league as a zip (bundle.py), built once per version of the league by the worker and
    kept as a file (exports.py); while it is being built the page says so. Read without an
    account, it counts as a heavy export."""
    league = get_object_or_404(League, pk=pk)
    export = Export(kind="league", pk=league.pk, version=league_export_version(league))
    return export_answer(request, export, league_written(league))
