"""One place that fetches a match for a view and decides whether the request may change it."""

from __future__ import annotations

import hashlib

from django.db.models import QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone

from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.access.permissions import GRANTS, can_edit, entered_by, grant, is_organizer
from scorekeeper.tables import seams
from scorekeeper.tables.entries import Author, lock_for_entry, mark_read_for_entry
from scorekeeper.tables.i18n import STARTED_ON_THIS_PHONE
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.players import people_played_with
from scorekeeper.tables.scoring import with_everything
from scorekeeper.tables.views.refusals import NotAScorekeeper, ResultLocked, why_refused


def get_match(request: HttpRequest, pk: int, *, everything: bool = True) -> Match:
    """The match with everything needed to score it; 404 when there is none. Without
    ``everything``, only what says who may change it, which version it is at and its house
    rules (an entry's form is checked against them).

    Scoreboards are public in the hall, so anyone may look.
    """
    matches = Match.objects.all()
    matches = with_everything(matches) if everything else matches.only(*ROW_FIELDS)
    return get_object_or_404(matches, pk=pk)


#: what says who may change a match, which version it is at, and its house rules
ROW_FIELDS = ("id", "game", "rules", "version", "updated_at", "created_by", "finished")


def get_match_for_edit(
    request: HttpRequest,
    pk: int,
    *,
    everything: bool = True,
    lock: bool = False,
    correction: bool = True,
) -> Match:
    """The match, if this request may change it: 403 otherwise, and nothing is changed.

    With ``lock`` (inside ``transaction.atomic()``), the match row is locked and read with its
    seats, hands and plays: an entry reads the match once, here, and hands the row on to its
    service (entries.py), so two phones entering at once are applied one after the other and
    each sees the other's entry.

    A league night's result that the other side signed or disputed is corrected by an
    organizer only (nights/signing.py, through tables/seams.py): anyone else is refused (403,
    saying so). Without ``correction`` (a rematch), the match itself is not changed and the
    check is left out."""
    if lock:
        # with what the apps above read of it, joined (tables/seams.py): its table's round and
        # night, whether its round's time is up; its season entry, whether a board shows it
        matches = seams.with_locked_match_joins(Match.objects.all())
        match = mark_read_for_entry(get_object_or_404(lock_for_entry(matches), pk=pk))
    else:
        match = get_match(request, pk, everything=everything)
    if not can_edit(request, match):
        # why, so that a phone holding entries knows to sign in or ask for a new link
        raise NotAScorekeeper(why_refused(request, match), match)
    if correction and (refusal := seams.correction_refused(match, organizer=is_organizer(request))):
        raise ResultLocked(refusal, match)
    if lock:
        # a league night's round whose time is up: the match learns its last hand before the
        # entry is scored (nights/desk.py, through tables/seams.py)
        seams.time_called(match, now=timezone.now())
    return match


def author(request: HttpRequest) -> Author:
    user = request.user if request.user.is_authenticated else None
    session = request.session.session_key or ""
    phone = hashlib.sha256(session.encode()).hexdigest()[:16] if session else ""
    return Author(name=entered_by(request), user=user, phone=phone)


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
    phone without one through an owner's link of its own (never handed out)."""
    if request.user.is_authenticated:
        return
    link = ShareLink.objects.create(
        match=match, role=SCOREKEEPER, label=STARTED_ON_THIS_PHONE, owner=True
    )
    grant(request, link)


def players_around(request: HttpRequest) -> QuerySet[Player]:
    """The people this phone or account plays with (players.people_played_with): the matches
    a phone joined or started are those its session holds links to."""
    joined = [int(pk) for pk in request.session.get(GRANTS, {}) if str(pk).isdigit()]
    return people_played_with(user=request.user, match_ids=joined)


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
