"""The pages of leagues and seasons: the leagues, a league, a season's standings (standings_context,
which a league night's pages share), its matches, a new match and a forfeit."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.access.clubs import (
    ORGANIZER_ONLY,
    clubs_run,
    require_club_role,
    runs_any_club,
    runs_club,
)
from scorekeeper.access.permissions import entered_by
from scorekeeper.clubs.models import Role
from scorekeeper.leagues import seams
from scorekeeper.leagues.forms import ForfeitForm, LeagueForm, SeasonForm
from scorekeeper.leagues.kept import NEWEST_FIRST, standings_read, standings_traced
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.moves import season_match_forfeit
from scorekeeper.leagues.results import (
    entries_with_seats,
    in_progress,
    result_of,
    shown_sides_of,
    sides_of,
)
from scorekeeper.leagues.standings import TIE_BREAKS, TIE_BREAKS_LOWEST
from scorekeeper.rules.match import HOUSE_RULES, Side
from scorekeeper.tables.forms.setup import SetupForm
from scorekeeper.tables.i18n import game_name, rule_said
from scorekeeper.tables.models import Change, Player
from scorekeeper.tables.scoring import create_match, player_named

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
    """Every club's leagues; an organizer makes a new one in a club they run."""
    runs_any = runs_any_club(request)
    if request.method == "POST" and not runs_any:
        raise PermissionDenied(gettext(ORGANIZER_ONLY))
    form = LeagueForm(clubs_run(request), request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with transaction.atomic():
            league = League.objects.create(
                club=data["club"],
                name=data["name"],
                game=data["game"],
                rules=data["house_rules"],
                ranking=data["ranking"],
                ranking_minimum=data.get("ranking_minimum") or 0,
            )
            league.members.set([player_named(name) for name in data["member_names"]])
        return redirect("leagues:league", pk=league.pk)
    leagues = League.objects.select_related("club").prefetch_related("seasons")
    status = 422 if request.method == "POST" else 200
    context = {"leagues": leagues, "form": form, "runs": runs_any}
    return render(request, "leagues/league_list.html", context, status=status)


@require_http_methods(["GET", "POST"])
def league(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(
        League.objects.select_related("club").prefetch_related("members", "seasons"), pk=pk
    )
    if request.method == "POST":
        require_club_role(request, league.club_id, Role.ORGANIZER)
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
            "runs": runs_club(request, league.club_id),
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
    newest = season.newest_entry  # type: ignore[attr-defined]  # get_season's annotation
    key = f"standings:{season.pk}:{season.version}:{newest}:{ranked}"

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
    season = get_season(league_id, pk)
    context = standings_context(season)
    context["runs"] = runs_club(request, season.league.club_id)
    return render(request, "leagues/season.html", context)


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
    # by id from the standings of a player shown by their initials, whose name stays off the
    # page (tables/models.py: Player.shown_name)
    player_id = request.GET.get("player_id", "")
    person: int | None = None
    if player_id.isascii() and player_id.isdigit() and len(player_id) <= 18:
        found = Player.objects.filter(pk=player_id).first()
        if found is not None:
            player, person = found.shown_name, found.pk
    elif player:
        person = Player.objects.filter(name=player).values_list("pk", flat=True).first()
    if player:
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
            # the sides as public pages name them (initials where a player asked)
            "entries": [
                (
                    e,
                    replace(
                        result_of(e.match, e.forfeited_by), sides=tuple(shown_sides_of(e.match))
                    ),
                )
                for e in listed
            ],
            "page": page,
        },
    )


@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest, league_id: int, pk: int) -> HttpResponse:
    """Start a match for the season: the league's rules filled in, its members offered. By
    an organizer of the league's club."""
    season = get_season(league_id, pk)
    require_club_role(request, season.league.club_id, Role.ORGANIZER)
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
def forfeit(request: HttpRequest, league_id: int, pk: int, match_id: int) -> HttpResponse:
    season = get_season(league_id, pk)
    require_club_role(request, season.league.club_id, Role.ORGANIZER)
    entry = get_object_or_404(
        SeasonMatch.objects.select_related("match"), season=season, match_id=match_id
    )
    sides = [Side(side).label for side in sides_of(entry.match)]
    form = ForfeitForm(sides, request.POST)
    if entry.match.finished:
        messages.error(request, gettext("A finished match cannot be forfeited."))
    elif form.is_valid():
        side = form.cleaned_data["side"]
        season_match_forfeit(entry=entry, side=side)
        messages.success(
            request,
            gettext("%(side)s forfeited %(match)s.") % {"side": sides[side], "match": entry.match},
        )
    else:
        messages.error(request, gettext("Pick the side that forfeited."))
    return redirect("leagues:season", league_id=league_id, pk=pk)
