"""A league match whose time was called (docs/rules.md, *Time called*): the hand that decided it
decides the scoreboard and the standings, though a target is reached in a hand kept after it."""

from __future__ import annotations

from django.test import Client

from scorekeeper import rules
from tests.leagues.conftest import store_season
from tests.leagues.pages import by_player
from tests.leagues.season import Generated
from tests.web.pages import side_is_leading, text, totals, winner
from tests.web.table import board

FOUR = ("Ana", "Bo", "Cy", "Di")
#: the seven doubles from the lightest, 0-0 last: 1 + 2 + ... + 7 = 28 for one player
ALL_DOUBLES = (1, 2, 3, 4, 5, 6, 0)


def doubles(*laid: tuple[str, int]) -> tuple[rules.Play, ...]:
    return tuple(rules.Play(player, tile=(d, d)) for player, d in laid)


def all_seven(player: str) -> tuple[rules.Play, ...]:
    return doubles(*((player, d) for d in ALL_DOUBLES))


#: Ana 28, Bo 28; time was called in hand 3, which leaves Bo ahead 43 to 34; in hand 4, kept
#: anyway, Ana sets all seven doubles and reaches 62, past the target of 61
DECIDED_FOR_BO = rules.Match(
    "sedma",
    FOUR,
    rules={"last_hand": 3},
    hands=(
        rules.Hand(opener="Ana", plays=all_seven("Ana")),
        rules.Hand(opener="Bo", plays=all_seven("Bo")),
        rules.Hand(
            opener="Ana",
            plays=doubles(("Ana", 1), ("Ana", 2), ("Ana", 3), ("Bo", 4), ("Bo", 5), ("Bo", 6)),
            end=rules.HandEnd("blocked"),
        ),
        rules.Hand(opener="Ana", plays=all_seven("Ana")),
    ),
)


def test_a_match_decided_at_time_is_won_on_its_board_and_in_the_standings(
    client: Client, db: None
) -> None:
    season = store_season("sedma", [], name="Sedma Tuesdays", house_rules={})
    match = season.add(
        Generated(
            value=DECIDED_FOR_BO,
            sides=tuple((player,) for player in FOUR),
            totals=(62, 43, 0, 0),
            finished=True,
            winners=frozenset({1}),
        )
    )

    page = board(client, match)
    assert totals(page) == [62, 43, 0, 0]
    assert winner(page) == "Bo wins the match."
    # the winner's total is the one marked, not Ana's higher one kept after the end
    assert [side_is_leading(page, name) for name in FOUR] == [False, True, False, False]
    assert "Hand 4: recorded after Bo had won the match." in text(page)
    rows = by_player(client.get(season.url("season")))
    assert (rows["Bo"]["W"], rows["Bo"]["L"]) == ("1", "0")
    assert (rows["Ana"]["W"], rows["Ana"]["L"]) == ("0", "1")
