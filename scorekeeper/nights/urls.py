from __future__ import annotations

from django.urls import path

from scorekeeper.nights import desk_views, director_views, public, sheets, sign_views, views

app_name = "nights"

urlpatterns = [
    path("leagues/<id:league_id>/seasons/<id:pk>/nights/new/", views.new_night, name="new_night"),
    path("nights/<id:pk>/", views.night, name="night"),
    path("nights/<id:pk>/check-in/", views.check_in, name="check_in"),
    path("nights/<id:pk>/draw/", views.draw, name="draw"),
    path("nights/<id:pk>/rounds/<id:number>/start/", views.start, name="start"),
    path("nights/<id:pk>/rounds/<id:number>/cards/", views.cards, name="cards"),
    path("nights/<id:pk>/partners/", views.partners, name="partners"),
    path("nights/<id:pk>/leave/", views.leave, name="leave"),
    path("nights/<id:pk>/directors/", director_views.directors, name="directors"),
    path("nights/<id:pk>/board/", views.board, name="board"),
    path("live/night/<id:pk>/", public.night_stream, name="stream"),
    path("nights/<id:pk>/pairings/", public.pairings, name="pairings"),
    path("leagues/<id:league_id>/tables/cards/", public.table_cards, name="table_cards"),
    path("leagues/<id:league_id>/tables/<id:number>/", public.table_now, name="table_now"),
    path("nights/<id:pk>/desk/", desk_views.desk, name="desk"),
    path(
        "nights/<id:pk>/rounds/<id:number>/clock/<str:action>/",
        desk_views.clock_action,
        name="clock",
    ),
    path("night-rounds/<id:pk>/clock/", desk_views.round_clock, name="round_clock"),
    path("nights/<id:pk>/results.csv", views.results_csv, name="results_csv"),
    path("nights/<id:pk>/bundle.zip", views.bundle, name="bundle"),
    path("nights/<id:pk>/standings.csv", sheets.standings_csv, name="standings_csv"),
    path("nights/<id:pk>/standings/print/", sheets.standings_sheet, name="standings_sheet"),
    path("nights/<id:pk>/rounds/<id:number>/print/", sheets.round_sheet, name="round_sheet"),
    path("nights/sign/<str:token>/", sign_views.sign, name="sign"),
    path("nights/disputes/<id:pk>/", sign_views.dispute, name="dispute"),
]
