"""`/healthz`: whether the app server is up and answering, for a load balancer or a deploy."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """A few bytes through the whole middleware stack, touching neither the database nor a
    template: the cheapest request the app can answer (the benchmark's ceiling)."""
    return HttpResponse("ok\n", content_type="text/plain")
