"""A night's directors, named and removed by an organizer of its league's club."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scorekeeper.nights.directors import may_direct, night_for_organizer
from scorekeeper.nights.forms import DirectorForm


@require_POST
def directors(request: HttpRequest, pk: int) -> HttpResponse:
    """Name a member of the club the night's director, or remove one (``remove``)."""
    with transaction.atomic():
        night = night_for_organizer(request, pk)
        form = DirectorForm(may_direct(night), request.POST)
        if not form.is_valid():
            messages.error(request, gettext("Pick a member of the club."))
            return redirect("nights:night", pk=night.pk)
        user = form.cleaned_data["user"]
        if form.cleaned_data["remove"]:
            night.directors.remove(user)
            said = gettext("%(name)s no longer directs this night.")
        else:
            night.directors.add(user)
            said = gettext("%(name)s directs this night: its rounds, clock, desk and disputes.")
    messages.success(request, said % {"name": user.get_username()})
    return redirect("nights:night", pk=night.pk)
