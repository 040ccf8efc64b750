"""A record claimed: an organizer of a club the player plays in makes a claim (a link and a
short code, used once, for a few days), and the signed-in account that opens the link or types
the code becomes the record's owner. Never by typing a name: anyone can type a name.

The link carries the claim's id signed with the site's key, so a link nobody was given is
refused without a lookup. The code is eight characters from an alphabet without the ones read
for each other (0 and O, 1, I and L); only its keyed digest is kept, and wrong codes are
counted against the account and its address (access/throttle.py)."""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from scorekeeper.records.models import CLAIM_DAYS, Claim
from scorekeeper.tables.models import Player

SALT = "scorekeeper.records.claim"
#: the code's characters: none that is read for another
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


class Refused(Exception):
    """The claim changed nothing; its message says why."""


@dataclass(frozen=True)
class Made:
    """A claim just made: its link's token and its code, shown once to the organizer."""

    claim: Claim
    token: str
    code: str


def normal_code(typed: str) -> str:
    """A code as typed, in the form it was made: capitals, without spaces or dashes."""
    return "".join(typed.split()).replace("-", "").upper()


def code_digest(code: str) -> str:
    return salted_hmac(SALT, normal_code(code), algorithm="sha256").hexdigest()


def token_of(claim: Claim) -> str:
    return signing.dumps(claim.pk, salt=SALT, compress=True)


def claim_of_token(token: str) -> Claim | None:
    """The claim a link names, open or not; None for a link never made or older than any
    claim lives."""
    try:
        pk = signing.loads(token, salt=SALT, max_age=datetime.timedelta(days=CLAIM_DAYS))
    except signing.BadSignature:
        return None
    return Claim.objects.select_related("player").filter(pk=pk).first()


def claim_make(*, player: Player, by: User) -> Made:
    """A new claim of the record; the ones still open are revoked (the last one handed over
    is the one that counts)."""
    now = timezone.now()
    with transaction.atomic():
        Claim.objects.filter(player=player, used_at=None, revoked_at=None).update(revoked_at=now)
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        claim = Claim.objects.create(player=player, code_digest=code_digest(code), made_by=by)
    return Made(claim, token_of(claim), code)


def claim_revoke(*, player: Player) -> int:
    """Revoke the record's open claims; how many there were."""
    return Claim.objects.filter(player=player, used_at=None, revoked_at=None).update(
        revoked_at=timezone.now()
    )


def claim_by_code(code: str) -> Claim | None:
    """The claim a typed code names, open or not; None for a code never made."""
    if not code:
        return None
    return Claim.objects.filter(code_digest=code_digest(code)).first()


def claim_redeem(*, claim_pk: int, user: User) -> Player:
    """``user`` becomes the owner of the claim's record and the claim is used. Refused, and
    nothing changes, for a claim used, revoked or expired, a record another account owns, or
    an account that owns another record. Two phones redeeming the same claim at once: the
    claim's row is locked, the second is refused."""
    now = timezone.now()
    with transaction.atomic():
        claim = Claim.objects.select_for_update().get(pk=claim_pk)
        if claim.used_at is not None:
            raise Refused(gettext("This claim was used already. Ask an organizer for a new one."))
        if claim.revoked_at is not None:
            raise Refused(gettext("This claim was revoked. Ask an organizer for a new one."))
        if now >= claim.expires_at:
            raise Refused(gettext("This claim has expired. Ask an organizer for a new one."))
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        if player.account_id is not None:
            raise Refused(gettext("This record already belongs to an account."))
        if Player.objects.filter(account_id=user.pk).exists():
            raise Refused(
                gettext("Your account already owns a record: an account owns one record only.")
            )
        player.account = user
        try:
            with transaction.atomic():
                player.save(update_fields=["account"])
        except IntegrityError:
            # the account claimed another record at the same moment
            raise Refused(
                gettext("Your account already owns a record: an account owns one record only.")
            ) from None
        claim.used_at = now
        claim.used_by = user
        claim.save(update_fields=["used_at", "used_by"])
    return player
