"""A round is shown as it was drawn: the pairings page, the night's page, the cards and the
director's desk give the tables, in seat order, and the players sitting out that the draw gives
for the players here and the seed shown (anyone with the names and the seed draws the same)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.nights import draw, rounds
from scorekeeper.nights.models import Night, NightRound, SittingOut, TableSeat
from scorekeeper.tables.models import Player
from tests.nights.test_public import NAMES, ORGANIZER, night_of, pairings_url
from tests.web.pages import text
from tests.web.table import scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db


def the_draw(night: Night, number: int = 1) -> draw.Round:
    """The round as the draw gives it for the night's players (nobody sat out yet) and seed."""
    names = sorted(NAMES)
    return draw.blind_draw(
        names,
        seed=f"{night.seed}-{number}",
        table_size=rounds.table_sizes(night),
        partnerships=rounds.plays_partners(night),
        sitting_out_counts=dict.fromkeys(names, 0),
    )


def drawn(night: Night) -> NightRound:
    organizer = scorekeeper_client()
    response = organizer.post(reverse("nights:draw", args=[night.pk]), {"seed": ""})
    assert response.status_code == 302
    return NightRound.objects.get(night=night, number=1)


def test_a_round_drawn_shows_the_draws_tables_and_who_sits_out_on_every_page():
    night = night_of(NAMES)  # nine players: two tables of partners and one sits out
    expected = the_draw(night)
    (out,) = expected.sitting_out
    night_round = drawn(night)

    pairings = text(Client().get(pairings_url(night)))
    organizer = scorekeeper_client()
    night_page = text(organizer.get(reverse("nights:night", args=[night.pk])))
    cards = text(organizer.get(reverse("nights:cards", args=[night.pk, 1])))

    for table in expected.tables:
        a, b, c, d = table.seats
        assert f"Table {table.number} {a} & {c} against {b} & {d}" in pairings
        assert f"{a} & {c} against {b} & {d}" in cards
        seats = " ".join(f"Seat {n}: {name}" for n, name in enumerate(table.seats, 1))
        assert seats in cards
    assert f"{out} Sits this round out" in pairings
    assert f"Sitting out: {out}" in night_page
    assert f"Sitting out: {out}" in cards
    # stored once, in rows: a row a seat and one for the player sitting out
    assert TableSeat.objects.filter(night_table__night_round=night_round).count() == 8
    assert list(SittingOut.objects.filter(night_round=night_round).values_list("player__name")) == [
        (out,)
    ]


def test_a_round_started_is_played_and_shown_at_the_tables_drawn():
    night = night_of(NAMES)
    expected = the_draw(night)
    night_round = drawn(night)
    rounds.start_round(night_round, by=ORGANIZER)

    organizer = scorekeeper_client()
    desk = organizer.get(reverse("nights:desk", args=[night.pk])).content.decode()
    board = text(Client().get(reverse("nights:board", args=[night.pk])))
    pairings = text(Client().get(pairings_url(night)))

    for table in expected.tables:
        match = night_round.tables.get(number=table.number).match
        assert seated_names(match) == list(table.seats)
        a, b, c, d = table.seats
        shown = re.search(rf'data-table="{table.number}".*?</li>\s*</ul>', desk, re.S)
        assert shown is not None
        assert f"{a} & {c}" in shown.group(0) and f"{b} & {d}" in shown.group(0)
        assert f"Table {table.number} {a} & {c} against {b} & {d}" in pairings
    assert f"Sitting out: {expected.sitting_out[0]}" in board


def test_a_player_who_takes_a_seat_is_at_the_table_and_sits_out_no_more():
    night = night_of(NAMES)
    expected = the_draw(night)
    (out,) = expected.sitting_out
    night_round = drawn(night)
    rounds.start_round(night_round, by=ORGANIZER)
    leaving = expected.tables[0].seats[1]
    organizer = scorekeeper_client()

    response = organizer.post(
        reverse("nights:leave", args=[night.pk]),
        {"player": player_id(leaving), "replacement": player_id(out)},
    )

    assert response.status_code == 302
    table = night_round.tables.get(number=expected.tables[0].number)
    names = list(table.seats.values_list("player__name", flat=True))
    assert names == [out if name == leaving else name for name in expected.tables[0].seats]
    assert not SittingOut.objects.filter(night_round=night_round).exists()
    pairings = text(Client().get(pairings_url(night)))
    assert "Sits this round out" not in pairings


def player_id(name: str) -> int:
    return Player.objects.get(name=name).pk


@pytest.mark.parametrize(("language", "said"), [("en", "Table 1"), ("es", "Mesa 1")])
def test_a_tables_card_link_is_said_in_the_readers_language(language: str, said: str) -> None:
    """The link on a table's card keeps its table's number, not the words of whoever started
    the round: each phone that joins through it reads "Table 1" in its own language."""
    from django.conf import settings

    from scorekeeper.access.models import ShareLink

    night = night_of(NAMES)
    drawn(night)
    organizer = scorekeeper_client()
    organizer.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"  # the organizer reads Polish
    assert organizer.post(reverse("nights:start", args=[night.pk, 1])).status_code == 302
    first = NightRound.objects.get(night=night, number=1).tables.get(number=1)
    link = ShareLink.objects.get(pk=first.link_id)
    assert (link.label, link.table_number) == ("", 1)

    phone = Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = text(phone.get(reverse("access:join", args=[link.token])))

    assert said in page
    assert "Stół" not in page
