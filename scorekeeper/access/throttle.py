"""How many matches a phone without an account may start: so many an hour from one address and
from one browser, counted by django-ratelimit in the shared cache. Signed-in accounts are not
counted (an admin makes them); a match file or a league bundle is imported only by a signed-in
account (README: Many phones at one table).

The address's allowance is what the hall's phones on its Wi-Fi share, and phones in any number
can be made up at one address: so the hall's own phones never depend on it. A phone that
scanned the code of one of a league's table cards today (nights/public.py) is at the hall; its
starts are counted on that card and on the phone, never on the address."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django_ratelimit.core import get_usage

from scorekeeper.access.addresses import client_address
from scorekeeper.access.models import ShareLink
from scorekeeper.access.permissions import GRANTS
from scorekeeper.access.seams import at_a_night_on

#: the session's mark of a league's table card scanned today: the card and the day
TABLE_CARD = "table_card"

#: whose allowance a refusal was
Whose = Literal["browser", "address", "card", "account"]


@dataclass(frozen=True)
class Refusal:
    """One start too many: how many an hour are allowed, and when the next one will be; whose
    allowance it was (a browser's, an address's, a table card's)."""

    per_hour: int
    seconds_left: int
    whose: Whose = "address"


#: the allowances a start is counted on, and whose each is
WHOSE: dict[str, Whose] = {
    "starts-per-browser": "browser",
    "starts-per-address": "address",
    "cookieless-starts-per-address": "address",
    "starts-per-table-card": "card",
}


def _address(group: str, request: HttpRequest) -> str:
    return client_address(request)


def _browser(group: str, request: HttpRequest) -> str:
    return request.session.session_key or ""


def _at_a_night_tonight(request: HttpRequest) -> bool:
    """A phone holding a live share link to a table of a league night played today: the
    night's phones start and rematch their tables' matches, and a hall is never closed to
    them."""
    tokens = list(request.session.get(GRANTS, {}).values())
    return (
        bool(tokens)
        and ShareLink.objects.filter(
            at_a_night_on("match__", timezone.localdate()),  # nights, through access/seams.py
            token__in=tokens,
            revoked_at=None,
        ).exists()
    )


def remember_table_card(request: HttpRequest, card: str) -> None:
    """The phone has scanned the code of a table card (``card``: the league's and the table's
    numbers): for today, it is one of the hall's phones."""
    request.session[TABLE_CARD] = {"card": card, "on": timezone.localdate().isoformat()}


def table_card_today(request: HttpRequest) -> str | None:
    """The table card the phone scanned today, if any."""
    mark = request.session.get(TABLE_CARD)
    if isinstance(mark, dict) and mark.get("on") == timezone.localdate().isoformat():
        return mark.get("card")
    return None


def count_start(request: HttpRequest) -> Refusal | None:
    """Count a match about to be started without an account; the refusal when it is one more
    than its address or its browser may start this hour. Call it once the start is sure to
    succeed (a form with mistakes costs nothing).

    A browser that sent no session cookie is counted on a budget of its own, smaller, per
    address (DJANGO_ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS): one that drops its cookie cannot
    spend the address's allowance, which the hall's other phones share. A phone that scanned a
    table card today is counted on that card (DJANGO_ANONYMOUS_STARTS_PER_TABLE_CARD) and on
    its browser, not on its address. Signed-in accounts and the phones of a league night being
    played are not counted."""
    if request.user.is_authenticated or _at_a_night_tonight(request):
        return None
    card = table_card_today(request)
    if card is not None:
        limits = (
            ("starts-per-browser", _browser, settings.ANONYMOUS_STARTS_PER_BROWSER),
            (
                "starts-per-table-card",
                lambda group, request: card,
                settings.ANONYMOUS_STARTS_PER_TABLE_CARD,
            ),
        )
    elif settings.SESSION_COOKIE_NAME not in request.COOKIES or request.session.session_key is None:
        if request.session.session_key is None:
            request.session.save()
        limits = (
            (
                "cookieless-starts-per-address",
                _address,
                settings.ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS,
            ),
            # the browser's first start, if it keeps the cookie it is now given
            ("starts-per-browser", _browser, settings.ANONYMOUS_STARTS_PER_BROWSER),
        )
    else:
        # the browser's own allowance first: a start it is refused spends nothing of what the
        # address's other phones share
        limits = (
            ("starts-per-browser", _browser, settings.ANONYMOUS_STARTS_PER_BROWSER),
            ("starts-per-address", _address, settings.ANONYMOUS_STARTS_PER_ADDRESS),
        )
    # The cache is the database's, whose increment is a read and a write. In a transaction,
    # SQLite (the default) holds the write lock of the cache's own file from the start, so two
    # phones starting at the same moment are counted one after the other (and no entry waits);
    # on PostgreSQL requests at the same instant may each read the same count, letting through
    # at most one more per app worker.
    with transaction.atomic(using=settings.CACHE_DATABASE):
        for group, key, per_hour in limits:
            usage = get_usage(request, group=group, key=key, rate=f"{per_hour}/h", increment=True)
            if usage is not None and usage["should_limit"]:
                return Refusal(per_hour, max(usage["time_left"], 1), WHOSE[group])
    return None


def count_export(request: HttpRequest) -> Refusal | None:
    """Count a heavy export (a season's hands, a league's or a night's bundle) read without
    an account; the refusal when its address has read as many as it may this hour. Each reads
    every match it holds: a few readers without an account must not keep the app's workers
    from the hall."""
    if request.user.is_authenticated:
        return None
    return _count_on_address(request, "exports-per-address", settings.ANONYMOUS_EXPORTS_PER_ADDRESS)


def count_signup(request: HttpRequest) -> Refusal | None:
    """Count an account about to be opened at the sign-up page; the refusal when its address
    has opened as many as it may this hour (DJANGO_SIGNUPS_PER_ADDRESS). Call it once the
    sign-up is sure to succeed: a form with mistakes costs nothing."""
    return _count_on_address(request, "signups-per-address", settings.SIGNUPS_PER_ADDRESS)


def count_reset_email(request: HttpRequest) -> Refusal | None:
    """Count a password reset by email asked for; the refusal when its address has asked for
    as many as it may this hour (DJANGO_PASSWORD_RESETS_PER_ADDRESS): nobody fills someone
    else's mailbox with links."""
    return _count_on_address(
        request, "reset-emails-per-address", settings.PASSWORD_RESETS_PER_ADDRESS
    )


def _count_on_address(request: HttpRequest, group: str, per_hour: int) -> Refusal | None:
    """Count one more of ``group`` against the request's address; the refusal past
    ``per_hour``."""
    with transaction.atomic(using=settings.CACHE_DATABASE):
        usage = get_usage(request, group=group, key=_address, rate=f"{per_hour}/h", increment=True)
    if usage is not None and usage["should_limit"]:
        return Refusal(per_hour, max(usage["time_left"], 1))
    return None


def _failed_signins(request: HttpRequest, *, increment: bool) -> dict[str, Any] | None:
    per_hour = settings.SIGNIN_FAILURES_PER_ADDRESS
    with transaction.atomic(using=settings.CACHE_DATABASE):
        usage: dict[str, Any] | None = get_usage(
            request,
            group="signin-failures-per-address",
            key=_address,
            rate=f"{per_hour}/h",
            increment=increment,
        )
        return usage


def count_failed_signin(request: HttpRequest) -> None:
    """Count a sign-in refused for a wrong password (or none) against its address."""
    _failed_signins(request, increment=True)


def signins_refused(request: HttpRequest) -> Refusal | None:
    """The refusal when the address has failed to sign in as often as it may this hour, under
    any user names: one address cannot try one password on every account. Counted apart from
    django-axes' lock, which holds a user name from one address only (settings.py), so the
    organizer signs in from any other address whatever a stranger typed in their name."""
    usage = _failed_signins(request, increment=False)
    if usage is not None and usage["count"] >= settings.SIGNIN_FAILURES_PER_ADDRESS:
        return Refusal(settings.SIGNIN_FAILURES_PER_ADDRESS, max(usage["time_left"], 1))
    return None


def _device_failures(
    request: HttpRequest, device_id: str, *, increment: bool
) -> dict[str, Any] | None:
    """A known browser's failed sign-ins (devices.py): as many as django-axes allows one user
    name at one address, in as long as its lock lasts."""
    minutes = max(int(settings.AXES_COOLOFF_TIME.total_seconds() // 60), 1)
    with transaction.atomic(using=settings.CACHE_DATABASE):
        usage: dict[str, Any] | None = get_usage(
            request,
            group="signin-failures-per-device",
            key=lambda group, request: device_id,
            rate=f"{settings.AXES_FAILURE_LIMIT}/{minutes}m",
            increment=increment,
        )
        return usage


def count_device_failure(request: HttpRequest, device_id: str) -> None:
    """Count a wrong password from a known browser against that browser, not its address."""
    _device_failures(request, device_id, increment=True)


def device_failures_spent(request: HttpRequest, device_id: str) -> Refusal | None:
    """The refusal when a known browser has failed to sign in as often as a lock allows: its
    cookie counts for nothing until the time is up."""
    usage = _device_failures(request, device_id, increment=False)
    if usage is not None and usage["count"] >= settings.AXES_FAILURE_LIMIT:
        return Refusal(settings.AXES_FAILURE_LIMIT, max(usage["time_left"], 1))
    return None


def _account(group: str, request: HttpRequest) -> str:
    return str(request.user.pk)


#: the allowances of wrong claim codes, per account and per address
CLAIM_FAILURES = (
    ("claim-failures-per-account", _account),
    ("claim-failures-per-address", _address),
)


def count_failed_claim(request: HttpRequest) -> None:
    """Count a claim code typed wrong (no such code, or closed) against the account and its
    address."""
    per_hour = settings.CLAIM_FAILURES_PER_HOUR
    with transaction.atomic(using=settings.CACHE_DATABASE):
        for group, key in CLAIM_FAILURES:
            get_usage(request, group=group, key=key, rate=f"{per_hour}/h", increment=True)


def claims_refused(request: HttpRequest) -> Refusal | None:
    """The refusal when the account or its address has typed as many wrong claim codes as
    it may this hour: a code of eight characters is not guessed by trying."""
    per_hour = settings.CLAIM_FAILURES_PER_HOUR
    with transaction.atomic(using=settings.CACHE_DATABASE):
        for group, key in CLAIM_FAILURES:
            usage = get_usage(request, group=group, key=key, rate=f"{per_hour}/h", increment=False)
            if usage is not None and usage["count"] >= per_hour:
                whose: Whose = "address" if group.endswith("address") else "account"
                return Refusal(per_hour, max(usage["time_left"], 1), whose)
    return None
