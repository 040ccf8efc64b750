from __future__ import annotations

from django.urls import URLPattern

app_name = "club_pages"

urlpatterns: list[URLPattern] = []
