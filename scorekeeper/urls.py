from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from scorekeeper.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # set_language: the language switcher in every page's footer posts here
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorekeeper.access.urls")),
    path("", include("scorekeeper.tables.urls")),
    path("", include("scorekeeper.leagues.urls")),
]
