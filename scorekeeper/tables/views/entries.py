"""Recording what happened: plays, tiles, hand ends, rounds, undo, corrections."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import replace

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper import rules
from scorekeeper.rules.matchfile import write_match
from scorekeeper.tables import entries, i18n
from scorekeeper.tables.board import hand_word
from scorekeeper.tables.forms import (
    HandEndForm,
    PlayForm,
    RoundForm,
    SedmaEndForm,
    TileForm,
    end_initial,
    play_rows,
)
from scorekeeper.tables.i18n import say
from scorekeeper.tables.models import EntryKey, Match
from scorekeeper.tables.scoring import match_value
from scorekeeper.tables.views.access import author, get_match_for_edit, submission_key
from scorekeeper.tables.views.matches import NOT_SAVED, render_board

#: an edit of a hand that changed since the form was loaded
STALE = 409


def _record(request: HttpRequest, match: Match, write, action: str, **options) -> entries.Outcome:
    return entries.record(
        match, write, action=action, author=author(request), key=submission_key(request), **options
    )


def _after_entry(
    request: HttpRequest,
    pk: int,
    outcome: entries.Outcome,
    form,
    name: str,
    *,
    keep_earlier: bool = False,
):
    if outcome.saved:
        for found in outcome.new_findings:
            messages.warning(request, say(found.says))
        if request.htmx:
            # the match as the entry left it, as record() read it to score it
            match = outcome.match or get_match_for_edit(request, pk)
            return render_board(request, match, outcome=outcome, keep_earlier=keep_earlier)
        return redirect("tables:scoreboard", pk=pk)
    match = get_match_for_edit(request, pk)
    # not saved: show the findings beside the form, with the override box
    return render_board(
        request, match, status=NOT_SAVED, forms={name: form}, outcome=outcome, open_panel=name
    )


def _refuse_finished(request: HttpRequest, match: Match) -> HttpResponse:
    messages.error(
        request, gettext("The match is over: nothing more can be recorded. Start a rematch?")
    )
    if request.htmx:
        return render_board(request, match, status=NOT_SAVED)
    return redirect("tables:scoreboard", pk=match.pk)


@require_POST
def record_play(request: HttpRequest, pk: int) -> HttpResponse:
    """Straight: a scoring play. Sedma: a tile laid (a double from the buttons, or any tile)."""
    match = get_match_for_edit(request, pk)
    value = match_value(match)
    if match.finished:
        return _refuse_finished(request, match)
    if match.game == "straight":
        form, name = PlayForm(value, request.POST), "play"
    elif match.game == "sedma":
        form, name = TileForm(value, request.POST), "tile"
    else:
        raise Http404("Chickenfoot is entered a round at a time.")
    if not form.is_valid():
        return render_board(request, match, status=NOT_SAVED, forms={name: form}, open_panel=name)
    data = form.cleaned_data
    # the history stores the change's name in English; each reader sees it in their language
    if name == "play":
        action = i18n.SCORED % data
    else:
        action = i18n.LAID % data
    write = entries.add_play(data["player"], points=data.get("points"), tile=data.get("tile", ""))
    outcome = _record(request, match, write, action, override=data["override"])
    return _after_entry(
        request, pk, outcome, form, name, keep_earlier=_earlier_unchanged(request, match, outcome)
    )


def _earlier_unchanged(request: HttpRequest, match: Match, outcome: entries.Outcome) -> bool:
    """Whether the phone already shows the hands before the newest as they now are: it shows
    the match as it was just before this play (the board says which version it shows), and the
    play went into the hand being played, which cannot change the hands before it."""
    after = outcome.match
    seen = request.POST.get("seen", "")
    if after is None or not seen.isdigit() or not match.version == int(seen) == after.version - 1:
        return False
    before = match_value(match)
    return (
        bool(before.hands)
        and before.hands[-1].end is None
        and len(outcome.board.hands) == len(before.hands)
    )


@require_POST
def end_hand(request: HttpRequest, pk: int) -> HttpResponse:
    """Straight: end the hand (domino or blocked). Chickenfoot: record a whole round.
    Sedma: end a hand before all seven doubles are down.

    With ``preview`` the engine's result and explanation are shown and nothing is saved.
    """
    match = get_match_for_edit(request, pk)
    if match.finished:
        return _refuse_finished(request, match)
    value = match_value(match)
    if match.game == "straight":
        form, name = HandEndForm(value, request.POST), "end"
    elif match.game == "chickenfoot":
        form, name = RoundForm(value, request.POST), "round"
    else:
        form, name = SedmaEndForm(value, request.POST), "end"
    if not form.is_valid():
        return render_board(request, match, status=NOT_SAVED, forms={name: form}, open_panel=name)
    extra = {}
    if match.game == "chickenfoot" and form.cleaned_data.get("starter"):
        extra["starter"] = form.cleaned_data["starter"]
    end = form.cleaned_data["end"]
    write = entries.end_hand(end, **extra)
    preview = "preview" in request.POST
    action = _describe_end(match.game, end, len(value.hands))
    outcome = _record(
        request, match, write, action, override=form.cleaned_data["override"], preview=preview
    )
    if preview:
        return render_board(request, match, forms={name: form}, outcome=outcome, open_panel=name)
    return _after_entry(request, pk, outcome, form, name)


def _describe_end(game: str, end: rules.HandEnd, hands: int) -> str:
    if game == "chickenfoot":
        if end.player:
            return i18n.ROUND_WENT_OUT % {"player": end.player}
        return i18n.ROUND_BLOCKED
    if end.how == "domino" and end.player:
        return i18n.HAND_DOMINOED % {"player": end.player}
    return i18n.HAND_ENDED % {"how": end.how}


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_match_for_edit(request, pk)
    _record(request, match, entries.undo_last, i18n.UNDONE, override=True)
    if request.htmx:
        return render_board(request, get_match_for_edit(request, pk))
    return redirect("tables:scoreboard", pk=pk)


@require_POST
def delete_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    match = get_match_for_edit(request, pk)
    get_object_or_404(match.hands, number=number)
    if match.game == "chickenfoot":
        action = i18n.ROUND_DELETED % {"number": number}
        said = gettext("Round %(number)s deleted; the totals follow.") % {"number": number}
    else:
        action = i18n.HAND_DELETED % {"number": number}
        said = gettext("Hand %(number)s deleted; the totals follow.") % {"number": number}
    _record(request, match, entries.delete_hand(number), action, override=True)
    messages.info(request, said)
    if request.htmx:
        return render_board(request, get_match_for_edit(request, pk))
    return redirect("tables:scoreboard", pk=pk)


def hand_fingerprint(hand: rules.Hand, game: str) -> str:
    """A version of the hand as stored: any change to it gives another fingerprint."""
    written = write_match(rules.Match(game=game, players=(), hands=(hand,)))["hands"][0]
    return hashlib.sha256(json.dumps(written, sort_keys=True).encode()).hexdigest()[:20]


@require_http_methods(["GET", "POST"])
def edit_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct an earlier hand: its plays and how it ended. The totals follow.

    The form carries the fingerprint of the hand it showed; if someone else changed the hand
    since, the correction is refused (409) and the hand is shown as it is now.
    """
    match = get_match_for_edit(request, pk)
    value = match_value(match)
    if not 1 <= number <= len(value.hands):
        raise Http404("No such hand.")
    hand = value.hands[number - 1]
    fingerprint = hand_fingerprint(hand, match.game)
    data = request.POST if request.method == "POST" else None
    status = 200
    key = submission_key(request) if data is not None else ""
    if key and EntryKey.objects.filter(match=match, key=key).exists():
        # the same correction sent again (a retry): it was saved the first time
        return redirect("tables:scoreboard", pk=pk)
    stale = data is not None and data.get("fingerprint") != fingerprint
    if stale:
        data = None
        status = STALE
        messages.error(
            request,
            gettext(
                "Someone changed this hand since you opened it; nothing was saved. Here it is "
                "as it is now: make your correction again if it is still needed."
            ),
        )
    rows = play_rows(value, hand, data) if match.game != "chickenfoot" else []
    end_form = _end_form_for(match.game, value, hand, data)
    outcome = None
    if data is not None and all(row.is_valid() for row in rows) and _end_valid(end_form, hand):
        corrected = replace(
            hand,
            plays=tuple(row.cleaned_data["play"] for row in rows if row.cleaned_data["play"]),
            end=end_form.cleaned_data.get("end") if end_form and hand.end else hand.end,
            starter=(end_form.cleaned_data.get("starter") or None)
            if match.game == "chickenfoot"
            else hand.starter,
        )
        override = bool(hand.end and end_form.cleaned_data.get("override")) or (
            "override" in request.POST
        )
        if match.game == "chickenfoot":
            action = i18n.ROUND_CORRECTED % {"number": number}
            said = gettext("Round %(number)s corrected; the totals follow.") % {"number": number}
        else:
            action = i18n.HAND_CORRECTED % {"number": number}
            said = gettext("Hand %(number)s corrected; the totals follow.") % {"number": number}
        outcome = _record(
            request,
            match,
            entries.replace_hand(number, corrected),
            action,
            override=override,
        )
        if outcome.saved:
            messages.success(request, said)
            return redirect("tables:scoreboard", pk=pk)
    if data is not None:
        status = NOT_SAVED
    return render(
        request,
        "tables/edit_hand.html",
        {
            "match": match,
            "number": number,
            "hand_word": hand_word(match.game),
            "rows": rows,
            "end_form": end_form if hand.end else None,
            "outcome": outcome,
            "game": match.game,
            "fingerprint": fingerprint,
            "entry_key": uuid.uuid4().hex,
        },
        status=status,
    )


def _end_form_for(game: str, value: rules.Match, hand: rules.Hand, data):
    initial = end_initial(hand, list(value.players), game)
    form_class = {"straight": HandEndForm, "chickenfoot": RoundForm, "sedma": SedmaEndForm}[game]
    return form_class(value, data, initial=initial)


def _end_valid(form, hand: rules.Hand) -> bool:
    return hand.end is None or form.is_valid()
