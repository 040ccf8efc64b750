"""The chalk tally stays the same size whatever the score: past ten houses the board shows the
number, and no number, however large, stops the page being drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.template import Context, Template
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.tables.chalk import MOST_HOUSES, chalk_svg
from tests.web.test_chalk import strokes

#: inline in HTML, the drawing names no namespace: the HTML parser gives it SVG's
SVG = ""
#: ten whole houses, the largest tally drawn stroke by stroke
LARGEST_TALLY = len(chalk_svg(MOST_HOUSES * 50))


def drawn(points: int) -> str:
    return Template("{% load chalk_tags %}{% chalk points %}").render(Context({"points": points}))


def test_ten_houses_are_still_drawn_stroke_by_stroke() -> None:
    assert len(strokes(chalk_svg(500))) == 100


@pytest.mark.parametrize("points", [505, 10_000, 100_000, 3_000_000_000])
def test_past_ten_houses_the_number_is_written_instead_of_strokes(points: int) -> None:
    svg = ET.fromstring(chalk_svg(points))

    assert svg.findall(f"{SVG}use") == []
    assert svg.find(f"{SVG}text").text == str(points)


@pytest.mark.parametrize(
    "points", [3_000_000_000, 10**30, 10**5000], ids=["3e9", "1e30", "5000 digits"]
)
def test_a_huge_score_is_drawn_small_on_the_page(points: int) -> None:
    page = drawn(points)

    assert 0 < len(page) < 2_000
    ET.fromstring(page)


@pytest.mark.parametrize("points", [float("inf"), float("nan"), "many", None])
def test_something_that_is_no_score_draws_nothing_rather_than_failing(points: object) -> None:
    assert drawn(points) == ""


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.integers(0, 2_000), st.integers(0, 10**600)))
def test_no_tally_is_larger_than_ten_houses(points: int) -> None:
    page = drawn(points)

    assert len(page) <= LARGEST_TALLY + 200
