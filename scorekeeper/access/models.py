"""Who may change a match: its scorekeepers, by account or by a share link."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.tables.models import Match

SCOREKEEPER = "scorekeeper"
VIEWER = "viewer"
ROLE_CHOICES = [
    (SCOREKEEPER, _("Scorekeeper (may enter and edit)")),
    (VIEWER, _("Viewer (watch only)")),
]

#: the group whose members run leagues and may change any match
ORGANIZERS = "Organizers"


def new_token() -> str:
    """256 bits from the OS's generator: unguessable, and short enough for a QR code."""
    return secrets.token_urlsafe(32)


class ShareLink(models.Model):
    """A link that lets a phone join a match without an account, until it is revoked."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    role = models.CharField(max_length=12, choices=ROLE_CHOICES)
    label = models.CharField(max_length=60, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "-created_at"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} link for {self.match}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def revoke(self) -> None:
        self.revoked_at = timezone.now()
        self.save(update_fields=["revoked_at"])


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
