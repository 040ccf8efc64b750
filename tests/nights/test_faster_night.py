"""A faster night for the organizer and the players: everyone ticked at once, partners as last
night at one tap, the desk's tables still playing on top, the join page saying the table, the
standings' names leading to the players, no Rematch at a tournament's table, one word for a
bye, and a tournament called one on the season's page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.nights import desk
from scorekeeper.nights.models import CheckIn, Night
from scorekeeper.tables.models import Player
from tests.nights.test_desk import _shown
from tests.nights.test_nights import draw, matches_of, member_ids, new_night, season_of, start
from tests.nights.test_tournament import PLAYERS, pair_partners, play_round, tournament
from tests.web.pages import content, text
from tests.web.table import scorekeeper_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


@pytest.fixture
def season():
    return season_of("straight", {"target": 25}, PLAYERS[:10], name="Hall Monthly")


def ticked(page: str) -> set[str]:
    """The members whose box is ticked on a who-came form, by player id."""
    return set(re.findall(r'<input type="checkbox" name="players" value="(\d+)"[^>]*checked', page))


def test_everyone_came_ticks_every_member_without_javascript(organizer, season):
    url = reverse("nights:new_night", args=[season.league_id, season.pk])
    page = content(organizer.get(url))
    assert ticked(page) == set()
    # the button belongs to a form of its own (a GET of the page): Enter still starts the night
    assert re.search(r'<form id="everyone-came" method="get">', page)
    assert re.search(r'<button class="btn" type="submit" form="everyone-came">Everyone came', page)

    everyone = content(organizer.get(url, {"everyone": "1"}))

    assert ticked(everyone) == {str(pk) for pk in member_ids(*PLAYERS[:10])}


def test_the_same_partners_as_last_night_at_one_tap(organizer, season):
    first = tournament(organizer, season, PLAYERS[:8], draw="swiss", rounds=1)
    pairs = pair_partners(organizer, first, PLAYERS[:8])
    # Hal stays home: his partner Gus comes, and pairs anew
    second = tournament(organizer, season, PLAYERS[:6] + PLAYERS[8:10], draw="swiss", rounds=1)
    page = content(organizer.get(reverse("nights:night", args=[second.pk])))
    assert "Same partners as last night" in page

    response = organizer.post(reverse("nights:partners", args=[second.pk]), {"last_night": "1"})

    assert response.status_code == 302
    partner = {
        c.player.name: c.partner.name if c.partner else None
        for c in CheckIn.objects.filter(night=second).select_related("player", "partner")
    }
    for one, other in pairs[:3]:
        assert partner[one] == other and partner[other] == one
    assert partner["Ivy"] is partner["Jo"] is None
    assert "Partnerships saved: 3." in text(
        organizer.get(reverse("nights:night", args=[second.pk]))
    )


def test_a_first_night_has_no_partners_to_repeat(organizer, season):
    night = tournament(organizer, season, PLAYERS[:8], draw="swiss", rounds=1)

    assert "Same partners as last night" not in text(
        organizer.get(reverse("nights:night", args=[night.pk]))
    )
    refused = organizer.post(reverse("nights:partners", args=[night.pk]), {"last_night": "1"})
    assert refused.status_code == 422
    assert "No two players here were partners on an earlier night." in text(refused)


def test_the_desk_lists_the_tables_still_playing_above_the_finished_ones():
    tables = [_shown(1, finished=True), _shown(2), _shown(3, forfeited=True), _shown(4)]

    shown = desk.desk_tables(tables, now=timezone.now())

    assert [t.number for t in shown] == [2, 4, 1, 3]


def test_the_join_page_says_the_table_and_who_sits_there_before_join(organizer, season):
    night = new_night(organizer, season, players=PLAYERS[:4], rounds=1)
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    (match,) = matches_of(drawn)
    link = ShareLink.objects.get(match=match, role=SCOREKEEPER)
    one, other = (str(side) for side in match.seating().sides)

    page = text(Client().get(reverse("access:join", args=[link.token])))

    said = re.search(rf"Table 1 ?: {re.escape(one)} against {re.escape(other)}", page)
    assert said is not None, page
    assert said.start() < page.index("Join", said.end())


def test_the_seasons_standings_lead_to_each_players_page(organizer, season):
    night = new_night(organizer, season, players=PLAYERS[:4], rounds=1)
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    play_round(organizer, drawn, lambda table: 0)

    page = content(Client().get(reverse("leagues:season", args=[season.league_id, season.pk])))

    for name in PLAYERS[:4]:
        player = Player.objects.get(name=name)
        assert f'<a href="{reverse("leagues:player", args=[player.pk])}">{name}</a>' in page


def test_a_tournaments_board_offers_no_rematch_and_refuses_one(organizer, season):
    night = tournament(organizer, season, PLAYERS[:8], draw="swiss", rounds=2)
    pair_partners(organizer, night, PLAYERS[:8])
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    match = matches_of(drawn)[0]
    league_night = new_night(organizer, season, players=PLAYERS[:4], rounds=1)
    drawn_there = draw(organizer, league_night)
    start(organizer, league_night, 1)
    other = matches_of(drawn_there)[0]

    board = text(organizer.get(reverse("tables:scoreboard", args=[match.pk])))
    refused = organizer.post(reverse("tables:rematch", args=[match.pk]), follow=True)

    assert "Rematch" not in board
    assert "A tournament's table plays no rematch" in text(refused)
    assert refused.redirect_chain[-1][0] == reverse("tables:scoreboard", args=[match.pk])
    # a league night's table still offers one
    assert "Rematch" in text(organizer.get(reverse("tables:scoreboard", args=[other.pk])))


def test_a_tournament_says_bye_on_every_page_a_league_night_sitting_out(organizer, season):
    night = tournament(organizer, season, PLAYERS[:10], draw="swiss", rounds=2)
    pair_partners(organizer, night, PLAYERS[:10])
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    names = dict(Player.objects.values_list("pk", "name"))
    bye = " & ".join(names[pk] for pk in drawn.sitting_out_ids)
    pages = {
        "night": reverse("nights:night", args=[night.pk]),
        "cards": reverse("nights:cards", args=[night.pk, 1]),
        "pairings": reverse("nights:pairings", args=[night.pk]),
        "board": reverse("nights:board", args=[night.pk]),
    }
    for name, url in pages.items():
        page = text(organizer.get(url))
        assert f"Bye: {bye}" in page, name
        assert "Sitting out" not in page and "Sits this round out" not in page, name

    league_night = new_night(organizer, season, players=PLAYERS[:9], rounds=1)
    draw(organizer, league_night)
    start(organizer, league_night, 1)
    for name in ("night", "cards", "pairings", "board"):
        args = [league_night.pk, 1] if name == "cards" else [league_night.pk]
        page = text(organizer.get(reverse(f"nights:{name}", args=args)))
        assert "Sitting out:" in page and "Bye" not in page, name


def test_a_tournament_is_called_a_tournament_on_the_seasons_page(organizer, season):
    tournament(organizer, season, PLAYERS[:8], draw="swiss", rounds=1)
    new_night(organizer, season, players=PLAYERS[:8], rounds=1)

    page = text(organizer.get(reverse("leagues:season", args=[season.league_id, season.pk])))

    assert page.count("Tournament, Dec. 4, 2026") == 1
    assert page.count("League night, Dec. 4, 2026") == 1
    assert Night.objects.count() == 2
