"""Every change to a match, reverting one, and the live refresh of open scoreboards."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST, require_safe

from scorekeeper import rules
from scorekeeper.access.permissions import can_edit, match_role
from scorekeeper.rules.matchfile import MatchFileError, write_hands
from scorekeeper.tables import entries
from scorekeeper.tables.board import board_context
from scorekeeper.tables.changes import with_kept_hands
from scorekeeper.tables.models import Change, Match
from scorekeeper.tables.scoring import seated_match
from scorekeeper.tables.seats import by_name, by_seat
from scorekeeper.tables.views.access import author, get_match, get_match_for_edit, submission_key


@require_safe
def history(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_match(request, pk)
    seating = seated_match(match)
    changes = list(match.changes.select_related("reverts").order_by("-number"))
    for change in changes:
        change.before = _named(seating, change.before)
        change.after = _named(seating, change.after)
    return render(
        request,
        "tables/history.html",
        {
            "match": match,
            "seating": seating,
            "changes": changes,
            "can_edit": can_edit(request, match),
            "entry_key": uuid.uuid4().hex,
        },
    )


def _named(seating: rules.Match, hands: list[dict]) -> list[dict]:
    """Hands a change kept (players by seat) as the match file writes them, with the players'
    names as they are now."""
    try:
        stored = with_kept_hands(by_seat(seating), hands)
    except MatchFileError:
        return hands
    return write_hands(seating.game, by_name(stored, seating.players).hands)


@require_POST
def revert(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Put the hands back as they were just before change ``number``, as a new change."""
    match = get_match_for_edit(request, pk)
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


@require_safe
def live(request: HttpRequest, pk: int) -> HttpResponse:
    """Polled by every open scoreboard: 304 while the match is as the page shows it.

    Only the version number is read until something has changed, so a hall full of phones
    polling every two seconds costs one small query each.
    """
    seen = request.GET.get("v", "")
    version = Match.objects.filter(pk=pk).values_list("version", "finished").first()
    if version is None:
        raise Http404("No such match.")
    if seen == str(version[0]):
        return HttpResponseNotModified()
    match = get_match(request, pk)
    context = board_context(match)
    context["role"] = match_role(request, match)
    response = render(request, "tables/_live.html", context)
    if version[1] and seen:
        # the match ended on another phone: the entry forms must go, so load the page afresh
        response["HX-Refresh"] = "true"
    return response
