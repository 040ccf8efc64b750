"""The wall board: a season's standings and live matches for a TV in the hall, and its poll
(answered 304 while nothing on it changed)."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition, require_safe

from scorekeeper.access.addresses import client_address
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.leagues.models import Season
from scorekeeper.leagues.results import playing_now, playing_versions
from scorekeeper.leagues.views.seasons import get_season, standings_context, with_newest_entry
from scorekeeper.live.streams import stream
from scorekeeper.table_pages.history import shown_version_asked
from scorekeeper.tables.drawn import cached_drawings


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
            # annotated by with_newest_entry, which the stubs do not follow
            .values_list("version", "newest_entry")  # type: ignore[misc]  # annotated above
            .first()
        )
        version = None
        if season is not None:
            versions = request.__dict__["_playing_versions"] = playing_versions(pk)
            playing = hashlib.sha256(repr(versions).encode()).hexdigest()[:16]
            version = f"{season[0]}.{season[1] or 0}.{playing}.{get_language()}"
        request.__dict__["_wall_version"] = version
    wall: str | None = request.__dict__["_wall_version"]
    return wall


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
    context["playing"] = playing_drawn(season, request.__dict__["_playing_versions"])
    context["wall_version"] = version
    template = "leagues/_wall_board.html" if request.htmx else "leagues/wall.html"
    return render(request, template, context)


def playing_drawn(season: Season, versions: list[tuple[int, int]]) -> list[str]:
    """Each match being played as the wall board shows it, drawn once per version of the match
    (one more with every play), of the season (a player renamed) and language, and cached
    (tables/drawn.py): a poll after a tap at one table scores and draws that table alone, not
    every table of the hall, whichever worker answers it. ``versions``: each match's id and
    version, in the board's order."""
    language = get_language()
    keys = {
        match_id: f"wall.playing:{match_id}:{version}:{season.version}:{language}"
        for match_id, version in versions
    }
    drawn = cached_drawings(
        keys,
        lambda missing: {
            table.match.pk: render_to_string("leagues/_wall_match.html", {"table": table})
            for table in playing_now(season.pk, only=missing)
        },
        shared_key=f"wall.playing:{season.pk}:{language}",
    )
    # a match that finished since its version was read is not drawn
    return [mark_safe(drawn[match_id]) for match_id in keys if match_id in drawn]


@require_safe
def season_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The wall board's stream (scorekeeper/live): told when a match of the season moves,
    after which the board asks ``wall`` as its poll would."""
    get_object_or_404(Season.objects.only("pk"), pk=pk)
    return stream(request, [f"season:{pk}"], client_address(request))
