"""The 403 page: why a phone may not change a match (access/refusals.py), and what to do next."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

from scorekeeper.access.refusals import SIGN_IN, NotAScorekeeper


def forbidden(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 403 page (``handler403``): why, and for a phone that is not signed in, where to sign
    in and come back to. For htmx, the reason alone."""
    context: dict[str, object] = {
        "because": "",
        "message": str(exception) or gettext("You may not do this."),
    }
    if isinstance(exception, NotAScorekeeper):
        back = request.path
        if exception.match is not None:
            back = reverse("tables:scoreboard", args=[exception.match.pk])
            context["scoreboard"] = back
        context["because"] = exception.because
        context["message"] = exception.message
        if exception.because == SIGN_IN:
            context["sign_in"] = f"{reverse('login')}?{urlencode({'next': back})}"
    htmx = getattr(request, "htmx", None)
    template = "_refusal.html" if htmx and not htmx.boosted else "403.html"
    return render(request, template, context, status=403)
