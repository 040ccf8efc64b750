"""The table flow as requests: the other side's pips counted together, the lead, the same play
from two phones, Undo saying what it takes back, who went out as a choice, "66" as a tile."""

from __future__ import annotations

import re

from django.http import HttpResponse

from scorekeeper import rules
from scorekeeper.tables.models import Hand, Match, Play
from tests.web.pages import picked, text, totals
from tests.web.table import (
    FOUR,
    board,
    chickenfoot_round,
    lay,
    pips_fields,
    play,
    post,
    rows,
    scorekeeper_client,
    stored,
)


def lead_ticked(response: HttpResponse) -> bool:
    """Whether the board offers the lead toggle, ticked (it is offered for a hand's first play)."""
    box = re.search(r'<input type="checkbox" name="lead"[^>]*>', response.content.decode())
    return box is not None and " checked" in box.group(0)


def partners() -> Match:
    return stored(
        "straight",
        *FOUR,
        partnerships=(("Ana", "Cy"), ("Bo", "Di")),
        hands=(rules.Hand(leader="Ana"),),
    )


# -- the end of a hand ---------------------------------------------------------------------------


def test_the_other_side_may_count_their_pips_together(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    response = post(client, "end_hand", match, {"out": "0", "side_1": "23"})

    assert response.status_code == 302
    page = board(client, match)
    assert totals(page) == [25, 0]
    assert "Bo & Di's pips, counted together: 23." in text(page)


def test_the_other_side_counted_one_by_one_gives_the_same_score(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    response = post(
        client, "end_hand", match, {"out": "0", **pips_fields(match, {"Bo": 12, "Di": 11})}
    )

    assert response.status_code == 302
    assert totals(board(client, match)) == [25, 0]


def test_a_side_counted_together_and_one_by_one_is_asked_which(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    response = post(
        client, "end_hand", match, {"out": "0", "side_1": "23", **pips_fields(match, {"Bo": 12})}
    )

    assert response.status_code == 422
    assert "Give Bo & Di's pips together or one by one, not both." in text(response)
    assert rows(match) == (1, 0)
    assert Hand.objects.get(match=match).end_how == ""


def test_after_a_domino_only_the_opponents_pips_are_asked_for(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    response = post(client, "end_hand", match, {"out": "1", **pips_fields(match, {"Ana": 4})})

    assert response.status_code == 422
    said = text(response)
    assert "Enter Cy's pips (0 if none)." in said
    assert "Enter Di's pips" not in said  # Bo's partner: their pips do not count


def test_a_hand_end_needs_who_went_out_or_blocked(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    response = post(client, "end_hand", match, {"side_1": "23"})

    assert response.status_code == 422
    assert "Tap who dominoed, or Blocked." in text(response)


def test_the_live_preview_shows_the_score_and_saves_nothing(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    response = post(
        client, "end_hand", match, {"out": "0", "side_1": "23", "preview": "1"}, htmx=True
    )

    assert response.status_code == 200
    said = text(response)
    assert "Check before saving: hand 1" in said
    assert "23 rounds to 25" in said
    assert Hand.objects.get(match=match).end_how == ""


def test_a_chickenfoot_round_needs_who_went_out_or_blocked(db: None) -> None:
    client = scorekeeper_client()
    match = stored("chickenfoot", "Ana", "Bo", "Cy")

    response = post(client, "end_hand", match, pips_fields(match, {"Ana": 3, "Bo": 4, "Cy": 5}))

    assert response.status_code == 422
    assert "Tap who went out, or Blocked." in text(response)
    assert rows(match) == (0, 0)

    blocked = chickenfoot_round(client, match, went_out="", Ana=3, Bo=4, Cy=5)
    assert blocked.status_code == 302
    assert totals(board(client, match)) == [3, 4, 5]


# -- the lead --------------------------------------------------------------------------------


def test_the_lead_is_ticked_for_the_first_play_of_a_hand_only(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    assert lead_ticked(board(client, match))
    play(client, match, "Ana", 10, lead="on")
    assert not lead_ticked(board(client, match))
    assert Play.objects.get(hand__match=match).lead


def test_a_lead_over_ten_is_refused_unless_kept(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    refused = play(client, match, "Ana", 25, lead="on")

    assert refused.status_code == 422
    assert "the lead scored 25, but a lead tile alone makes at most 10" in text(refused)
    assert "Keep 25 for Ana anyway" in text(refused)
    assert rows(match) == (1, 0)

    kept = play(client, match, "Ana", 25, lead="on", override="on")
    assert kept.status_code == 302
    assert totals(board(client, match)) == [25, 0]


def test_a_play_by_anyone_but_the_leader_is_no_lead(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    response = play(client, match, "Bo", 25, lead="on", leader="Ana")

    assert response.status_code == 302
    assert not Play.objects.get(hand__match=match).lead


def test_a_lead_tells_who_led_the_first_hand_left_to_the_table(db: None) -> None:
    client = scorekeeper_client()
    match = stored("straight", *FOUR)

    play(client, match, "Cy", 10, lead="on")

    assert Hand.objects.get(match=match).leader_seat == 2


def test_another_number_goes_to_the_player_picked_above(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    response = play(client, match, "Bo", "", other_points="40")

    assert response.status_code == 422  # 40 is more than a play can make
    assert "Keep 40 for Bo anyway" in text(response)
    play(client, match, "Bo", "", other_points="30")
    assert totals(board(client, match)) == [0, 30]


# -- two phones, one play --------------------------------------------------------------------


def test_the_same_play_from_another_phone_is_asked_about_first(db: None) -> None:
    match = partners()
    first, second = scorekeeper_client(), scorekeeper_client()

    play(first, match, "Di", 15)
    asked = play(second, match, "Di", 15)

    assert asked.status_code == 422
    assert "Di 15 was just entered by organizer's phone. Add another?" in text(asked)
    assert rows(match) == (1, 1)

    again = play(second, match, "Di", 15, again="on")
    assert again.status_code == 302
    assert totals(board(second, match)) == [0, 30]


def test_the_same_phone_entering_a_play_twice_is_not_asked(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    play(client, match, "Di", 15)
    play(client, match, "Di", 15)

    assert totals(board(client, match)) == [0, 30]


def test_a_different_play_from_another_phone_is_not_asked(db: None) -> None:
    match = partners()
    first, second = scorekeeper_client(), scorekeeper_client()

    play(first, match, "Di", 15)
    play(second, match, "Di", 20)
    play(second, match, "Bo", 15)

    assert totals(board(first, match)) == [0, 50]


# -- undo, says what it takes back -----------------------------------------------------------


def test_undo_says_what_it_will_take_back(db: None) -> None:
    client = scorekeeper_client()
    match = partners()

    play(client, match, "Di", 15)
    assert "Undo: Di 15" in text(board(client, match))

    post(client, "end_hand", match, {"out": "0", "side_1": "23"})
    assert "Undo: end of hand 1" in text(board(client, match))

    post(client, "undo", match, {})
    assert "Undo: Di 15" in text(board(client, match))


# -- Sedma -----------------------------------------------------------------------------------


def test_sixty_six_typed_is_the_double_six(db: None) -> None:
    client = scorekeeper_client()
    match = stored("sedma", *FOUR, hands=(rules.Hand(opener="Ana"),))

    response = lay(client, match, "Ana", "", other_tile="66")

    assert response.status_code == 302
    assert Play.objects.get(hand__match=match).tile == "6-6"


def test_the_next_layer_is_picked_left_of_the_last(db: None) -> None:
    client = scorekeeper_client()
    match = stored("sedma", *FOUR, hands=(rules.Hand(opener="Ana"),))

    lay(client, match, "Ana", "3-3")

    assert picked(board(client, match), "player") == ["1"]  # Bo's seat
