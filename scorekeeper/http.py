"""The request the views receive, typed for what the middleware adds to it."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """Django's request with ``request.htmx``, which django-htmx's middleware sets on every
    request (settings.MIDDLEWARE). Only an annotation: the views receive Django's own
    request, never an instance of this class."""

    htmx: HtmxDetails
