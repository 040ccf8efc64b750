"""Reading the league pages the way a player reads them: the table's rows, the listed matches."""

from __future__ import annotations

import csv
import io
import re

from django.http import HttpResponse

from tests.web.pages import content, text_of

_STANDINGS = re.compile(r'<table class="standings">(.*?)</table>', re.S)
_ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
_CELL = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
_MATCH_LINK = re.compile(r'href="/matches/(\d+)/"')
_FORFEITS = re.compile(r"\s*\(\d+ F\)$")
#: a night's result not signed yet marks its players' rows (nights/_provisional.html): the
#: tests of the numbers read the rows without it, those of the mark read the page
_PROVISIONAL = re.compile(r'\s*<small class="provisional"[^>]*>.*?</small>', re.S)


def table_rows(markup: str) -> list[list[str]]:
    """Every row of a table as the texts of its cells, the header row first."""
    markup = _PROVISIONAL.sub("", markup)
    return [[text_of(cell) for cell in _CELL.findall(row)] for row in _ROW.findall(markup)]


def standings(response: HttpResponse) -> list[dict[str, str]]:
    """The league table, a dict per player keyed by the column headings ("#", "Player", "P" ...).

    The player cell loses its "(1 F)" forfeits note; ``forfeits_note`` keeps it.
    """
    found = _STANDINGS.search(content(response))
    assert found is not None, "the page shows no standings table"
    header, *rows = table_rows(found.group(1))
    table = []
    for cells in rows:
        row = dict(zip(header, cells, strict=True))
        row["forfeits_note"] = row["Player"]
        row["Player"] = _FORFEITS.sub("", row["Player"])
        table.append(row)
    return table


def by_player(response: HttpResponse) -> dict[str, dict[str, str]]:
    return {row["Player"]: row for row in standings(response)}


def listed_matches(response: HttpResponse) -> list[int]:
    """The ids of the matches a page links to, in the order listed."""
    return [int(pk) for pk in _MATCH_LINK.findall(content(response))]


def csv_rows(response: HttpResponse) -> list[list[str]]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.reader(io.StringIO(body.decode("utf-8"))))
