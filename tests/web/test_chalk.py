"""The chalk tally: a Straight Dominoes score written the way the hall writes it, a stroke for
each five and ten strokes to a house of fifty, drawn under each total on the scoreboard."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper import rules
from scorekeeper.tables.chalk import chalk_defs, chalk_svg, tally
from scorekeeper.tables.models import Match
from scorekeeper.tables.templatetags.chalk_tags import describe
from tests.web.table import board, play, stored

#: inline in HTML, the drawing names no namespace: the HTML parser gives it SVG's
SVG = ""
#: the strokes a page carries once, which every tally on it points at
DEFS = ET.fromstring(chalk_defs())


def _strokes_at(ref: str, dx: float) -> list[tuple[float, float]]:
    """Where the strokes of what ``ref`` names start, moved ``dx`` to the right: a path is a
    move for each stroke, a row of houses is the houses it points at."""
    drawn = DEFS.find(f".//*[@id='{ref.removeprefix('#')}']")
    assert drawn is not None, f"{ref} is not among the strokes the page carries"
    if drawn.tag == f"{SVG}path":
        return [(float(x) + dx, float(y)) for x, y in re.findall(r"M(\d+) (\d+)", drawn.get("d"))]
    return [
        start
        for use in drawn.findall(f"{SVG}use")
        for start in _strokes_at(use.get("href"), dx + float(use.get("x", 0)))
    ]


def strokes(svg: str) -> list[tuple[float, float]]:
    """Where each stroke of the drawing starts, as the browser draws it from the page's strokes."""
    return [
        start
        for use in ET.fromstring(svg).findall(f"{SVG}use")
        for start in _strokes_at(use.get("href"), float(use.get("x", 0)))
    ]


def strokes_drawn(svg: str) -> int:
    return len(strokes(svg))


# -- the tally itself: pure, no database ------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "houses", "strokes", "left_over"),
    [
        (0, 0, 0, 0),
        (3, 0, 0, 3),
        (5, 0, 1, 0),
        (10, 0, 2, 0),
        (45, 0, 9, 0),
        (49, 0, 9, 4),
        (50, 1, 0, 0),
        (55, 1, 1, 0),
        (100, 2, 0, 0),
        (115, 2, 3, 0),
        (117, 2, 3, 2),
        (250, 5, 0, 0),
    ],
)
def test_a_score_is_tallied_in_houses_of_fifty_and_strokes_of_five(
    points: int, houses: int, strokes: int, left_over: int
) -> None:
    assert tally(points) == (houses, strokes, left_over)


def test_the_tally_adds_back_up_to_the_score_for_every_score_up_to_300() -> None:
    for points in range(301):
        houses, strokes, left_over = tally(points)

        assert 50 * houses + 5 * strokes + left_over == points
        assert 0 <= strokes < 10
        assert 0 <= left_over < 5


def test_a_score_below_nothing_is_drawn_as_nothing() -> None:
    assert tally(-5) == (0, 0, 0)
    assert strokes_drawn(chalk_svg(-5)) == 0


@pytest.mark.parametrize("points", [0, 4, 5, 35, 45, 50, 60, 115, 117, 250, 305])
def test_the_drawing_has_ten_lines_for_each_house_and_one_for_each_stroke(points: int) -> None:
    houses, strokes, _ = tally(points)

    assert strokes_drawn(chalk_svg(points)) == 10 * houses + strokes


def test_each_house_is_drawn_in_its_own_place_side_by_side() -> None:
    svg = ET.fromstring(chalk_svg(115))
    lefts = sorted({x for x, _ in strokes(chalk_svg(115))})

    # houses start every 30 units (24 wide, a gap of 6): two whole ones and the one being built
    assert [x for x in lefts if x % 30 == 2] == [2, 32, 62]
    assert svg.get("viewBox") == "0 0 90 30"


def test_the_drawing_is_one_image_named_for_a_screen_reader_and_nothing_but_lines() -> None:
    with translation.override("en"):
        svg = ET.fromstring(chalk_svg(60, label=describe(60)))

    assert svg.get("role") == "img"
    assert svg.get("aria-label") == "60 in chalk: 1 house of fifty, 2 strokes of five"
    drawn = {element.tag for element in svg.iter()} - {f"{SVG}svg"}
    assert drawn == {f"{SVG}use"}
    # the strokes take the text colour (app.css), so they follow the light and the dark theme
    assert "stroke=" not in chalk_defs() and "fill=" not in chalk_defs()


def test_a_label_given_is_used_and_escaped() -> None:
    svg = chalk_svg(10, label='Ann & Cy: "10"')

    assert 'aria-label="Ann &amp; Cy: &quot;10&quot;"' in svg
    assert ET.fromstring(svg).get("aria-label") == 'Ann & Cy: "10"'


@pytest.mark.parametrize(
    ("points", "said"),
    [
        (0, "0 in chalk: nothing yet"),
        (3, "3 in chalk: 3 over"),
        (5, "5 in chalk: 1 stroke of five"),
        (10, "10 in chalk: 2 strokes of five"),
        (50, "50 in chalk: 1 house of fifty"),
        (100, "100 in chalk: 2 houses of fifty"),
        (115, "115 in chalk: 2 houses of fifty, 3 strokes of five"),
        (117, "117 in chalk: 2 houses of fifty, 3 strokes of five, 2 over"),
        (51, "51 in chalk: 1 house of fifty, 1 over"),
    ],
)
def test_the_tally_is_put_in_words(points: int, said: str) -> None:
    with translation.override("en"):
        assert describe(points) == said


# -- on the pages -----------------------------------------------------------------------------

_CHALK = re.compile(r'<svg [^>]*class="chalk"[^>]*aria-label="([^"]*)"')


def chalk_labels(page: str) -> list[str]:
    return [html.unescape(label) for label in _CHALK.findall(page)]


def sides_and_chalk(page: str) -> list[tuple[str, str]]:
    """Each side's name with the chalk drawn in its total's box."""
    boxes = re.findall(r'<div class="total[^"]*" data-side="([^"]*)"[^>]*>(.*?)</div>', page, re.S)
    return [(html.unescape(side), " ".join(chalk_labels(box))) for side, box in boxes]


def test_a_straight_scoreboard_shows_each_sides_score_in_chalk_under_its_total(
    client: Client, partners_match: Match
) -> None:
    for points in (20, 15, 30, 25, 10, 20):
        play(client, partners_match, "Ana", points)  # Ana & Cy: 120
    play(client, partners_match, "Bo", 35)  # Bo & Di: 35

    page = board(client, partners_match).content.decode()

    assert sides_and_chalk(page) == [
        ("Ana & Cy", "120 in chalk: 2 houses of fifty, 4 strokes of five"),
        ("Bo & Di", "35 in chalk: 7 strokes of five"),
    ]


def test_a_straight_scoreboard_just_started_shows_empty_chalk_for_everyone(
    client: Client, straight_match: Match
) -> None:
    page = board(client, straight_match).content.decode()

    assert chalk_labels(page) == ["0 in chalk: nothing yet"] * 4


def test_the_chalk_follows_an_entry_in_the_board_htmx_swaps_in(
    client: Client, straight_match: Match
) -> None:
    answer = play(client, straight_match, "Bo", 15, htmx=True)

    assert answer.status_code == 200
    assert chalk_labels(answer.content.decode()) == [
        "0 in chalk: nothing yet",
        "15 in chalk: 3 strokes of five",
        "0 in chalk: nothing yet",
        "0 in chalk: nothing yet",
    ]


@pytest.mark.parametrize("game", ["chickenfoot", "sedma"])
def test_chickenfoot_and_sedma_scoreboards_draw_no_chalk(client: Client, game: str) -> None:
    opening = rules.Hand(opener="Ana") if game == "sedma" else None
    match = stored(game, hands=(opening,) if opening else ())

    page = board(client, match).content.decode()

    assert 'data-testid="total"' in page
    assert 'class="chalk"' not in page
    assert "chalk-tally" not in page


def test_the_straight_score_sheet_writes_the_totals_in_chalk_too(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "Cy", 30)

    page = client.get(reverse("tables:sheet", args=[straight_match.pk])).content.decode()

    assert chalk_labels(page) == [
        "0 in chalk: nothing yet",
        "0 in chalk: nothing yet",
        "30 in chalk: 6 strokes of five",
        "0 in chalk: nothing yet",
    ]


def test_a_sedma_score_sheet_has_no_chalk(client: Client, sedma_match: Match) -> None:
    page = client.get(reverse("tables:sheet", args=[sedma_match.pk])).content.decode()

    assert 'class="chalk"' not in page


@pytest.mark.parametrize("page_name", ["tables:scoreboard", "tables:sheet"])
def test_every_tally_on_a_page_points_at_strokes_the_page_carries_once(
    client: Client, straight_match: Match, page_name: str
) -> None:
    for player, points in (("Ana", 10), ("Bo", 35), ("Cy", 30), ("Cy", 25)):
        play(client, straight_match, player, points)

    page = client.get(reverse(page_name, args=[straight_match.pk])).content.decode()

    assert page.count('id="chalk-s10"') == 1
    tallies = "".join(re.findall(r'<svg class="chalk"[^>]*>(.*?)</svg>', page))
    pointed_at = set(re.findall(r'<use href="#(chalk-[hs]\d+)"', tallies))
    # Ana 10, Bo 35, Cy 55: two strokes, seven, a house and one
    assert pointed_at == {"chalk-s2", "chalk-s7", "chalk-h1", "chalk-s1"}
    assert all(f'id="{name}"' in page for name in pointed_at)
