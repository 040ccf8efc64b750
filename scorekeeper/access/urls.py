from __future__ import annotations

from django.urls import path

from scorekeeper.access import views

app_name = "access"

urlpatterns = [
    path("matches/<id:pk>/share/", views.share, name="share"),
    path("matches/<id:pk>/share/<id:link_id>/revoke/", views.revoke, name="revoke"),
    path("join/<str:token>/", views.join, name="join"),
]
