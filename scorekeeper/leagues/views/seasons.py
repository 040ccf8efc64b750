"""Leagues: seasons, standings, the wall board, player pages, exports."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence

from django.contrib import messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import (
    condition,
    require_http_methods,
    require_POST,
    require_safe,
)

from scorekeeper import rules
from scorekeeper.access.organizers import organizer_required
from scorekeeper.access.permissions import entered_by, require_organizer
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.leagues import seams
from scorekeeper.leagues.charts import Series, line_chart
from scorekeeper.leagues.exports import Export, export_answer, hands_written, league_written
from scorekeeper.leagues.forms import ForfeitForm, LeagueForm, SeasonForm
from scorekeeper.leagues.imports import ASK_AGAIN_EVERY, bundle_import_ask, import_lost
from scorekeeper.leagues.kept import NEWEST_FIRST, standings_read, standings_traced
from scorekeeper.leagues.models import BundleImport, League, Season, SeasonMatch
from scorekeeper.leagues.moves import season_match_forfeit
from scorekeeper.leagues.rating_views import partnership_chances, player_ratings
from scorekeeper.leagues.results import (
    counted,
    entries_with_seats,
    forfeited_by,
    in_progress,
    player_results,
    playing_now,
    playing_versions,
    result_of,
    sides_of,
    with_seats,
)
from scorekeeper.leagues.standings import (
    TIE_BREAKS,
    TIE_BREAKS_LOWEST,
    Standing,
    opponents,
    partners,
    standings,
)
from scorekeeper.rules.match import GAME_NAMES, HOUSE_RULES, Side
from scorekeeper.table_pages.history import shown_version_asked
from scorekeeper.table_pages.phones import players_around
from scorekeeper.tables.drawn import kept_drawn
from scorekeeper.tables.forms.setup import SetupForm
from scorekeeper.tables.i18n import game_name, rule_said
from scorekeeper.tables.models import Change, Match, Player
from scorekeeper.tables.players import players_found
from scorekeeper.tables.scoring import create_match, player_named, scoreboard_of, with_everything
from scorekeeper.tables.spreadsheet import SafeWriter
from scorekeeper.tables.turns import matches_shared, shared_a_seat

#: the standings' tie-breaks, as the page states them
TIE_BREAK_WORDS = {
    "win %": _("win %"),
    "head-to-head wins among the tied players": _("head-to-head wins among the tied players"),
    "point difference": _("point difference"),
    "lower average total": _("lower average total"),
}


def get_season(league_id: int, season_id: int) -> Season:
    """The season of that league, with its league and the id of its newest entry (which tells
    of entries written in bulk, outside the app's services, too); 404 when there is none."""
    seasons = with_newest_entry(Season.objects.select_related("league"))
    return get_object_or_404(seasons, pk=season_id, league_id=league_id)


def with_newest_entry(seasons: QuerySet[Season]) -> QuerySet[Season]:
    """Each season with the id of its newest entry, as ``newest_entry``."""
    # a subquery on the (season, id) index reads one entry; Max over a join read them all
    newest = SeasonMatch.objects.filter(season=OuterRef("pk")).order_by("-id").values("id")[:1]
    return seasons.annotate(newest_entry=Subquery(newest))


@require_http_methods(["GET", "POST"])
def league_list(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        require_organizer(request)
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with transaction.atomic():
            league = League.objects.create(
                name=data["name"],
                game=data["game"],
                rules=data["house_rules"],
                ranking=data["ranking"],
                ranking_minimum=data.get("ranking_minimum") or 0,
            )
            league.members.set([player_named(name) for name in data["member_names"]])
        return redirect("leagues:league", pk=league.pk)
    leagues = League.objects.prefetch_related("seasons")
    status = 422 if request.method == "POST" else 200
    return render(
        request, "leagues/league_list.html", {"leagues": leagues, "form": form}, status=status
    )


@require_http_methods(["GET", "POST"])
def league(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League.objects.prefetch_related("members", "seasons"), pk=pk)
    if request.method == "POST":
        require_organizer(request)
    form = SeasonForm(league, request.POST or None)
    if request.method == "POST" and form.is_valid():
        season = form.save(commit=False)
        season.league = league
        season.save()
        return redirect("leagues:season", league_id=league.pk, pk=season.pk)
    status = 422 if request.method == "POST" else 200
    return render(
        request,
        "leagues/league.html",
        {
            "league": league,
            "form": form,
            "game_name": game_name(league.game),
            "house_rules": [
                rule_said(name, setting)
                for name, setting in {**HOUSE_RULES[league.game], **league.rules}.items()
            ],
        },
        status=status,
    )


def standings_context(season: Season) -> dict:
    """The season's table, its matches in progress and how many have counted.

    The table is read from the standings rows kept as matches finish (leagues/kept.py): a few
    small queries, never a season's matches. What it finds is kept in the cache under the
    season's version (one more with every change to its matches, see moves.py) and its
    newest entry, and the drawn table (_standings.html) under the same ``standings_key``, with
    the reader's language: the wall board's poll draws it once per change.
    """
    lowest = season.league.game == "chickenfoot"
    rule = season.league.ranking_rule
    # the league's ranking is in the key: a league that changes it sees its table ranked anew
    ranked = f"{rule.by.replace(' ', '')}:{rule.minimum}"
    key = f"standings:{season.pk}:{season.version}:{season.newest_entry}:{ranked}"

    @functools.cache
    def found() -> dict:
        kept = cache.get(key)
        if kept is None:
            rows = standings_read(season, season.league.ranking_rule)
            kept = {
                "rows": rows,
                "places": sorted({place for row in rows for place in row.placings}),
                "in_progress": in_progress(season.pk),
                # night results the other side has not signed yet, by player (nights/signing.py,
                # through leagues/seams.py)
                "provisional": seams.provisional_counts(season.pk),
                # the page only counts them
                "finished": range(season.counted_matches),
            }
            cache.set(key, kept)
        return kept

    return {
        "season": season,
        "league": season.league,
        "game": season.league.game,
        "standings_key": key,
        "lowest_wins": lowest,
        "ranked_by": rule.by,
        "ranking_minimum": rule.minimum,
        "tie_breaks": [
            TIE_BREAK_WORDS[words]
            for words in (TIE_BREAKS_LOWEST if lowest else TIE_BREAKS)
            # ranked by win %, it is not a tie-break
            if not (rule.by == "win %" and words == "win %")
        ],
        # read when the page asks for them: a wall board whose table is kept drawn (the
        # {% cache %} fragment in _standings.html) does not read them at all
        **{name: functools.partial(_found, found, name) for name in FOUND},
    }


#: what standings_context finds and keeps in the cache
FOUND = ("rows", "places", "in_progress", "provisional", "finished")


def _found(found: Callable[[], dict], name: str) -> object:
    return found()[name]


@require_safe
def season(request: HttpRequest, league_id: int, pk: int) -> HttpResponse:
    """The season's standings. They are worked out once per change to the season
    (standings_context), and their table is drawn once per change and language too (the
    {% cache %} fragment in _standings.html, under the same versions).

    At 10,000 finished matches and 200 players (the hall benchmark's season) drawing the table
    took 140 ms of each visit to this page and to the wall board, on SQLite through the test
    client; kept drawn, a visit takes 14 ms."""
    context = standings_context(get_season(league_id, pk))
    return render(request, "leagues/season.html", context)


def wall_version(request: HttpRequest, league_id: int, pk: int) -> str | None:
    """The wall board's ETag (None: no such season), read before anything it shows.

    Everything the board shows moves one of these: the season's version (a match finished,
    forfeited, added or taken away, a player renamed) and its newest entry (entries written in
    bulk, outside the app's services), the version of each match being played (one more with
    every play) and the reader's language. Two small queries, so a TV asking every two seconds costs
    little while nothing changes (304), as the scoreboard's poll does (table_pages.history)."""
    if "_wall_version" not in request.__dict__:
        season = (
            with_newest_entry(Season.objects.filter(pk=pk, league_id=league_id))
            .values_list("version", "newest_entry")
            .first()
        )
        version = None
        if season is not None:
            request._playing_versions = playing_versions(pk)
            playing = hashlib.sha256(repr(request._playing_versions).encode()).hexdigest()[:16]
            version = f"{season[0]}.{season[1] or 0}.{playing}.{get_language()}"
        request._wall_version = version
    return request._wall_version


@require_safe
@shown_version_asked
@condition(etag_func=wall_version)
def wall(request: HtmxHttpRequest, league_id: int, pk: int) -> HttpResponse:
    """For a TV in the hall: read-only, large type, full screen. Its poll (every two seconds,
    _wall_board.html) is answered 304 while nothing on it changed (``wall_version``); after a
    change it is drawn from the standings kept in the cache and the live scores, each match
    being played scored afresh with the hand at its table and who leads, opens or starts it."""
    version = wall_version(request, league_id, pk)
    season = get_season(league_id, pk)
    context = standings_context(season)
    context["playing"] = playing_drawn(season, request._playing_versions)
    context["wall_version"] = version
    template = "leagues/_wall_board.html" if request.htmx else "leagues/wall.html"
    return render(request, template, context)


def playing_drawn(season: Season, versions: list[tuple[int, int]]) -> list[str]:
    """Each match being played as the wall board shows it, drawn once per version of the match
    (one more with every play), of the season (a player renamed) and language, and kept
    (tables/drawn.py): a poll after a tap at one table scores and draws that table alone, not
    every table of the hall, whichever worker answers it. ``versions``: each match's id and
    version, in the board's order."""
    language = get_language()
    keys = {
        match_id: f"wall.playing:{match_id}:{version}:{season.version}:{language}"
        for match_id, version in versions
    }
    drawn = kept_drawn(
        keys,
        lambda missing: {
            table.match.pk: render_to_string("leagues/_wall_match.html", {"table": table})
            for table in playing_now(season.pk, only=missing)
        },
        shared_key=f"wall.playing:{season.pk}:{language}",
    )
    # a match that finished since its version was read is not drawn
    return [mark_safe(drawn[match_id]) for match_id in keys if match_id in drawn]


#: the matches the season's match list shows at a time
MATCHES_PER_PAGE = 50


@require_safe
def season_matches(request: HttpRequest, league_id: int, pk: int) -> HttpResponse:
    """The season's matches, being played first, then the newest finished, a page at a time
    (``?page=``); ``?player=NAME&what=played|won|lost|forfeits``: the matches behind a number
    of the standings, traced from the results kept on the player's entries (kept.py). A page
    reads its own matches and their seats, whatever the season's size: at 10,000 matches the
    whole list took 3.3 s of CPU and 2.4 MB, a player's 2.1 s (every result of the season)."""
    season = get_season(league_id, pk)
    player = request.GET.get("player", "")
    what = request.GET.get("what", "played")
    if player:
        person = Player.objects.filter(name=player).values_list("pk", flat=True).first()
        ids: Sequence[int] | QuerySet = (
            standings_traced(season_id=season.pk, player_id=person, what=what)
            if person is not None
            else []
        )
    else:
        ids = (
            SeasonMatch.objects.filter(season=season)
            .order_by(*NEWEST_FIRST)
            .values_list("match_id", flat=True)
        )
    page = Paginator(ids, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    shown = list(page.object_list)
    entries = entries_with_seats(SeasonMatch.objects.filter(match_id__in=shown))
    by_match = {entry.match_id: entry for entry in entries}
    listed = [by_match[match_id] for match_id in shown if match_id in by_match]
    return render(
        request,
        "leagues/season_matches.html",
        {
            "season": season,
            "league": season.league,
            "player": player,
            "what": what,
            "what_said": {
                "played": pgettext("matches", "played"),
                "won": pgettext("matches", "won"),
                "lost": pgettext("matches", "lost"),
                "forfeits": pgettext("matches", "forfeits"),
            }.get(what, what),
            "entries": [(e, result_of(e.match, e.forfeited_by)) for e in listed],
            "page": page,
        },
    )


@require_http_methods(["GET", "POST"])
@organizer_required
def new_match(request: HttpRequest, league_id: int, pk: int) -> HttpResponse:
    """Start a match for the season: the league's rules filled in, its members offered."""
    season = get_season(league_id, pk)
    league = season.league
    members = list(league.members.values_list("name", flat=True))
    form = SetupForm(league.game, request.POST or None, initial=league.rules, known_players=members)
    if request.method == "POST" and form.is_valid():
        match = create_match(
            form.cleaned_data["match"],
            kind=Change.Kind.LEAGUE_MATCH,
            params={"season": str(season)},
            made_by=entered_by(request),
            user=request.user,
            also_write=lambda match: SeasonMatch.objects.create(season=season, match=match),
        )
        return redirect("tables:scoreboard", pk=match.pk)
    return render(
        request,
        "tables/new_match.html",
        {
            "form": form,
            "game": league.game,
            "game_name": game_name(league.game),
            "known_players": members,
            "season": season,
        },
        status=422 if request.method == "POST" else 200,
    )


@require_POST
@organizer_required
def forfeit(request: HttpRequest, league_id: int, pk: int, match_id: int) -> HttpResponse:
    season = get_season(league_id, pk)
    entry = get_object_or_404(
        SeasonMatch.objects.select_related("match"), season=season, match_id=match_id
    )
    sides = [Side(side).label for side in sides_of(entry.match)]
    form = ForfeitForm(sides, request.POST)
    if entry.match.finished:
        messages.error(request, gettext("A finished match cannot be forfeited."))
    elif form.is_valid():
        season_match_forfeit(entry=entry, side=form.cleaned_data["side"])
        messages.success(
            request,
            gettext("%(side)s forfeited %(match)s.")
            % {"side": sides[entry.forfeited_by], "match": entry.match},
        )
    else:
        messages.error(request, gettext("Pick the side that forfeited."))
    return redirect("leagues:season", league_id=league_id, pk=pk)


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
            row.player,
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
    return f"{season.version}.{season.newest_entry or 0}.{playing_versions(season.pk)}"


def league_export_version(league: League) -> str:
    """What a league's bundle holds moves this: the league's name, game and rules, its
    members, and each season as season_export_version has it. Three small queries."""
    seasons = with_newest_entry(league.seasons.order_by("pk")).values_list(
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


@require_http_methods(["GET", "POST"])
def import_bundle(request: HttpRequest) -> HttpResponse:
    """Upload a league bundle: it is imported by the worker (imports.py), and the organizer is
    sent to the page that shows its progress; where tasks run in the request, straight to the
    league, or back here with why it was refused."""
    if request.method == "POST":
        require_organizer(request)
        upload = request.FILES.get("file")
        if upload is None:
            error = gettext("Choose a league bundle (.zip) to import.")
            return render(request, "leagues/import.html", {"error": error}, status=422)
        asked = bundle_import_ask(upload=upload)
        if asked.state in (BundleImport.State.DONE, BundleImport.State.FAILED):
            return _bundle_imported(request, asked)
        return redirect("leagues:bundle_import", pk=asked.pk)
    return render(request, "leagues/import.html", {"error": ""})


@require_safe
@organizer_required
def bundle_import(request: HttpRequest, pk: int) -> HttpResponse:
    """A bundle's import under way: how many of its matches are read, asking again every few
    seconds by itself; the league once it is in, or why the bundle was refused."""
    asked = get_object_or_404(BundleImport, pk=pk)
    if asked.state in (BundleImport.State.DONE, BundleImport.State.FAILED):
        return _bundle_imported(request, asked)
    if import_lost(asked):
        error = gettext(
            "The import stopped before it was done, and nothing of it was kept. "
            "Import the bundle again."
        )
        return render(request, "leagues/import.html", {"error": error})
    return render(
        request,
        "leagues/import_progress.html",
        {"asked": asked, "seconds": ASK_AGAIN_EVERY},
    )


def _bundle_imported(request: HttpRequest, asked: BundleImport) -> HttpResponse:
    """The league imported, or the form again with why the bundle was refused (413 for a
    bundle larger than the app takes, 422 for one it cannot keep)."""
    if asked.state == BundleImport.State.FAILED or asked.league is None:
        context = {"error": asked.error}
        return render(request, "leagues/import.html", context, status=asked.status)
    messages.success(request, gettext("League %(league)s imported.") % {"league": asked.league})
    return redirect("leagues:league", pk=asked.league.pk)


# -- players -----------------------------------------------------------------------------------


@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    """The people this phone or account plays with and the leagues' members; ?q= finds
    anyone by a part of their name."""
    search = request.GET.get("q", "").strip()
    players = players_found(search) if search else players_around(request)
    return render(request, "leagues/player_list.html", {"players": players, "search": search})


@require_safe
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's record per game, rating history, partners, opponents and recent matches, from
    the matches that count (results.counted)."""
    # whether to look for shared seats, asked with the player: most players never shared one
    person = get_object_or_404(Player.objects.annotate(shared=shared_a_seat()), pk=pk)
    found = player_results(person.pk)
    games = []
    rated = player_ratings(person)
    for game in GAME_NAMES:
        name = game_name(game)
        # a forfeit counts here as it does in the season's standings
        results = [result for played, result in found if played == game]
        if not results:
            continue
        row = next((r for r in standings(results) if r.player == person.name), None)
        games.append(
            {
                "game": game,
                "name": name,
                "row": row,
                "rated": rated.get(game),
                "partners": partners(results, person.name)[:5],
                "opponents": opponents(results, person.name)[:5],
                "in_progress": sum(1 for r in results if not r.counts),
            }
        )
    chances = partnership_chances(
        person, {game["game"]: [p.name for p in game["partners"]] for game in games}
    )
    for game in games:
        game["partners"] = [
            (p, chances.get(game["game"], {}).get(p.name)) for p in game["partners"]
        ]
    matches = with_seats(
        counted(Match.objects.filter(seats__player=person)).select_related("league_entry")
    ).order_by("-updated_at", "-pk")[:15]
    recent = [(m, [Side(s).label for s in sides_of(m)], forfeited_by(m)) for m in matches]
    return render(
        request,
        "leagues/player.html",
        {
            "person": person,
            "games": games,
            "recent": recent,
            "shared": matches_shared(person) if person.shared else [],
            "match_chart": _match_chart(request, person),
        },
    )


def _match_chart(request: HttpRequest, person: Player) -> dict | None:
    """The score over the hands of one of the player's matches (?match=ID)."""
    match_id = request.GET.get("match", "")
    # isdigit() alone takes "²", which int() does not read
    if not (match_id.isascii() and match_id.isdigit()):
        return None
    match = with_everything(Match.objects.filter(pk=match_id, seats__player=person)).first()
    if match is None:
        raise Http404("No such match for this player.")
    board: rules.Scoreboard = scoreboard_of(match)
    series = [
        Series(side.label, [0] + [hand.running[side] for hand in board.hands])
        for side in board.sides
    ]
    if match.game == "chickenfoot":
        title = gettext("Score by round, %(match)s") % {"match": match}
        x_label = gettext("after round")
    else:
        title = gettext("Score by hand, %(match)s") % {"match": match}
        x_label = gettext("after hand")
    svg = line_chart(series, title=title, x_label=x_label, low=0)
    return {"match": match, "svg": mark_safe(svg)}
