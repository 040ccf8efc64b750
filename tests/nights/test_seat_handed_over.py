"""A seat handed over mid-match (*Leaving early* on the night's page): the rounds played before
stay under the player who played them, on the board, the score sheet and the history; both
players' pages list the match and say how the seat was shared; the season's standings credit
the result to the player in the seat when the match ends (docs/nights.md)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.standings import standings
from scorekeeper.tables.models import Change, Match, Player
from tests.leagues.from_scratch import season_results
from tests.nights.test_nights import (
    MEMBERS,
    draw,
    matches_of,
    member_ids,
    new_night,
    season_of,
    sitting_out,
    start,
)
from tests.web.pages import text
from tests.web.table import chickenfoot_round, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db

FIVE = MEMBERS[:5]


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


def handed_over(organizer: Client) -> tuple[Match, str, str, list[str]]:
    """A Chickenfoot night of five: one table of four, one sitting out. The table plays two
    rounds, seat 2's player leaving holding 18 pips in the first and going out in the second;
    the one sitting out takes the seat and plays round 3. The match, who left, who took the
    seat, and the seats as drawn."""
    season = season_of("chickenfoot", {}, FIVE, name="Coop")
    night = new_night(organizer, season, players=FIVE, partnerships="", most_at_a_table=4)
    first = draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302
    (spare,) = sitting_out(first)
    (match,) = matches_of(first)
    seats = seated_names(match)
    one, leaving, three, four = seats
    response = chickenfoot_round(organizer, match, went_out=one, **{leaving: 18, three: 5, four: 7})
    assert response.status_code in (200, 302)
    response = chickenfoot_round(organizer, match, went_out=leaving, **{one: 3, three: 4, four: 9})
    assert response.status_code in (200, 302)
    response = organizer.post(
        reverse("nights:leave", args=[night.pk]),
        {"player": member_ids(leaving)[0], "replacement": member_ids(spare)[0]},
    )
    assert response.status_code == 302
    assert seated_names(match)[1] == spare
    response = chickenfoot_round(organizer, match, went_out=spare, **{one: 2, three: 6, four: 1})
    assert response.status_code in (200, 302)
    return match, leaving, spare, seats


def test_the_rounds_before_the_handover_stay_under_who_played_them(organizer):
    match, leaving, spare, _ = handed_over(organizer)
    board = text(organizer.get(reverse("tables:scoreboard", args=[match.pk])))
    # round 1 was the leaver's: their 18 pips are theirs, not the newcomer's
    assert f"{leaving}: 18 pips" in board
    assert f"{spare}: 18 pips" not in board
    assert f"{leaving}, rounds 1-2; {spare} from round 3" in board
    sheet = text(organizer.get(reverse("tables:sheet", args=[match.pk])))
    assert f"{leaving}: 18 pips" in sheet
    assert f"{spare}: 18 pips" not in sheet
    assert f"{leaving}, rounds 1-2; {spare} from round 3" in sheet
    history = text(organizer.get(reverse("tables:history", args=[match.pk])))
    # round 2's entry, made with the leaver in the seat, says they went out
    assert f"Round recorded, {leaving} went out" in history
    assert f"Round recorded, {spare} went out" in history
    assert f"{leaving} left; {spare} plays on in that seat" in history


def test_both_players_pages_list_the_shared_match(organizer):
    match, leaving, spare, _ = handed_over(organizer)
    for name in (leaving, spare):
        person = Player.objects.get(name=name)
        page = text(organizer.get(reverse("leagues:player", args=[person.pk])))
        assert f"Chickenfoot #{match.pk}" in page, name
        assert f"{leaving}, rounds 1-2; {spare} from round 3" in page, name


def test_the_player_in_the_seat_at_the_end_is_credited_with_the_result(organizer):
    match, leaving, spare, seats = handed_over(organizer)
    one, _, three, four = seats
    # four more rounds (a double-six set plays seven): seat 1 goes out of each
    for _ in range(4):
        response = chickenfoot_round(
            organizer, match, went_out=one, **{spare: 1, three: 2, four: 3}
        )
        assert response.status_code in (200, 302)
    match.refresh_from_db()
    assert match.finished
    rows = {
        row.player: row
        for row in standings(season_results(match.league_entry.season_id), lowest_wins=True)
    }
    # the result is the seat's as it ended: the newcomer played it to the end
    assert rows[spare].played == 1
    assert leaving not in rows
    assert rows[one].won == 1


def test_the_history_and_the_board_say_who_left_by_their_name_as_it_is_now(organizer, admin_client):
    season = season_of("chickenfoot", {}, FIVE, name="Coop")
    night = new_night(organizer, season, players=FIVE, partnerships="", most_at_a_table=4)
    first = draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302
    (spare,) = sitting_out(first)
    (match,) = matches_of(first)
    leaving = seated_names(match)[1]
    response = organizer.post(
        reverse("nights:leave", args=[night.pk]),
        {"player": member_ids(leaving)[0], "replacement": member_ids(spare)[0]},
    )
    assert response.status_code == 302
    person = Player.objects.get(name=leaving)
    # the change keeps who left by key, not by the name they had then
    taken = Change.objects.get(match=match, kind=Change.Kind.SEAT_TAKEN)
    assert taken.params == {"seat": 1, "left": person.pk}

    response = admin_client.post(
        reverse("admin:tables_player_change", args=[person.pk]), {"name": "Leonora Left"}
    )

    assert response.status_code == 302
    said = f"Leonora Left left; {spare} plays on in that seat"
    history = text(organizer.get(reverse("tables:history", args=[match.pk])))
    assert said in history
    assert f"{leaving} left; {spare} plays on" not in history
    board = text(organizer.get(reverse("tables:scoreboard", args=[match.pk])))
    assert f"Last change: {said}" in board
