"""The access helpers of a match: one a kind of access, used by every view that does it.

Each takes the request and the match's key, refuses what the request may not do (403, saying
why: refusals.py; 404 for no such match) and hands the row on. A helper for a change is called
inside the view's ``transaction.atomic()``: it locks the match's row and reads it, with its
seats, hands and plays, once, and the service it is handed to reads it no more
(tables/recording.py: row_locked), so two phones entering at once are applied one after the
other and each sees the other's entry.

To look at (anyone: scoreboards are public in the hall):
- ``match_to_watch``: a board, a history, an export; ``match_row_to_watch``: the poll's
  version check, the row alone.

To change, by a scorekeeper of the match, locked with everything:
- ``match_for_entry``: a play, a tile, a hand's end, a round, an undo;
- ``match_for_correction``: a hand corrected or deleted, a change reverted.

By a scorekeeper, not locked: ``match_to_correct`` (the correction's form, everything),
``match_for_preview`` (an end of hand previewed), ``match_for_rematch`` (the match
itself does not change), ``match_to_share`` (its share page). By its owner or whoever runs
it (access/clubs.py: runs_match): ``match_for_links`` (a link made or revoked).

At a league night, for whoever runs it: ``match_to_settle`` (a dispute's page).

At a league night, locked with everything: ``match_for_answer`` (a side's signature or dispute:
the side's link lets it answer, nights/signing.py checks it), ``match_for_director`` (a
director of its night or an organizer of its club settles a dispute, hands a seat over).

A league night's result that the other side signed or disputed is corrected only by whoever
runs it (nights, through tables/seams.py): an entry or a correction of it by anyone else is
refused (403, saying so).
"""

from __future__ import annotations

import hashlib

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper.access.clubs import runs_match
from scorekeeper.access.permissions import can_edit, can_manage_links, entered_by
from scorekeeper.access.refusals import NotAScorekeeper, ResultLocked, why_refused
from scorekeeper.tables import seams
from scorekeeper.tables.models import Change, Match
from scorekeeper.tables.recording import Author, lock_for_entry, mark_read_for_entry
from scorekeeper.tables.scoring import with_everything

#: what says who may change a match, which version it is at, and its house rules
ROW_FIELDS = ("id", "game", "rules", "version", "updated_at", "created_by", "finished")


def match_to_watch(request: HttpRequest, pk: int) -> Match:
    """The match with everything needed to show it. Scoreboards are public in the hall."""
    return get_object_or_404(with_everything(Match.objects.all()), pk=pk)


def match_row_to_watch(request: HttpRequest, pk: int) -> Match:
    """The match's row alone: who may change it, its version, its house rules."""
    return get_object_or_404(Match.objects.only(*ROW_FIELDS), pk=pk)


def match_for_entry(request: HttpRequest, pk: int) -> Match:
    """The match locked for an entry: a play, a tile, a hand's end, a round, an undo. Its
    round's time called at a league night, it learns its last hand first (nights/desk.py,
    through tables/seams.py)."""
    match = _locked_to_change(request, pk)
    seams.time_called(match, now=timezone.now())
    return match


def match_for_correction(request: HttpRequest, pk: int) -> Match:
    """The match locked for a correction: a hand corrected or deleted, a change reverted."""
    return _locked_to_change(request, pk)


def match_to_correct(request: HttpRequest, pk: int) -> Match:
    """The match, for the form that corrects one of its hands: read as a board is, refused as
    the correction would be."""
    match = match_to_watch(request, pk)
    _may_change(request, match)
    return match


def match_for_preview(request: HttpRequest, pk: int) -> Match:
    """The match, for an end of hand previewed: a preview writes nothing, so nothing is locked
    (on SQLite, the database's write lock), and the pips typed at one table never hold up a
    tap at another. Read and refused as the correction's form is."""
    return match_to_correct(request, pk)


def match_for_rematch(request: HttpRequest, pk: int) -> Match:
    """The match a rematch follows: the match itself does not change, so a signed result does
    not refuse it."""
    match = match_to_watch(request, pk)
    if not can_edit(request, match):
        raise NotAScorekeeper(why_refused(request, match), match)
    return match


def match_for_answer(match_id: int) -> Match:
    """The match locked for a side's answer to its result, a signature or a dispute: the link
    the side holds is what lets it answer (nights/signing.py checks it). Read as for an entry,
    with what the night's part reads of it."""
    return _locked(match_id)


def match_for_director(request: HttpRequest, match_id: int) -> Match:
    """The match locked for whoever runs it at a night (its night's directors, its club's
    organizers): a dispute settled, a seat handed over to a player sitting out."""
    match = _locked(match_id)
    _may_direct(request, match)
    return match


def match_to_settle(request: HttpRequest, match_id: int) -> Match:
    """The match, for the page of a dispute about it: read as a board is, for whoever runs it."""
    match = match_to_watch(request, match_id)
    _may_direct(request, match)
    return match


def match_to_share(request: HttpRequest, pk: int) -> Match:
    """The match whose share page is opened: only its scorekeepers open it."""
    match = get_object_or_404(Match, pk=pk)
    if not can_edit(request, match):
        raise PermissionDenied("Only the match's scorekeepers can share it.")
    return match


def match_for_links(request: HttpRequest, pk: int) -> Match:
    """The match whose links are made or revoked: only its owner and whoever runs it."""
    match = get_object_or_404(Match, pk=pk)
    if not can_manage_links(request, match):
        raise PermissionDenied("Only the match's owner or an organizer can make or revoke links.")
    return match


def author(request: HttpRequest) -> Author:
    """Who makes a change: the account's name or the phone's (a phone that gave none is "a
    phone at the table", worded where it is read), the account, and which phone (a digest of
    its session). An entry asks before its transaction: the session and the account are then
    read outside the match's lock, which on SQLite (transactions begin IMMEDIATE) is the whole
    database's write lock, held by one entry in the hall at a time."""
    user = request.user if request.user.is_authenticated else None
    session = request.session.session_key or ""
    phone = hashlib.sha256(session.encode()).hexdigest()[:16] if session else ""
    name = entered_by(request)
    maker = Change.Maker.PHONE if user is None and not name else ""
    return Author(name=name, user=user, phone=phone, maker=maker)


def _locked(pk: int) -> Match:
    # with what the apps above read of it, joined (tables/seams.py): its table's round and
    # night, whether its round's time is up; its season entry, whether a board shows it
    matches = seams.with_locked_match_joins(Match.objects.all())
    return mark_read_for_entry(get_object_or_404(lock_for_entry(matches), pk=pk))


def _locked_to_change(request: HttpRequest, pk: int) -> Match:
    match = _locked(pk)
    _may_change(request, match)
    return match


def _may_direct(request: HttpRequest, match: Match) -> None:
    if not runs_match(request, match):
        raise PermissionDenied(
            gettext("Only this night's director or the club's organizers can do this.")
        )


def _may_change(request: HttpRequest, match: Match) -> None:
    if not can_edit(request, match):
        # why, so that a phone holding entries knows to sign in or ask for a new link
        raise NotAScorekeeper(why_refused(request, match), match)
    if refusal := seams.correction_refused(match, organizer=runs_match(request, match)):
        raise ResultLocked(refusal, match)
