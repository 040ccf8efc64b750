from __future__ import annotations

from django.urls import path

from scorekeeper.club_pages.views import accounts, clubs, invitations

app_name = "club_pages"

urlpatterns = [
    path("accounts/signup/", accounts.signup, name="signup"),
    path("clubs/", clubs.club_list, name="club_list"),
    path("clubs/new/", clubs.new_club, name="new_club"),
    path("clubs/<id:pk>/", clubs.club, name="club"),
    path("clubs/<id:pk>/name/", clubs.rename_club, name="rename_club"),
    path("clubs/<id:pk>/members/<id:user_id>/role/", clubs.change_role, name="change_role"),
    path("clubs/<id:pk>/members/<id:user_id>/remove/", clubs.remove_member, name="remove_member"),
    path(
        "clubs/<id:pk>/members/<id:user_id>/password-link/",
        clubs.password_link,
        name="password_link",
    ),
    path("clubs/<id:pk>/invitations/", invitations.invitations, name="invitations"),
    path(
        "clubs/<id:pk>/invitations/<id:invitation_id>/revoke/",
        invitations.revoke_invitation,
        name="revoke_invitation",
    ),
    path("invite/<str:token>/", invitations.invitation, name="invitation"),
]
