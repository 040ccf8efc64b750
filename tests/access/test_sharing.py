"""Handing a match on: the share page offers a watch link first, shows each link whole with a
Share button, and a watch link opens the scoreboard at once, while a scorekeeper's link still
asks for a name and a tap on Join. Settle it shares its answer the same way."""

from __future__ import annotations

import re
import uuid

from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.access.permissions import GRANTS
from scorekeeper.tables.models import Match
from tests.access.conftest import Persona, everything
from tests.web.pages import content, text

WATCHING = "You are watching this match."


def share_page(client: Client, match: Match) -> HttpResponse:
    response = client.get(reverse("access:share", args=[match.pk]))
    assert response.status_code == 200
    return response


def role_choices(response: HttpResponse) -> list[tuple[str, bool]]:
    """The role radio buttons in page order: their value and whether each is chosen."""
    tags = re.findall(r'<input type="radio" name="role"[^>]*>', content(response))
    return [(dict(re.findall(r'(\w+)="([^"]*)"', tag))["value"], " checked" in tag) for tag in tags]


def test_a_new_link_lets_people_watch_unless_the_owner_says_otherwise(owner: Persona) -> None:
    match = Match.objects.get()

    choices = role_choices(share_page(owner.client, match))

    assert choices == [("viewer", True), ("scorekeeper", False)]


def test_a_link_is_shown_whole_with_a_share_button_that_needs_javascript(
    owner: Persona, viewer_link: ShareLink
) -> None:
    page = content(share_page(owner.client, viewer_link.match))
    address = "http://testserver" + reverse("access:join", args=[viewer_link.token])

    # the whole address as text (not in a box that cuts it off), and handed to share.js
    assert f'<code data-testid="share-url">{address}</code>' in page
    assert f'data-share-url="{address}"' in page
    # without JavaScript the button would do nothing: share.js shows it
    assert re.search(r"<button[^>]*data-share-button[^>]*hidden", page)
    assert "js/share.js" in page
    assert 'readonly value="' not in page


def test_a_watch_link_opens_the_scoreboard_with_nothing_to_type_or_tap(
    viewer_link: ShareLink,
) -> None:
    phone = Client()

    response = phone.get(reverse("access:join", args=[viewer_link.token]), follow=True)

    assert response.status_code == 200
    assert response.redirect_chain == [
        (reverse("tables:scoreboard", args=[viewer_link.match_id]), 302)
    ]
    page = content(response)
    assert 'name="name"' not in page
    assert ">Join<" not in page
    assert WATCHING in text(response)
    assert phone.session[GRANTS] == {str(viewer_link.match_id): viewer_link.token}


def test_a_watch_link_lets_nobody_keep_score(viewer_link: ShareLink) -> None:
    phone = Client()
    phone.get(reverse("access:join", args=[viewer_link.token]))
    before = everything()

    response = phone.post(
        reverse("tables:record_play", args=[viewer_link.match_id]),
        {"player": "0", "points": "10", "entry_key": uuid.uuid4().hex},
    )

    assert response.status_code == 403
    assert everything() == before


def test_a_scorekeepers_link_still_asks_for_a_name_and_a_tap(scorekeeper_link: ShareLink) -> None:
    phone = Client()
    url = reverse("access:join", args=[scorekeeper_link.token])

    opened = phone.get(url)

    assert opened.status_code == 200
    assert 'name="name"' in content(opened)
    # opening it grants nothing: only the tap on Join (a POST, with its CSRF token) does
    assert GRANTS not in phone.session
    assert phone.post(reverse("tables:undo", args=[scorekeeper_link.match_id])).status_code == 403


def test_a_phone_keeping_score_stays_a_scorekeeper_when_it_opens_a_watch_link(
    link_scorekeeper: Persona, viewer_link: ShareLink
) -> None:
    match = viewer_link.match

    link_scorekeeper.client.get(reverse("access:join", args=[viewer_link.token]))
    board = link_scorekeeper.client.get(reverse("tables:scoreboard", args=[match.pk]))

    assert WATCHING not in text(board)
    held = ShareLink.objects.get(token=link_scorekeeper.client.session[GRANTS][str(match.pk)])
    assert held.role == SCOREKEEPER


def test_settle_it_shares_its_answer_by_its_own_address(db: None) -> None:
    asked = "?game=straight&players=2&how=domino&domino=0&name1=Ann&name2=Bob&pips2=12"

    response = Client().get(reverse("tables:settle") + asked)

    assert response.status_code == 200
    page = content(response)
    address = "http://testserver" + reverse("tables:settle") + asked
    assert f'<code data-testid="share-url">{address.replace("&", "&amp;")}</code>' in page
    assert "js/share.js" in page


def test_settle_it_has_nothing_to_share_before_it_is_asked(db: None) -> None:
    page = content(Client().get(reverse("tables:settle")))

    assert "data-share-url" not in page
