from __future__ import annotations

from django.urls import path

from scorekeeper.tables import settle
from scorekeeper.tables.views import entries, exports, history, matches

app_name = "tables"

urlpatterns = [
    path("", matches.home, name="home"),
    path("matches/new/<slug:game>/", matches.new_match, name="new_match"),
    path("matches/import/", matches.import_match, name="import_match"),
    path("matches/<int:pk>/", matches.scoreboard, name="scoreboard"),
    path("matches/<int:pk>/live/", history.live, name="live"),
    path("matches/<int:pk>/play/", entries.record_play, name="record_play"),
    path("matches/<int:pk>/end/", entries.end_hand, name="end_hand"),
    path("matches/<int:pk>/undo/", entries.undo, name="undo"),
    path("matches/<int:pk>/hands/<int:number>/edit/", entries.edit_hand, name="edit_hand"),
    path("matches/<int:pk>/hands/<int:number>/delete/", entries.delete_hand, name="delete_hand"),
    path("matches/<int:pk>/rematch/", matches.rematch, name="rematch"),
    path("matches/<int:pk>/history/", history.history, name="history"),
    path("matches/<int:pk>/history/<int:number>/revert/", history.revert, name="revert"),
    path("matches/<int:pk>/match.json", exports.export_json, name="export_json"),
    path("matches/<int:pk>/match.csv", exports.export_csv, name="export_csv"),
    path("settle/", settle.settle, name="settle"),
    path("manifest.webmanifest", matches.manifest, name="manifest"),
    path("matches/<int:pk>/sheet/", exports.sheet, name="sheet"),
]
