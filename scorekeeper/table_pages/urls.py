from __future__ import annotations

from django.urls import path

from scorekeeper.table_pages import entries, exports, history, matches, offline, outbox, settle

app_name = "tables"

urlpatterns = [
    path("", matches.home, name="home"),
    path("matches/new/<slug:game>/", matches.new_match, name="new_match"),
    path("matches/import/", matches.import_match, name="import_match"),
    path("matches/<id:pk>/", matches.scoreboard, name="scoreboard"),
    path("matches/<id:pk>/live/", history.live, name="live"),
    path("live/match/<id:pk>/", history.live_stream, name="stream"),
    path("matches/<id:pk>/play/", entries.record_play, name="record_play"),
    path("matches/<id:pk>/end/", entries.end_hand, name="end_hand"),
    path("matches/<id:pk>/undo/", entries.undo, name="undo"),
    path("matches/<id:pk>/hands/<id:number>/edit/", entries.edit_hand, name="edit_hand"),
    path("matches/<id:pk>/hands/<id:number>/delete/", entries.delete_hand, name="delete_hand"),
    path("matches/<id:pk>/rematch/", matches.rematch, name="rematch"),
    path("matches/<id:pk>/history/", history.history, name="history"),
    path("matches/<id:pk>/history/<id:number>/revert/", history.revert, name="revert"),
    path("matches/<id:pk>/match.json", exports.export_json, name="export_json"),
    path("matches/<id:pk>/match.csv", exports.export_csv, name="export_csv"),
    path("settle/", settle.settle, name="settle"),
    path("manifest.webmanifest", matches.manifest, name="manifest"),
    path("matches/<id:pk>/sheet/", exports.sheet, name="sheet"),
    path("matches/<id:pk>/outbox.json", outbox.outbox_file, name="outbox_file"),
    path("offline/", offline.offline, name="offline"),
]
