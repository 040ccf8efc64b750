"""One place that fetches a match for a view and decides whether the request may change it."""

from __future__ import annotations

import hashlib

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import DEFERRED
from django.http import Http404, HttpRequest

from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.access.permissions import can_edit, entered_by, grant
from scorekeeper.tables.entries import Author
from scorekeeper.tables.i18n import STARTED_ON_THIS_PHONE
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import with_everything


def get_match(request: HttpRequest, pk: int, *, everything: bool = True) -> Match:
    """The match with everything needed to score it; 404 when there is none. Without
    ``everything``, only what says who may change it and which version it is at.

    Scoreboards are public in the hall, so anyone may look.
    """
    if not everything:
        return _match_row(pk)
    try:
        return with_everything(Match.objects.filter(pk=pk)).get()
    except Match.DoesNotExist:
        raise Http404("No such match.") from None


#: what says who may change a match and which version it is at
ROW_FIELDS = ("id", "game", "version", "updated_at", "created_by_id", "finished")
MATCH_ROW = f"SELECT {', '.join(ROW_FIELDS)} FROM {Match._meta.db_table} WHERE id = %s"


def _match_row(pk: int) -> Match:
    """Asked on every visit to a kept scoreboard and every tap: plain SQL, with no query or
    queryset to build, and each value as the ORM would read it (a stamp compares it with one
    the ORM read)."""
    with connection.cursor() as cursor:
        cursor.execute(MATCH_ROW, [pk])
        row = cursor.fetchone()
    if row is None:
        raise Http404("No such match.")
    found = dict(zip(ROW_FIELDS, row, strict=True))
    for name in CONVERTED:
        found[name] = _read(name, found[name])
    # the other columns are left unread: asked for, they are read then, as with .only()
    values = [found.get(field.attname, DEFERRED) for field in Match._meta.concrete_fields]
    return Match.from_db(connection.alias, ROW_FIELDS, values)


#: the values a database may hand back in another form than the ORM's (SQLite: text, 0 or 1)
CONVERTED = ("updated_at", "finished")


def _read(name: str, value: object) -> object:
    column = Match._meta.get_field(name).get_col(Match._meta.db_table)
    for convert in connection.ops.get_db_converters(column) + column.get_db_converters(connection):
        value = convert(value, column, connection)
    return value


def get_match_for_edit(request: HttpRequest, pk: int, *, everything: bool = True) -> Match:
    """The match, if this request may change it: 403 otherwise, and nothing is changed."""
    match = get_match(request, pk, everything=everything)
    if not can_edit(request, match):
        raise PermissionDenied("Only the match's scorekeepers can change it.")
    return match


def author(request: HttpRequest) -> Author:
    user = request.user if request.user.is_authenticated else None
    return Author(name=entered_by(request), user=user)


def take_charge(request: HttpRequest, match: Match) -> None:
    """Whoever starts (or imports) a match keeps score of it: an account by owning it, a phone
    without one through a scorekeeper link of its own."""
    if request.user.is_authenticated:
        return
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, label=STARTED_ON_THIS_PHONE)
    grant(request, link)


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
