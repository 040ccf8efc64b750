"""Recording what happened: plays, tiles, hand ends, rounds, undo, corrections."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import replace

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper import rules
from scorekeeper.access.matches import (
    author,
    match_for_correction,
    match_for_entry,
    match_for_preview,
    match_to_correct,
)
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.live.announce import drawn, told_when_drawn
from scorekeeper.rules.match_end import AFTER_THE_END, AfterTheWin, after_the_win
from scorekeeper.rules.matchfile import write_match
from scorekeeper.table_pages.history import draw_for_watchers
from scorekeeper.table_pages.matches import NOT_SAVED, render_board
from scorekeeper.table_pages.phones import submission_key
from scorekeeper.tables import entries
from scorekeeper.tables.board import hand_word
from scorekeeper.tables.board_scores import cache_score
from scorekeeper.tables.forms.corrections import end_initial, play_rows
from scorekeeper.tables.forms.games import hand_end_form, play_form
from scorekeeper.tables.i18n import after_the_win_said, end_at_win_said, say
from scorekeeper.tables.models import Change, EntryKey, Match
from scorekeeper.tables.recording import Outcome
from scorekeeper.tables.scoring import match_value, names_of, seats_and_names

#: an edit of a hand that changed since the form was loaded
STALE = 409


def _answer(request: HtmxHttpRequest, outcome: Outcome, form=None, name: str = "") -> HttpResponse:
    """The one answer to an entry: saved, the board as it now stands (for htmx the board
    itself, else a redirect to the page); not saved, the board as stored with the form, its
    findings and the choice to keep it anyway."""
    match = outcome.match
    if outcome.saved:
        names = names_of(match)
        for found in outcome.new_findings:
            messages.warning(request, say(found.says, names))
        hand_only = _only_the_hand_changed(outcome)
        play_added, drawing = "", None
        if outcome.change is not None:
            play_added, drawing = draw_for_watchers(
                request, match, outcome.value, outcome.board, outcome.change, hand_only=hand_only
            )
            cache_score(match, outcome.board)
        # the watchers are told now that their answer is drawn, not at the commit, and sent
        # it inside the event
        drawn({f"match:{match.pk}": drawing} if drawing is not None else None)
        if not request.htmx:
            return redirect("tables:scoreboard", pk=match.pk)
        return render_board(
            request,
            match,
            value=outcome.value,
            board=outcome.board,
            change=outcome.change,
            # on a board drawn just before the entry (the form says at which version), what
            # the play added, as drawn for the watchers
            play_added=play_added if request.POST.get("drawn") == str(match.version - 1) else "",
        )
    # a refused entry wrote nothing: the match as the entry read it is the match as stored
    return render_board(
        request,
        match,
        status=NOT_SAVED,
        forms={name: form},
        outcome=outcome,
        open_panel=name,
    )


def _only_the_hand_changed(outcome: Outcome) -> bool:
    """Whether the entry only added a play to the hand being played: then on a board drawn at
    the version before it the rest of the board stands, and what changed is the totals and
    that hand, a few kilobytes at any length of match. A hand begun or ended, the match won, a
    finding: the whole board."""
    change, value = outcome.change, outcome.value
    if change is None or change.kind not in (Change.Kind.SCORED, Change.Kind.LAID):
        return False
    playing = value.hands[-1] if value.hands else None
    return (
        not outcome.new_findings
        and not outcome.board.finished
        and playing is not None
        and playing.end is None
        and len(playing.plays) > 1
    )


def _over(match: Match, request: HttpRequest) -> bool:
    """Whether the match is over for this entry: the entry that ended it, sent again after its
    answer was lost, is no new entry and is answered as the first time was."""
    return match.finished and not entries.recorded(match, submission_key(request))


def _refuse_finished(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    messages.error(
        request, gettext("The match is over: nothing more can be recorded. Start a rematch?")
    )
    if request.htmx:
        return render_board(request, match, status=NOT_SAVED)
    return redirect("tables:scoreboard", pk=match.pk)


def _refuse_form(request: HtmxHttpRequest, match: Match, form, name: str) -> HttpResponse:
    return render_board(request, match, status=NOT_SAVED, forms={name: form}, open_panel=name)


@require_POST
@told_when_drawn()
def record_play(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Straight: a scoring play. Sedma: a tile laid (a double from the buttons, or any tile)."""
    by = author(request)
    with transaction.atomic():
        match = match_for_entry(request, pk)
        if match.game == "chickenfoot":
            raise Http404("Chickenfoot is entered a round at a time.")
        if _over(match, request):
            return _refuse_finished(request, match)
        form = play_form(*seats_and_names(match), request.POST)
        name = "play" if match.game == "straight" else "tile"
        if not form.is_valid():
            return _refuse_form(request, match, form, name)
        data = form.cleaned_data
        if match.game == "sedma":
            outcome = entries.tile_record(
                match=match,
                player=data["player"],
                tile=data["tile"],
                by=by,
                key=submission_key(request),
                override=data["override"],
            )
        else:
            outcome = entries.play_record(
                match=match,
                player=data["player"],
                points=data["points"],
                lead=data.get("lead", False),
                by=by,
                key=submission_key(request),
                override=data["override"],
                again=data.get("again", False),
            )
    return _answer(request, outcome, form, name)


@require_POST
@told_when_drawn()
def end_hand(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Straight: end the hand (domino or blocked). Chickenfoot: record a whole round.
    Sedma: end a hand before all seven doubles are down.

    With ``preview`` the engine's result and explanation are shown and nothing is saved.
    """
    previewed = "preview" in request.POST
    by = author(request)
    # a preview writes nothing, and comes every time the typing pauses: it locks nothing
    with nullcontext() if previewed else transaction.atomic():
        if previewed:
            match = match_for_preview(request, pk)
        else:
            match = match_for_entry(request, pk)
        if previewed and match.finished:
            # typing paused as the match ended (on another phone, or by the Save just sent):
            # nothing to preview, and nothing refused; the board that comes shows the end
            return HttpResponse(status=204)
        if _over(match, request):
            return _refuse_finished(request, match)
        form = hand_end_form(*seats_and_names(match), request.POST)
        name = "round" if match.game == "chickenfoot" else "end"
        if not form.is_valid():
            if previewed:
                # a preview of a form half filled in refuses nothing (nothing was sent to be
                # saved): it says what is missing, answered 200 as any preview, or the phone's
                # console logs a failed request each time the typing pauses
                return render_board(request, match, forms={name: form}, open_panel=name)
            return _refuse_form(request, match, form, name)
        end = form.cleaned_data["end"]
        starter = form.cleaned_data.get("starter") or None if match.game == "chickenfoot" else None
        if previewed:
            outcome = entries.hand_end_preview(match=match, end=end, starter=starter)
            return render_board(
                request, outcome.match, forms={name: form}, outcome=outcome, open_panel=name
            )
        outcome = entries.hand_end(
            match=match,
            end=end,
            starter=starter,
            by=by,
            key=submission_key(request),
            override=form.cleaned_data["override"],
        )
    return _answer(request, outcome, form, name)


@require_POST
@told_when_drawn()
def undo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    by = author(request)
    with transaction.atomic():
        match = match_for_entry(request, pk)
        outcome = entries.undo_last(match=match, by=by, key=submission_key(request))
    return _answer(request, outcome)


@require_POST
@told_when_drawn()
def delete_hand(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    by = author(request)
    with transaction.atomic():
        match = match_for_correction(request, pk)
        if not any(hand.number == number for hand in match.hands.all()):
            raise Http404("No such hand.")
        if match.game == "chickenfoot":
            said = gettext("Round %(number)s deleted; the totals follow.") % {"number": number}
        else:
            said = gettext("Hand %(number)s deleted; the totals follow.") % {"number": number}
        outcome = entries.hand_delete(
            match=match, number=number, by=by, key=submission_key(request)
        )
    messages.info(request, said)
    return _answer(request, outcome)


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
    if request.method != "POST":
        return _edit_hand(request, match_to_correct(request, pk), number)
    with transaction.atomic():
        # a correction reads the match once, locked, as every entry does
        return _edit_hand(request, match_for_correction(request, pk), number)


def _edit_hand(request: HttpRequest, match: Match, number: int) -> HttpResponse:
    pk = match.pk
    value, names = match_value(match), names_of(match)
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
    seat_names = list(names.values())
    rows = play_rows(value, seat_names, hand, data) if match.game != "chickenfoot" else None
    if rows is not None and rows.is_bound and rows.non_form_errors():
        # the rows not counted as the page counts them: nothing of it is read, and the hand is
        # shown as stored, so that the next Save sends its rows whole
        for error in rows.non_form_errors():
            messages.error(request, str(error))
        data, status = None, NOT_SAVED
        rows = play_rows(value, seat_names, hand)
    end_form = hand_end_form(value, seat_names, data, initial=end_initial(hand, value))
    outcome = None
    if data is not None and (rows is None or rows.is_valid()) and _end_valid(end_form, hand):
        corrected = replace(
            hand,
            plays=rows.plays() if rows is not None else (),
            end=end_form.cleaned_data.get("end") if end_form and hand.end else hand.end,
            starter=(end_form.cleaned_data.get("starter") or None)
            if match.game == "chickenfoot"
            else hand.starter,
        )
        override = bool(hand.end and end_form.cleaned_data.get("override")) or (
            "override" in request.POST
        )
        if match.game == "chickenfoot":
            said = gettext("Round %(number)s corrected; the totals follow.") % {"number": number}
        else:
            said = gettext("Hand %(number)s corrected; the totals follow.") % {"number": number}
        outcome = entries.hand_correct(
            match=match,
            number=number,
            hand=corrected,
            by=author(request),
            key=key,
            override=override,
            end_at_win="end_at_win" in request.POST,
        )
        if outcome.saved:
            ended = _ended_at_win(outcome, value, number, corrected, names)
            messages.success(request, f"{said} {ended}" if ended else said)
            return _back(request, pk)
    if data is not None:
        status = NOT_SAVED
    moved = _win_moved(outcome)
    return render(
        request,
        "tables/edit_hand.html",
        {
            "match": match,
            "number": number,
            "hand_word": hand_word(match.game),
            "names": names,
            "rows": rows,
            "end_form": end_form if hand.end else None,
            "outcome": outcome,
            "game": match.game,
            "fingerprint": fingerprint,
            "entry_key": uuid.uuid4().hex,
            "moved": moved,
            "moved_said": after_the_win_said(moved, names) if moved else "",
            "end_at_said": end_at_win_said(moved) if moved else "",
            "back": _back_url(request),
            # opened from a dispute's page: the match ends where the correction makes it won
            "offer_end_at_win": "end_at_win" in request.GET,
            "end_at_win_checked": data is None or "end_at_win" in request.POST,
        },
        status=status,
    )


def _win_moved(outcome: Outcome | None) -> AfterTheWin | None:
    """Where a refused correction makes a side win earlier than recorded, and that is all the
    rules refuse: the match ended at that moment, which the page offers instead."""
    if outcome is None or outcome.saved or not outcome.new_errors:
        return None
    if any(found.code != AFTER_THE_END for found in outcome.new_errors):
        return None
    return after_the_win(outcome.value, outcome.board)


def _ended_at_win(
    outcome: Outcome,
    value: rules.Match,
    number: int,
    corrected: rules.Hand,
    names: Mapping[str, str],
) -> str:
    """What a correction that ended the match at the win left out, in words: "Hands 4-5 come
    after Bo & Di reached 100. The match ends at hand 3; ..." ("" for any other correction)."""
    if outcome.change is None or "ended_at" not in outcome.change.params:
        return ""
    hands = list(value.hands)
    hands[number - 1] = corrected
    found = after_the_win(value.with_hands(tuple(hands)))
    if found is None:
        return ""
    return gettext(
        "%(after)s The match ends at hand %(hand)s; what came after stays in its history."
    ) % {
        "after": after_the_win_said(found, names),
        "hand": found.hand,
    }


def _back_url(request: HttpRequest) -> str:
    """The page the correction was opened from (the director's dispute page), if it is ours."""
    back = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return back if back.startswith("/") and safe else ""


def _back(request: HttpRequest, pk: int) -> HttpResponse:
    return redirect(_back_url(request) or reverse("tables:scoreboard", args=[pk]))


def _end_valid(form, hand: rules.Hand) -> bool:
    return hand.end is None or form.is_valid()
