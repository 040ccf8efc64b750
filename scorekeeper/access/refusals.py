"""Why a phone may not change a match, said so that it knows what to do next (the 403 page,
table_pages/refusals.py, shows it).

A phone keeping entries to send later (its outbox) reads ``data-because`` from the answer:
"revoked" (the link it joined with was taken back: ask for a new one), "sign-in" (sign in and
send them again) or "watcher" (it only watches this match).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from scorekeeper.access.permissions import GRANTS, held_link
from scorekeeper.tables.models import Match

REVOKED = "revoked"
SIGN_IN = "sign-in"
WATCHER = "watcher"
#: a league night's result the other side signed or disputed: the organizer corrects it
LOCKED = "locked"

BECAUSE = {
    REVOKED: gettext_lazy(
        "The scorekeeper's link this phone joined with was revoked: it can no longer change "
        "this match. Ask whoever keeps score for a new link."
    ),
    SIGN_IN: gettext_lazy("You are not signed in: sign in to keep score for this match."),
    WATCHER: gettext_lazy("Only the match's scorekeepers can change it."),
    LOCKED: gettext_lazy("Only the league's organizer can correct this result now."),
}


def why_refused(request: HttpRequest, match: Match) -> str:
    """Why this request may not change ``match``; ask once ``can_edit`` has said it may not."""
    joined_with = request.session.get(GRANTS, {}).get(str(match.pk))
    if joined_with and held_link(request, match) is None:
        return REVOKED
    if request.user.is_authenticated or joined_with:
        # an account without a part in this match, or a phone that joined with a watch link
        return WATCHER
    return SIGN_IN


class NotAScorekeeper(PermissionDenied):
    """This request may not change the match, ``because`` one of BECAUSE."""

    def __init__(self, because: str, match: Match | None = None) -> None:
        super().__init__(BECAUSE[because])
        self.because = because
        self.message: str | Promise = BECAUSE[because]
        self.match = match


class ResultLocked(NotAScorekeeper):
    """A signed or disputed result of a league night (nights/signing.py), said how."""

    def __init__(self, message: str, match: Match) -> None:
        super().__init__(LOCKED, match)
        self.message = message
