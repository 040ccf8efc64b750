"""The score of a hand being ended, on a slow network: a preview still on its way when the
last pips are typed is let finish, and then the preview shows what was typed last."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.table import hold_the_first
from tests.browser.test_tap_budget import open_board, partners_match, signed_in  # noqa: F401

END = re.compile(r"/matches/\d+/end/$")


@pytest.mark.django_db(transaction=True)
def test_pips_typed_while_a_preview_is_on_its_way_are_previewed_next(
    page: Page,
    signed_in: LiveServer,  # noqa: F811
) -> None:
    match = partners_match()
    open_board(page, signed_in, match)
    held = hold_the_first(page, END)
    end = page.locator("#end-hand")
    end.locator("summary").tap()
    with page.expect_request(END):
        end.get_by_role("radio", name="Ana").check()  # a preview of the half-filled form
    end.get_by_label("Ben & Dale together").fill("23")
    page.wait_for_timeout(600)  # the typing's preview is asked while the first is on its way

    (first,) = held
    first.continue_()

    expect(end.locator(".end-preview")).to_contain_text(
        "Ben & Dale's pips, counted together: 23.", timeout=10_000
    )
