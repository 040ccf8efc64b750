"""The history is one record for every phone at the table: each change is stored as its kind
and values and said in each reader's language, with the names people typed left as typed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.access.models import ShareLink
from scorekeeper.tables.models import Change, Match
from tests.i18n.conftest import speaking
from tests.web.pages import text
from tests.web.table import play, start


@pytest.fixture
def phone_history(db: None) -> Match:
    """Started on a phone without an account that gave no name (so signed "a phone at the
    table"), Bo scored 15, then that play was reverted."""
    phone = Client()
    start(phone, "straight", "Ana", "Bo", first="1")
    match = Match.objects.get()
    play(phone, match, "Bo", 15)
    phone.post(reverse("tables:revert", args=[match.pk, 2]))
    return match


def test_the_history_stores_each_change_as_its_kind_and_values(phone_history: Match) -> None:
    stored = list(
        phone_history.changes.order_by("number").values_list("kind", "params", "made_by", "maker")
    )

    # Bo sits in seat 2 (seat keys count from 0): the name is stored once, on the player; a
    # phone that gave no name is stored as what it is, not as words in a language
    assert stored == [
        ("started", {}, "", "phone"),
        ("scored", {"seat": 1, "points": 15}, "", "phone"),
        ("reverted", {"number": 2}, "", "phone"),
    ]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ["Reverted change 2 (Bo scored 15) by a phone at the table", "Bo scored 15"]),
        (
            "es",
            ["Cambio 2 revertido (Bo anotó 15) por un teléfono en la mesa", "Bo anotó 15"],
        ),
        ("pl", ["Cofnięto zmianę 2 (Bo: 15 pkt) telefon przy stole", "Mecz rozpoczęty"]),
        ("cs", ["Vrácena změna 2 (Bo: 15 b.) telefon u stolu", "Zápas zahájen"]),
    ],
)
def test_each_reader_sees_the_history_in_their_language(
    language: str, said: list[str], phone_history: Match
) -> None:
    history = text(
        speaking(language, Client()).get(reverse("tables:history", args=[phone_history.pk]))
    )

    for phrase in said:
        assert phrase in history, phrase


def test_the_last_change_on_the_scoreboard_is_said_in_the_readers_language(
    phone_history: Match,
) -> None:
    board = text(
        speaking("es", Client()).get(reverse("tables:scoreboard", args=[phone_history.pk]))
    )

    assert "Último cambio: Cambio 2 revertido (Bo anotó 15), por un teléfono en la mesa," in board


def test_a_change_kept_as_a_sentence_is_shown_as_stored(phone_history: Match) -> None:
    Change.objects.filter(match=phone_history, number=2).update(
        kind="note", params={"text": "Scored on paper, 15"}
    )

    history = text(speaking("cs", Client()).get(reverse("tables:history", args=[phone_history.pk])))

    assert "Scored on paper, 15" in history


@pytest.mark.parametrize(
    ("language", "a_phone"),
    [("es", "un teléfono en la mesa"), ("pl", "telefon przy stole"), ("cs", "telefon u stolu")],
)
def test_a_phone_that_gave_no_name_is_said_in_the_readers_language_not_stored_in_english(
    language: str, a_phone: str, phone_history: Match
) -> None:
    history = text(
        speaking(language, Client()).get(reverse("tables:history", args=[phone_history.pk]))
    )

    assert history.count(a_phone) == 3
    assert "a phone at the table" not in history
    stored = Change.objects.filter(match=phone_history).values_list("made_by", flat=True)
    assert set(stored) == {""}


def test_the_starters_own_link_is_worded_on_the_links_page_and_stored_without_a_label(
    phone_history: Match,
) -> None:
    """An organizer sees the link the starting phone keeps score with (never handed out)."""
    links = text(speaking("es").get(reverse("access:share", args=[phone_history.pk])))

    assert "Empezada en este teléfono" in links
    assert "Started on this phone" not in links
    owners_link = ShareLink.objects.get(match=phone_history, owner=True)
    assert owners_link.label == ""
