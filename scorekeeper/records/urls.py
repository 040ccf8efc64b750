from __future__ import annotations

from django.urls import path

from scorekeeper.records import views

app_name = "records"

urlpatterns = [
    path("me/", views.my_record, name="my_record"),
    path("me/data.json", views.my_data, name="my_data"),
    path("me/initials/", views.my_initials, name="my_initials"),
    path("me/claim/", views.claim_code, name="claim_code"),
    path("me/claim/<str:token>/", views.claim_link, name="claim_link"),
    path("players/<id:pk>/claim/", views.claim_for_player, name="claim_for_player"),
    path("players/<id:pk>/merge/", views.merge, name="merge"),
    path("players/<id:pk>/forget/", views.forget, name="forget"),
]
