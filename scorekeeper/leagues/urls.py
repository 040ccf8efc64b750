from __future__ import annotations

from django.urls import path

from scorekeeper.leagues import rating_views, views

app_name = "leagues"

urlpatterns = [
    path("leagues/", views.league_list, name="league_list"),
    path("leagues/import/", views.import_bundle, name="import_bundle"),
    path("leagues/import/<id:pk>/", views.bundle_import, name="bundle_import"),
    path("leagues/<id:pk>/", views.league, name="league"),
    path("leagues/<id:pk>/bundle.zip", views.export_bundle, name="export_bundle"),
    path("leagues/<id:league_id>/seasons/<id:pk>/", views.season, name="season"),
    path("leagues/<id:league_id>/seasons/<id:pk>/wall/", views.wall, name="wall"),
    path(
        "leagues/<id:league_id>/seasons/<id:pk>/matches/",
        views.season_matches,
        name="season_matches",
    ),
    path("leagues/<id:league_id>/seasons/<id:pk>/new/", views.new_match, name="new_match"),
    path(
        "leagues/<id:league_id>/seasons/<id:pk>/forfeit/<id:match_id>/",
        views.forfeit,
        name="forfeit",
    ),
    path(
        "leagues/<id:league_id>/seasons/<id:pk>/standings.csv",
        views.standings_csv,
        name="standings_csv",
    ),
    path("leagues/<id:league_id>/seasons/<id:pk>/hands.csv", views.hands_csv, name="hands_csv"),
    path("players/", views.player_list, name="player_list"),
    path("players/<id:pk>/", views.player, name="player"),
    path("ratings/<slug:game>/", rating_views.rating_list, name="ratings"),
    path("matches/<id:pk>/ratings/", rating_views.match_ratings, name="match_ratings"),
]
