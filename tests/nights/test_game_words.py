"""A night speaks of its own game: Chickenfoot and Sedma are every player for themself, so
their night's page and table cards say nothing of partners or sides, and a Chickenfoot night
(the lowest total wins) exports placings, not points for and against."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.nights.test_nights import MEMBERS, draw, matches_of, new_night, season_of, start
from tests.web.pages import content, text
from tests.web.table import chickenfoot_round, play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db

PARTNER_WORDS = ("partner", "each side", "sides as even")
#: a Chickenfoot night's results CSV, four at a table: placings, not points for and against
CHICKENFOOT_RESULTS = [
    *("rank", "player", "played", "won", "lost", "forfeits", "win %"),
    *("firsts", "seconds", "thirds", "fourths"),
    *("average place", "average total", "total pips"),
]


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


@pytest.mark.parametrize("game", ["chickenfoot", "sedma"])
def test_a_night_of_a_game_without_partners_never_speaks_of_partners(organizer, game):
    season = season_of(game, {}, MEMBERS[:8], name="Coop")
    form = text(organizer.get(reverse("nights:new_night", args=[season.league_id, season.pk])))
    night = new_night(organizer, season, players=MEMBERS[:8], partnerships="")
    draw(organizer, night, seed="one")
    page = text(organizer.get(reverse("nights:night", args=[night.pk])))
    start(organizer, night, 1)
    cards = text(organizer.get(reverse("nights:cards", args=[night.pk, 1])))

    for shown in (form, page, cards):
        assert not [word for word in PARTNER_WORDS if word in shown.lower()], shown
    assert "Blind draw: random tables and seats" in page
    assert "each player as likely to win as the others" in page
    assert "Nobody has played against the same player twice tonight." in page


def test_a_straight_night_in_partnerships_still_speaks_of_partners(organizer):
    night = new_night(organizer, season_of("straight", {"target": 25}))
    draw(organizer, night, seed="one")

    page = text(organizer.get(reverse("nights:night", args=[night.pk])))

    assert "Blind draw: random partners and tables" in page
    assert "each side as likely to win as the other" in page
    assert "Nobody has partnered the same player twice tonight." in page


def test_a_chickenfoot_nights_results_csv_gives_each_players_placings(organizer):
    season = season_of("chickenfoot", {}, MEMBERS[:8], name="Coop")
    night = new_night(organizer, season, players=MEMBERS[:8], partnerships="", rounds=1)
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    pips = {}
    for match in matches_of(drawn):
        first, *others = seated_names(match)
        # seven rounds: seat 1 goes out of each, the others keep 1, 2 and 3 pips a round
        for _ in range(7):
            held = {name: n for n, name in enumerate(others, start=1)}
            chickenfoot_round(organizer, match, went_out=first, **held)
        pips.update({first: 0, **{name: 7 * n for n, name in enumerate(others, start=1)}})

    response = organizer.get(reverse("nights:results_csv", args=[night.pk]))
    header, *rows = list(csv.reader(io.StringIO(content(response))))

    assert header == CHICKENFOOT_RESULTS
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        place = 1 + pips[cells["player"]] // 7
        assert [cells[name] for name in ("firsts", "seconds", "thirds", "fourths")] == [
            "1" if n == place else "0" for n in range(1, 5)
        ]
        assert cells["average place"] == f"{place:.2f}"
        assert cells["total pips"] == str(pips[cells["player"]])


def leading_on_the_board(night) -> list[str]:
    """The sides the night's board marks as ahead, by their players' names."""
    board = content(Client().get(reverse("nights:board", args=[night.pk])))
    marked = re.findall(r'<li class="wall-side wall-leading" data-leading>(.*?)</li>', board)
    return [" ".join(re.findall(r'<span class="wall-name">([^<]*)</span>', m)) for m in marked]


def test_the_tv_board_marks_the_lowest_total_at_a_chickenfoot_table(organizer):
    season = season_of("chickenfoot", {}, MEMBERS[:4], name="Coop")
    night = new_night(organizer, season, players=MEMBERS[:4], partnerships="", rounds=1)
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    assert leading_on_the_board(night) == []  # nobody is ahead before a round ends
    (match,) = matches_of(drawn)
    first, second, third, fourth = seated_names(match)

    # the second seat went out: 0, the lowest; the others keep 12, 3 and 20 pips
    chickenfoot_round(organizer, match, went_out=second, **{first: 12, third: 3, fourth: 20})
    assert leading_on_the_board(night) == [second]

    # next round the third seat goes out and the second keeps 9: third 3, second 9
    chickenfoot_round(organizer, match, went_out=third, **{first: 1, second: 9, fourth: 2})
    assert leading_on_the_board(night) == [third]


def test_the_tv_board_marks_the_highest_total_at_a_straight_table(organizer):
    night = new_night(organizer, season_of("straight", {"target": 100}), rounds=1)
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    match = matches_of(drawn)[0]
    seats = seated_names(match)

    play(organizer, match, seats[1], 15)

    assert f"{seats[1]} {seats[3]}" in leading_on_the_board(night)
    assert f"{seats[0]} {seats[2]}" not in leading_on_the_board(night)
