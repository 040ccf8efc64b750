"""The import of a league bundle: its upload, and the page that shows the import's progress."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from scorekeeper.access.clubs import ORGANIZER_ONLY, clubs_run, require_club_role
from scorekeeper.clubs.models import Role
from scorekeeper.leagues.forms import ImportForm
from scorekeeper.leagues.imports import ASK_AGAIN_EVERY, bundle_import_ask, import_lost
from scorekeeper.leagues.models import BundleImport


@require_http_methods(["GET", "POST"])
def import_bundle(request: HttpRequest) -> HttpResponse:
    """Upload a league bundle into a club the organizer runs: it is imported by the worker
    (imports.py), and the organizer is sent to the page that shows its progress; where tasks
    run in the request, straight to the league, or back here with why it was refused."""
    clubs = clubs_run(request)
    if request.method == "POST" and not clubs.exists():
        raise PermissionDenied(gettext(ORGANIZER_ONLY))
    if request.method == "POST":
        # bound even when nothing was sent, so that an empty upload is told what it lacks
        form = ImportForm(clubs, request.POST, request.FILES)
        if not form.is_valid():
            context = {"form": form, "error": ""}
            return render(request, "leagues/import.html", context, status=422)
        asked = bundle_import_ask(upload=form.cleaned_data["file"], club=form.cleaned_data["club"])
        if asked.state in (BundleImport.State.DONE, BundleImport.State.FAILED):
            return _bundle_imported(request, asked)
        return redirect("leagues:bundle_import", pk=asked.pk)
    return render(request, "leagues/import.html", {"form": ImportForm(clubs), "error": ""})


@require_safe
def bundle_import(request: HttpRequest, pk: int) -> HttpResponse:
    """A bundle's import under way: how many of its matches are read, asking again every few
    seconds by itself; the league once it is in, or why the bundle was refused. For the
    organizers of the club it is imported into."""
    asked = get_object_or_404(BundleImport, pk=pk)
    require_club_role(request, asked.club_id, Role.ORGANIZER)
    if asked.state in (BundleImport.State.DONE, BundleImport.State.FAILED):
        return _bundle_imported(request, asked)
    if import_lost(asked):
        error = gettext(
            "The import stopped before it was done, and nothing of it was kept. "
            "Import the bundle again."
        )
        context = {"form": ImportForm(clubs_run(request)), "error": error}
        return render(request, "leagues/import.html", context)
    return render(
        request,
        "leagues/import_progress.html",
        {"asked": asked, "seconds": ASK_AGAIN_EVERY},
    )


def _bundle_imported(request: HttpRequest, asked: BundleImport) -> HttpResponse:
    """The league imported, or the form again with why the bundle was refused (413 for a
    bundle larger than the app takes, 422 for one it cannot keep)."""
    if asked.state == BundleImport.State.FAILED or asked.league is None:
        context = {"form": ImportForm(clubs_run(request)), "error": asked.error}
        return render(request, "leagues/import.html", context, status=asked.status)
    messages.success(request, gettext("League %(league)s imported.") % {"league": asked.league})
    return redirect("leagues:league", pk=asked.league.pk)
