from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, register_converter
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from scorekeeper.access.views import SignInView
from scorekeeper.club_pages.views.accounts import password_reset_by_email
from scorekeeper.hardening import IdConverter
from scorekeeper.health import healthz
from scorekeeper.table_pages.offline import service_worker

# "<id:pk>": an id of at most 18 digits, so one past 64 bits is a 404 and never reaches a lookup
register_converter(IdConverter, "id")

# a refusal says why: a revoked link, signed out, or only watching (table_pages/refusals.py)
handler403 = "scorekeeper.table_pages.refusals.forbidden"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # from the root, so that the service worker's scope covers every scoreboard
    path("sw.js", service_worker, name="service_worker"),
    path("admin/", admin.site.urls),
    path("accounts/login/", SignInView.as_view(), name="login"),
    # Django's own reset by email, only where the site sends mail (settings.EMAIL_HOST)
    path("accounts/password_reset/", password_reset_by_email, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    # The language switcher in every page's footer posts here. It needs no CSRF token: it sets
    # only the language cookie of the browser that sends it, touching no account and no match,
    # so a page for a watcher carries no per-visit token and is served whole from the cache.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("", include("scorekeeper.access.urls")),
    path("", include("scorekeeper.table_pages.urls")),
    path("", include("scorekeeper.leagues.urls")),
    path("", include("scorekeeper.nights.urls")),
    path("", include("scorekeeper.records.urls")),
    path("", include("scorekeeper.club_pages.urls")),
]
