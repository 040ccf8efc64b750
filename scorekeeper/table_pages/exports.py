"""A match as its match file, or as a spreadsheet."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scorekeeper import rules
from scorekeeper.access.matches import match_to_watch
from scorekeeper.rules.matchfile import dumps_match
from scorekeeper.tables.board import board_context
from scorekeeper.tables.scoring import match_file_value
from scorekeeper.tables.spreadsheet import SafeWriter


@require_safe
def export_json(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_to_watch(request, pk)
    response = HttpResponse(dumps_match(match_file_value(match)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
    return response


@require_safe
def export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Hands as rows: each side's points in the hand and running total."""
    match = match_to_watch(request, pk)
    board = rules.score_match(match_file_value(match))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.csv"'
    writer = SafeWriter(response)
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
    writer.writerow(["winner", " and ".join(map(str, winner)) or "(not finished)"])
    return response


@require_safe
def sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole match as a score sheet to print and pin on the wall."""
    match = match_to_watch(request, pk)
    context = board_context(match)
    return render(request, "tables/sheet.html", context)
