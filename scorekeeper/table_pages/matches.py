"""Start a match, show its scoreboard, play it again, bring one in from a match file."""

from __future__ import annotations

import uuid
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext
from django.views.decorators.cache import cache_page
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper import rules
from scorekeeper.access.matches import match_for_rematch, match_row_to_watch, match_to_watch
from scorekeeper.access.models import SCOREKEEPER
from scorekeeper.access.permissions import match_role
from scorekeeper.access.throttle import count_start
from scorekeeper.access.views import too_many_starts
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.rules.limits import MOST_FILE_BYTES
from scorekeeper.rules.match import GAME_NAMES
from scorekeeper.rules.scoreboard import without_last_hand
from scorekeeper.table_pages.phones import (
    players_around,
    remember_start,
    started_by_this_submission,
    starter,
    take_charge,
)
from scorekeeper.tables import imports, seams
from scorekeeper.tables.board import board_context
from scorekeeper.tables.forms.files import ImportForm
from scorekeeper.tables.forms.setup import SetupForm
from scorekeeper.tables.i18n import game_name
from scorekeeper.tables.models import Change, Match
from scorekeeper.tables.recording import Outcome
from scorekeeper.tables.scoring import create_match, match_file_value

#: the status of an entry that was not saved: the form, or the rules, said no
NOT_SAVED = 422

#: the elements that ask for the score of a hand or round as it is typed (_end_preview.html)
LIVE_PREVIEWS = ("end-preview", "round-preview")


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    matches = Match.objects.prefetch_related("seats__player").order_by("-updated_at")
    return render(
        request,
        "tables/home.html",
        {
            "in_progress": matches.filter(finished=False)[:50],
            "finished": matches.filter(finished=True)[:50],
            "games": [(game, game_name(game)) for game in GAME_NAMES],
        },
    )


@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAME_NAMES:
        raise Http404("No such game.")
    known = list(players_around(request).values_list("name", flat=True))
    form = SetupForm(game, request.POST or None, known_players=known)
    if request.method == "POST" and (done := started_by_this_submission(request)):
        return redirect("tables:scoreboard", pk=done)
    if request.method == "POST" and form.is_valid():
        if refusal := count_start(request):
            return too_many_starts(request, refusal)
        who = starter(request)
        match = create_match(
            form.cleaned_data["match"],
            made_by=who.name,
            maker=who.maker,
            user=request.user,
            phone=who.phone,
        )
        take_charge(request, match)
        remember_start(request, match)
        return redirect("tables:scoreboard", pk=match.pk)
    status = NOT_SAVED if request.method == "POST" else 200
    return render(
        request,
        "tables/new_match.html",
        {
            "form": form,
            "game": game,
            "game_name": game_name(game),
            "known_players": known,
            "entry_key": uuid.uuid4().hex,
        },
        status=status,
    )


#: How long a watcher's scoreboard is kept in the cache, and in a watcher's browser. Kept under
#: the version of the match it shows, it is never older than the match; a player renamed since
#: (the version stays) shows within this time.
WATCHED_FOR = 60


@require_safe
def scoreboard(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The scoreboard page; for htmx, just its board.

    A watcher's page (no account, no scorekeeper's link, no message to show) is the same for
    every watcher: it is kept with Django's cache_page, under the version of the match (and the
    address, language and time zone, which cache_page adds). Measured through the test client,
    gzipped, a 64-hand board: drawn 32 ms on SQLite and 42 ms on PostgreSQL, kept 2.6 and
    4.2 ms; a 5-hand board: drawn 11 and 16 ms, kept 1.6 and 2.8 ms; the bare view 0.4 ms.
    The benchmark asks of the scoreboard a third of the bare view's rate."""
    if request.htmx and not request.htmx.boosted:
        return _drawn(request, pk)
    match = match_row_to_watch(request, pk)
    if (
        request.user.is_authenticated
        or get_messages(request)
        or match_role(request, match) == SCOREKEEPER
    ):
        return _drawn(request, pk)
    shown = f"{match.version}.{match.updated_at.timestamp()}"
    return cache_page(WATCHED_FOR, key_prefix=f"scoreboard.{shown}")(_drawn)(request, pk)


def _drawn(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    return render_board(request, match_to_watch(request, pk))


def render_board(
    request: HtmxHttpRequest,
    match: Match,
    *,
    status: int = 200,
    forms: dict | None = None,
    outcome: Outcome | None = None,
    open_panel: str = "",
    value: rules.Match | None = None,
    board: rules.Scoreboard | None = None,
    change: Change | None = None,
    play_added: str = "",
) -> HttpResponse:
    """The scoreboard page, or for htmx just its board: the partial the page is built from.
    ``value``, ``board`` and ``change``: the match as stored, when the caller has it.
    ``play_added``: the totals and the hand being played after a play that only added to it,
    as drawn for the table's watchers (history.draw_for_watchers); for htmx the answer is then
    the play buttons, put in place of the play buttons, the poll and that (``_tap.html``)."""
    tap = bool(play_added)
    context = board_context(
        match,
        forms=forms,
        outcome=outcome,
        open_panel=open_panel,
        value=value,
        board=board,
        change=change,
        # the answer to a tap shows the hand being played alone
        newest_hand_only=tap and bool(request.htmx) and not request.htmx.boosted,
    )
    context["role"] = match_role(request, match)
    # a tournament's table offers no Rematch: the next round's pairing decides who plays whom
    context["rematch"] = (
        context["role"] == SCOREKEEPER and not tap and not seams.is_tournament_match(match.pk)
    )
    # a league night's finished match: the other side signs it (nights/sign_views.py)
    context["signing"] = seams.signing_part(request, match)
    # the score worked out as the pips are typed: shown without taking the focus
    context["live_preview"] = bool(request.htmx) and request.htmx.target in LIVE_PREVIEWS
    template = "tables/scoreboard.html"
    if (not request.htmx or request.htmx.boosted) and not match.finished:
        # a league night's table still playing: its round's clock above the board
        context.update(seams.round_clock(match.pk, timezone.now()))
    if request.htmx and not request.htmx.boosted:
        template = "tables/_board.html"
        if tap:
            # htmx sends the CSRF token from its cookie (app.js): the play buttons carry it
            # for the outbox, the other forms of the answer go without (``tap``)
            context["tap"] = True
            context["play_added"] = play_added
            response = render(request, "tables/_tap.html", context, status=status)
            response["HX-Retarget"] = "#play-entry"
            response["HX-Reswap"] = "outerHTML"
            return response
    return render(request, template, context, status=status)


@require_POST
def rematch(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    match = match_for_rematch(request, pk)
    if seams.is_tournament_match(match.pk):
        messages.error(
            request,
            gettext("A tournament's table plays no rematch: the standings pair the next round."),
        )
        url = reverse("tables:scoreboard", kwargs={"pk": match.pk})
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if done := started_by_this_submission(request):
        url = reverse("tables:scoreboard", kwargs={"pk": done})
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if refusal := count_start(request):
        return too_many_starts(request, refusal)
    who = starter(request)
    again = create_match(
        # a new match: the same players and house rules, not the round's time called on this one
        without_last_hand(match_file_value(match)).with_hands(()),
        kind=Change.Kind.REMATCH,
        params={"match": match.pk},
        made_by=who.name,
        maker=who.maker,
        user=request.user,
        phone=who.phone,
    )
    take_charge(request, again)
    remember_start(request, again)
    url = reverse("tables:scoreboard", kwargs={"pk": again.pk})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_http_methods(["GET", "POST"])
def import_match(request: HttpRequest) -> HttpResponse:
    """Bring in a match file. One with error findings is stored only when the table overrides
    them all on purpose: the page lists them and asks, once (docs/rules.md, *A record, not an
    entry*).

    Only a signed-in account imports: a file can hold a whole made-up match, as many as
    anyone cares to send (README: Many phones at one table)."""
    if request.method == "POST" and (done := started_by_this_submission(request)):
        return redirect("tables:scoreboard", pk=done)
    # the answer to the page's question: keep the file that was shown, findings and all
    keep = request.POST.get("keep", "")
    files = request.FILES or None
    if keep and (raw := imports.held(keep)) is not None:
        files = MultiValueDict({"file": [SimpleUploadedFile("match.json", raw)]})
    form = ImportForm(request.POST or None, files)
    if request.method == "POST" and form.is_valid():
        findings = [] if keep else imports.findings_to_override(form.cleaned_data["file"])
        if findings:
            return _ask_to_override(request, form, findings)
        who = starter(request)
        match = create_match(
            form.cleaned_data["file"],
            kind=Change.Kind.IMPORTED,
            made_by=who.name,
            maker=who.maker,
            user=request.user,
            phone=who.phone,
        )
        imports.release(keep)
        take_charge(request, match)
        remember_start(request, match)
        messages.success(request, gettext("Match imported."))
        return redirect("tables:scoreboard", pk=match.pk)
    if request.method != "POST":
        return render(request, "tables/import.html", {"form": form})
    if keep and files is None:
        form.add_error(None, gettext("That file is no longer at hand: choose it again."))
    uploads = cast(list[UploadedFile], list((files or {}).values()))
    too_large = any(
        upload.size > MOST_FILE_BYTES  # type: ignore[operator]  # an upload has its size
        for upload in uploads
    )
    return render(
        request, "tables/import.html", {"form": form}, status=413 if too_large else NOT_SAVED
    )


def _ask_to_override(request: HttpRequest, form: ImportForm, findings: list) -> HttpResponse:
    """Nothing is stored yet: the findings, and one question whether to override them all."""
    upload = cast(UploadedFile, form.files["file"])
    upload.seek(0)
    token = imports.hold(upload.read())
    context = {
        "form": ImportForm(),
        "findings": findings[: imports.MOST_LISTED],
        "more": max(0, len(findings) - imports.MOST_LISTED),
        "keep": token,
        # a match file names its players: said as the file writes them
        "names": {},
    }
    return render(request, "tables/import.html", context, status=NOT_SAVED)


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: "Add to Home Screen" gives a full-screen scorekeeper."""
    icons = [
        {
            "src": static(f"icons/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any maskable",
        }
        for size in (192, 512)
    ]
    icons.append({"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"})
    data = {
        "name": "Domino Scorekeeper",
        "short_name": "Dominoes",
        "description": gettext(
            "Keeps score for Straight Dominoes, Chickenfoot and Sedma at the table."
        ),
        "start_url": reverse("tables:home"),
        "scope": "/",
        "display": "standalone",
        "display_override": ["fullscreen", "standalone"],
        "orientation": "portrait",
        "background_color": "#f6f4ef",
        "theme_color": "#1f5f8b",
        "icons": icons,
    }
    return JsonResponse(data, content_type="application/manifest+json")
