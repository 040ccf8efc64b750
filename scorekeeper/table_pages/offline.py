"""What lets a phone keep scoring through a Wi-Fi drop: the service worker, and the page it
shows for an address it has no copy of. The outbox itself lives on the phone
(static/js/outbox.js); the server's part of it is the entry key (views/access.py)."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

#: the static files a scoreboard needs, kept by the service worker when it is installed
APP_FILES = (
    "css/app.css",
    "django_htmx/htmx-2.min.js",
    "js/app.js",
    "vendor/idb-keyval-6.3.0/umd.js",
    "js/outbox.js",
    "js/offline.js",
    "icons/icon.svg",
)
#: what the service worker itself runs: the outbox, to send it by Background Sync
WORKER_SCRIPTS = ("vendor/idb-keyval-6.3.0/umd.js", "js/outbox.js")


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that its scope covers every scoreboard.

    Its text names the static files by their addresses and carries a digest of their
    contents: when one changes, so does the worker, and phones take the new one."""
    digest = hashlib.sha256()
    for name in APP_FILES:
        path = finders.find(name)
        assert path is not None  # one of the app's own static files
        with open(path, "rb") as file:
            digest.update(file.read())
    context = {
        "version": digest.hexdigest()[:12],
        "app_files": json.dumps([static(name) for name in APP_FILES]),
        "worker_scripts": [static(name) for name in WORKER_SCRIPTS],
        "offline_page": reverse("tables:offline"),
        "static_url": settings.STATIC_URL,
    }
    return render(request, "sw.js", context, content_type="text/javascript")


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the service worker for a page this phone has no copy of while it is offline."""
    return render(request, "tables/offline.html")
