from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.tables.models import Match, Player, Seat
from tests.web.pages import next_up, text, totals
from tests.web.table import FOUR, board, start

pytestmark = pytest.mark.django_db


def seated(match: Match) -> list[tuple[str, int | None]]:
    return [
        (seat.player.name, seat.team)
        for seat in Seat.objects.filter(match=match).order_by("position").select_related("player")
    ]


def only_match() -> Match:
    assert Match.objects.count() == 1
    return Match.objects.get()


@pytest.mark.parametrize("game", ["straight", "chickenfoot", "sedma"])
def test_starting_a_match_opens_its_scoreboard(client: Client, game: str) -> None:
    response = start(client, game, *FOUR)

    match = only_match()
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:scoreboard", args=[match.pk])
    assert match.game == game
    assert totals(board(client, match)) == [0, 0, 0, 0]


def test_the_players_sit_in_the_order_they_were_typed(client: Client) -> None:
    start(client, "straight", "Di", "Ana", "", "Cy")

    match = only_match()
    assert seated(match) == [("Di", None), ("Ana", None), ("Cy", None)]
    sides = board(client, match).content.decode()
    assert sides.index('data-side="Di"') < sides.index('data-side="Ana"')
    assert sides.index('data-side="Ana"') < sides.index('data-side="Cy"')


def test_partnerships_put_seats_one_and_three_against_two_and_four(client: Client) -> None:
    start(client, "straight", *FOUR, partnerships="on")

    match = only_match()
    assert seated(match) == [("Ana", 0), ("Bo", 1), ("Cy", 0), ("Di", 1)]
    page = board(client, match)
    assert 'data-side="Ana &amp; Cy"' in page.content.decode()
    assert 'data-side="Bo &amp; Di"' in page.content.decode()
    assert totals(page) == [0, 0]


def test_four_players_at_straight_start_as_partnerships_unless_unticked(client: Client) -> None:
    form = client.get(reverse("tables:new_match", args=["straight"])).content.decode()
    box = re.search(r'<input[^>]*name="partnerships"[^>]*>', form).group(0)
    assert "checked" in box

    start(client, "straight", "Ana", "Bo", "Cy", partnerships="on")
    start(client, "straight", *FOUR)  # the box unticked: a browser sends nothing for it

    three, four = Match.objects.order_by("pk")
    assert [side for _, side in seated(three)] == [None, None, None]
    assert [side for _, side in seated(four)] == [None, None, None, None]


@pytest.mark.parametrize("game", ["straight", "chickenfoot", "sedma"])
def test_house_rules_left_at_their_defaults_are_not_stored(client: Client, game: str) -> None:
    start(client, game, *FOUR)

    assert only_match().rules == {}


@pytest.mark.parametrize(
    ("game", "sent", "kept"),
    [
        # the spinner box left unticked is not sent at all
        (
            "straight",
            {"target": "150", "round_each_hand": "on"},
            {"target": 150, "spinner": False, "round_each_hand": True},
        ),
        (
            "straight",
            {"target": "250", "spinner": "on", "subtract_own": "on"},
            {"subtract_own": True},
        ),
        ("chickenfoot", {"set": "9", "double_blank": "25"}, {"set": 9, "double_blank": 25}),
        ("chickenfoot", {"set": "12", "double_blank": "50"}, {"set": 12}),
        ("sedma", {"target": "60"}, {"target": 60}),
    ],
)
def test_only_the_house_rules_that_differ_from_the_defaults_are_stored(
    client: Client, game: str, sent: dict[str, str], kept: dict
) -> None:
    seats = {f"seat_{seat}": name for seat, name in enumerate(FOUR, 1)}

    response = client.post(reverse("tables:new_match", args=[game]), {**seats, **sent})

    assert response.status_code == 302
    assert only_match().rules == kept


def test_the_scoreboard_says_what_the_match_is_played_to(client: Client) -> None:
    start(client, "sedma", *FOUR, target="60")

    assert "Playing to 60." in text(board(client, only_match()))


def test_the_player_chosen_to_lead_leads_the_first_hand(client: Client) -> None:
    start(client, "straight", *FOUR, first="2")

    assert next_up(board(client, only_match())) == "Hand 1: Bo leads."


def test_without_a_chosen_leader_the_highest_double_leads(client: Client) -> None:
    start(client, "straight", *FOUR)

    assert next_up(board(client, only_match())) == (
        "Hand 1: whoever drew the highest double leads."
    )


def test_a_double_nine_chickenfoot_seats_eight_and_starts_with_nine_nine(client: Client) -> None:
    names = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
    start(client, "chickenfoot", *names, set="9")

    match = only_match()
    assert [name for name, _ in seated(match)] == list(names)
    page = board(client, match)
    assert totals(page) == [0] * 8
    assert next_up(page).startswith("Round 1 starts with 9-9")


def test_a_known_player_typed_in_another_case_is_refused_with_their_name(client: Client) -> None:
    start(client, "straight", "Ana", "Bo")
    response = start(client, "straight", "ANA", "Cy")

    assert response.status_code == 422
    assert "ANA looks like the known player Ana: write Ana to seat them" in text(response)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ana", "Bo"]
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    ("game", "names", "fields", "message"),
    [
        ("sedma", ("Ana", "Bo", "Cy"), {}, "Sedma needs exactly 4 players; 3 are seated."),
        (
            "chickenfoot",
            ("Ana", "Bo", "Cy", "Di", "Ed"),
            {"set": "6"},
            "Chickenfoot needs 2 to 4 players with a double-six set; 5 are seated.",
        ),
        (
            "chickenfoot",
            ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"),
            {"set": "9"},
            "Chickenfoot needs 2 to 8 players with a double-nine set; 9 are seated.",
        ),
        ("straight", ("Ana",), {}, "Straight Dominoes needs 2 to 4 players; 1 is seated."),
        (
            "straight",
            ("Ana", "Bo", "ana"),
            {},
            "ana and Ana are the same player (names differing only in capitals and spaces "
            "are one player)",
        ),
    ],
)
def test_a_match_that_cannot_be_played_is_not_started(
    client: Client, game: str, names: tuple[str, ...], fields: dict[str, str], message: str
) -> None:
    response = start(client, game, *names, **fields)

    assert response.status_code == 422
    assert message in text(response)
    assert Match.objects.count() == 0
    assert Player.objects.count() == 0


def test_a_setup_without_a_target_asks_for_one(client: Client) -> None:
    response = client.post(
        reverse("tables:new_match", args=["sedma"]),
        {f"seat_{i}": name for i, name in enumerate(FOUR, 1)},
    )

    assert response.status_code == 422
    assert "This field is required." in text(response)
    assert Match.objects.count() == 0


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_game_is_not_found(client: Client, method: str) -> None:
    response = getattr(client, method)("/matches/new/dominoes/", {"seat_1": "Ana"})

    assert response.status_code == 404
    assert Match.objects.count() == 0


@pytest.mark.parametrize(("game", "seats"), [("straight", 4), ("chickenfoot", 8), ("sedma", 4)])
def test_the_setup_form_has_a_box_for_every_seat_the_game_allows(
    client: Client, game: str, seats: int
) -> None:
    response = client.get(reverse("tables:new_match", args=[game]))

    assert response.status_code == 200
    page = response.content.decode()
    assert f'name="seat_{seats}"' in page
    assert f'name="seat_{seats + 1}"' not in page
