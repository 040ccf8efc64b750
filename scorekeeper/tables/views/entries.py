"""Recording what happened: plays, tiles, hand ends, rounds, undo, corrections."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import replace

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper import rules
from scorekeeper.access.permissions import match_role
from scorekeeper.rules.matchfile import write_match
from scorekeeper.tables import entries, i18n
from scorekeeper.tables.board import hand_word, live_context
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
from scorekeeper.tables.models import EntryKey, Hand, Match
from scorekeeper.tables.scoring import State, match_value, stored_state
from scorekeeper.tables.views.access import author, get_match_for_edit, submission_key
from scorekeeper.tables.views.matches import NOT_SAVED, render_board

#: an edit of a hand that changed since the form was loaded
STALE = 409


def _record(request: HttpRequest, match: Match, write, action: str, **options) -> entries.Outcome:
    return entries.record(
        match, write, action=action, author=author(request), key=submission_key(request), **options
    )


def _after_entry(request: HttpRequest, pk: int, outcome: entries.Outcome, form, name: str):
    if outcome.saved:
        for found in outcome.new_findings:
            messages.warning(request, say(found.says))
        if request.htmx:
            return render_board(request, get_match_for_edit(request, pk), outcome=outcome)
        return redirect("tables:scoreboard", pk=pk)
    match = get_match_for_edit(request, pk)
    # not saved: show the findings beside the form, with the override box
    return render_board(
        request, match, status=NOT_SAVED, forms={name: form}, outcome=outcome, open_panel=name
    )


def _refuse_finished(request: HttpRequest, pk: int) -> HttpResponse:
    messages.error(
        request, gettext("The match is over: nothing more can be recorded. Start a rematch?")
    )
    if request.htmx:
        return render_board(request, get_match_for_edit(request, pk), status=NOT_SAVED)
    return redirect("tables:scoreboard", pk=pk)


@require_POST
def record_play(request: HttpRequest, pk: int) -> HttpResponse:
    """Straight: a scoring play. Sedma: a tile laid (a double from the buttons, or any tile)."""
    match = get_match_for_edit(request, pk, everything=False)
    if match.game == "chickenfoot":
        raise Http404("Chickenfoot is entered a round at a time.")
    if match.finished:
        return _refuse_finished(request, pk)
    state = stored_state(match)
    if match.game == "straight":
        form, name = PlayForm(state.value, request.POST), "play"
    else:
        form, name = TileForm(state.value, request.POST), "tile"
    if not form.is_valid():
        match = get_match_for_edit(request, pk)
        return render_board(request, match, status=NOT_SAVED, forms={name: form}, open_panel=name)
    data = form.cleaned_data
    # the history stores the change's name in English; each reader sees it in their language
    if name == "play":
        action = i18n.SCORED % data
    else:
        action = i18n.LAID % data
    write = entries.add_play(data["player"], points=data.get("points"), tile=data.get("tile", ""))
    outcome = _record(request, match, write, action, override=data["override"], state=state)
    # a Sedma tile changes its entry forms too (a double laid greys out): the whole board goes
    if (
        request.htmx
        and match.game == "straight"
        and _only_the_newest_hand_changed(request, state, outcome)
    ):
        return _played(request, match, outcome)
    return _after_entry(request, pk, outcome, form, name)


def _kept_on_purpose(match: Match, number: int, board: rules.Scoreboard) -> bool:
    """Whether hand ``number`` holds an entry kept although the rules flag it (only a hand
    with findings can: asked of the database only then)."""
    if not any(found.hand == number for found in board.findings):
        return False
    hand = Hand.objects.filter(match=match, number=number)
    return hand.filter(Q(overridden=True) | Q(plays__overridden=True)).exists()


def _only_the_newest_hand_changed(
    request: HttpRequest, before: State, outcome: entries.Outcome
) -> bool:
    """Whether the phone already shows all but the newest hand as they now are: it shows the
    match as it was just before this play (its form says which version it shows), the play went
    into the hand being played, which cannot change the hands before it, and the match goes on
    (else the forms must go)."""
    seen = request.POST.get("seen", "")
    return (
        outcome.saved
        and not outcome.replayed
        and not outcome.new_errors
        and not outcome.board.finished
        and seen.isdigit()
        and int(seen) + 1 == outcome.version
        and bool(before.value.hands)
        and before.value.hands[-1].end is None
        and len(outcome.board.hands) == len(before.value.hands)
    )


def _played(request: HttpRequest, match: Match, outcome: entries.Outcome) -> HttpResponse:
    """The answer to a play saved from this phone: only what a play changes (the totals, what
    comes next, the newest hand, the messages), each swapped in place, and new one-time keys
    for the forms, which stay as they are."""
    for found in outcome.new_findings:
        messages.warning(request, say(found.says))
    match.version = outcome.version
    newest = outcome.board.hands[-1].number
    context = live_context(
        match,
        outcome.value,
        outcome.board,
        overridden={newest: _kept_on_purpose(match, newest, outcome.board)},
        latest_change=outcome.change,
        newest_only=True,
    )
    context.update(role=match_role(request, match), keep_earlier=True)
    response = render(request, "tables/_played.html", context)
    # nothing replaces the board: the parts say where they go
    response["HX-Reswap"] = "none"
    return response


@require_POST
def end_hand(request: HttpRequest, pk: int) -> HttpResponse:
    """Straight: end the hand (domino or blocked). Chickenfoot: record a whole round.
    Sedma: end a hand before all seven doubles are down.

    With ``preview`` the engine's result and explanation are shown and nothing is saved.
    """
    match = get_match_for_edit(request, pk)
    if match.finished:
        return _refuse_finished(request, pk)
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
