"""A phone refused an entry (403) is told why, so that it knows what to do: its link was revoked
(ask for a new one), it is not signed in (sign in, and come back to the match), or it only
watches. ``data-because`` says which to a phone's outbox; nothing is saved in any case."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, VIEWER, ShareLink
from scorekeeper.tables.models import Change, Match
from scorekeeper.tables.scoring import create_match
from tests.access.conftest import account, join, signed_in
from tests.web.pages import HTMX, content, text
from tests.web.table import FOUR, rows

REVOKED = "The scorekeeper's link this phone joined with was revoked"
SIGN_IN = "You are not signed in: sign in to keep score for this match."
WATCHER = "Only the match's scorekeepers can change it."

#: each entry a phone sends, as its form posts it
ENTRIES = {
    "record_play": {"player": "1", "points": "10"},
    "end_hand": {"out": "0", "pips_1": "5", "pips_2": "5", "pips_3": "5"},
    "undo": {},
}


@pytest.fixture
def match(db: None) -> Match:
    """Started by Rosa from her account: hand 1 under way, Ana 10 played."""
    return create_match(
        rules.Match(
            "straight", FOUR, hands=(rules.Hand(leader="Ana", plays=(rules.Play("Ana", 10),)),)
        ),
        made_by="rosa",
        user=account("rosa"),
    )


@pytest.fixture
def revoked_phone(match: Match) -> Client:
    """Joined with a scorekeeper's link, entered a play, then Rosa revoked the link."""
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 3")
    phone = Client()
    join(phone, link, "Bea")
    assert send(phone, match, "record_play").status_code == 302
    signed_in(match.created_by).post(reverse("access:revoke", args=[match.pk, link.pk]))
    return phone


def send(client: Client, match: Match, name: str, *, htmx: bool = False) -> HttpResponse:
    url = reverse(f"tables:{name}", args=[match.pk])
    return client.post(url, ENTRIES[name], headers=HTMX if htmx else {})


def refused_because(response: HttpResponse) -> str:
    assert response.status_code == 403
    found = content(response).split('class="refusal card" data-because="', 1)
    assert len(found) == 2, "the answer says nothing of why"
    return found[1].split('"', 1)[0]


def login_link(match: Match) -> str:
    back = reverse("tables:scoreboard", args=[match.pk])
    return reverse("login") + "?" + urlencode({"next": back})


def written(match: Match) -> tuple:
    return Change.objects.count(), rows(match)


# -- a link revoked ---------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
@pytest.mark.parametrize("name", ENTRIES)
def test_a_phone_whose_link_was_revoked_is_told_so(
    revoked_phone: Client, match: Match, name: str, htmx: bool
) -> None:
    before = written(match)

    response = send(revoked_phone, match, name, htmx=htmx)

    assert refused_because(response) == "revoked"
    assert REVOKED in text(response)
    assert written(match) == before


def test_a_phone_whose_link_is_gone_is_told_it_was_revoked(match: Match) -> None:
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER)
    phone = Client()
    join(phone, link, "Bea")
    link.delete()

    assert refused_because(send(phone, match, "record_play")) == "revoked"


def test_the_refusal_for_htmx_is_the_reason_alone(revoked_phone: Client, match: Match) -> None:
    page = send(revoked_phone, match, "record_play")
    fragment = send(revoked_phone, match, "record_play", htmx=True)

    assert "<html" in content(page)
    assert "<html" not in content(fragment)
    assert 'role="alert"' in content(fragment)


# -- not signed in ----------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_a_phone_not_signed_in_is_asked_to_sign_in_and_come_back(match: Match, htmx: bool) -> None:
    before = written(match)

    response = send(Client(), match, "record_play", htmx=htmx)

    assert refused_because(response) == "sign-in"
    assert SIGN_IN in text(response)
    assert f'href="{login_link(match).replace("&", "&amp;")}"' in content(response)
    assert written(match) == before


# -- only watching ----------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_an_account_without_a_part_in_the_match_only_watches(match: Match, htmx: bool) -> None:
    before = written(match)

    response = send(signed_in(account("max")), match, "record_play", htmx=htmx)

    assert refused_because(response) == "watcher"
    assert WATCHER in text(response)
    assert reverse("login") + "?" not in content(response).split("site-footer")[0]
    assert written(match) == before


def test_a_phone_that_joined_with_a_watch_link_only_watches(match: Match) -> None:
    phone = Client()
    join(phone, ShareLink.objects.create(match=match, role=VIEWER), "Vic")

    assert refused_because(send(phone, match, "record_play")) == "watcher"


def test_an_account_whose_link_was_revoked_is_told_of_the_link(match: Match) -> None:
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER)
    phone = signed_in(account("max"))
    join(phone, link, "Max")
    link.revoke()

    assert refused_because(send(phone, match, "record_play")) == "revoked"


# -- any other refusal ------------------------------------------------------------------------


def test_any_other_refusal_says_its_own_reason(match: Match) -> None:
    response = signed_in(account("max")).get(reverse("access:share", args=[match.pk]))

    assert refused_because(response) == ""
    assert "Only the match's scorekeepers can share it." in text(response)
