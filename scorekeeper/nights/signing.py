"""Results both sides sign: a league night's finished match is agreed to by the side that did
not keep score, or disputed, and then settled by the director.

Who is asked. Both sides sit at the table; the scorekeeper's link is on the table's card and
the phone keeping score is, by the card's order, seat 1's. So the side asked to agree is every
side but seat 1's: in partnerships seats 2 & 4, in a game of individuals each other player.
On the scorekeeper's phone the board hands over to seat 2's side (``asked_side``); every side
asked has a link of its own (``sign_token``), shown as a QR code on the finished board, that
opens the result on its own phone without signing in. One side's answer settles it.

Agreed, the match is signed and locked: only an organizer (the director) corrects it, each
correction in its history as any other. Disagreed, the side names the hand and a reason and the
match is disputed (locked too) until the director corrects the hand or confirms the result;
either way the director signs it. Matches outside a night are never asked.

The contract for other pages (the director's desk):

- ``sign_state(match) -> str | None``: ``"waiting"`` (finished, nobody answered yet),
  ``"signed"`` (by a side or the director) or ``"disputed"`` (a dispute is open); ``None`` for
  a match outside a night, still being played, or forfeited. One query.
- ``sign_states(match_ids) -> dict[int, str | None]``: the same for many matches, one query.
- ``open_disputes(night) -> list[Dispute]``: the night's open disputes, oldest first, each
  with its ``match`` and the match's ``night_table`` read with it. One query.

Standings count an unsigned result and mark it provisional (``provisional_counts``); a night
with ``signed_only`` counts its matches once they are signed (leagues/results.py holds them
back until then). Signing and disputing move the season's standings in the same transaction
(leagues/kept.py), as a correction does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext

from scorekeeper.leagues.moves import result_moved
from scorekeeper.nights.models import Dispute, Night, Signature
from scorekeeper.rules.match import Side
from scorekeeper.tables.entries import match_end_at_win
from scorekeeper.tables.models import Match, Seat
from scorekeeper.tables.recording import Author, row_locked
from scorekeeper.tables.scoring import seated

WAITING = "waiting"
SIGNED = "signed"
DISPUTED = "disputed"

#: how a side answered: on the scorekeeper's phone, on its own through its link; or the director
ON_THE_BOARD = "board"
BY_LINK = "link"
BY_DIRECTOR = "director"

#: the links' salt. Named anew when the watchers' boards stopped showing the links: a token
#: copied from one before no longer signs anything (a side's link is taken from the board again)
_SALT = "nights.signing.sides"


class SignError(Exception):
    """The answer was refused, said so that the side knows why; nothing was saved."""


class ResultMoved(SignError):
    """The answer was to a result the match no longer has (the scorekeeper undid or corrected
    it since the page was drawn): nothing was saved, and the page asks again."""


# -- what the desk and the board ask ----------------------------------------------------------


def sign_state(match: Match) -> str | None:
    """``"waiting"``, ``"signed"``, ``"disputed"`` or None (see the module's docstring)."""
    return _state_of(match)[0]


def sign_states(match_ids: list[int]) -> dict[int, str | None]:
    """``sign_state`` of each of the matches, by id, in one query: a desk's every table."""
    return {pk: _state(pk, row)[0] for pk, *row in _state_rows(match_ids)}


def _state_rows(match_ids: list[int]) -> list[tuple]:
    open_dispute = Dispute.objects.filter(match=OuterRef("pk"), closed_at=None)
    return list(
        Match.objects.filter(pk__in=match_ids)
        .annotate(disputed=Exists(open_dispute))
        .values_list(
            "pk",
            "finished",
            "night_table__id",
            "league_entry__forfeited_by",
            "disputed",
            "signature__id",
            "signature__side",
            "signature__via",
            "signature__signed_at",
        )
    )


def _state_row(match_id: int) -> tuple[str | None, Signature | None] | None:
    """The match's state and its signature, in one query; None when there is no such match."""
    rows = _state_rows([match_id])
    return _state(match_id, rows[0][1:]) if rows else None


#: what a match is read with for its state to need no query of its own but the dispute's:
#: the rows nights plugs into the match locked for an entry or an answer (apps.py)
STATE_JOINS = ("night_table", "signature")


def _state_of(match: Match) -> tuple[str | None, Signature | None]:
    """The match's state and its signature: from the rows it was read with, when it was read
    with ``STATE_JOINS`` and its season entry (a match locked for an entry or an answer,
    access/matches.py), else in one query."""
    cached = match._state.fields_cache
    if not all(name in cached for name in (*STATE_JOINS, "league_entry")):
        return _state_row(match.pk) or (None, None)
    table, entry, signature = (
        cached[name] for name in ("night_table", "league_entry", "signature")
    )
    if (
        table is None
        or not match.finished
        or (entry is not None and entry.forfeited_by is not None)
    ):
        return None, signature
    if Dispute.objects.filter(match=match, closed_at=None).exists():
        return DISPUTED, signature
    return (SIGNED if signature is not None else WAITING), signature


def _state(match_id: int, row: Sequence[Any]) -> tuple[str | None, Signature | None]:
    finished, table, forfeited_by, disputed, signature_id, side, via, signed_at = row
    signature = None
    if signature_id is not None:
        signature = Signature(
            pk=signature_id, match_id=match_id, side=side, via=via, signed_at=signed_at
        )
    if table is None or not finished or forfeited_by is not None:
        return None, signature
    if disputed:
        return DISPUTED, signature
    return (SIGNED if signature is not None else WAITING), signature


def played_on(match: Match) -> bool:
    """A night's match not finished (again): its end undone since its sides were asked. Its
    links open the match, and are answered once it is finished."""
    return (
        not match.finished
        and Match.objects.filter(
            pk=match.pk, night_table__isnull=False, league_entry__forfeited_by=None
        ).exists()
    )


def open_disputes(night: Night) -> list[Dispute]:
    """The night's open disputes, oldest first, each with its match and table."""
    return list(
        Dispute.objects.filter(match__night_table__night_round__night=night, closed_at=None)
        .select_related("match__night_table__night_round")
        .order_by("opened_at", "pk")
    )


def asked_sides(sides: Sequence[object]) -> list[int]:
    """The sides asked to agree, by their place in seat order: every side but seat 1's."""
    return list(range(1, len(sides)))


def asked_side(sides: Sequence[object]) -> int:
    """The side the scorekeeper's phone hands over to: seat 2's."""
    return 1


# -- the links of the sides asked -------------------------------------------------------------


def sign_token(match_id: int, side: int) -> str:
    """The token of a side's link to sign the match from its own phone: signed with the site's
    secret, so it names its match and side and cannot be made up for another."""
    return signing.dumps([match_id, side], salt=_SALT, compress=False)


def token_read(token: str) -> tuple[int, int] | None:
    """The match and side a link's token names, or None for a token not ours."""
    try:
        match_id, side = signing.loads(token, salt=_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(match_id, int) or not isinstance(side, int):
        return None
    return match_id, side


# -- the answers --------------------------------------------------------------------------------


def match_sign(*, match: Match, side: int, version: int | None, via: str, by: Author) -> Signature:
    """The side agrees with the result it was shown, at the match's ``version``: the match is
    signed and locked. The same answer twice (a double tap, both phones) signs it once; an
    answer to a result since undone or corrected signs nothing (``ResultMoved``).

    ``match``: the row its access helper locked for the answer (access.matches.
    match_for_answer), in the caller's transaction: two phones of the table answering at once
    are taken one after the other."""
    with transaction.atomic():
        row = row_locked(match)
        state, signature = _state_of(row)
        if state == SIGNED:
            assert signature is not None  # signed: its signature was read with it
            return signature
        _may_answer(row, state, side)
        _answers_the_result(row, version)
        signature = Signature.objects.create(
            match=row, side=side, via=via, user=by.user, phone=by.phone
        )
        _moved(row)
    return signature


def dispute_open(
    *,
    match: Match,
    side: int,
    version: int | None,
    hand: int,
    reason: str,
    text: str,
    via: str,
    by: Author,
    device: str = "",
) -> Dispute:
    """The side does not agree with the result it was shown, at the match's ``version``: the
    match is disputed until the director settles it. A dispute of a result since undone or
    corrected opens nothing (``ResultMoved``). ``match``: as ``match_sign`` takes it."""
    with transaction.atomic():
        row = row_locked(match)
        state, _ = _state_of(row)
        _may_answer(row, state, side)
        _answers_the_result(row, version)
        if not 1 <= hand <= row.hand_count:
            raise SignError(gettext("Pick one of the match's hands."))
        try:
            with transaction.atomic():
                dispute = Dispute.objects.create(
                    match=row,
                    hand=hand,
                    reason=reason,
                    text=text[:200],
                    side=side,
                    via=via,
                    phone=by.phone,
                    device=device[:40],
                    version=row.version,
                )
        except IntegrityError:
            raise SignError(_already(DISPUTED)) from None
        _moved(row)
    return dispute


def dispute_close(*, dispute_id: int, match: Match, version: int | None, by: Author) -> Dispute:
    """The director settled the dispute: the hand corrected (through the hand's correction,
    which the history keeps) or the result confirmed as it was. Either way the director signs
    the match, as it stood at ``version`` on the director's page: a result corrected since
    is not signed unseen (``ResultMoved``).

    ``match``: the dispute's match, the row its access helper locked for the director
    (access.matches.match_for_director), in the caller's transaction: the dispute is read
    under it, so two directors settling it at once settle it once."""
    with transaction.atomic():
        row = row_locked(match)
        dispute = Dispute.objects.get(pk=dispute_id, match=row)
        if dispute.closed_at is not None:
            return dispute
        if not row.finished:
            raise SignError(
                gettext(
                    "The match is not finished after the correction: finish it, or correct "
                    "it so that it is, before signing it."
                )
            )
        _answers_the_result(row, version)
        dispute.closed_at = timezone.now()
        dispute.closed_by = by.user
        dispute.closed = (
            Dispute.Closed.CORRECTED if row.version != dispute.version else Dispute.Closed.CONFIRMED
        )
        dispute.save(update_fields=["closed_at", "closed_by", "closed"])
        Signature.objects.filter(match=row).delete()
        Signature.objects.create(
            match=row, side=None, via=BY_DIRECTOR, user=by.user, phone=by.phone
        )
        _moved(row)
    return dispute


def dispute_close_at_win(
    *, dispute_id: int, match: Match, version: int | None, by: Author
) -> Dispute:
    """The director settles the dispute by ending the match where it was won: what was
    recorded after a side had won (hands a correction left after the win) leaves the result,
    the history keeps it (tables.entries.match_end_at_win), and the director signs, in one
    transaction. ``version`` is the match's on the director's page, and ``match`` the row
    locked for the director, as ``dispute_close`` takes them."""
    with transaction.atomic():
        row = row_locked(match)
        if Dispute.objects.filter(pk=dispute_id, match=row, closed_at=None).exists():
            _answers_the_result(row, version)
            # the same row, its version one more
            match_end_at_win(match=row, by=by)
        return dispute_close(dispute_id=dispute_id, match=row, version=row.version, by=by)


def _may_answer(row: Match, state: str | None, side: int) -> None:
    if state is None:
        raise SignError(gettext("Only a finished match of a league night is signed."))
    if state != WAITING:
        raise SignError(_already(state))
    if side not in asked_sides(seated(row).sides):
        raise SignError(gettext("That side kept score: the other side signs."))


def _answers_the_result(row: Match, version: int | None) -> None:
    """The answer names the version of the match whose result it saw (the form's ``version``):
    any other, or none, is an answer to a result the match no longer has."""
    if version != row.version:
        raise ResultMoved(moved_said())


def moved_said() -> str:
    """What a side, or the director, is told when the result moved under their answer."""
    return gettext(
        "The result changed since this page was shown, and nothing was signed. "
        "Here it is as it stands now: answer again."
    )


def _already(state: str) -> str:
    if state == DISPUTED:
        return gettext("This result is disputed: the league's organizer settles it.")
    return gettext("This result is signed already.")


def _moved(row: Match) -> None:
    """What shows the match moves with the answer: the season's standings and version (its
    provisional marks, and a night counting only signed results), the ratings (a night
    counting only signed results rates the match once signed), and the match's row, so that a
    watcher's board kept in the cache is drawn again."""
    result_moved(row)
    Match.objects.filter(pk=row.pk).update(updated_at=timezone.now())


# -- corrections after signing ------------------------------------------------------------------


def awaits_signature(to_match: str = "") -> Q:
    """A match of a league night that counts only signed results, nobody having signed it yet:
    the season's standings count it as a match still being played, and its ratings do not rate
    it (leagues/seams.py). ``to_match``: the path from the rows asked to the match."""
    return Q(
        **{
            f"{to_match}night_table__night_round__night__signed_only": True,
            f"{to_match}signature__isnull": True,
        }
    )


def correction_refused(match: Match, *, organizer: bool) -> str:
    """Why a correction of ``match`` is refused, or "": a signed or disputed match is
    corrected by an organizer only. Asks the database only about a finished match."""
    if organizer or not match.finished:
        return ""
    state, signature = _state_of(match)
    if state == SIGNED:
        assert signature is not None  # signed: its signature was read with it
        return gettext("%(signed)s: only the league's organizer can correct the result now.") % {
            "signed": signed_said(signature, seated(match).sides)
        }
    if state == DISPUTED:
        return gettext("This result is disputed: only the league's organizer can correct it now.")
    return ""


def signed_said(signature: Signature, sides: Sequence[object]) -> str:
    """ "Signed by Bo & Di at 21:14", or by the director."""
    at = date_format(timezone.localtime(signature.signed_at), "H:i")
    if signature.side is None or signature.side >= len(sides):
        return gettext("Signed by the director at %(time)s") % {"time": at}
    return gettext("Signed by %(side)s at %(time)s") % {"side": sides[signature.side], "time": at}


# -- what the board shows -----------------------------------------------------------------------


@dataclass(frozen=True)
class BoardSigning:
    """The finished board's part about signing."""

    state: str
    #: each side's name and total, in seat order
    sides: list[tuple[Side, int]]
    #: the side the board hands over to: its place and name
    asked: int
    asked_name: Side
    #: the links of the sides asked: (name, token)
    links: list[tuple[Side, str]]
    signed: str = ""
    dispute: Dispute | None = None


def board_signing(match: Match) -> BoardSigning | None:
    """What the finished board says about signing; None for a match that is not asked."""
    state, signature = _state_of(match)
    if state is None:
        return None
    # the board, the sides' pages and their links name players as public pages do
    sides = match.shown_side_totals()
    names = [name for name, _ in sides]
    asked = asked_side(names)
    dispute = None
    if state == DISPUTED:
        dispute = Dispute.objects.filter(match=match, closed_at=None).first()
    return BoardSigning(
        state=state,
        sides=sides,
        asked=asked,
        asked_name=names[asked],
        links=[(names[side], sign_token(match.pk, side)) for side in asked_sides(names)],
        signed=signed_said(signature, names) if signature is not None else "",
        dispute=dispute,
    )


# -- standings ----------------------------------------------------------------------------------


def provisional_counts(season_id: int) -> dict[int, int]:
    """How many of each player's counted results in the season are not signed yet, by player
    id (only players with one): one query."""
    return dict(
        _unsigned(Seat.objects.filter(match__league_entry__season_id=season_id))
        .values("player_id")
        .annotate(n=Count("match_id"))
        .values_list("player_id", "n")
    )


def night_provisional(night: Night) -> dict[str, int]:
    """The same for a night's results, by player name (the night's results name players)."""
    return dict(
        _unsigned(Seat.objects.filter(match__night_table__night_round__night=night))
        .values("player__name")
        .annotate(n=Count("match_id"))
        .values_list("player__name", "n")
    )


def _unsigned(seats):
    """The seats of finished, counted night matches nobody signed: a night counting only
    signed results does not count them at all."""
    return seats.filter(
        match__finished=True,
        match__league_entry__forfeited_by=None,
        match__night_table__isnull=False,
        match__signature__isnull=True,
        match__night_table__night_round__night__signed_only=False,
    )
