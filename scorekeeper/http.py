"""The request the views receive, typed for what the middleware adds to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class HtmxHttpRequest(HttpRequest):
    """Django's request with ``request.htmx``, which django-htmx's middleware sets on every
    request (settings.MIDDLEWARE). Only an annotation: the views receive Django's own
    request, never an instance of this class."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a view behind ``login_required``: its user has an account. Only an
    annotation, as above."""

    user: User
