"""A tournament's results out of the app: its standings by entry as CSV and as a sheet to print,
and each round's pairings and results to print. The sheets are plain pages (no site header,
no forms) whose print stylesheet fits them on one page."""

from __future__ import annotations

from fractions import Fraction

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scorekeeper.nights import rounds, tournament
from scorekeeper.nights.models import Night, NightRound
from scorekeeper.nights.results import player_names, rounds_of, shown_player_names, tables_now
from scorekeeper.nights.views import get_night
from scorekeeper.tables.spreadsheet import SafeWriter


def _tournament(pk: int) -> Night:
    """The night, if it is a tournament (Swiss or round robin): a league night has no entries
    to rank and keeps its results a row a player (results.csv)."""
    night = get_night(pk)
    if not night.is_tournament:
        raise Http404("not a tournament")
    return night


def _standings(night: Night, names: dict[int, str]) -> tuple[dict, list[NightRound]]:
    started = [r for r in rounds_of(night) if r.started_at is not None]
    return tournament.shown_standings(night, started, names), started


@require_safe
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings a row an entry, best first: place, the entry, played, won, lost, each
    tie-break's value (match points first) and the tie-break that decided the row's place."""
    night = _tournament(pk)
    # a file of the results: players by their whole names
    shown, _ = _standings(night, player_names(night))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-night-{night.pk}.csv"'
    writer = SafeWriter(response)
    keys = [key.replace("_", " ") for key in shown["keys"]]
    writer.writerow(["place", "entry", "played", "won", "lost", *keys, "decided by"])
    for row in shown["rows"]:
        if row.decided_key:
            decided = row.decided_key.replace("_", " ")
        else:
            decided = "still tied" if row.shared else ""
        writer.writerow(
            [
                row.place,
                row.entry,
                row.played,
                row.won,
                row.lost,
                *(_number(key, value) for key, value in zip(shown["keys"], row.exact, strict=True)),
                decided,
            ]
        )
    return response


def _number(key: str, value: Fraction | None) -> int | float | None:
    """A tie-break's value for a spreadsheet: a number with a decimal point, never a ½; a
    percentage as one (66.67 for two thirds)."""
    if value is None:
        return None
    if key == "opponents_win_percentage":
        value *= 100
    if value.denominator == 1:
        return value.numerator
    return round(float(value), 2)


@require_safe
def standings_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings on one page, to print and pin up."""
    night = _tournament(pk)
    # pinned up for everyone: players named as public pages name them (initials where asked)
    shown, started = _standings(night, shown_player_names(night))
    last = started[-1] if started else None
    done = last is not None and rounds.round_done(last)
    return render(
        request,
        "nights/standings_sheet.html",
        {
            "night": night,
            "league": night.season.league,
            "standings": shown,
            "last": last,
            "done": done,
            "final": done and last is not None and last.number == night.rounds,
        },
    )


@require_safe
def round_sheet(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A round's pairings, and its results as far as they go: a table a line, and the bye."""
    night = _tournament(pk)
    found = next((r for r in rounds_of(night) if r.number == number), None)
    if found is None:
        raise Http404("no such round")
    # pinned up for everyone: players named as public pages name them (initials where asked)
    names = shown_player_names(night)
    tables = []
    for now in tables_now(found.tables.all(), names):
        seats = now.players
        one, other = (
            (" & ".join(seats[0::2]), " & ".join(seats[1::2]))
            if len(seats) == 4
            else (seats[0], " & ".join(seats[1:]))
        )
        totals = [total for _, total in now.sides] or [0, 0]
        tables.append(
            {
                "number": now.table.number,
                "one": one,
                "other": other,
                "score": f"{totals[0]} – {totals[1]}",
                "winner": now.winner if now.finished else "",
                "forfeited": now.forfeited,
            }
        )
    sitting_out = [names.get(pk, "?") for pk in found.sitting_out_ids]
    return render(
        request,
        "nights/round_sheet.html",
        {
            "night": night,
            "league": night.season.league,
            "night_round": found,
            "tables": tables,
            "bye": " & ".join(sitting_out),
            "started": found.started_at is not None,
        },
    )
