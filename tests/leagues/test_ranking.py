"""A league chooses how its standings are ranked, and the page says which rule is in force."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.models import League
from tests.leagues.conftest import StoredSeason
from tests.leagues.pages import standings
from tests.leagues.season import expected_ranks, expected_records
from tests.web.pages import text


def test_a_league_is_created_with_the_ranking_its_organizer_picked(client: Client) -> None:
    client.post(
        reverse("leagues:league_list"),
        {"name": "Hall", "game": "straight", "ranking": "win %", "ranking_minimum": "5"},
    )

    league = League.objects.get()
    assert (league.ranking, league.ranking_minimum) == ("win %", 5)


def test_a_league_left_as_it_is_ranks_by_matches_won(client: Client) -> None:
    client.post(reverse("leagues:league_list"), {"name": "Hall", "game": "straight"})

    assert League.objects.get().ranking == "wins"


def test_the_standings_say_they_are_ranked_by_wins_then_win_percent(
    client: Client, straight_league: StoredSeason
) -> None:
    shown = text(client.get(straight_league.url("season")))

    assert "Ranked by matches won." in shown
    assert "Ties are broken by win %, then head-to-head wins" in shown


@pytest.mark.parametrize("minimum", [0, 4])
def test_ranked_by_win_percent_the_page_says_so_and_ranks_that_way(
    client: Client, straight_league: StoredSeason, minimum: int
) -> None:
    League.objects.filter(pk=straight_league.league.pk).update(
        ranking="win %", ranking_minimum=minimum
    )

    response = client.get(straight_league.url("season"))

    shown = text(response)
    if minimum:
        assert "players who played fewer matches than the minimum (4) come after" in shown
    else:
        assert "Ranked by win %." in shown
    assert "Ties are broken by head-to-head wins among the tied players, then point" in shown
    if not minimum:
        records = expected_records(straight_league.matches)
        ranks = expected_ranks(straight_league.matches, records, by="win %")
        assert {row["Player"]: int(row["#"]) for row in standings(response)} == ranks


def test_ranked_by_points_the_page_states_what_a_win_is_worth(
    client: Client, straight_league: StoredSeason
) -> None:
    League.objects.filter(pk=straight_league.league.pk).update(ranking="points")

    shown = text(client.get(straight_league.url("season")))

    assert "Ranked by points: 2 for a win, 1 for a win shared with another side." in shown
