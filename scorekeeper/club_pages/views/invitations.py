"""Invitations: a link (and its QR code) for one role in a club, made by its owner or an
organizer, and the page it opens. An organizer invites members and organizers; only an owner
invites an owner."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.access.clubs import club_for, club_role
from scorekeeper.access.views import qr_svg
from scorekeeper.club_pages.forms import InvitationForm
from scorekeeper.clubs import invitations as links
from scorekeeper.clubs.models import Invitation, Role
from scorekeeper.clubs.roles import holds
from scorekeeper.http import AuthenticatedHttpRequest

#: how many of a club's invitations, newest first, its page lists
SHOWN = 50


def may_invite(role: Role | None) -> tuple[Role, ...]:
    """The roles someone holding ``role`` in a club may invite people into."""
    if holds(role, Role.OWNER):
        return (Role.OWNER, Role.ORGANIZER, Role.MEMBER)
    if holds(role, Role.ORGANIZER):
        return (Role.ORGANIZER, Role.MEMBER)
    return ()


@login_required
@require_http_methods(["GET", "POST"])
def invitations(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The club's invitations with how each stands; an open one's link and QR code to hand
    over, and a new one made."""
    club = club_for(request, pk, Role.ORGANIZER)
    form = InvitationForm(may_invite(club_role(request, club.pk)), request.POST or None)
    if request.method == "POST" and form.is_valid():
        Invitation.objects.create(club=club, role=form.cleaned_data["role"], made_by=request.user)
        messages.success(request, gettext("Invitation made: scan the code or send the link."))
        return redirect("club_pages:invitations", pk=club.pk)
    now = timezone.now()
    rows: list[dict[str, Any]] = []
    for invitation in club.invitations.select_related("made_by", "used_by")[:SHOWN]:
        row: dict[str, Any] = {"invitation": invitation, "state": invitation.state_at(now)}
        if row["state"] == "open":
            path = reverse("club_pages:invitation", args=[links.token_of(invitation)])
            row["url"] = request.build_absolute_uri(path)
            row["qr"] = mark_safe(qr_svg(row["url"]))
        rows.append(row)
    return render(
        request,
        "clubs/invitations.html",
        {"club": club, "form": form, "rows": rows},
        status=422 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def revoke_invitation(
    request: AuthenticatedHttpRequest, pk: int, invitation_id: int
) -> HttpResponse:
    club = club_for(request, pk, Role.ORGANIZER)
    if links.revoke(invitation_pk=invitation_id, club_id=club.pk):
        messages.info(request, gettext("Invitation revoked: its link brings nobody in any more."))
    elif club.invitations.filter(pk=invitation_id).exists():
        messages.info(request, gettext("This invitation was already used, revoked or expired."))
    else:
        raise Http404(gettext("This club has no such invitation."))
    return redirect("club_pages:invitations", pk=club.pk)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invitation's link opens: "Join <club> as <role>". Someone signed in joins
    with a tap; anyone else signs in or opens an account and comes back here. A link used,
    revoked or expired answers 410; one never made, 404."""
    invitation = links.invitation_of(token)
    if invitation is None:
        raise Http404(gettext("This invitation does not exist."))
    role = Role(invitation.role)
    held = club_role(request, invitation.club_id)
    if holds(held, role):
        # accepted already (twice is harmless), or the account holds as much or more: the
        # invitation stays for whom it was meant
        if request.method == "POST" or invitation.used_by_id == request.user.pk:
            return redirect("club_pages:club", pk=invitation.club_id)
    if invitation.state_at(timezone.now()) != "open":
        return closed(request, invitation)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.path)
        try:
            links.accept(invitation.pk, request.user)
        except links.Closed as refusal:
            # taken or revoked since it was read above: as the locked row says
            return closed(request, invitation, refusal.state)
        messages.success(
            request,
            gettext("Welcome to %(club)s: you joined as %(role)s.")
            % {"club": invitation.club.name, "role": role.label},
        )
        return redirect("club_pages:club", pk=invitation.club_id)
    back = urlencode({"next": request.path})
    context = {
        "invitation": invitation,
        "role": role.label,
        "held": held,
        "holds_it": holds(held, role),
        "sign_in": f"{reverse('login')}?{back}",
        "sign_up": f"{reverse('club_pages:signup')}?{back}",
    }
    return render(request, "clubs/invitation.html", context)


def closed(request: HttpRequest, invitation: Invitation, state: str = "") -> HttpResponse:
    """410: the invitation was used, revoked or has expired, and says which (``state``, or as
    ``invitation`` stands now)."""
    context = {"invitation": invitation, "state": state or invitation.state_at(timezone.now())}
    return render(request, "clubs/invitation_closed.html", context, status=410)
