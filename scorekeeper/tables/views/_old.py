"""The table: start a match, keep its score from a phone, settle a dispute."""

from __future__ import annotations

import csv
from dataclasses import replace

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper import rules
from scorekeeper.rules.match import GAME_NAMES
from scorekeeper.rules.matchfile import dumps_match
from scorekeeper.tables import entries
from scorekeeper.tables.board import board_context
from scorekeeper.tables.forms import (
    HandEndForm,
    ImportForm,
    PlayForm,
    RoundForm,
    SedmaEndForm,
    SetupForm,
    TileForm,
    end_initial,
    play_rows,
)
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.scoring import create_match, match_value, with_everything

#: the status of an entry that was not saved: the form, or the rules, said no
NOT_SAVED = 422


def get_match_for_edit(request: HttpRequest, pk: int) -> Match:
    """The match with everything needed to score it; 404 when there is none.

    Every view that shows or changes a match comes through here, so that who may see and
    change which match is decided in one place.
    """
    try:
        return with_everything(Match.objects.filter(pk=pk)).get()
    except Match.DoesNotExist:
        raise Http404("No such match.") from None


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
        match = create_match(form.cleaned_data["match"])
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
    match = get_match_for_edit(request, pk)
    return render_board(request, match)


def render_board(
    request: HttpRequest,
    match: Match,
    *,
    status: int = 200,
    forms: dict | None = None,
    outcome: entries.Outcome | None = None,
    open_panel: str = "",
) -> HttpResponse:
    """The scoreboard page, or for htmx just its board: the partial the page is built from."""
    context = board_context(match, forms=forms, outcome=outcome, open_panel=open_panel)
    template = "tables/scoreboard.html"
    if request.htmx and not request.htmx.boosted:
        template = "tables/_board.html"
    return render(request, template, context, status=status)


def _after_entry(request: HttpRequest, pk: int, outcome: entries.Outcome, form, name: str):
    match = get_match_for_edit(request, pk)
    if outcome.saved:
        for found in outcome.new_findings:
            messages.warning(request, found.message)
        if request.htmx:
            return render_board(request, match, outcome=outcome)
        return redirect("tables:scoreboard", pk=pk)
    # not saved: show the findings beside the form, with the override box
    return render_board(
        request, match, status=NOT_SAVED, forms={name: form}, outcome=outcome, open_panel=name
    )


@require_POST
def record_play(request: HttpRequest, pk: int) -> HttpResponse:
    """Straight: a scoring play. Sedma: a tile laid (a double from the buttons, or any tile)."""
    match = get_match_for_edit(request, pk)
    value = match_value(match)
    if match.finished:
        return _refuse_finished(request, match)
    if match.game == "straight":
        form = PlayForm(value, request.POST)
        name = "play"
    elif match.game == "sedma":
        form = TileForm(value, request.POST)
        name = "tile"
    else:
        raise Http404("Chickenfoot is entered a round at a time.")
    if not form.is_valid():
        return render_board(request, match, status=NOT_SAVED, forms={name: form}, open_panel=name)
    data = form.cleaned_data
    write = entries.add_play(data["player"], points=data.get("points"), tile=data.get("tile", ""))
    outcome = entries.record(match, write, override=data["override"])
    return _after_entry(request, pk, outcome, form, name)


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
    write = entries.end_hand(form.cleaned_data["end"], **extra)
    preview = "preview" in request.POST
    outcome = entries.record(match, write, override=form.cleaned_data["override"], preview=preview)
    if preview:
        return render_board(request, match, forms={name: form}, outcome=outcome, open_panel=name)
    return _after_entry(request, pk, outcome, form, name)


def _refuse_finished(request: HttpRequest, match: Match) -> HttpResponse:
    messages.error(request, "The match is over: nothing more can be recorded. Start a rematch?")
    if request.htmx:
        return render_board(request, match, status=NOT_SAVED)
    return redirect("tables:scoreboard", pk=match.pk)


@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_match_for_edit(request, pk)
    entries.record(match, entries.undo_last, override=True)
    if request.htmx:
        return render_board(request, get_match_for_edit(request, pk))
    return redirect("tables:scoreboard", pk=pk)


@require_POST
def delete_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    match = get_match_for_edit(request, pk)
    get_object_or_404(match.hands, number=number)
    entries.record(match, entries.delete_hand(number), override=True)
    messages.info(request, f"Hand {number} deleted; the totals follow.")
    if request.htmx:
        return render_board(request, get_match_for_edit(request, pk))
    return redirect("tables:scoreboard", pk=pk)


@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_match_for_edit(request, pk)
    value = match_value(match)
    again = create_match(value.with_hands(()))
    url = reverse("tables:scoreboard", kwargs={"pk": again.pk})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_safe
def export_json(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_match_for_edit(request, pk)
    response = HttpResponse(dumps_match(match_value(match)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
    return response


@require_safe
def export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Hands as rows: each side's points in the hand and running total."""
    match = get_match_for_edit(request, pk)
    board = rules.score_match(match_value(match))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.csv"'
    writer = csv.writer(response)
    label = "round" if match.game == "chickenfoot" else "hand"
    writer.writerow(
        [
            label,
            *[f"{side} points" for side in board.sides],
            *[f"{side} total" for side in board.sides],
        ]
    )
    for hand in board.hands:
        writer.writerow(
            [
                hand.number,
                *[hand.points[s] for s in board.sides],
                *[hand.running[s] for s in board.sides],
            ]
        )
    writer.writerow(["total", *[board.totals[s] for s in board.sides], *["" for _ in board.sides]])
    winner = (
        board.winner if isinstance(board.winner, list) else [board.winner] if board.winner else []
    )
    writer.writerow(["winner", " and ".join(winner) or "(not finished)"])
    return response


@require_http_methods(["GET", "POST"])
def import_match(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        match = create_match(form.cleaned_data["file"])
        messages.success(request, "Match imported.")
        return redirect("tables:scoreboard", pk=match.pk)
    status = NOT_SAVED if request.method == "POST" else 200
    return render(request, "tables/import.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def edit_hand(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct an earlier hand: its plays and how it ended. The totals follow."""
    match = get_match_for_edit(request, pk)
    value = match_value(match)
    if not 1 <= number <= len(value.hands):
        raise Http404("No such hand.")
    hand = value.hands[number - 1]
    data = request.POST if request.method == "POST" else None
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
        outcome = entries.record(match, entries.replace_hand(number, corrected), override=override)
        if outcome.saved:
            messages.success(request, f"Hand {number} corrected; the totals follow.")
            return redirect("tables:scoreboard", pk=pk)
    return render(
        request,
        "tables/edit_hand.html",
        {
            "match": match,
            "number": number,
            "hand_word": "Round" if match.game == "chickenfoot" else "Hand",
            "rows": rows,
            "end_form": end_form if hand.end else None,
            "outcome": outcome,
            "game": match.game,
        },
        status=NOT_SAVED if data is not None else 200,
    )


def _end_form_for(game: str, value: rules.Match, hand: rules.Hand, data):
    initial = end_initial(hand, list(value.players), game)
    form_class = {"straight": HandEndForm, "chickenfoot": RoundForm, "sedma": SedmaEndForm}[game]
    return form_class(value, data, initial=initial)


def _end_valid(form, hand: rules.Hand) -> bool:
    return hand.end is None or form.is_valid()
