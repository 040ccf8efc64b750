"""Who may do what. Every view that shows or changes a match asks here, and only here."""

from __future__ import annotations

from django.http import HttpRequest

from scorekeeper.access.clubs import runs_match
from scorekeeper.access.models import SCOREKEEPER, VIEWER, MatchRole, ShareLink
from scorekeeper.tables.models import Match

#: the session key holding the share-link tokens this browser joined with, by match
GRANTS = "match_links"
#: the name a phone without an account gave, shown beside its entries
DISPLAY_NAME = "display_name"


def match_role(request: HttpRequest, match: Match) -> str | None:
    """SCOREKEEPER, VIEWER or None for this request's user or phone: worked out once per
    request (the access check and the answer it renders ask the same)."""
    roles: dict[int, str | None] = request.__dict__.setdefault("_match_roles", {})
    if match.pk not in roles:
        roles[match.pk] = _role(request, match)
    return roles[match.pk]


def _role(request: HttpRequest, match: Match) -> str | None:
    user = request.user
    account_role = None
    if user.is_authenticated:
        if match.created_by_id == user.pk or runs_match(request, match):
            # its owner; an organizer of its league's club, a director of its night
            return SCOREKEEPER
        role = MatchRole.objects.filter(match=match, user=user).values_list("role", flat=True)
        if role and role[0] == SCOREKEEPER:
            return SCOREKEEPER
        account_role = role[0] if role else None
    link = held_link(request, match)
    if link is not None and (link.role == SCOREKEEPER or account_role is None):
        # a scorekeeper's link lets a watcher with an account keep score too
        return link.role
    return account_role


def held_link(request: HttpRequest, match: Match) -> ShareLink | None:
    """The active link this browser joined the match with (or started it with), if any:
    looked up once per request, and afresh on every request, so a revoked link stops working
    at once."""
    links: dict[int, ShareLink | None] = request.__dict__.setdefault("_held_links", {})
    if match.pk not in links:
        token = request.session.get(GRANTS, {}).get(str(match.pk))
        found = ShareLink.objects.filter(token=token, match=match, revoked_at=None)
        links[match.pk] = found.first() if token else None
    return links[match.pk]


def can_edit(request: HttpRequest, match: Match) -> bool:
    return match_role(request, match) == SCOREKEEPER


def is_owner(request: HttpRequest, match: Match) -> bool:
    """The account that started the match, or the phone that started it without one."""
    user = request.user
    if user.is_authenticated and match.created_by_id == user.pk:
        return True
    link = held_link(request, match)
    return link is not None and link.owner


def can_manage_links(request: HttpRequest, match: Match) -> bool:
    """Only the match's owner and those who run it (its club's organizers, its night's
    directors) hand out links and revoke them: a phone that joined with a link can neither
    make another (to come back through once its own is revoked) nor take anyone's away, the
    owner's least of all."""
    return is_owner(request, match) or runs_match(request, match)


def grant(request: HttpRequest, link: ShareLink) -> None:
    grants = dict(request.session.get(GRANTS, {}))
    key = str(link.match_id)
    kept = grants.get(key)
    if kept and kept != link.token:
        # the phone that started the match keeps its own link when it opens another one
        if ShareLink.objects.filter(token=kept, owner=True, revoked_at=None).exists():
            return
    grants[key] = link.token
    request.session[GRANTS] = grants
    request.__dict__.pop("_held_links", None)
    request.__dict__.pop("_match_roles", None)


def entered_by(request: HttpRequest) -> str:
    """How an entry is signed: the account's name, or the name the phone gave (blank when it
    gave none: the change keeps that it came from a phone, ``Change.Maker``)."""
    user = request.user
    if user.is_authenticated:
        return user.get_full_name() or user.get_username()
    return request.session.get(DISPLAY_NAME) or ""


__all__ = [
    "SCOREKEEPER",
    "VIEWER",
    "can_edit",
    "can_manage_links",
    "entered_by",
    "grant",
    "held_link",
    "is_owner",
    "match_role",
]
