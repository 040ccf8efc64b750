"""Who may change a match: its scorekeepers, by account or by a share link."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.tables.models import Match

SCOREKEEPER = "scorekeeper"
VIEWER = "viewer"
ROLE_CHOICES = [
    (SCOREKEEPER, _("Scorekeeper (may enter and edit)")),
    (VIEWER, _("Viewer (watch only)")),
]


def new_token() -> str:
    """256 bits from the OS's generator: unguessable, and short enough for a QR code."""
    return secrets.token_urlsafe(32)


class ShareLink(models.Model):
    """A link that lets a phone join a match without an account, until it is revoked."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    role = models.CharField(max_length=12, choices=ROLE_CHOICES)
    #: what the person who made the link typed to tell it apart ("Rosa's phone")
    label = models.CharField(max_length=60, blank=True)
    #: the table whose card carries the link (a league night's), said "Table 3" in the
    #: reader's language
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    #: the link a phone gets by starting the match without an account: its holder owns the match
    #: (hands out and revokes links). It is never handed out: nobody joins with it.
    owner = models.BooleanField(default=False)
    #: the owner's link this one was made through, when a phone without an account made it
    made_through = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="links_made"
    )

    class Meta:
        ordering = ["match", "-created_at"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} link for {self.match}"

    @property
    def said_label(self) -> str:
        """What tells the link apart, in the reader's language: the starting phone's own, a
        table's card, or the label typed."""
        if self.owner:
            return gettext("Started on this phone")
        if self.table_number is not None:
            return gettext("Table %(number)s") % {"number": self.table_number}
        return self.label

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def revoke(self) -> None:
        """Revoke this link and every link made through it: every phone that joined with any
        of them loses its rights with the next thing it asks (the role is looked up afresh on
        every request), and none can join again through a link it was given."""
        now = timezone.now()
        revoked = found = {self.pk}
        while found:
            found = set(
                ShareLink.objects.filter(made_through__in=found)
                .exclude(pk__in=revoked)
                .values_list("pk", flat=True)
            )
            revoked = revoked | found
        ShareLink.objects.filter(pk__in=revoked, revoked_at=None).update(revoked_at=now)
        self.revoked_at = self.revoked_at or now


class MatchRole(models.Model):
    """A signed-in user's role on a match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_roles"
    )
    role = models.CharField(max_length=12, choices=ROLE_CHOICES)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_role_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.match}"
