"""The app's URLs and one more, only under the benchmark: a signed-in request that records
nothing. Measured beside a tap, it shows what signing the phone in costs before a match is
touched."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from scorekeeper.access.clubs import runs_any_club
from scorekeeper.urls import urlpatterns as app_urlpatterns


@require_POST
def signed_in(request: HttpRequest) -> HttpResponse:
    """The checks a tap makes before it opens the match, as the phone's htmx POST meets them:
    the CSRF header, the session, the account and its roles in the clubs."""
    if not runs_any_club(request):
        raise PermissionDenied
    return HttpResponse("signed in\n", content_type="text/plain")


# after the app's own, so every one of them resolves exactly as it does in production
urlpatterns = [*app_urlpatterns, path("bench/signed-in/", signed_in)]
