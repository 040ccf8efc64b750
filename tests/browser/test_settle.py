"""Settle it: one hand scored without a match, and an answer that can be shared by its address."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.table import assert_fits_the_phone, save_screenshot


def expect_answer(page: Page, points: list[str], *lines: str) -> None:
    answer = page.locator("#result")
    expect(answer.get_by_role("heading", name="Who scores what")).to_be_visible()
    expect(answer.locator("[data-side]")).to_have_text(points)
    for line in lines:
        expect(answer.get_by_role("listitem").filter(has_text=line)).to_have_count(1)


@pytest.mark.django_db(transaction=True)
def test_a_partnership_domino_is_settled_and_the_address_gives_the_same_answer(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    page.goto(live_server.url)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Settle it").tap()
    expect(page.get_by_role("heading", name="Settle it")).to_be_visible()

    page.get_by_label("Players").select_option("4")
    page.get_by_label("Partnerships").check()
    page.get_by_role("radio", name="Domino").check()
    page.get_by_label("Who dominoed").select_option(label="Seat 1")
    for seat, (name, pips) in enumerate([("Ann", ""), ("Bob", 12), ("Cy", 7), ("Dee", 11)], 1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
        page.get_by_label(f"Seat {seat} pips").fill(str(pips))
    page.get_by_role("button", name="Settle it").tap()

    answer = ["Ann & Cy 25", "Bob & Dee 0"]
    expect_answer(
        page,
        answer,
        "Opponents' pips: Bob 12 + Dee 11 = 23.",
        "23 rounds to 25 (23 is nearer 25 than 20).",
    )
    asked = parse_qs(urlsplit(page.url).query)
    assert asked["name2"] == ["Bob"]
    assert asked["pips2"] == ["12"]
    assert asked["domino"] == ["0"]
    assert asked["partnerships"] == ["on"]
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "settle-straight.png")

    # the other table opens the shared address and sees the same answer
    shared = page.url
    page.goto(live_server.url)
    page.goto(shared)
    expect_answer(page, answer, "Ann & Cy score 25.")
    expect(page.get_by_label("Seat 4 pips")).to_have_value("11")


@pytest.mark.django_db(transaction=True)
def test_the_rule_books_sedma_line_is_settled_to_1_11_0_and_9(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(f"{live_server.url}/settle/")
    page.get_by_role("link", name="Sedma").tap()
    page.get_by_label("The line, in the order laid").fill(
        "1-1 1-2 2-4 4-4 4-0 0-0 0-6 6-6 6-5 5-5 5-2 2-2 2-3 3-3"
    )
    page.get_by_role("button", name="Settle it").tap()

    answer = ["P1 1", "P2 11", "P3 0", "P4 9"]
    expect_answer(page, answer, "P2 sets 0-0: 1 + 2 for every double already down")
    assert "line=1-1+1-2" in page.url

    page.reload()
    expect_answer(page, answer, "All seven doubles are down.")
