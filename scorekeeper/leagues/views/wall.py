"""The wall board: a season's standings and live matches for a TV in the hall, and its poll
(answered 304 while nothing on it changed, and with the tables that moved alone while only the
matches being played moved)."""

from __future__ import annotations

import hashlib

from django.core.cache import cache, caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition, require_safe
from django_htmx.http import reswap, retarget

from scorekeeper.access.addresses import client_address
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.leagues.models import Season
from scorekeeper.leagues.results import playing_now, playing_versions
from scorekeeper.leagues.views.seasons import get_season, standings_context, with_newest_entry
from scorekeeper.live.streams import stream
from scorekeeper.table_pages.history import shown_version_asked
from scorekeeper.tables.drawn import cached_drawings

#: how long the versions a board was drawn at are kept: its next poll comes within seconds while
#: the hall plays (a poll after a longer quiet spell is answered with the whole board). Short, as
#: each board drawn keeps one entry in the shared cache: at 300 tables, their 30 TVs keep some 900.
SHOWN_KEPT = 60


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
            playing = request.__dict__["_playing_digest"] = digest(versions)
            version = f"{season[0]}.{season[1] or 0}.{playing}.{get_language()}"
        request.__dict__["_wall_version"] = version
    wall: str | None = request.__dict__["_wall_version"]
    return wall


@require_safe
@shown_version_asked
@condition(etag_func=wall_version)
def wall(request: HtmxHttpRequest, league_id: int, pk: int) -> HttpResponse:
    """For a TV in the hall: read-only, large type, full screen. Its poll (every two seconds, and
    when its stream says so; _wall_poll.html) is answered 304 while nothing on it changed
    (``wall_version``). When only matches being played moved, it is answered with those tables
    alone (``moved_since``), put in place by id; after any other change, with the whole board,
    drawn from the standings kept in the cache and the live scores, each match being played
    scored afresh with the hand at its table and who leads, opens or starts it."""
    version = wall_version(request, league_id, pk)
    # none read: no such season (get_season answers 404)
    versions = request.__dict__.get("_playing_versions", [])
    # asked by the poll of a page that puts tables in place by id (not a page of an older release)
    asked_by_poll = request.htmx.trigger == "wall-poll"
    moved = moved_since(request, pk, version) if asked_by_poll and version else None
    if version:
        # what the board drawn now shows, for its next poll
        shown(pk, request.__dict__["_playing_digest"], versions)
    if moved is not None:
        season_version = int(_parts(str(version))[0])
        context = {
            "league_id": league_id,
            "season_id": pk,
            "wall_version": version,
            "moved": playing_drawn(pk, season_version, versions, only=moved),
        }
        response = render(request, "leagues/_wall_moved.html", context)
        return retarget(reswap(response, "outerHTML"), "#wall-poll")
    season = get_season(league_id, pk)
    context = standings_context(season)
    context["playing"] = playing_drawn(season.pk, season.version, versions)
    context["wall_version"] = version
    context["league_id"], context["season_id"] = league_id, pk
    template = "leagues/_wall_board.html" if request.htmx else "leagues/wall.html"
    return render(request, template, context)


def _parts(version: str) -> list[str]:
    """A board's version (wall_version) in its four parts: the season's version, its newest
    entry, the digest of its matches being played and the language (fewer when not one)."""
    return version.split(".", 3)


def digest(versions: list[tuple[int, int]]) -> str:
    """The matches being played and their versions, in a few characters of the board's ETag."""
    return hashlib.sha256(repr(versions).encode()).hexdigest()[:16]


def shown(season_id: int, playing: str, versions: list[tuple[int, int]]) -> None:
    """Keep which version of each match being played a board drawn at digest ``playing`` shows:
    its next poll names that digest, and is answered with the tables that moved since. In the
    shared cache, as any worker may answer that poll; once per digest and worker."""
    key = _shown_key(season_id, playing)
    local = caches["local"]
    if local.get(key) is None:
        local.set(key, versions, SHOWN_KEPT)
        cache.set(key, versions, SHOWN_KEPT)


def _shown_key(season_id: int, playing: str) -> str:
    return f"wall.shown:{season_id}:{playing}"


def moved_since(request: HttpRequest, season_id: int, version: str | None) -> list[int] | None:
    """The matches being played whose version moved since the board the poll names (``?v=``)
    was drawn, or None when more than those moved: the standings or a name (the season's version
    or its newest entry), the language, which matches are being played, or a board whose
    versions are no longer kept. The answer then is the whole board."""
    asked = _parts(request.GET.get("v", ""))
    now = _parts(str(version))
    if len(asked) != 4 or asked[:2] != now[:2] or asked[3] != now[3]:
        return None
    key = _shown_key(season_id, asked[2])
    before = caches["local"].get(key) or cache.get(key)
    versions: list[tuple[int, int]] = request.__dict__["_playing_versions"]
    if before is None or [pk for pk, _ in before] != [pk for pk, _ in versions]:
        return None
    return [pk for (pk, new), (_, old) in zip(versions, before, strict=True) if new != old]


def playing_drawn(
    season_id: int,
    season_version: int,
    versions: list[tuple[int, int]],
    *,
    only: list[int] | None = None,
) -> list[tuple[int, str]]:
    """Each match being played (by id) as the wall board shows it, drawn once per version of the
    match (one more with every play), of the season (a player renamed) and language, and cached
    (tables/drawn.py): a poll after a tap at one table scores and draws that table alone, not
    every table of the hall, whichever worker answers it. ``versions``: each match's id and
    version, in the board's order; ``only``: those of these ids alone."""
    language = get_language()
    page = {
        match_id: f"wall.playing:{match_id}:{version}:{season_version}:{language}"
        for match_id, version in versions
    }
    keys = page if only is None else {match_id: page[match_id] for match_id in only}
    drawn = cached_drawings(
        keys,
        lambda missing: {
            table.match.pk: render_to_string("leagues/_wall_match.html", {"table": table})
            for table in playing_now(season_id, only=missing)
        },
        shared_key=f"wall.playing:{season_id}:{language}",
        page=page.values(),
    )
    # a match that finished since its version was read is not drawn
    return [(match_id, mark_safe(drawn[match_id])) for match_id in keys if match_id in drawn]


@require_safe
def season_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The wall board's stream (scorekeeper/live): told when a match of the season moves,
    after which the board asks ``wall`` as its poll would."""
    get_object_or_404(Season.objects.only("pk"), pk=pk)
    return stream(request, [f"season:{pk}"], client_address(request))
