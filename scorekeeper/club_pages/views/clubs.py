"""A club's pages: the clubs an account belongs to, a new club, a club's leagues and members,
and what its owner does with them.

Only the club's owner changes its members' roles, takes a member out, and hands a member a
one-time password link; a club never loses its last owner (clubs/members.py). Roles are read
again on every request (access/clubs.py), so a role taken away counts from the next request.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.access.clubs import club_for, club_role, is_superuser
from scorekeeper.access.views import qr_svg
from scorekeeper.club_pages.forms import ClubForm, RoleForm
from scorekeeper.clubs.members import (
    LastOwner,
    NameTaken,
    club_create,
    club_rename,
    member_remove,
    member_role_change,
)
from scorekeeper.clubs.models import Membership, Role
from scorekeeper.clubs.roles import clubs_where, holds
from scorekeeper.http import AuthenticatedHttpRequest
from scorekeeper.tables.models import Match

LAST_OWNER = gettext_noop("A club keeps at least one owner: make another member its owner first.")


@login_required
@require_safe
def club_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The clubs the account belongs to, with its role in each."""
    memberships = (
        Membership.objects.filter(user_id=request.user.pk)
        .select_related("club")
        .order_by("club__name")
    )
    return render(request, "clubs/club_list.html", {"memberships": memberships})


@login_required
@require_http_methods(["GET", "POST"])
def new_club(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Any account makes a club, and is its owner."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["name"]
        try:
            club = club_create(name=name, owner=request.user)
        except NameTaken:
            form.add_error(
                "name",
                gettext("There is already a club called %(name)s. Choose another name.")
                % {"name": name},
            )
        else:
            messages.success(request, gettext("Club made: you are its owner."))
            return redirect("club_pages:club", pk=club.pk)
    status = 422 if request.method == "POST" else 200
    return render(request, "clubs/new_club.html", {"form": form}, status=status)


@login_required
@require_safe
def club(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The club's leagues and members, for its members; its owner changes their roles."""
    club = club_for(request, pk, Role.MEMBER)
    role = club_role(request, club.pk)
    members = club.memberships.select_related("user").order_by("user__username")
    context = {
        "club": club,
        "role": role,
        "owns": holds(role, Role.OWNER),
        "runs": holds(role, Role.ORGANIZER),
        "members": members,
        "leagues": club.leagues.order_by("name"),
        # its leagues' matches alone: a casual match, or another club's, is not the club's
        "matches": Match.objects.filter(league_entry__season__league__club=club)
        .prefetch_related("seats__player")
        .order_by("-updated_at")[:RECENT_MATCHES],
        "roles": Role.choices,
    }
    return render(request, "clubs/club.html", context)


#: how many of its latest matches the club's page lists
RECENT_MATCHES = 20


@login_required
@require_POST
def rename_club(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The owner gives the club another name."""
    club = club_for(request, pk, Role.OWNER)
    form = ClubForm(request.POST, club=club)
    if form.is_valid():
        try:
            club_rename(club=club, name=form.cleaned_data["name"])
        except NameTaken:
            form.add_error(
                "name",
                gettext("There is already a club called %(name)s. Choose another name.")
                % {"name": form.cleaned_data["name"]},
            )
        else:
            messages.success(
                request, gettext("The club is called %(name)s now.") % {"name": club.name}
            )
            return redirect("club_pages:club", pk=club.pk)
    for error in form.errors.get("name", []):
        messages.error(request, str(error))
    return redirect("club_pages:club", pk=club.pk)


@login_required
@require_POST
def change_role(request: AuthenticatedHttpRequest, pk: int, user_id: int) -> HttpResponse:
    club = club_for(request, pk, Role.OWNER)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose one of the roles: owner, organizer or member."))
        return redirect("club_pages:club", pk=club.pk)
    try:
        membership = member_role_change(
            club_id=club.pk, user_id=user_id, role=form.cleaned_data["role"]
        )
    except LastOwner:
        messages.error(request, gettext(LAST_OWNER))
        return redirect("club_pages:club", pk=club.pk)
    if membership is None:
        raise Http404(gettext("This account is not a member of the club."))
    messages.success(
        request,
        gettext("%(name)s is now %(role)s.")
        % {"name": membership.user.get_username(), "role": membership.get_role_display()},
    )
    return redirect("club_pages:club", pk=club.pk)


@login_required
@require_POST
def remove_member(request: AuthenticatedHttpRequest, pk: int, user_id: int) -> HttpResponse:
    club = club_for(request, pk, Role.OWNER)
    try:
        removed = member_remove(club_id=club.pk, user_id=user_id)
    except LastOwner:
        messages.error(request, gettext(LAST_OWNER))
        return redirect("club_pages:club", pk=club.pk)
    if not removed:
        raise Http404(gettext("This account is not a member of the club."))
    messages.success(request, gettext("The member was taken out of the club."))
    return redirect("club_pages:club", pk=club.pk)


@never_cache
@login_required
@require_POST
def password_link(request: AuthenticatedHttpRequest, pk: int, user_id: int) -> HttpResponse:
    """A one-time link that sets a new password for a member who forgot theirs: the owner
    hands it over (shown once, on this answer alone). It works until the password is set or
    the member signs in (Django's reset token) and takes the member's other sessions out.

    Refused for an account that is not the club's member, for the site's staff, and for a
    member of another club the owner does not own: an owner takes over no account that holds
    more than this owner's clubs give it."""
    club = club_for(request, pk, Role.OWNER)
    membership = club.memberships.select_related("user").filter(user_id=user_id).first()
    if membership is None:
        raise PermissionDenied(gettext("This account is not a member of the club."))
    member = membership.user
    if member.is_staff or member.is_superuser:
        raise PermissionDenied(gettext("The site's staff reset their own passwords."))
    if not is_superuser(request):
        owned = clubs_where(request.user, Role.OWNER).values("pk")
        if member.memberships.exclude(club_id__in=owned).exists():
            raise PermissionDenied(
                gettext("This member belongs to a club you do not own: ask its owner.")
            )
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(member.pk)),
            "token": default_token_generator.make_token(member),
        },
    )
    url = request.build_absolute_uri(path)
    context = {"club": club, "member": member, "url": url, "qr": mark_safe(qr_svg(url))}
    return render(request, "clubs/password_link.html", context)
