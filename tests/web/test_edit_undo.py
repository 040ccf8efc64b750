"""Taking back the last entry, correcting an earlier hand, deleting one: the totals follow."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.rules import limits
from scorekeeper.tables.models import Hand, Match
from tests.seated import named_plays
from tests.web.pages import double_button_disabled, is_board_only, next_up, picked, text, totals
from tests.web.table import (
    FOUR,
    blocked,
    board,
    chickenfoot_round,
    correction,
    domino,
    lay,
    play,
    rows,
    stored,
)


def undo(client: Client, match: Match, *, htmx: bool = False):
    return client.post(
        reverse("tables:undo", args=[match.pk]), headers={"HX-Request": "true"} if htmx else {}
    )


def edit_url(match: Match, number: int) -> str:
    return reverse("tables:edit_hand", args=[match.pk, number])


def post_edit(client: Client, match: Match, number: int, data: dict):
    """Post a correction as the form does: with the fingerprint of the hand it showed, its rows
    of plays counted."""
    return client.post(edit_url(match, number), correction(match, number, data))


def delete(client: Client, match: Match, number: int):
    return client.post(reverse("tables:delete_hand", args=[match.pk, number]))


def three_hands() -> Match:
    """Ana, Bo, Cy and Di each for themselves.

    Hand 1: Ana 10 and Bo 15 in play; Ana dominoes on 12 + 9 + 11 = 32 -> 30. Ana 40, Bo 15.
    Hand 2: Bo 20 in play; blocked, Ana holds the fewest, 12 + 5 + 9 = 26 -> 25. Ana 25, Bo 20.
    Hand 3: Cy 5 in play, still being played.
    """
    return stored(
        "straight",
        *FOUR,
        hands=(
            rules.Hand(
                leader="Ana",
                plays=(rules.Play("Ana", points=10), rules.Play("Bo", points=15)),
                end=rules.HandEnd("domino", player="Ana", pips={"Bo": 12, "Cy": 9, "Di": 11}),
            ),
            rules.Hand(
                leader="Ana",
                plays=(rules.Play("Bo", points=20),),
                end=rules.HandEnd("blocked", pips={"Ana": 3, "Bo": 12, "Cy": 5, "Di": 9}),
            ),
            rules.Hand(leader="Ana", plays=(rules.Play("Cy", points=5),)),
        ),
    )


#: hand 1 of ``three_hands`` corrected: Ana's 10 was 20; Bo's 15 stands; Di held 6, not 11
HAND_ONE_CORRECTED = {
    "play-0-player": "Ana",
    "play-0-points": "20",
    "play-1-player": "Bo",
    "play-1-points": "15",
    "out": "0",
    "pips_1": "12",
    "pips_2": "9",
    "pips_3": "6",
}


# -- undo -------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_play(client: Client, straight_match: Match) -> None:
    play(client, straight_match, "Ana", 10)
    play(client, straight_match, "Bo", 15)

    response = undo(client, straight_match)

    assert response.status_code == 302
    assert totals(board(client, straight_match)) == [10, 0, 0, 0]
    assert rows(straight_match) == (1, 1)


def test_undo_sent_by_htmx_answers_with_the_board_alone(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "Ana", 10)

    response = undo(client, straight_match, htmx=True)

    assert response.status_code == 200
    assert is_board_only(response)
    assert totals(response) == [0, 0, 0, 0]


def test_undo_takes_back_the_end_of_a_hand_and_keeps_its_plays(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "Ana", 10)
    domino(client, straight_match, "Bo", Ana=13, Cy=13, Di=1)
    assert totals(board(client, straight_match)) == [10, 25, 0, 0]

    undo(client, straight_match)

    page = board(client, straight_match)
    assert totals(page) == [10, 0, 0, 0]
    assert next_up(page) == "Hand 1: Ana leads."
    assert Hand.objects.get(match=straight_match).end_how == ""
    assert rows(straight_match) == (1, 1)


def test_undo_takes_back_a_whole_chickenfoot_round(
    client: Client, chickenfoot_match: Match
) -> None:
    chickenfoot_round(client, chickenfoot_match, went_out="Bo", Ana=10, Cy=7, Di=3)
    chickenfoot_round(client, chickenfoot_match, went_out="Ana", Bo=8, Cy=2, Di=11)

    undo(client, chickenfoot_match)

    page = board(client, chickenfoot_match)
    assert totals(page) == [10, 0, 7, 3]
    assert next_up(page).startswith("Round 2 starts with 5-5")
    assert rows(chickenfoot_match) == (1, 0)


def test_undo_of_a_sedma_double_frees_its_button(client: Client, sedma_match: Match) -> None:
    lay(client, sedma_match, "Ana", "2-2")
    lay(client, sedma_match, "Bo", "4-4")

    undo(client, sedma_match)

    page = board(client, sedma_match)
    assert totals(page) == [1, 0, 0, 0]
    assert not double_button_disabled(page, "4-4")
    assert double_button_disabled(page, "2-2")


def test_undo_with_nothing_entered_changes_nothing(
    client: Client, chickenfoot_match: Match
) -> None:
    response = undo(client, chickenfoot_match)

    assert response.status_code == 302
    assert rows(chickenfoot_match) == (0, 0)


# -- editing an earlier hand ------------------------------------------------------------------


def test_the_correction_form_shows_the_hand_as_entered(client: Client, db: None) -> None:
    match = three_hands()

    response = client.get(edit_url(match, 1))

    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="play-0-points" value="10"' in page
    assert 'name="play-1-points" value="15"' in page
    assert picked(response, "out") == ["0"]  # Ana, in seat 1, dominoed
    assert 'name="pips_1" value="12"' in page


def test_correcting_an_earlier_hand_changes_the_totals(client: Client, db: None) -> None:
    match = three_hands()

    response = post_edit(client, match, 1, HAND_ONE_CORRECTED)

    assert response.status_code == 302
    page = board(client, match)
    # hand 1: Ana 20 + (12 + 9 + 6 = 27 -> 25) = 45, Bo 15; hand 2 unchanged; hand 3 Cy 5
    assert totals(page) == [45 + 25, 15 + 20, 5, 0]
    assert "Hand 1 corrected; the totals follow." in text(page)


def test_a_correction_can_remove_and_add_plays(client: Client, db: None) -> None:
    match = three_hands()

    post_edit(
        client,
        match,
        1,
        {
            "play-0-player": "Ana",
            "play-0-points": "10",
            "play-1-player": "Bo",
            "play-1-points": "15",
            "play-1-remove": "on",
            "play-2-player": "Di",
            "play-2-points": "5",
            "out": "0",
            "pips_1": "12",
            "pips_2": "9",
            "pips_3": "11",
        },
    )

    # hand 1: Ana 10 + 30, Bo nothing, Di 5
    assert totals(board(client, match)) == [40 + 25, 0 + 20, 5, 5]


def test_a_correction_the_rules_call_impossible_is_refused(client: Client, db: None) -> None:
    match = three_hands()
    data = {
        "play-0-player": "Ana",
        "play-0-points": "12",
        "play-1-player": "Bo",
        "play-1-points": "15",
        "out": "0",
        "pips_1": "12",
        "pips_2": "9",
        "pips_3": "11",
    }

    response = post_edit(client, match, 1, data)

    assert response.status_code == 422
    said = text(response)
    assert "Not saved: the rules say this cannot happen." in said
    assert "Hand 1, play 1: Ana scored 12" in said
    assert totals(board(client, match)) == [65, 35, 5, 0]

    response = post_edit(client, match, 1, {**data, "override": "1"})

    assert response.status_code == 302
    page = board(client, match)
    assert totals(page) == [12 + 30 + 25, 35, 5, 0]
    assert "Kept on purpose although the rules flag it." in text(page)


def test_correcting_the_hand_being_played_changes_its_plays(client: Client, db: None) -> None:
    match = three_hands()

    response = post_edit(client, match, 3, {"play-0-player": "Cy", "play-0-points": "15"})

    assert response.status_code == 302
    page = board(client, match)
    assert totals(page) == [65, 35, 15, 0]
    assert Hand.objects.get(match=match, number=3).end_how == ""


def test_correcting_a_chickenfoot_round_changes_the_totals(
    client: Client, chickenfoot_match: Match
) -> None:
    chickenfoot_round(client, chickenfoot_match, went_out="Bo", Ana=10, Cy=7, Di=3)
    chickenfoot_round(client, chickenfoot_match, went_out="Ana", Bo=8, Cy=2, Di=11)

    response = post_edit(
        client,
        chickenfoot_match,
        1,
        {"went_out": "1", "double_blank": "Di", "pips_0": "10", "pips_2": "7", "pips_3": "3"},
    )

    assert response.status_code == 302
    # Di held the 0-0 in round 1: 3 + 50
    assert totals(board(client, chickenfoot_match)) == [10, 8, 9, 53 + 11]


def test_the_correction_form_of_a_sedma_hand_shows_how_it_ended(
    client: Client, sedma_match: Match
) -> None:
    for player, tile in [
        ("Ana", "1-1"),
        ("Bo", "2-2"),
        ("Cy", "3-3"),
        ("Di", "4-4"),
        ("Ana", "5-5"),
        ("Bo", "6-6"),
        ("Cy", "0-0"),
    ]:
        lay(client, sedma_match, player, tile)

    response = client.get(edit_url(sedma_match, 1))

    assert response.status_code == 200
    assert picked(response, "how") == ["all-doubles"]


def test_a_sedma_hand_saved_back_unchanged_keeps_its_score(
    client: Client, sedma_match: Match
) -> None:
    laid = [("Ana", "1-1"), ("Bo", "2-2"), ("Cy", "3-3"), ("Di", "4-4")]
    laid += [("Ana", "5-5"), ("Bo", "6-6"), ("Cy", "0-0")]
    for player, tile in laid:
        lay(client, sedma_match, player, tile)
    data = {"how": "all-doubles", "player": ""}
    for i, (player, tile) in enumerate(laid):
        data |= {f"play-{i}-player": player, f"play-{i}-tile": tile}

    response = post_edit(client, sedma_match, 1, data)

    assert response.status_code == 302
    assert totals(board(client, sedma_match)) == [6, 8, 10, 4]


@pytest.mark.parametrize(
    "count",
    [
        {"play-TOTAL_FORMS": None, "play-INITIAL_FORMS": None},  # a page from before the count
        {"play-TOTAL_FORMS": "many"},
        {"play-TOTAL_FORMS": "100000"},
    ],
    ids=["missing", "not a number", "more rows than a hand holds"],
)
def test_a_correction_whose_rows_are_not_counted_as_the_page_counts_them_is_refused(
    client: Client, db: None, count: dict[str, str | None]
) -> None:
    match = three_hands()
    data = correction(match, 1, HAND_ONE_CORRECTED) | count
    sent = {name: value for name, value in data.items() if value is not None}

    response = client.post(edit_url(match, 1), sent)

    assert response.status_code == 422
    assert (
        "The rows of plays did not arrive as this page sends them: nothing was saved. Here is "
        "the hand as it is stored; make your correction again."
    ) in text(response)
    assert totals(board(client, match)) == [65, 35, 5, 0]
    # the hand as stored, counted as the page counts it: the next Save is read
    page = response.content.decode()
    assert 'name="play-0-points" value="10"' in page
    assert 'name="play-TOTAL_FORMS" value="4"' in page
    assert post_edit(client, match, 1, HAND_ONE_CORRECTED).status_code == 302
    assert totals(board(client, match)) == [45 + 25, 15 + 20, 5, 0]


def test_a_hand_kept_with_more_plays_than_a_match_file_holds_can_still_be_corrected(
    client: Client, db: None
) -> None:
    plays = tuple(rules.Play(FOUR[i % 4], points=5) for i in range(limits.MOST_PLAYS + 3))
    match = stored("straight", *FOUR, hands=(rules.Hand(leader="Ana", plays=plays),))
    data = {}
    for i, laid in enumerate(plays):
        data |= {f"play-{i}-player": laid.player, f"play-{i}-points": "5"}

    response = post_edit(client, match, 1, data | {"play-0-points": "10"})

    assert response.status_code == 302
    # Ana's 9 plays and Bo's, Cy's and Di's 8: Ana's first made a 10
    assert totals(board(client, match)) == [50, 40, 40, 40]


def test_there_is_no_correcting_a_hand_that_was_never_played(client: Client, db: None) -> None:
    match = three_hands()

    assert client.get(edit_url(match, 4)).status_code == 404
    assert post_edit(client, match, 0, {}).status_code == 404


# -- deleting a hand --------------------------------------------------------------------------


def test_deleting_a_hand_takes_its_points_away_and_renumbers_the_later_ones(
    client: Client, db: None
) -> None:
    match = three_hands()

    response = delete(client, match, 2)

    assert response.status_code == 302
    page = board(client, match)
    assert totals(page) == [40, 15, 5, 0]
    assert "Hand 2 deleted; the totals follow." in text(page)
    numbers = list(Hand.objects.filter(match=match).order_by("number").values_list("number"))
    assert numbers == [(1,), (2,)]
    # Cy's 5 was hand 3 and is now hand 2
    second = Hand.objects.get(match=match, number=2)
    assert list(named_plays(second.plays.all()).values_list("player", "points")) == [("Cy", 5)]


def test_deleting_the_first_hand_leaves_the_later_ones_whole(client: Client, db: None) -> None:
    match = three_hands()

    delete(client, match, 1)

    assert totals(board(client, match)) == [25, 20, 5, 0]
    assert rows(match) == (2, 2)


def test_deleting_a_hand_that_is_not_there_is_not_found(client: Client, db: None) -> None:
    match = three_hands()

    assert delete(client, match, 9).status_code == 404
    assert rows(match) == (3, 4)


def test_a_blocked_hand_can_be_undone_and_entered_again(
    client: Client, straight_match: Match
) -> None:
    blocked(client, straight_match, Ana=5, Bo=5, Cy=12, Di=9)
    assert totals(board(client, straight_match)) == [0, 0, 0, 0]

    undo(client, straight_match)
    blocked(client, straight_match, Ana=5, Bo=6, Cy=12, Di=9)

    # Ana holds the fewest: 6 + 12 + 9 = 27 -> 25
    assert totals(board(client, straight_match)) == [25, 0, 0, 0]
