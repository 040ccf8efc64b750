"""Results both sides sign (nights/signing.py): the side's page, opened from the finished board
on the scorekeeper's phone or through the side's own link, and the director's page for a
dispute. Plain forms: everything works without JavaScript."""

from __future__ import annotations

from dataclasses import replace
from typing import cast
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from scorekeeper.access.clubs import runs_match
from scorekeeper.access.matches import (
    author,
    match_for_answer,
    match_for_director,
    match_to_settle,
    match_to_watch,
)
from scorekeeper.access.permissions import can_edit
from scorekeeper.access.views import qr_svg
from scorekeeper.nights import signing
from scorekeeper.nights.models import Dispute
from scorekeeper.rules.match_end import after_the_win
from scorekeeper.tables.board import board_context, hand_word
from scorekeeper.tables.i18n import after_the_win_said
from scorekeeper.tables.models import Change


class DisputeForm(forms.Form):
    """Which hand, and why: a reason from the usual ones and a line of text."""

    hand = forms.TypedChoiceField(coerce=int, label=_("Which hand"))
    reason = forms.ChoiceField(
        choices=Dispute.Reason.choices, widget=forms.RadioSelect, label=_("What is wrong")
    )
    text = forms.CharField(max_length=200, required=False, label=_("In a few words"), strip=True)

    def __init__(self, hands: list[tuple[int, str]], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["hand"]).choices = hands


def _hands_offered(context: dict) -> list[tuple[int, str]]:
    """The match's hands as the board lists them: "Hand 3: 25, 0"."""
    word = context["hand_word"]
    return [
        (hand.number, f"{word} {hand.number}: " + ", ".join(str(p) for p, _ in hand.cells))
        for hand in reversed(context["hands"])
    ]


def _device(request: HttpRequest) -> str:
    """The browser and system in short, from its user agent: "Chrome on Android"."""
    agent = request.headers.get("User-Agent", "")
    browser = next((name for key, name in _BROWSERS if key in agent), agent.split("/", 1)[0][:20])
    system = next((name for key, name in _SYSTEMS if key in agent), "")
    return f"{browser} on {system}" if system else browser


_BROWSERS = (
    ("Firefox/", "Firefox"),
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS", "macOS"),
    ("Linux", "Linux"),
)


@require_http_methods(["GET", "POST"])
def sign(request: HttpRequest, token: str) -> HttpResponse:
    """A side's answer to a night's result: agree, or say which hand is wrong and why. Opened
    on the scorekeeper's phone handed over (the board's buttons) or on the side's own phone
    through its link; no sign-in needed: the link is the side's. Each answer names the version
    of the result it was given (the forms' ``version``): a result undone or corrected since is
    neither signed nor disputed, and the page shows it as it now stands and asks again (409).

    An answer reads the match once, locked (access.matches.match_for_answer), and hands the
    row to the service: what the page shows after a refusal is that row, as it stands."""
    found = signing.token_read(token)
    if found is None:
        raise Http404("No such link.")
    match_id, side = found
    if request.method != "POST":
        return _sign_page(request, match_to_watch(request, match_id), side, token)
    with transaction.atomic():
        match = match_for_answer(match_id)
        return _sign_page(request, match, side, token, answer=request.POST)


def _sign_page(
    request: HttpRequest, match, side: int, token: str, answer: QueryDict | None = None
) -> HttpResponse:
    """The side's page, with its ``answer`` taken when one is posted."""
    shown = signing.board_signing(match)
    if shown is None and signing.played_on(match):
        return _played_on(request, match, side)
    if shown is None or side not in signing.asked_sides([n for n, _ in shown.sides]):
        raise Http404("This match is not signed.")
    context = board_context(match)
    handed_over = can_edit(request, match)
    via = signing.ON_THE_BOARD if handed_over else signing.BY_LINK
    form = DisputeForm(_hands_offered(context))
    status = 200
    if answer is not None:
        version = _version_answered(request)
        try:
            if answer.get("answer") == "agree":
                signing.match_sign(
                    match=match, side=side, version=version, via=via, by=author(request)
                )
                messages.success(request, gettext("Signed: the result is locked."))
                return _back(handed_over, match.pk, token)
            form = DisputeForm(_hands_offered(context), answer)
            if form.is_valid():
                signing.dispute_open(
                    match=match,
                    side=side,
                    version=version,
                    hand=form.cleaned_data["hand"],
                    reason=form.cleaned_data["reason"],
                    text=form.cleaned_data["text"],
                    via=via,
                    by=author(request),
                    device=_device(request),
                )
                messages.info(request, gettext("Disputed: the league's organizer will look at it."))
                return _back(handed_over, match.pk, token)
            status = 422
        except signing.ResultMoved as refusal:
            # the result as it now stands (the row read for the answer), and the question again
            messages.error(request, str(refusal))
            form = DisputeForm(_hands_offered(context))
            status = 409
        except signing.SignError as refusal:
            messages.error(request, str(refusal))
            shown = signing.board_signing(match) or shown
            status = 422
    return render(
        request,
        "nights/sign.html",
        {
            **context,
            "signing": shown,
            "side_name": shown.sides[side][0],
            "token": token,
            "form": form,
            "handed_over": handed_over,
        },
        status=status,
    )


def _played_on(request: HttpRequest, match, side: int) -> HttpResponse:
    """The side's page while its match is played on (its end undone): the match as it stands,
    and no question until it is finished again. An answer sent meanwhile saves nothing."""
    context = board_context(match)
    names = [row.name for row in context["sides"]]
    if side not in signing.asked_sides(names):
        raise Http404("This match is not signed.")
    status = 200
    if request.method == "POST":
        messages.error(request, signing.moved_said())
        status = 409
    return render(
        request,
        "nights/sign.html",
        {
            **context,
            "signing": None,
            "side_name": names[side],
            "handed_over": can_edit(request, match),
        },
        status=status,
    )


def _version_answered(request: HttpRequest) -> int | None:
    """The version of the match whose result the answering page showed; None for a form that
    names none (a page drawn before answers named one)."""
    posted = request.POST.get("version", "")
    return int(posted) if posted.isascii() and posted.isdigit() and len(posted) < 12 else None


def _back(handed_over: bool, match_id: int, token: str) -> HttpResponse:
    """The scorekeeper's phone goes back to its board; a side's own phone stays on its page."""
    if handed_over:
        return redirect("tables:scoreboard", pk=match_id)
    return redirect("nights:sign", token=token)


@require_http_methods(["GET", "POST"])
def dispute(request: HttpRequest, pk: int) -> HttpResponse:
    """The director's page for a dispute: the hand with the board's explanation, its history
    (who entered what, when, from which phone) and the totals; the hand is corrected through
    the hand's own correction, and the result confirmed or, once corrected, signed here."""
    found = get_object_or_404(Dispute.objects.select_related("closed_by"), pk=pk)
    if request.method != "POST":
        return _dispute_page(request, found, match_to_settle(request, found.match_id))
    close = signing.dispute_close_at_win if "end_at_win" in request.POST else signing.dispute_close
    moved = None
    with transaction.atomic():
        match = match_for_director(request, found.match_id)
        try:
            close(
                dispute_id=found.pk,
                match=match,
                version=_version_answered(request),
                by=author(request),
            )
        except signing.ResultMoved as refusal:
            moved = refusal
        except signing.SignError as refusal:
            messages.error(request, str(refusal))
            return redirect("nights:dispute", pk=found.pk)
    if moved is not None:
        # corrected since the page was drawn: the page again, with the result as it is now
        # (the row the director's answer read)
        messages.error(request, str(moved))
        return _dispute_page(request, found, match, status=409)
    messages.success(request, gettext("Settled: the match is signed by the director."))
    return redirect("nights:dispute", pk=found.pk)


def _dispute_page(request: HttpRequest, found: Dispute, match, status: int = 200) -> HttpResponse:
    context = board_context(match)
    hand = next((h for h in context["hands"] if h.number == found.hand), None)
    names = [side.name for side in context["sides"]]
    # a correction (or an entry kept on purpose) left entries after the win: the page offers
    # to end the match where it was won
    moved = None if found.closed_at else after_the_win(context["seating"], context["board"])
    return render(
        request,
        "nights/dispute.html",
        {
            **context,
            "dispute": found,
            "side_name": names[found.side] if found.side < len(names) else "?",
            "hand": hand,
            "hand_word": hand_word(match.game),
            "role": "scorekeeper",
            "changes": _changes_of_hand(match, found.hand),
            "corrected": match.version != found.version,
            "signing": signing.board_signing(match),
            "moved": moved,
            "moved_said": after_the_win_said(moved, context["names"]) if moved else "",
            "end_at_hand": moved.hand if moved else None,
            # the hand's Edit comes back here, and ends the match where a correction makes it
            # won (the correction's page says so beside Save)
            "edit_query": urlencode({"next": request.path, "end_at_win": 1}),
        },
        status=status,
    )


def _changes_of_hand(match, number: int) -> list[Change]:
    """The changes that touched the hand: those kept from a hand at or before it, with it
    among the hands before or after (tables/changes.py)."""
    return [
        change
        for change in match.changes.select_related("reverts").order_by("-number")
        if change.from_hand <= number
        and max(change.hand_count_before, change.hand_count_after) >= number
    ]


def board_part(request: HttpRequest, match) -> dict | None:
    """What the finished board of a night's match shows about signing (nights/_sign.html):
    the question handed over, the sides' links as QR codes, or who signed; None for a match
    that is not asked (being played, forfeited, outside a night). Asks the database only
    about a finished match.

    A side's link signs for it: only the phone keeping score (to hand over, or to show the QR
    code) and whoever runs the night are given the links. A watcher's board, the same for
    every watcher and kept in the shared cache (table_pages/matches.py), carries none."""
    if not match.finished:
        return None
    shown = signing.board_signing(match)
    if shown is None:
        return None
    keeps_score = can_edit(request, match)
    links = []
    for name, token in shown.links if keeps_score else ():
        url = request.build_absolute_uri(reverse("nights:sign", args=[token]))
        links.append({"name": name, "url": url, "qr": mark_safe(qr_svg(url))})
    director = runs_match(request, match)
    return {
        "shown": shown if keeps_score else replace(shown, links=[]),
        "asked_token": signing.sign_token(match.pk, shown.asked) if keeps_score else "",
        "links": links,
        "director": director,
        # the undo is offered only to whoever may still correct the result
        "locked": shown.state != signing.WAITING and not director,
    }
