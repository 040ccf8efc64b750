from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from scorekeeper import rules
from scorekeeper.tables import entries
from scorekeeper.tables.models import Hand, Match
from scorekeeper.tables.recording import Outcome
from tests.web.pages import is_board_only, next_up, picked, text, totals, winner
from tests.web.table import FOUR, blocked, board, domino, play, rows, saved, stored

TEAMS = (("Ana", "Cy"), ("Bo", "Di"))


def straight(**house_rules: int | bool) -> Match:
    return stored("straight", *FOUR, rules=house_rules, hands=(rules.Hand(leader="Ana"),))


def partners(**house_rules: int | bool) -> Match:
    return stored(
        "straight",
        *FOUR,
        partnerships=TEAMS,
        rules=house_rules,
        hands=(rules.Hand(leader="Ana"),),
    )


# -- plays ------------------------------------------------------------------------------------


def test_a_play_goes_back_to_the_scoreboard_with_the_points_added(
    client: Client, straight_match: Match
) -> None:
    response = play(client, straight_match, "Bo", 10)

    assert saved(response, straight_match)
    assert totals(board(client, straight_match)) == [0, 10, 0, 0]


def test_a_play_sent_by_htmx_answers_with_the_board_alone(
    client: Client, straight_match: Match
) -> None:
    response = play(client, straight_match, "Bo", 10, htmx=True)

    assert response.status_code == 200
    assert is_board_only(response)
    assert totals(response) == [0, 10, 0, 0]


def test_plays_add_up_for_each_player(client: Client, straight_match: Match) -> None:
    for player, points in [("Ana", 10), ("Bo", 15), ("Ana", 5), ("Di", 35)]:
        play(client, straight_match, player, points)

    assert totals(board(client, straight_match)) == [15, 15, 0, 35]


def test_a_play_counts_for_the_players_partnership(client: Client, partners_match: Match) -> None:
    for player, points in [("Bo", 15), ("Ana", 5), ("Di", 10), ("Cy", 20)]:
        play(client, partners_match, player, points)

    assert totals(board(client, partners_match)) == [25, 25]


def test_nobody_is_picked_after_a_play_so_the_next_tap_asks_who(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "Cy", 10)

    assert picked(board(client, straight_match), "player") == []


# -- the end of a hand ------------------------------------------------------------------------


def test_a_domino_scores_the_opponents_pips_rounded_to_five(
    client: Client, straight_match: Match
) -> None:
    response = domino(client, straight_match, "Bo", Ana=13, Cy=13, Di=1)

    assert saved(response, straight_match)
    page = board(client, straight_match)
    # 13 + 13 + 1 = 27, nearer 25 than 30; rounding each hand would make 15 + 15 + 0 = 30
    assert totals(page) == [0, 25, 0, 0]
    assert next_up(page) == "Hand 2: Bo leads."


def test_a_domino_sent_by_htmx_answers_with_the_board_alone(
    client: Client, straight_match: Match
) -> None:
    response = domino(client, straight_match, "Bo", htmx=True, Ana=13, Cy=13, Di=1)

    assert response.status_code == 200
    assert is_board_only(response)
    assert totals(response) == [0, 25, 0, 0]
    assert next_up(response) == "Hand 2: Bo leads."


def test_the_plays_and_the_domino_of_a_hand_add_up(client: Client, straight_match: Match) -> None:
    play(client, straight_match, "Ana", 10)
    play(client, straight_match, "Bo", 15)
    domino(client, straight_match, "Ana", Bo=12, Cy=9, Di=11)

    # Ana: 10 in play, then 12 + 9 + 11 = 32 rounds to 30
    assert totals(board(client, straight_match)) == [40, 15, 0, 0]


def test_a_partners_pips_do_not_count_after_a_domino(client: Client, partners_match: Match) -> None:
    domino(client, partners_match, "Ana", Bo=12, Cy=9, Di=11)

    page = board(client, partners_match)
    # Bo 12 + Di 11 = 23 rounds to 25; Cy's 9 would have made 32, rounding to 30
    assert totals(page) == [25, 0]
    assert "Cy's 9 pips are Ana's partner's and do not count." in text(page)
    assert next_up(page) == "Hand 2: Ana leads."


def test_a_blocked_hand_goes_to_the_partnership_with_the_fewest_pips(
    client: Client, partners_match: Match
) -> None:
    blocked(client, partners_match, Ana=3, Bo=12, Cy=5, Di=9)

    page = board(client, partners_match)
    # Ana & Cy hold 3 + 5 = 8, Bo & Di 12 + 9 = 21, which rounds to 20
    assert totals(page) == [20, 0]
    assert next_up(page) == "Hand 2: Ana leads."


def test_a_blocked_hand_goes_to_the_player_with_the_fewest_pips(
    client: Client, straight_match: Match
) -> None:
    blocked(client, straight_match, Ana=7, Bo=3, Cy=12, Di=9)

    page = board(client, straight_match)
    # 7 + 12 + 9 = 28 rounds to 30
    assert totals(page) == [0, 30, 0, 0]
    assert next_up(page) == "Hand 2: Bo leads."


def test_a_blocked_tie_scores_nobody_and_passes_the_lead_to_the_left(
    client: Client, partners_match: Match
) -> None:
    blocked(client, partners_match, Ana=5, Bo=6, Cy=6, Di=5)

    page = board(client, partners_match)
    assert totals(page) == [0, 0]
    assert next_up(page) == "Hand 2: Bo leads."


def test_rounding_each_hand_is_a_house_rule(client: Client, db: None) -> None:
    match = straight(round_each_hand=True)

    domino(client, match, "Bo", Ana=13, Cy=13, Di=1)

    # 13 -> 15, 13 -> 15, 1 -> 0
    assert totals(board(client, match)) == [0, 30, 0, 0]


def test_subtracting_the_partners_pips_is_a_house_rule(client: Client, db: None) -> None:
    match = partners(subtract_own=True)

    domino(client, match, "Ana", Bo=12, Cy=9, Di=11)

    # 23 - 9 = 14, rounds to 15
    assert totals(board(client, match)) == [15, 0]


# -- preview ----------------------------------------------------------------------------------


def test_a_preview_shows_the_score_and_its_arithmetic_and_saves_nothing(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "Ana", 10)
    before = rows(straight_match)

    response = domino(client, straight_match, "Bo", Ana=13, Cy=13, Di=1, extra={"preview": "1"})

    assert response.status_code == 200
    said = text(response)
    assert "Check before saving: hand 1" in said
    assert "27 rounds to 25 (27 is nearer 25 than 30)." in said
    assert "Bo scores 25." in said
    # the totals are the stored ones: Ana's play, not Bo's domino
    assert totals(response) == [10, 0, 0, 0]
    assert rows(straight_match) == before
    assert Hand.objects.get(match=straight_match).end_how == ""
    assert totals(board(client, straight_match)) == [10, 0, 0, 0]


def test_a_preview_as_the_pips_are_typed_takes_no_lock(
    client: Client, straight_match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview comes at every pause in the typing: it opens no transaction (on SQLite,
    the database's write lock, which every tap at every table would wait for)."""
    play(client, straight_match, "Ana", 10)
    outside = len(connection.atomic_blocks)
    depths: list[int] = []
    hand_end_preview = entries.hand_end_preview

    def previewing(**kwargs: object) -> Outcome:
        depths.append(len(connection.atomic_blocks))
        return hand_end_preview(**kwargs)

    monkeypatch.setattr(entries, "hand_end_preview", previewing)
    response = domino(client, straight_match, "Bo", Ana=13, Cy=13, Di=1, extra={"preview": "1"})

    assert response.status_code == 200
    assert "Bo scores 25." in text(response)
    assert depths == [outside]


def test_a_preview_before_the_pips_are_typed_is_answered_not_refused(
    client: Client, straight_match: Match
) -> None:
    """Tapping who dominoed before typing the pips asks for a preview of a form half filled
    in: nothing was sent to be saved, so nothing is refused (a 422 is logged on the phone's
    console as a failed request each time). Saving that form is refused."""
    play(client, straight_match, "Ana", 10)
    before = rows(straight_match)

    previewed = domino(client, straight_match, "Bo", htmx=True, extra={"preview": "1"})
    saved_now = domino(client, straight_match, "Bo", htmx=True)

    assert previewed.status_code == 200
    assert saved_now.status_code == 422
    assert rows(straight_match) == before


# -- winning ----------------------------------------------------------------------------------


def test_reaching_the_target_with_a_domino_wins_the_match(client: Client, db: None) -> None:
    match = straight(target=50)
    play(client, match, "Ana", 35)

    domino(client, match, "Ana", Bo=10, Cy=3, Di=2)

    page = board(client, match)
    assert totals(page) == [50, 0, 0, 0]
    assert winner(page) == "Ana wins the match."
    assert Match.objects.get(pk=match.pk).finished


def test_reaching_the_target_in_play_wins_at_once(client: Client, db: None) -> None:
    match = partners(target=50)
    play(client, match, "Ana", 30)

    play(client, match, "Cy", 20)

    page = board(client, match)
    assert totals(page) == [50, 0]
    assert winner(page) == "Ana & Cy win the match."
    assert "End the hand" not in text(page)


@pytest.mark.parametrize("spinner", [True, False])
def test_the_points_buttons_stop_at_the_most_a_layout_can_show(
    client: Client, db: None, spinner: bool
) -> None:
    match = straight(spinner=spinner)

    page = board(client, match).content.decode()

    highest = 35 if spinner else 20
    assert f'name="points" value="{highest}"' in page
    assert f'name="points" value="{highest + 5}"' not in page
