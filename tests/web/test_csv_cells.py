"""No cell of a CSV the app writes opens as a formula: names that start with =, +, - or @ come
back from every export with a single quote in front (OWASP's advice against CSV injection)."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.models import League
from scorekeeper.tables.models import Match
from scorekeeper.tables.spreadsheet import FORMULA_STARTS, cell

pytestmark = pytest.mark.django_db

#: names a spreadsheet would run as formulas
HOSTILE = ['=HYPERLINK("http://evil.example","Ana")', "+Bo", "-Cy", "@Di"]

#: seven rounds, so the match is finished and counts in the standings; +Bo goes out each time
ROUND = {"end": {"how": "domino", "player": "+Bo", "pips": {HOSTILE[0]: 12, "-Cy": 3, "@Di": 8}}}
MATCH = {"game": "chickenfoot", "players": HOSTILE, "hands": [ROUND] * 7}


def sheet(response: HttpResponse) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.reader(io.StringIO(body.decode())))


def number(value: str) -> bool:
    """A negative number (a point difference) is a number to a spreadsheet, not a formula."""
    try:
        float(value)
    except ValueError:
        return False
    return True


def no_formulas(rows: list[list[str]]) -> None:
    """Every cell is plain text or a number: none starts a formula, and every name is there,
    behind its quote."""
    cells = [value for row in rows for value in row]
    assert not [value for value in cells if value.startswith(FORMULA_STARTS) and not number(value)]
    written = " ".join(cells)
    for name in HOSTILE:
        assert "'" + name in written


def bundle() -> bytes:
    manifest = {
        "format": "dominoes-league/1",
        "name": "Formula Fives",
        "game": "chickenfoot",
        "members": HOSTILE,
        "seasons": [
            {"name": "Spring", "starts_on": "2026-03-01", "matches": [{"file": "matches/1.json"}]}
        ],
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("league.json", json.dumps(manifest))
        archive.writestr("matches/1.json", json.dumps(MATCH))
    return buffer.getvalue()


def test_a_match_imported_with_formula_names_exports_them_as_text(client: Client) -> None:
    """``client``: the hall's organizer, signed in (tests/web/conftest.py)."""
    raw = json.dumps(MATCH).encode()
    client.post(reverse("tables:import_match"), {"file": SimpleUploadedFile("m.json", raw)})
    match = Match.objects.get()

    rows = sheet(Client().get(reverse("tables:export_csv", args=[match.pk])))

    no_formulas(rows)
    assert rows[0][1] == "'" + HOSTILE[0] + " points"
    # the numbers stay numbers
    assert rows[1][:5] == ["1", "12", "0", "3", "8"]


def test_a_league_with_formula_names_exports_standings_and_hands_as_text(client: Client) -> None:
    upload = SimpleUploadedFile("league.zip", bundle(), "application/zip")
    client.post(reverse("leagues:import_bundle"), {"file": upload})
    season = League.objects.get().seasons.get()
    watcher = Client()

    for name in ("standings_csv", "hands_csv"):
        url = reverse(f"leagues:{name}", args=[season.league_id, season.pk])
        no_formulas(sheet(watcher.get(url)))


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_every_cell_starting_a_formula_is_quoted(start: str) -> None:
    assert cell(f"{start}1+1") == f"'{start}1+1"


def test_plain_text_and_numbers_are_written_as_they_are() -> None:
    assert [cell(value) for value in ("Ana", "Ana & Bo", "(not finished)", -15, 12)] == [
        "Ana",
        "Ana & Bo",
        "(not finished)",
        -15,
        12,
    ]


#: names a spreadsheet splitting on another separator than the comma would cut into formulas
SPLIT = ["x;=2+2", "Bo, +Cy", "Di|@SUM(A1)", 'Eve; "-3+3']
SPLIT_MATCH = {
    "game": "chickenfoot",
    "players": SPLIT,
    "hands": [
        {
            "end": {
                "how": "domino",
                "player": "Bo, +Cy",
                "pips": {"x;=2+2": 4, "Di|@SUM(A1)": 3, 'Eve; "-3+3': 8},
            }
        }
    ]
    * 7,
}


def cells_split_on(body: str, separator: str) -> list[str]:
    """Every cell as a spreadsheet splitting on ``separator`` reads it: behind the spaces and
    quotes it skips at a cell's start."""
    rows = csv.reader(io.StringIO(body), delimiter=separator)
    return [value.lstrip(' "') for row in rows for value in row]


@pytest.mark.parametrize("separator", [",", ";", "|"])
def test_no_separator_splits_a_cell_into_a_formula(client: Client, separator: str) -> None:
    raw = json.dumps(SPLIT_MATCH).encode()
    client.post(reverse("tables:import_match"), {"file": SimpleUploadedFile("m.json", raw)})
    match = Match.objects.get()
    response = Client().get(reverse("tables:export_csv", args=[match.pk]))
    body = response.content.decode()

    cells = cells_split_on(body, separator)
    assert not [value for value in cells if value.startswith(FORMULA_STARTS) and not number(value)]
    # split on the comma, as written, every cell is quoted and comes back whole
    assert all(line.startswith('"') for line in body.splitlines())
    assert "x;'=2+2 points" in [value for row in sheet(response) for value in row]
