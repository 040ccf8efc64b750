"""How many matches a phone without an account may start: so many an hour from one address and
from one browser, counted by django-ratelimit in the shared cache. Signed-in accounts are not
counted (an admin makes them); a match file or a league bundle is imported only by a signed-in
account (README: Many phones at one table)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django_ratelimit.core import get_usage

from scorekeeper.access.addresses import client_address
from scorekeeper.access.models import ShareLink
from scorekeeper.access.permissions import GRANTS


@dataclass(frozen=True)
class Refusal:
    """One start too many: how many an hour are allowed, and when the next one will be."""

    per_hour: int
    seconds_left: int


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
            token__in=tokens,
            revoked_at=None,
            match__night_table__night_round__night__played_on=timezone.localdate(),
        ).exists()
    )


def count_start(request: HttpRequest) -> Refusal | None:
    """Count a match about to be started without an account; the refusal when it is one more
    than its address or its browser may start this hour. Call it once the start is sure to
    succeed (a form with mistakes costs nothing).

    A browser that sent no session cookie is counted on a budget of its own, smaller, per
    address (DJANGO_ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS): one that drops its cookie cannot
    spend the address's allowance, which the hall's other phones share. Signed-in accounts and
    the phones of a league night being played are not counted."""
    if request.user.is_authenticated or _at_a_night_tonight(request):
        return None
    if settings.SESSION_COOKIE_NAME not in request.COOKIES or request.session.session_key is None:
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
        limits = (
            ("starts-per-address", _address, settings.ANONYMOUS_STARTS_PER_ADDRESS),
            ("starts-per-browser", _browser, settings.ANONYMOUS_STARTS_PER_BROWSER),
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
                return Refusal(per_hour, max(usage["time_left"], 1))
    return None


def count_export(request: HttpRequest) -> Refusal | None:
    """Count a heavy export (a season's hands, a league's or a night's bundle) read without
    an account; the refusal when its address has read as many as it may this hour. Each reads
    every match it holds: a few readers without an account must not keep the app's workers
    from the hall."""
    if request.user.is_authenticated:
        return None
    per_hour = settings.ANONYMOUS_EXPORTS_PER_ADDRESS
    with transaction.atomic(using=settings.CACHE_DATABASE):
        usage = get_usage(
            request, group="exports-per-address", key=_address, rate=f"{per_hour}/h", increment=True
        )
    if usage is not None and usage["should_limit"]:
        return Refusal(per_hour, max(usage["time_left"], 1))
    return None


def _failed_signins(request: HttpRequest, *, increment: bool) -> dict | None:
    per_hour = settings.SIGNIN_FAILURES_PER_ADDRESS
    with transaction.atomic(using=settings.CACHE_DATABASE):
        return get_usage(
            request,
            group="signin-failures-per-address",
            key=_address,
            rate=f"{per_hour}/h",
            increment=increment,
        )


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
