from __future__ import annotations

from django.urls import path

from scorekeeper.leagues import views

app_name = "leagues"

urlpatterns = [
    path("leagues/", views.league_list, name="league_list"),
    path("leagues/import/", views.import_bundle, name="import_bundle"),
    path("leagues/<int:pk>/", views.league, name="league"),
    path("leagues/<int:pk>/bundle.zip", views.export_bundle, name="export_bundle"),
    path("leagues/<int:league_id>/seasons/<int:pk>/", views.season, name="season"),
    path("leagues/<int:league_id>/seasons/<int:pk>/wall/", views.wall, name="wall"),
    path(
        "leagues/<int:league_id>/seasons/<int:pk>/matches/",
        views.season_matches,
        name="season_matches",
    ),
    path("leagues/<int:league_id>/seasons/<int:pk>/new/", views.new_match, name="new_match"),
    path(
        "leagues/<int:league_id>/seasons/<int:pk>/forfeit/<int:match_id>/",
        views.forfeit,
        name="forfeit",
    ),
    path(
        "leagues/<int:league_id>/seasons/<int:pk>/standings.csv",
        views.standings_csv,
        name="standings_csv",
    ),
    path("leagues/<int:league_id>/seasons/<int:pk>/hands.csv", views.hands_csv, name="hands_csv"),
    path("players/", views.player_list, name="player_list"),
    path("players/<int:pk>/", views.player, name="player"),
    path("ratings/<slug:game>/", views.rating_list, name="ratings"),
]
