"""Start a match, show its scoreboard, play it again, bring one in from a match file."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.access.permissions import match_role
from scorekeeper.rules.match import GAME_NAMES
from scorekeeper.tables.board import board_context
from scorekeeper.tables.entries import Outcome
from scorekeeper.tables.forms import ImportForm, SetupForm
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.scoring import create_match, match_value
from scorekeeper.tables.views.access import (
    author,
    get_match,
    get_match_for_edit,
    take_charge,
)

#: the status of an entry that was not saved: the form, or the rules, said no
NOT_SAVED = 422


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    matches = Match.objects.prefetch_related("seats__player").order_by("-updated_at")
    return render(
        request,
        "tables/home.html",
        {
            "in_progress": matches.filter(finished=False)[:50],
            "finished": matches.filter(finished=True)[:50],
            "games": GAME_NAMES.items(),
        },
    )


@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAME_NAMES:
        raise Http404("No such game.")
    known = list(Player.objects.values_list("name", flat=True))
    form = SetupForm(game, request.POST or None, known_players=known)
    if request.method == "POST" and form.is_valid():
        who = author(request)
        match = create_match(form.cleaned_data["match"], made_by=who.name, user=request.user)
        take_charge(request, match)
        return redirect("tables:scoreboard", pk=match.pk)
    status = NOT_SAVED if request.method == "POST" else 200
    return render(
        request,
        "tables/new_match.html",
        {"form": form, "game": game, "game_name": GAME_NAMES[game], "known_players": known},
        status=status,
    )


@require_safe
def scoreboard(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_match(request, pk)
    return render_board(request, match)


def render_board(
    request: HttpRequest,
    match: Match,
    *,
    status: int = 200,
    forms: dict | None = None,
    outcome: Outcome | None = None,
    open_panel: str = "",
) -> HttpResponse:
    """The scoreboard page, or for htmx just its board: the partial the page is built from."""
    context = board_context(match, forms=forms, outcome=outcome, open_panel=open_panel)
    context["role"] = match_role(request, match)
    template = "tables/scoreboard.html"
    if request.htmx and not request.htmx.boosted:
        template = "tables/_board.html"
    return render(request, template, context, status=status)


@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_match_for_edit(request, pk)
    who = author(request)
    again = create_match(
        match_value(match).with_hands(()),
        action=f"Rematch of {match}",
        made_by=who.name,
        user=request.user,
    )
    take_charge(request, again)
    url = reverse("tables:scoreboard", kwargs={"pk": again.pk})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_http_methods(["GET", "POST"])
def import_match(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        who = author(request)
        match = create_match(
            form.cleaned_data["file"], action="Imported", made_by=who.name, user=request.user
        )
        take_charge(request, match)
        messages.success(request, "Match imported.")
        return redirect("tables:scoreboard", pk=match.pk)
    status = NOT_SAVED if request.method == "POST" else 200
    return render(request, "tables/import.html", {"form": form}, status=status)


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
        "description": "Keeps score for Straight Dominoes, Chickenfoot and Sedma at the table.",
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
