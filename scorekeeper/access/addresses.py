"""The address of the phone or browser that sent a request, behind the hall's proxies.

Sign-in lockouts (django-axes) and the limit on matches started without an account
(throttle.py) are both kept per address, and both ask here. Behind a reverse proxy every
request comes from the proxy's address; each proxy appends the address it was reached from to
``X-Forwarded-For``. With ``TRUSTED_PROXIES`` proxies in front of the app (the setting
``DJANGO_TRUSTED_PROXIES``, docs/deployment.md), the client is the entry that many from the
right: anything further left was written by the client itself and is never believed. With none
(the default), the address is the connection's own, whatever headers the request carries.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    remote: str = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    if not hops:
        return remote
    # fewer hops than proxies: the request came in past the outer ones, and every hop is one
    # of ours
    candidate = hops[-proxies] if len(hops) >= proxies else hops[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
