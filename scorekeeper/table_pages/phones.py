"""The phone behind a request: who starts a match, the one-time key of what it submits, the
matches it started, and the people it plays with. Which match it may change, and how it is
read for that: access/matches.py."""

from __future__ import annotations

import hashlib

from django.db.models import QuerySet
from django.http import HttpRequest

from scorekeeper.access.matches import author
from scorekeeper.access.models import MatchRole, ShareLink
from scorekeeper.access.permissions import GRANTS, SCOREKEEPER, grant
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.players import people_played_with
from scorekeeper.tables.recording import Author


def starter(request: HttpRequest) -> Author:
    """Who starts a match. A phone without a session yet is given one now rather than when
    ``take_charge`` keeps its owner's link there: the match's first change then says which
    phone made it, and a later question can name that phone ("the phone that started this
    match") where it gave no name."""
    if request.session.session_key is None:
        request.session.save()
    return author(request)


def take_charge(request: HttpRequest, match: Match) -> None:
    """Whoever starts (or imports) a match owns it: an account as the match's ``created_by``, a
    phone without one through an owner's link of its own (never handed out), labelled by
    being the owner's ("Started on this phone" on the links page)."""
    if request.user.is_authenticated:
        return
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, owner=True)
    grant(request, link)


def players_around(request: HttpRequest) -> QuerySet[Player]:
    """The people this phone or account plays with (players.people_played_with): the matches
    a phone joined or started are those its session holds links to."""
    joined = [int(pk) for pk in request.session.get(GRANTS, {}) if str(pk).isdigit()]
    user = request.user
    roles = None
    if user.is_authenticated:
        roles = MatchRole.objects.filter(user=user).values("match_id")
    return people_played_with(user=user, match_ids=joined, role_matches=roles)


def submission_key(request: HttpRequest) -> str:
    """The form's one-time key plus a digest of what it submits.

    The key is new each time the form is drawn; the same tap arriving twice (a double tap, a
    retry after the connection dropped) carries the same key and the same data, while a second,
    different tap on the same form differs in its data.
    """
    nonce = request.POST.get("entry_key", "")
    if not nonce:
        return ""
    fields = sorted(
        (name, tuple(request.POST.getlist(name)))
        for name in request.POST
        if name not in ("csrfmiddlewaretoken", "entry_key")
    )
    # whose browser sent it is part of the key: two phones tapping the same thing on the same
    # drawn board are two entries, however the board was served to them
    sender = (request.user.pk, request.session.session_key)
    digest = hashlib.sha256(repr((sender, fields)).encode()).hexdigest()[:32]
    return f"{nonce[:64]}:{digest}"


#: the session key for matches this browser started, by the submission that started them
STARTED = "started_matches"


def started_by_this_submission(request: HttpRequest) -> int | None:
    """The match this very submission started already (a double tap on Start), if any."""
    key = submission_key(request)
    pk = request.session.get(STARTED, {}).get(key) if key else None
    return pk if pk and Match.objects.filter(pk=pk).exists() else None


def remember_start(request: HttpRequest, match: Match) -> None:
    key = submission_key(request)
    if key:
        started = dict(list(request.session.get(STARTED, {}).items())[-19:])
        started[key] = match.pk
        request.session[STARTED] = started
