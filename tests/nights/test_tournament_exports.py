"""A tournament's results out of the app: the night's results CSV a row a player in the
season's terms, the standings by entry as CSV and as a sheet to print, each round's pairings and
results to print. (The sheets fit one page of A4: tests/browser/test_tournament_night.py.)"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.nights.models import NightRound
from tests.leagues.pages import csv_rows, table_rows
from tests.nights.test_game_words import CHICKENFOOT_RESULTS
from tests.nights.test_nights import draw, matches_of, new_night, season_of, start
from tests.nights.test_tournament import PLAYERS, bye, pair_partners, play_round, sides, tournament
from tests.web.pages import content, text
from tests.web.table import chickenfoot_round, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


@pytest.fixture
def season():
    return season_of("straight", {"target": 25}, PLAYERS, name="Hall Monthly")


def swiss_of_five_partnerships(organizer: Client, season) -> tuple[object, list[NightRound]]:
    """Ten players, five partnerships, two Swiss rounds played: one partnership has each
    round's bye; seat 1's side wins every table."""
    players = PLAYERS[:10]
    night = tournament(organizer, season, players, draw="swiss", rounds=3)
    pair_partners(organizer, night, players)
    played = []
    for number in (1, 2):
        drawn = draw(organizer, night)
        assert start(organizer, night, number).status_code == 302
        play_round(organizer, drawn, lambda table: 0)
        played.append(drawn)
    return night, played


def test_a_tournaments_results_csv_is_a_row_a_player_with_no_bye_counted(organizer, season):
    night, played = swiss_of_five_partnerships(organizer, season)

    header, *rows = csv_rows(organizer.get(reverse("nights:results_csv", args=[night.pk])))

    assert header[:5] == ["rank", "player", "played", "won", "lost"]
    by_player = {row[1]: row for row in rows}
    matches = {name: 0 for name in PLAYERS[:10]}
    wins = {name: 0 for name in PLAYERS[:10]}
    for drawn in played:
        for one, other in sides(drawn):
            for name in one | other:
                matches[name] += 1
            for name in one:
                wins[name] += 1
    # the players of a partnership that had a bye played one match fewer, and won no more
    assert any(count == 1 for count in matches.values())
    assert {name: int(row[2]) for name, row in by_player.items()} == {
        name: count for name, count in matches.items() if count
    }
    assert {name: int(row[3]) for name, row in by_player.items()} == {
        name: wins[name] for name in by_player
    }


def test_a_chickenfoot_nights_results_csv_has_the_placings_not_points_for_and_against(organizer):
    season = season_of("chickenfoot", {}, PLAYERS[:4], name="Coop")
    night = new_night(organizer, season, players=PLAYERS[:4], partnerships="", rounds=1)
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    (match,) = matches_of(drawn)
    first, *others = seated_names(match)
    for _ in range(7):
        held = {name: pips for pips, name in enumerate(others, start=1)}
        chickenfoot_round(organizer, match, went_out=first, **held)

    header, *rows = csv_rows(organizer.get(reverse("nights:results_csv", args=[night.pk])))

    assert header == CHICKENFOOT_RESULTS
    by_player = {row[1]: row for row in rows}
    assert by_player[first][7:11] == ["1", "0", "0", "0"]
    assert by_player[others[2]][7:11] == ["0", "0", "0", "1"]
    assert by_player[others[2]][12] == "21.0"
    # the season's CSV speaks the same way
    season_header, *_ = csv_rows(
        organizer.get(reverse("leagues:standings_csv", args=[season.league_id, season.pk]))
    )
    assert season_header == header


def test_a_tournaments_standings_come_out_as_csv_with_each_tie_break(organizer, season):
    night, played = swiss_of_five_partnerships(organizer, season)
    page = content(organizer.get(reverse("nights:night", args=[night.pk])))
    shown = page[page.index('data-testid="tournament-standings"') :]
    _, *page_rows = table_rows(shown[: shown.index("</table>")])

    header, *rows = csv_rows(organizer.get(reverse("nights:standings_csv", args=[night.pk])))

    assert header == [
        "place",
        "entry",
        "played",
        "won",
        "lost",
        "match points",
        "points difference",
        "buchholz",
        "head to head",
        "decided by",
    ]
    assert len(rows) == 5
    # the page's order, entries and numbers (a half as .5, not ½)
    assert [row[1] for row in rows] == [row[1] for row in page_rows]
    assert [row[2:8] for row in rows] == [
        [cell.replace("½", ".5") for cell in row[2:8]] for row in page_rows
    ]
    assert [row[0] for row in rows] == [row[0].lstrip("=") for row in page_rows]
    # the first row is decided by nothing; a row below one with more match points by them
    assert rows[0][9] == ""
    for above, row in zip(rows, rows[1:], strict=False):
        if float(above[5]) > float(row[5]):
            assert row[9] == "match points"
        elif above[0] == row[0]:
            assert row[9] == "still tied"
        else:
            assert row[9] in ("points difference", "buchholz", "head to head")


def test_a_tournaments_standings_print_on_a_plain_page(organizer, season):
    night, played = swiss_of_five_partnerships(organizer, season)

    response = Client().get(reverse("nights:standings_sheet", args=[night.pk]))

    assert response.status_code == 200
    page = content(response)
    # a plain page: no site navigation, no footer forms, a stylesheet for print
    assert 'class="site-header"' not in page
    assert "language-switcher" not in page
    assert "css/sheets.css" in page
    words = text(response)
    assert "Hall Monthly" in words
    assert "Standings after round 2 of 3" in words
    _, *rows = table_rows(page[page.index("<table") : page.index("</table>")])
    assert len(rows) == 5


def test_each_rounds_pairings_and_results_print(organizer, season):
    night, played = swiss_of_five_partnerships(organizer, season)
    third = draw(organizer, night)
    start(organizer, night, 3)

    done = Client().get(reverse("nights:round_sheet", args=[night.pk, 2]))
    playing = Client().get(reverse("nights:round_sheet", args=[night.pk, 3]))

    assert done.status_code == playing.status_code == 200
    assert "css/sheets.css" in content(done)
    _, *tables = table_rows(content(done)[content(done).index("<table") :])
    assert len(tables) == 2
    for row, (one, other) in zip(tables, sides(played[1]), strict=True):
        # table, one side, the other, the score, who won
        assert row[0] == str(tables.index(row) + 1)
        assert set(row[1].split(" & ")) == one
        assert set(row[2].split(" & ")) == other
        assert row[3] == "25 – 0"
        assert set(row[4].split(" & ")) == one
    assert "Bye: " + " & ".join(sorted(bye(played[1]), key=PLAYERS.index)) in text(done)
    # a round being played: its pairings, no score yet
    _, *tables = table_rows(content(playing)[content(playing).index("<table") :])
    assert [row[3:] for row in tables] == [["0 – 0", ""]] * len(sides(third))


def test_a_round_not_drawn_has_no_sheet(organizer, season):
    night, _ = swiss_of_five_partnerships(organizer, season)

    assert Client().get(reverse("nights:round_sheet", args=[night.pk, 7])).status_code == 404
