"""Clubs (a hall), who belongs to each and in which role, and the invitations that bring people
in. A role in one club gives nothing in another.

- **owner**: the club itself and its members' roles;
- **organizer**: the club's leagues, seasons and nights, and corrections of any of its matches;
- **member**: belongs to the club (a player with an account, a director-to-be) and may be named
  a night's director (nights/models.py: ``Night.directors``), who runs that night's desk only.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: how long an invitation's link can be used
INVITATION_DAYS = 7


class Club(models.Model):
    name = models.CharField(max_length=80, unique=True, verbose_name=_("Club name"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    """From the most rights to the fewest: each role may do what the ones below it may."""

    OWNER = "owner", _("Owner")
    ORGANIZER = "organizer", _("Organizer")
    MEMBER = "member", _("Member")


#: the roles at least as strong as each one
AT_LEAST = {
    Role.OWNER: (Role.OWNER,),
    Role.ORGANIZER: (Role.OWNER, Role.ORGANIZER),
    Role.MEMBER: (Role.OWNER, Role.ORGANIZER, Role.MEMBER),
}


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=12, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_role_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.club}"


def _expiry() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=INVITATION_DAYS)


class OnceLink(models.Model):
    """A link that brings someone in once (an invitation to a club, a claim of a player's
    record): who made it and when, until when it works, and whether it was revoked or used, by
    whom. A model keeps its own ``expires_at`` default: its days."""

    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        abstract = True

    def open_at(self, now: datetime.datetime) -> bool:
        """Whether the link still brings someone in."""
        return self.revoked_at is None and self.used_at is None and now < self.expires_at


class Invitation(OnceLink):
    """A link for one role in one club: used once, until it expires or is revoked. The link
    carries the invitation's id signed (clubs/invitations.py), so a guessed one is refused."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=12, choices=Role.choices)
    expires_at = models.DateTimeField(default=_expiry)

    class Meta:
        ordering = ["club", "-made_at"]

    def __str__(self) -> str:
        return f"{self.role} of {self.club}"

    def state_at(self, now: datetime.datetime) -> str:
        """How the invitation stands: "open", "used", "revoked" or "expired"."""
        if self.used_at is not None:
            return "used"
        if self.revoked_at is not None:
            return "revoked"
        if now >= self.expires_at:
            return "expired"
        return "open"
