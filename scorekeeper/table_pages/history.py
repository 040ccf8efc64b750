"""Every change to a match, reverting one, and the live refresh of open scoreboards."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.http import quote_etag
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import condition, require_POST, require_safe

from scorekeeper import rules
from scorekeeper.access.addresses import client_address
from scorekeeper.access.matches import (
    author,
    match_for_correction,
    match_row_to_watch,
    match_to_watch,
)
from scorekeeper.access.models import SCOREKEEPER
from scorekeeper.access.permissions import can_edit, match_role
from scorekeeper.live.hub import Drawing
from scorekeeper.live.streams import stream
from scorekeeper.rules.matchfile import MatchFileError
from scorekeeper.table_pages.matches import WATCHED_FOR
from scorekeeper.table_pages.phones import submission_key
from scorekeeper.tables import entries
from scorekeeper.tables.board import hand_said, live_board_context
from scorekeeper.tables.changes import with_written_hands
from scorekeeper.tables.i18n import change_said
from scorekeeper.tables.models import Change, Match, shown_version
from scorekeeper.tables.seats import by_seat, seat_names
from scorekeeper.tables.turns import (
    Turns,
    names_at_change,
    names_at_hand,
    names_by_id,
    said_as,
    seat_turns,
    shared_seats_said,
    shown_names,
)


@require_safe
def history(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_to_watch(request, pk)
    seating = match.seating()
    turns = seat_turns(match)
    # said as public pages name the players (initials where a player asked)
    shown = shown_names(match, turns)
    by_id = {pk: shown.get(name, name) for pk, name in names_by_id(turns).items()}
    changes = list(match.changes.select_related("reverts").order_by("-number"))
    for change in changes:
        # each change said with the players seated when it was made (a seat handed over)
        seated = said_as(names_at_change(seating.players, turns, change.number), shown)
        change.said = change_said(  # type: ignore[attr-defined]  # for the template
            change, match.game, seated, by_id
        )
        change.before = _hands_said(seating, change.before, change.from_hand, turns, shown)
        change.after = _hands_said(seating, change.after, change.from_hand, turns, shown)
    return render(
        request,
        "tables/history.html",
        {
            "match": match,
            "seating": seating,
            "changes": changes,
            "shared_seats": shared_seats_said(turns, match.game),
            "can_edit": can_edit(request, match),
            "entry_key": uuid.uuid4().hex,
        },
    )


def _hands_said(
    seating: rules.Match, hands: list[dict], first: int, turns: Turns, shown: dict[str, str]
) -> list[str]:
    """Hands a change kept (players by seat), numbered from ``first``, as the board lists them
    with the names of the players who played them: "Hand 3: Ana 10, Bo 5. Hand ended: Ana
    dominoed"."""
    try:
        stored = with_written_hands(by_seat(seating), hands)
    except MatchFileError:
        return []
    said = []
    for number, hand in enumerate(stored.hands, first):
        names = seat_names(said_as(names_at_hand(seating.players, turns, number), shown))
        said.append(hand_said(hand, number, seating.game, names))
    return said


@require_POST
def revert(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Put the hands back as they were just before change ``number``, as a new change."""
    with transaction.atomic():
        match = match_for_correction(request, pk)
        change = get_object_or_404(Change, match=match, number=number)
        later = match.changes.filter(number__gt=number).count()
        entries.change_revert(
            match=match, change=change, by=author(request), key=submission_key(request)
        )
    # counted before the revert is recorded: every one of them is undone with the change
    if later:
        said = ngettext(
            "Change %(number)s and the %(later)s change after it reverted; the revert is itself "
            "a change.",
            "Change %(number)s and the %(later)s changes after it reverted; the revert is "
            "itself a change.",
            later,
        )
    else:
        said = gettext("Change %(number)s reverted; the revert is itself a change.")
    messages.success(request, said % {"number": number, "later": later})
    return redirect("tables:history", pk=pk)


def _version(request: HttpRequest, pk: int) -> str | None:
    """The poll's ETag: the match's version as its board shows it (models.shown_version: one
    more with every change, and a finished match's signature or dispute); None: no match."""
    found = Match.objects.filter(pk=pk).values_list("version", "finished", "updated_at").first()
    if found is None:
        return None
    return shown_version(*found)


#: a version as a poll's address names it: digits, or a wall board's digest (leagues/views/wall.py)
SHOWN_VERSION = re.compile(r"[0-9A-Za-z._-]{1,100}")


def shown_version_asked(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page's poll names the version the page shows in its address (``?v=``), so that each
    version is polled at an address of its own: that version is what the page holds, asked as
    If-None-Match."""

    @wraps(view)
    def asked(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        shown = request.GET.get("v", "")
        if SHOWN_VERSION.fullmatch(shown):
            request.META.setdefault("HTTP_IF_NONE_MATCH", quote_etag(shown))
        return view(request, *args, **kwargs)

    return asked


@require_safe
@shown_version_asked
@condition(etag_func=_version)
def live(request: HttpRequest, pk: int) -> HttpResponse:
    """Polled by every open scoreboard: 304 while the match is at the version the page shows.

    Until something has changed, only the version is read: a hall full of phones polling every
    two seconds costs one small query each. After a change, the totals and the hands, drawn
    once for all of a table's watchers (measured through the test client, three watchers after
    a tap: 44 ms of CPU drawn each, 20 ms drawn once on SQLite; 55 and 26 ms on PostgreSQL).
    """
    row = match_row_to_watch(request, pk)
    if match_role(request, row) == SCOREKEEPER:
        # the hands' Edit and Delete forms carry this browser's CSRF token: drawn for it alone
        shown = match_to_watch(request, pk)
        response = _live_drawn(request, shown)
    else:
        response, shown = _live_watched(request, row)
    # what is drawn is what the page will show: a change committed since the poll's first read
    # (a stream tells the page of one play as the next commits) is drawn, and named, with it
    response["ETag"] = quote_etag(shown.poll_version)
    if shown.finished and request.GET.get("v"):
        # the match ended on another phone: the entry forms must go, so load the page afresh
        response["HX-Refresh"] = "true"
    return response


def _live_drawn(request: HttpRequest, match: Match) -> HttpResponse:
    context = live_board_context(match)
    context["role"] = match_role(request, match)
    return render(request, "tables/_live.html", context)


def _watched_key(row: Match) -> str:
    """A watcher's answer is the same for every watcher of the match at that version, in that
    language and time zone (Vary: Cookie would keep cache_page from sharing it)."""
    shown = f"{row.version}.{row.updated_at.timestamp()}"
    return f"live.{row.pk}.{shown}.{get_language()}.{get_current_timezone_name()}"


def _live_watched(request: HttpRequest, row: Match) -> tuple[HttpResponse, Match]:
    """A watcher's answer after a change: drawn by the entry that made the change
    (draw_for_watchers), else by the first of the table's phones to ask, and given to the others
    from the cache. A page showing the version just before a play that only added to the hand
    being played is given that hand and the totals alone, if the entry drew them."""
    key = _watched_key(row)
    # asked together: the database cache answers both in one query
    keys = [_play_key(key), key] if request.GET.get("v") == str(row.version - 1) else [key]
    found = cache.get_many(keys)
    content = next((found[name] for name in keys if name in found), None)
    if content is not None:
        return HttpResponse(content), row
    match = match_to_watch(request, row.pk)
    response = _live_drawn(request, match)
    cache.set(_watched_key(match), response.content, WATCHED_FOR)
    return response, match


def _play_key(watched_key: str) -> str:
    return f"{watched_key}.play"


def draw_for_watchers(
    request: HttpRequest,
    match: Match,
    value: rules.Match,
    board: rules.Scoreboard,
    change: Change | None,
    *,
    hand_only: bool = False,
) -> tuple[str, Drawing | None]:
    """The answer the table's other phones will be given when they next poll, drawn by the
    entry that changed the match, from the match it has read and scored already: the first
    watcher to ask no longer reads the hands and scores them again. Drawn in the entry's
    language and time zone, as a hall's phones mostly are; a phone in another draws its own.

    ``hand_only``: the entry only added a play to the hand being played. The table's phones
    poll every 2 s and a play comes every few seconds, so they show the version just before
    it: they are given that hand, the totals and the poll (``_live_play.html``), not every
    hand of the match again; a page further behind draws the whole of it at its poll. In the
    hall benchmark at 100 tables on PostgreSQL the workers took 1.07 cores against 1.14.
    Returned then: the totals and that hand as drawn (``_play_added.html``), which the tap's
    own answer carries too (table_pages/matches.render_board); else "". And the answer as a
    drawing sent inside the change's event to the streams of the watchers it fits (None when
    the match is over: its pages load afresh)."""
    context = live_board_context(
        match, value=value, board=board, change=change, newest_hand_only=hand_only
    )
    context["role"] = None
    key = _watched_key(match)
    play_added = ""
    if not hand_only:
        content = render(request, "tables/_live.html", context).content
        cache.set(key, content, WATCHED_FOR)
    else:
        # a SafeString, escaped where it was drawn: the two answers put it in as it is
        play_added = context["play_added"] = render_to_string(
            "tables/_play_added.html", context, request
        )
        content = render(request, "tables/_live_play.html", context).content
        cache.set(_play_key(key), content, WATCHED_FOR)
    if match.finished:
        return play_added, None
    drawing = Drawing(
        language=get_language(),
        timezone=get_current_timezone_name(),
        after=str(match.version - 1) if hand_only else "",
        shows=str(match.version),
        html=content.decode(),
    )
    return play_added, drawing


@require_safe
def live_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The scoreboard's stream (scorekeeper/live): told of every change to the match and of
    its round's clock, after which the page asks ``live`` as its poll would. A watcher's page
    is sent an entry's answer inside its event (draw_for_watchers), when drawn in the page's
    language and time zone: it asks nothing then. A scorekeeper's answer carries its own
    forms' token: it asks."""
    row = match_row_to_watch(request, pk)
    watching = match_role(request, row) != SCOREKEEPER
    shown_in = (get_language(), get_current_timezone_name()) if watching else None
    return stream(request, [f"match:{pk}"], client_address(request), shown_in=shown_in)
