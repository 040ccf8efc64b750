"""The entry forms post seats, not names: a player renamed, or a seat taken over, since a phone
drew its board never makes a tap fail, and the phone's next poll shows the new name."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.tables.models import Match, Player, Seat
from tests.web.pages import HTMX, content, picked, text, totals
from tests.web.table import FOUR, board, play, post, stored

pytestmark = pytest.mark.django_db


def rename(match: Match, seat: int, new: str) -> None:
    """The player in ``seat`` is renamed (in the admin)."""
    Player.objects.filter(seats__match=match, seats__position=seat).update(name=new)


def take_over(match: Match, seat: int, new: str) -> None:
    """Someone else plays on in ``seat``, as a league night's "leaves, X takes the seat" does."""
    player = Player.objects.create(name=new)
    Seat.objects.filter(match=match, position=seat).update(player=player)
    Match.objects.filter(pk=match.pk).update(version=match.version + 1)


def test_the_buttons_post_the_seat(client: Client, straight_match: Match) -> None:
    page = content(board(client, straight_match))

    assert 'name="player" value="1"' in page
    assert 'name="player" value="Bo"' not in page


@pytest.mark.parametrize("change", [rename, take_over])
def test_a_tap_on_a_board_drawn_before_the_seat_changed_records_for_the_seat(
    client: Client, straight_match: Match, change
) -> None:
    board(client, straight_match)  # drawn with Bo in seat 2
    change(straight_match, 1, "Yul")

    response = play(client, straight_match, "1", 10, htmx=True)

    assert response.status_code == 200, text(response)
    assert "not one of the available choices" not in text(response)
    assert totals(board(client, straight_match)) == [0, 10, 0, 0]
    assert "Yul 10" in text(board(client, straight_match))


def test_a_tap_from_a_board_that_still_posts_names_records(
    client: Client, straight_match: Match
) -> None:
    response = play(client, straight_match, "Bo", 10, htmx=True)

    assert response.status_code == 200
    assert totals(board(client, straight_match)) == [0, 10, 0, 0]


def test_a_name_no_longer_seated_is_refused_with_a_clear_message_and_the_board_as_it_is(
    client: Client, straight_match: Match
) -> None:
    rename(straight_match, 1, "Yul")

    response = play(client, straight_match, "Bo", 10, htmx=True)

    assert response.status_code == 422
    assert "does not sit at this table now" in text(response)
    assert "Yul" in text(response)
    assert totals(board(client, straight_match)) == [0, 0, 0, 0]


def test_a_hand_end_from_a_board_drawn_before_a_seat_was_taken_over_records_for_the_seat(
    client: Client, straight_match: Match
) -> None:
    take_over(straight_match, 1, "Yul")

    response = post(
        client,
        "end_hand",
        straight_match,
        {"out": "1", "pips_0": "10", "pips_2": "10", "pips_3": "5"},
        htmx=True,
    )

    assert response.status_code == 200, text(response)
    assert totals(board(client, straight_match)) == [0, 25, 0, 0]


def test_a_sedma_tile_laid_from_a_board_drawn_before_a_rename_records_for_the_seat(
    client: Client,
) -> None:
    match = stored("sedma", *FOUR, hands=(rules.Hand(opener="Ana"),))
    rename(match, 0, "Yul")

    response = post(client, "record_play", match, {"player": "0", "tile": "6-6"}, htmx=True)

    assert response.status_code == 200, text(response)
    assert "Yul 6-6" in text(board(client, match))


def test_the_poll_after_a_seat_was_taken_over_renames_the_buttons(
    client: Client, straight_match: Match
) -> None:
    drawn = straight_match.version
    take_over(straight_match, 1, "Yul")

    response = client.get(
        reverse("tables:live", args=[straight_match.pk]) + f"?v={drawn}", headers=HTMX
    )

    assert response.status_code == 200
    assert """hx-swap-oob='innerHTML:[data-seat="1"]'>Yul</span>""" in content(response)


def test_after_a_play_nobody_is_picked_for_the_next(client: Client, straight_match: Match) -> None:
    assert picked(board(client, straight_match), "player") == ["0"]  # Ana leads

    play(client, straight_match, "1", 10, htmx=True)

    assert picked(board(client, straight_match), "player") == []


def test_a_points_tap_with_nobody_picked_asks_who_and_records_nothing(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "1", 10)
    page = content(board(client, straight_match))
    # the browser asks before it sends (without JavaScript too)
    assert 'name="player" value="0" id="id_player_0" required' in page

    response = post(client, "record_play", straight_match, {"points": "15"}, htmx=True)

    assert response.status_code == 422
    assert "Tap who scored, then the points." in text(response)
    assert totals(board(client, straight_match)) == [0, 10, 0, 0]


def test_a_tap_that_wins_the_match_brings_the_whole_board_without_the_buttons(
    client: Client,
) -> None:
    match = stored("straight", "Ana", "Bo", rules={"target": 30}, hands=(rules.Hand(leader="Ana"),))
    play(client, match, "0", 10, htmx=True)
    match.refresh_from_db()

    response = play(client, match, "0", 20, htmx=True, drawn=str(match.version))

    assert response.status_code == 200
    assert "HX-Retarget" not in response
    assert 'id="play-entry"' not in content(response)
    assert "Ana wins the match." in text(response)


# -- the start is not an entry ---------------------------------------------------------------


def test_a_fresh_board_offers_no_undo_of_the_leader_chosen_at_the_start(
    client: Client, straight_match: Match
) -> None:
    page = text(board(client, straight_match))

    assert "Undo:" not in page
    post(client, "undo", straight_match, {}, htmx=True)
    assert "Hand 1: Ana leads." in text(board(client, straight_match))


def test_a_fresh_sedma_board_offers_no_undo_of_the_opener_chosen_at_the_start(
    client: Client,
) -> None:
    match = stored("sedma", *FOUR, hands=(rules.Hand(opener="Cy"),))

    assert "Undo:" not in text(board(client, match))


def test_the_lead_row_keeps_its_room_once_the_lead_is_played(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "0", 10)

    page = content(board(client, straight_match))
    assert 'name="lead"' not in page
    assert 'class="check lead-toggle lead-played" aria-hidden="true"' in page
