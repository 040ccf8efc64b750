"""No 500 for any charset: a form posted as latin-1, utf-8 or ascii (or another charset, or
one nobody knows) to any door of the app is answered with a page or a 4xx, never a server
error. The probe: a form declared latin-1, with a CSRF cookie, was a 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from benchmarks import data
from tests.web.table import scorekeeper_client

pytestmark = pytest.mark.django_db

CHARSETS = ["latin-1", "utf-8", "ascii", "utf-16", "no-such-charset"]
#: what a form of this app holds, with a name that is not ASCII, written in latin-1
FIELDS = "username=ol%E9&password=x&name=Ren\xe9e&player=Ana&points=5&entry_key=k1"


def doors(resolver: URLResolver | None = None, prefix: str = "") -> Iterator[str]:
    """Every address of the app (the admin's are Django's own), for the match, league, season
    and the rest numbered 1."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name != "admin":
                namespace = f"{pattern.namespace}:" if pattern.namespace else ""
                yield from doors(pattern, prefix + namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            keys = getattr(pattern.pattern, "converters", {})
            yield reverse(prefix + pattern.name, kwargs={key: "1" for key in keys})


def posted(client: Client, url: str, charset: str) -> int:
    token = client.cookies["csrftoken"].value
    body = f"csrfmiddlewaretoken={token}&{FIELDS}".encode("latin-1")
    response = client.generic(
        "POST", url, body, content_type=f"application/x-www-form-urlencoded; charset={charset}"
    )
    return response.status_code


@pytest.fixture
def hall() -> data.Hall:
    return data.fill("default", players=8, matches=2, tables=1)


@pytest.mark.parametrize("charset", CHARSETS)
def test_no_door_answers_a_form_in_any_charset_with_a_server_error(
    hall: data.Hall, charset: str
) -> None:
    stranger = Client(enforce_csrf_checks=True)
    organizer = scorekeeper_client()
    organizer.handler.enforce_csrf_checks = True
    for client in (stranger, organizer):
        client.get(reverse("login"))
    failed = {}
    for url in sorted(set(doors())):
        for who, client in (("stranger", stranger), ("organizer", organizer)):
            status = posted(client, url, charset)
            if status >= 500:
                failed[f"{who} {url}"] = status
    assert failed == {}


def test_a_form_in_latin_1_is_refused_with_a_plain_message() -> None:
    client = Client()
    response = client.generic(
        "POST",
        reverse("login"),
        FIELDS.encode("latin-1"),
        content_type="application/x-www-form-urlencoded; charset=latin-1",
    )
    assert response.status_code == 400
    assert response.content.decode() == "Bad request: a form is sent as UTF-8."
