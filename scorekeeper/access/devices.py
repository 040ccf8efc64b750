"""Browsers that have signed in before: the device cookie of OWASP's defence against lockouts
turned on a user (Slow Down Online Guessing Attacks with Device Cookies).

A successful sign-in gives the browser a cookie, signed with the site's secret key, that names
the user and the browser (a random device id). With it, that user's sign-ins from that browser
are not held by the locks an address collects: neither django-axes' lock of the user name at
the address (its whitelist hook, ``AXES_WHITELIST_CALLABLE``, answers for them) nor the
address's budget of failures (throttle.py). Their failures are counted on the device instead,
``AXES_FAILURE_LIMIT`` in ``AXES_COOLOFF_TIME``; past that the cookie counts for nothing until
the time is up, and the browser is locked like any other. So a stranger at the hall who locks
its address, or the organizer's name there, does not lock out the organizer's own phone, and a
stolen cookie gives no more guesses than a lock allows.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from axes.helpers import get_client_username
from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from scorekeeper.access.throttle import device_failures_spent

#: the cookie's name, and what its signature is salted with (no other signed value passes)
COOKIE = "known_device"
SALT = "scorekeeper.access.devices"
#: how long a browser stays known after its last sign-in
KEPT_FOR = 180 * 24 * 60 * 60


@dataclass(frozen=True)
class Device:
    user: str
    id: str


def device_of(request: HttpRequest) -> Device | None:
    """The browser's device cookie, if it carries one this site signed and that is not too old."""
    value = request.COOKIES.get(COOKIE)
    if not value:
        return None
    try:
        found = signing.loads(value, salt=SALT, max_age=KEPT_FOR)
    except signing.BadSignature:
        return None
    if not isinstance(found, dict):
        return None
    user, device = found.get("user"), found.get("device")
    if not isinstance(user, str) or not isinstance(device, str):
        return None
    return Device(user, device)


def known_device(request: HttpRequest, username: str | None) -> Device | None:
    """The device, when the browser has signed in as ``username`` before and has failures
    left: that user's sign-ins from it are not held by its address's locks."""
    device = device_of(request)
    if device is None or not username or device.user != username:
        return None
    if device_failures_spent(request, device.id):
        return None
    return device


def is_known_device(request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
    """django-axes' whitelist hook (AXES_WHITELIST_CALLABLE): a known browser signing in as
    the user it names on the sign-in page is neither locked nor counted by axes (the page
    counts its failures on the device, throttle.py). Anywhere else (the admin's own sign-in)
    it is any browser: nothing there would count its failures."""
    if request.path != reverse("login"):
        return False
    return known_device(request, get_client_username(request, credentials)) is not None


def remember_device(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Give the browser that just signed in as ``username`` its device cookie (the same device
    id it had, for the same user)."""
    device = device_of(request)
    device_id = device.id if device is not None and device.user == username else None
    value = signing.dumps(
        {"user": username, "device": device_id or secrets.token_urlsafe(16)}, salt=SALT
    )
    response.set_cookie(
        COOKIE,
        value,
        max_age=KEPT_FOR,
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )
