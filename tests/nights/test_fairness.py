"""Every draw shows how fair it is for the night so far: partners and opponents met again,
sit-outs per player, and how close the ratings predict each table."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper.leagues.ratings import NEWCOMER, Skill, closeness
from scorekeeper.nights.draw import Round, Table
from scorekeeper.nights.fairness import fairness
from tests.nights.test_nights import draw, new_night, season_of, sitting_out, start
from tests.web.pages import text
from tests.web.table import scorekeeper_client

FOUR = ("Ana", "Bo", "Cy", "Di")


def test_partners_and_opponents_met_twice_and_sit_outs_are_counted_over_the_night() -> None:
    same = Round((Table(1, FOUR, partnerships=True),), ("Eve",))
    other = Round((Table(1, ("Ana", "Bo", "Eve", "Di"), partnerships=True),), ("Cy",))

    found = fairness([same, same, other], {})

    assert found.partner_repeats == [(("Bo", "Di"), 3), (("Ana", "Cy"), 2)]
    assert (("Ana", "Bo"), 3) in found.opponent_repeats
    assert (("Bo", "Cy"), 2) in found.opponent_repeats
    assert found.sat_out == [("Eve", 2), ("Cy", 1)]


def test_each_tables_closeness_is_the_models_for_the_sides_drawn() -> None:
    skills = {"Ana": Skill(32, 2), "Bo": Skill(20, 2), "Cy": Skill(30, 2)}
    drawn = Round((Table(1, FOUR, partnerships=True), Table(2, ("Eve", "Flo"))))

    found = fairness([drawn], skills)

    ana_cy = [skills["Ana"], skills["Cy"]]
    bo_di = [skills["Bo"], NEWCOMER]
    assert found.closeness == [
        (1, pytest.approx(closeness([ana_cy, bo_di]))),
        (2, pytest.approx(1.0)),
    ]
    assert found.least_close == pytest.approx(closeness([ana_cy, bo_di]))
    assert found.closest == pytest.approx(1.0)


@pytest.mark.django_db
def test_the_nights_page_and_the_table_cards_show_the_draws_fairness() -> None:
    organizer = scorekeeper_client()
    night = new_night(organizer, season_of("straight", {"target": 25}))
    first = draw(organizer, night, seed="one")
    (out,) = sitting_out(first)

    page = text(organizer.get(reverse("nights:night", args=[night.pk])))
    start(organizer, night, 1)
    cards = text(organizer.get(reverse("nights:cards", args=[night.pk, 1])))

    # nobody has a rating yet: every table is predicted an even match
    assert "Predicted closeness of the tables: 100% to 100%" in page
    assert "Table 1: 100% · Table 2: 100%" in page
    assert f"Sat out so far: {out} 1" in page
    assert "Nobody has partnered the same player twice tonight." in page
    assert "How fair this draw is" in cards
    assert f"Sat out so far: {out} 1" in cards
