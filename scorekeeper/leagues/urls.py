from __future__ import annotations

from django.urls import path

from scorekeeper.leagues import rating_views
from scorekeeper.leagues.views import exports, imports, players, seasons, wall

app_name = "leagues"

urlpatterns = [
    path("leagues/", seasons.league_list, name="league_list"),
    path("leagues/import/", imports.import_bundle, name="import_bundle"),
    path("leagues/import/<id:pk>/", imports.bundle_import, name="bundle_import"),
    path("leagues/<id:pk>/", seasons.league, name="league"),
    path("leagues/<id:pk>/bundle.zip", exports.export_bundle, name="export_bundle"),
    path("leagues/<id:league_id>/seasons/<id:pk>/", seasons.season, name="season"),
    path("leagues/<id:league_id>/seasons/<id:pk>/wall/", wall.wall, name="wall"),
    path("live/season/<id:pk>/", wall.season_stream, name="season_stream"),
    path(
        "leagues/<id:league_id>/seasons/<id:pk>/matches/",
        seasons.season_matches,
        name="season_matches",
    ),
    path("leagues/<id:league_id>/seasons/<id:pk>/new/", seasons.new_match, name="new_match"),
    path(
        "leagues/<id:league_id>/seasons/<id:pk>/forfeit/<id:match_id>/",
        seasons.forfeit,
        name="forfeit",
    ),
    path(
        "leagues/<id:league_id>/seasons/<id:pk>/standings.csv",
        exports.standings_csv,
        name="standings_csv",
    ),
    path("leagues/<id:league_id>/seasons/<id:pk>/hands.csv", exports.hands_csv, name="hands_csv"),
    path("players/", players.player_list, name="player_list"),
    path("players/<id:pk>/", players.player, name="player"),
    path("ratings/<slug:game>/", rating_views.rating_list, name="ratings"),
    path("matches/<id:pk>/ratings/", rating_views.match_ratings, name="match_ratings"),
]
