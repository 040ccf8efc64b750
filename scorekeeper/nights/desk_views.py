"""The director's desk (for the night's directors and its club's organizers): the round being
played, table by table, live; the round clock's buttons; and the clock's line on every table's
board."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext, gettext_noop
from django.views.decorators.http import condition, require_http_methods, require_safe

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.nights import desk as desks
from scorekeeper.nights.directors import require_runs_night
from scorekeeper.nights.models import NightRound
from scorekeeper.nights.results import player_names, rounds_with_matches, tables_now_cached
from scorekeeper.nights.signing import DISPUTED, open_disputes, sign_states
from scorekeeper.nights.views import get_night
from scorekeeper.table_pages.history import shown_version_asked

#: how often the desk asks whether anything moved (answered 304 while nothing did)
DESK_POLL_SECONDS = 3


@require_safe
def desk(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every table of the round being played with its state, disputes first, the round clock
    and its buttons. For the night's directors and its club's organizers."""
    require_runs_night(request, pk)
    return _desk(request, pk)


def _desk_version(request: HttpRequest, pk: int) -> str:
    if "_desk_version" not in request.__dict__:
        request.__dict__["_desk_version"] = (
            f"{desks.desk_version(pk, timezone.now())}.{get_language()}"
        )
    version: str = request.__dict__["_desk_version"]
    return version


@shown_version_asked
@condition(etag_func=_desk_version)
def _desk(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    version = _desk_version(request, pk)
    night = get_night(pk)
    now = timezone.now()
    started = [r for r in rounds_with_matches(night) if r.started_at is not None]
    current = started[-1] if started else None
    shown_clock = desks.clock_shown(current, night, now) if current else None
    tables = []
    if current is not None:
        now_playing = tables_now_cached(
            current, player_names(night), season_version=night.season.version
        )
        signs = sign_states([t.table.match_id for t in now_playing if t.table.match_id])
        # the disputes' own ids, asked only when a table is disputed: the director's link
        disputes = {}
        if DISPUTED in signs.values():
            disputes = {found.match_id: found.pk for found in open_disputes(night)}
        tables = desks.desk_tables(
            now_playing,
            now=now,
            time_up=shown_clock is not None and shown_clock.last_hand,
            sign_state=lambda match: signs.get(match.pk),
            disputes=disputes,
        )
    context = {
        "night": night,
        "league": night.season.league,
        "current": current,
        "tables": tables,
        "clock": shown_clock,
        "disputes": sum(1 for table in tables if table.disputed),
        "idle_minutes": desks.IDLE_MINUTES,
        "desk_version": version,
        "poll_seconds": DESK_POLL_SECONDS,
    }
    template = "nights/_desk.html" if request.htmx else "nights/desk.html"
    return render(request, template, context)


ACTIONS = {
    "start": desks.clock_start,
    "pause": desks.clock_pause,
    "resume": desks.clock_resume,
    "end": desks.clock_end,
    "take-back": desks.clock_take_back,
}


#: what the desk says once the time is called or the call taken back
DONE = {
    "end": gettext_noop(
        "Round %(number)s's time is up. Take the call back here while no table has finished by it."
    ),
    "take-back": gettext_noop("The call of time is taken back: round %(number)s's clock runs on."),
}


@require_http_methods(["GET", "POST"])
def clock_action(request: HttpRequest, pk: int, number: int, action: str) -> HttpResponse:
    """Start, pause, resume or end the round's clock, or take back the call of time; back to
    the desk. Ending the time is asked first: its GET is the page that asks (one mis-tap on a
    phone would call time for every table)."""
    if action not in ACTIONS or (request.method == "GET" and action != "end"):
        raise Http404("No such thing to do with a clock.")
    require_runs_night(request, pk)
    night = get_night(pk)
    night_round = get_object_or_404(NightRound, night=night, number=number)
    if request.method == "GET":
        shown = desks.clock_shown(night_round, night, timezone.now())
        return render(
            request,
            "nights/clock_end.html",
            {"night": night, "night_round": night_round, "clock": shown},
        )
    try:
        ACTIONS[action](night_round=night_round, now=timezone.now())
    except desks.ClockError as refusal:
        messages.error(request, str(refusal))
    else:
        if action in DONE:
            messages.success(request, gettext(DONE[action]) % {"number": number})
    return redirect("nights:desk", pk=night.pk)


def _clock_round(pk: int) -> NightRound:
    return get_object_or_404(NightRound.objects.select_related("night"), pk=pk)


def _clock_version(request: HttpRequest, pk: int) -> str:
    if "_clock_version" not in request.__dict__:
        found = _clock_round(pk)
        request.__dict__["_clock_round"] = found
        request.__dict__["_clock_version"] = desks.clock_version(found, timezone.now())
    version: str = request.__dict__["_clock_version"]
    return version


@require_safe
@shown_version_asked
@condition(etag_func=_clock_version)
def round_clock(request: HttpRequest, pk: int) -> HttpResponse:
    """The clock's line on a table's board, polled: 304 while the clock runs as shown (the
    board counts down itself)."""
    found = request.__dict__.get("_clock_round") or _clock_round(pk)
    shown = desks.clock_shown(found, found.night, timezone.now())
    return render(
        request,
        "nights/_clock.html",
        {"clock": shown, "clock_round": found, "clock_version": _clock_version(request, pk)},
    )
