"""An invitation's link: the invitation's id, signed with the site's key, so a link nobody was
given is refused without a lookup; the row says whether it is still open (used once, not
revoked, not expired)."""

from __future__ import annotations

import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.utils import timezone

from scorekeeper.clubs.models import AT_LEAST, INVITATION_DAYS, Invitation, Membership, Role

SALT = "scorekeeper.clubs.invitation"


def token_of(invitation: Invitation) -> str:
    return signing.dumps(invitation.pk, salt=SALT, compress=True)


def invitation_of(token: str) -> Invitation | None:
    """The invitation a link names, open or not; None for a link that was never made or is
    older than any invitation lives."""
    try:
        pk = signing.loads(token, salt=SALT, max_age=datetime.timedelta(days=INVITATION_DAYS))
    except signing.BadSignature:
        return None
    return Invitation.objects.select_related("club", "made_by").filter(pk=pk).first()


class Closed(Exception):
    """The invitation was used, revoked or has expired: ``state`` says which, as the locked
    row had it."""

    def __init__(self, state: str) -> None:
        super().__init__(state)
        self.state = state


def accept(invitation_pk: int, user: AbstractBaseUser) -> Membership:
    """``user`` joins the invitation's club in its role (one who holds a stronger role there
    keeps it), and the invitation is used: two phones accepting it at once, one is refused."""
    now = timezone.now()
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation_pk)
        if not invitation.open_at(now):
            raise Closed(invitation.state_at(now))
        membership, made = Membership.objects.get_or_create(
            club_id=invitation.club_id, user=user, defaults={"role": invitation.role}
        )
        if not made and membership.role not in AT_LEAST[Role(invitation.role)]:
            membership.role = invitation.role
            membership.save(update_fields=["role"])
        invitation.used_at = now
        invitation.used_by = user  # type: ignore[assignment]
        invitation.save(update_fields=["used_at", "used_by"])
    return membership


def revoke(*, invitation_pk: int, club_id: int) -> bool:
    """The club's invitation, still open, can bring nobody in any more (False: it was used,
    revoked or expired already, or is not the club's). One row's update: an accept at the same
    moment either came first or finds it revoked."""
    now = timezone.now()
    revoked = Invitation.objects.filter(
        pk=invitation_pk, club_id=club_id, revoked_at=None, used_at=None, expires_at__gt=now
    ).update(revoked_at=now)
    return revoked == 1
