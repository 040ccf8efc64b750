"""Reading the pages the way a player reads them: the totals, what comes next, the sentences."""

from __future__ import annotations

import html
import re

from django.http import HttpResponse

#: sent by htmx with every request it makes
HTMX = {"HX-Request": "true"}

_TOTAL = re.compile(r'data-testid="total"[^>]*>\s*(-?\d+)\s*<')
_NEXT = re.compile(r'data-testid="next">(.*?)</p>', re.S)
_WINNER = re.compile(r'data-testid="winner">(.*?)</p>', re.S)
_TAG = re.compile(r"<[^>]+>")


def content(response: HttpResponse) -> str:
    return response.content.decode()


def totals(response: HttpResponse) -> list[int]:
    """The totals on the scoreboard, in side order."""
    return [int(total) for total in _TOTAL.findall(content(response))]


def next_up(response: HttpResponse) -> str:
    found = _NEXT.search(content(response))
    assert found is not None, "the scoreboard says nothing about what comes next"
    return text_of(found.group(1))


def winner(response: HttpResponse) -> str | None:
    found = _WINNER.search(content(response))
    return text_of(found.group(1)) if found else None


def text_of(markup: str) -> str:
    """Markup as a reader sees it: no tags, entities decoded, runs of white space as one."""
    return " ".join(html.unescape(_TAG.sub(" ", markup)).split())


def text(response: HttpResponse) -> str:
    return text_of(content(response))


def is_board_only(response: HttpResponse) -> bool:
    """The answer to an htmx request: the board partial, not a whole page."""
    page = content(response)
    return 'id="board"' in page and "<html" not in page


def side_is_leading(response: HttpResponse, side: str) -> bool:
    sides = re.findall(r'<div class="total( leading)?" data-side="([^"]*)"', content(response))
    assert sides, "no totals on the page"
    return any(leading and html.unescape(name) == side for leading, name in sides)


def double_button_disabled(response: HttpResponse, tile: str) -> bool:
    found = re.search(
        rf'<button class="btn btn-double"[^>]*value="{tile}"([^>]*)>', content(response)
    )
    assert found is not None, f"no {tile} button on the page"
    return " disabled" in found.group(1)


def picked(response: HttpResponse, field: str) -> list[str]:
    """The values of the ``field`` radio buttons that are already ticked, in page order."""
    pattern = rf'<input type="radio" name="{field}" value="([^"]*)"[^>]*\bchecked'
    return [html.unescape(value) for value in re.findall(pattern, content(response))]
