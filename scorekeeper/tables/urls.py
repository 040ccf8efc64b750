from __future__ import annotations

from django.urls import path

from scorekeeper.tables import settle, views

app_name = "tables"

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/new/<slug:game>/", views.new_match, name="new_match"),
    path("matches/import/", views.import_match, name="import_match"),
    path("matches/<int:pk>/", views.scoreboard, name="scoreboard"),
    path("matches/<int:pk>/play/", views.record_play, name="record_play"),
    path("matches/<int:pk>/end/", views.end_hand, name="end_hand"),
    path("matches/<int:pk>/undo/", views.undo, name="undo"),
    path("matches/<int:pk>/hands/<int:number>/edit/", views.edit_hand, name="edit_hand"),
    path("matches/<int:pk>/hands/<int:number>/delete/", views.delete_hand, name="delete_hand"),
    path("matches/<int:pk>/rematch/", views.rematch, name="rematch"),
    path("matches/<int:pk>/match.json", views.export_json, name="export_json"),
    path("matches/<int:pk>/match.csv", views.export_csv, name="export_csv"),
    path("settle/", settle.settle, name="settle"),
]
