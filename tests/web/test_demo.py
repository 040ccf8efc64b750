from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.models import Season
from scorekeeper.nights.models import Night, NightTable
from scorekeeper.tables.models import Match
from tests.web.pages import totals

pytestmark = pytest.mark.django_db


def demo() -> str:
    out = io.StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_starts_one_match_of_each_game_in_an_empty_database() -> None:
    demo()

    played = Match.objects.filter(finished=False, night_table=None)
    assert sorted(played.values_list("game", flat=True)) == [
        "chickenfoot",
        "sedma",
        "straight",
    ]


def test_demo_plays_a_league_season_with_three_finished_matches() -> None:
    said = demo()

    season = Season.objects.get()
    finished = [entry.match for entry in season.entries.filter(match__night_table=None)]
    assert [match.finished for match in finished] == [True, True, True]
    # each race to 100 was won by the first to reach it
    assert sorted(match.winner_text for match in finished) == ["Dale", "Lupe", "Rosa"]
    assert "Sign in as demo with the password" in said


def test_demo_starts_tonights_league_night_with_its_members(client: Client) -> None:
    said = demo()

    night = Night.objects.get()
    season = Season.objects.get()
    assert night.season == season
    members = set(season.league.members.values_list("pk", flat=True))
    assert set(night.check_ins.values_list("player_id", flat=True)) == members
    (first,) = night.night_rounds.all()
    seated = {pk for table in first.tables.all() for pk in table.player_ids}
    assert seated | set(first.sitting_out_ids) == members
    assert all(table.match.league_entry.season == season for table in first.tables.all())
    board = reverse("nights:board", args=[night.pk])
    assert board in said
    assert "Round 1 of 3" in client.get(board).content.decode()


def test_demo_adds_nothing_the_second_time() -> None:
    demo()

    said = demo()

    assert Match.objects.count() == 6 + NightTable.objects.count()
    assert "no demo data added" in said


def test_the_demo_matches_are_scored_on_their_scoreboards(client: Client) -> None:
    demo()

    shown = {
        match.game: totals(client.get(reverse("tables:scoreboard", args=[match.pk])))
        for match in Match.objects.filter(finished=False, night_table=None)
    }
    # Straight, Rosa & Lupe against Earl & Dale. Hand 1: 10 + 5 in play, then Lupe dominoes
    # on Earl 13 + Dale 9 = 22 -> 20; Earl & Dale 15. Hand 2: Lupe 20, Dale 10; blocked,
    # Rosa & Lupe 8 + 11 = 19 against Earl & Dale 4 + 3 = 7, who score 19 -> 20.
    # Hand 3: Dale 5, Rosa 15.
    assert shown["straight"] == [15 + 20 + 20 + 15, 15 + 10 + 20 + 5]
    # Chickenfoot: round 1 Rosa 14, Earl out, Wanda 22, Hank 5 + 50; round 2 Rosa out.
    assert shown["chickenfoot"] == [14, 31, 22 + 9, 55 + 17]
    # Sedma, hand 1: Jirka 1-1 1; Lida 4-4 2, 6-6 4, 2-2 3; Bara 0-0 3, 5-5 4, 3-3 4.
    # Hand 2: Bara 3-3 1; Ota 5-5 2.
    assert shown["sedma"] == [1, 3 + 4 + 4 + 1, 2, 2 + 4 + 3]
