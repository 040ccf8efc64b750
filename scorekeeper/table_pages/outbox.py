"""A phone's entries the server would not take, kept as a match file so nothing tapped is lost."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.views.decorators.http import require_POST

from scorekeeper.access.matches import match_to_watch
from scorekeeper.rules.matchfile import dumps_match
from scorekeeper.tables.forms.files import OutboxForm
from scorekeeper.tables.outbox import with_outbox
from scorekeeper.tables.seats import by_name


@require_POST
def outbox_file(request: HttpRequest, pk: int) -> HttpResponse:
    """The match as stored with the entries this phone has not sent (``entries``, see
    OutboxForm), as a match file to download: for a phone whose entries are refused (its link
    revoked, signed out). Anyone who may see the board may have it: it writes nothing.

    Entries their form refuses are left out; their places in the list (from 1) are in the
    ``X-Entries-Skipped`` header."""
    match = match_to_watch(request, pk)
    form = OutboxForm(request.POST)
    if not form.is_valid():
        problem = " ".join(form.errors["entries"])  # type: ignore[arg-type]  # its messages
        return HttpResponseBadRequest(problem, content_type="text/plain; charset=utf-8")
    value, skipped = with_outbox(match, form.cleaned_data["entries"])
    # the players by seat, as the engine knows them; by name in the file
    named = by_name(value, match.seating().players)
    response = HttpResponse(dumps_match(named), content_type="application/json")
    name = f"match-{match.pk}-with-this-phones-entries.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    if skipped:
        response["X-Entries-Skipped"] = ",".join(str(entry.number) for entry in skipped)
    return response
