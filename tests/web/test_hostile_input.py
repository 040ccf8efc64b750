"""Hostile input at every form and upload of the calculator and the imports: extreme numbers, huge
strings, NUL bytes, wrong types, duplicated and missing fields. Whatever arrives, the answer is
never a server error, nothing is half saved, the page stays under 1 MB, and serving it takes less
than a second of the server's time on the idle 2-core machine (on a busier one, as many
yardsticks: tests/cpu.py)."""

from __future__ import annotations

import copy
import io
import json
import re
import time
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.tables.models import Hand, Match, Play, Player
from tests import cpu
from tests.examples import matchfile_example
from tests.web.table import scorekeeper_client
from tests.web.test_settle import FIELDS as SETTLE_FIELDS

pytestmark = pytest.mark.django_db

MOST_PAGE_BYTES = 1_000_000
#: of the server's own time (its CPU) on the idle 2-core machine
MOST_SECONDS = 1.0

FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def rows() -> dict[str, int]:
    models = (League, Season, SeasonMatch, Match, Hand, Play, Player)
    return {model.__name__: model.objects.count() for model in models}


def served(send: Callable[[], HttpResponse]) -> HttpResponse:
    """The answer to one request, held to what every answer must be."""
    started = time.process_time()
    response = send()
    spent = time.process_time() - started
    assert response.status_code < 500, response.content[:500]
    assert len(response.content) < MOST_PAGE_BYTES
    if spent >= MOST_SECONDS:
        # over the bound as the idle machine counts it: judged against the yardstick, now
        assert spent < (most := cpu.most_now(MOST_SECONDS)), f"{spent:.2f} s, at most {most:.2f} s"
    return response


@pytest.fixture
def client(db: None) -> Client:
    client = scorekeeper_client()
    client.raise_request_exception = False
    return client


# -- values as a hostile client sends them --------------------------------------------------------

EXTREME = st.sampled_from(
    [0, -1, 1, 5, 35, 37, 168, 169, 1092, 1093, 10_000, 2**31, 2**63, 2**64, 10**30, -(10**30)]
)
HUGE_TEXT = st.sampled_from(["x" * 100_000, "9" * 5_000, "6-6 " * 20_000, "Ana" * 1_000])
# form fields: text as a browser can encode it (half of a UTF-16 pair cannot be sent as UTF-8)
FIELD_TEXT = st.text(
    alphabet=st.characters(exclude_categories=("Cs",)), max_size=30
) | st.sampled_from(["\x00", "A\x00", "-", "pass", "1e999", "NaN", "٣", "²", " ", "6-6 2-2"])
FIELD_VALUE = EXTREME.map(str) | HUGE_TEXT | FIELD_TEXT

# JSON: any type where another is expected, including what no database column holds
JSON_SCALAR = (
    st.none()
    | st.booleans()
    | EXTREME
    | st.integers()
    | st.floats()
    | FIELD_TEXT
    | st.sampled_from(["\ud800", "Bo\udfff", "x" * 100_000, "Ana", "6-6", "domino", "blocked"])
)
JSON = st.recursive(
    JSON_SCALAR,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(max_size=6) | st.sampled_from(["\ud800", "\x00"]), inner, max_size=3
        )
    ),
    max_leaves=8,
)


# -- Settle it: a GET form ------------------------------------------------------------------------


@FUZZ
@given(
    game=st.sampled_from(["straight", "sedma"]),
    params=st.dictionaries(
        st.sampled_from(SETTLE_FIELDS), st.lists(FIELD_VALUE, min_size=1, max_size=3), max_size=12
    ),
)
def test_settle_it_answers_any_input_with_a_page(
    client: Client, game: str, params: dict[str, list[str]]
) -> None:
    before = rows()

    response = served(lambda: client.get(reverse("tables:settle"), {"game": game, **params}))

    # 414: an address longer than any form here sends
    assert response.status_code in (200, 414, 422)
    assert rows() == before


# -- importing a match file -----------------------------------------------------------------------

#: the example of the README's *The match file*
STRAIGHT = matchfile_example()
CHICKENFOOT = {
    "game": "chickenfoot",
    "rules": {"set": 9},
    "players": ["Ana", "Bo", "Cy"],
    "hands": [
        {
            "double": 9,
            "starter": "Bo",
            "end": {"how": "domino", "player": "Ana", "pips": {"Bo": 4}},
        },
        {"double": 8, "end": {"how": "blocked", "pips": {"Ana": 3}, "double_blank": "Cy"}},
    ],
}
SEDMA = {
    "game": "sedma",
    "players": ["Ana", "Bo", "Cy", "Di"],
    "hands": [
        {
            "opener": "Cy",
            "passed_opening": ["Ana", "Bo"],
            "plays": [{"player": "Cy", "tile": "5-5"}, {"player": "Di", "tile": "5-1"}],
            "end": {"how": "blocked"},
        },
        {"opener": "Bo", "plays": [{"player": "Bo", "tile": "6-6"}]},
    ],
}


def places(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a decoded JSON document, as the keys and indexes that lead to it."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += places(inner, (*path, index))
    return found


@st.composite
def tampered(draw: st.DrawFn, document: dict) -> bytes:
    """``document`` with a few places replaced, dropped or duplicated, as the text of a file."""
    document = copy.deepcopy(document)
    duplicated = ""
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(places(document)[1:]))
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.sampled_from(["replace", "drop", "duplicate"]))
        if how == "replace":
            parent[path[-1]] = draw(JSON)
        elif how == "drop":
            del parent[path[-1]]
        else:
            duplicated = f", {json.dumps(str(path[0]))}: {json.dumps(draw(JSON))}"
    text = json.dumps(document)
    if duplicated:
        text = text[:-1] + duplicated + "}"
    return text.encode("utf-8", "surrogatepass")


def upload(client: Client, raw: bytes) -> HttpResponse:
    return client.post(
        reverse("tables:import_match"),
        {"file": SimpleUploadedFile("match.json", raw, content_type="application/json")},
    )


def check_import(client: Client, raw: bytes) -> None:
    before = rows()

    response = served(lambda: upload(client, raw))

    assert response.status_code in (302, 413, 422)
    if response.status_code != 302:
        token = re.search(r'name="keep" value="([^"]+)"', response.content.decode())
        if token is None:
            assert rows() == before, "a refused file left something behind"
            return
        assert rows() == before, "a file with error findings was stored before it was kept"
        response = served(
            lambda: client.post(
                reverse("tables:import_match"),
                {"keep": token.group(1), "entry_key": token.group(1)},
            )
        )
        assert response.status_code == 302
    assert rows()["Match"] == before["Match"] + 1
    served(lambda: client.get(response["Location"]))


@FUZZ
@given(raw=st.sampled_from([STRAIGHT, CHICKENFOOT, SEDMA]).flatmap(tampered))
def test_an_import_answers_any_tampered_match_file_and_keeps_all_or_nothing(
    client: Client, raw: bytes
) -> None:
    check_import(client, raw)


@FUZZ
@given(
    raw=st.binary(max_size=200)
    | st.sampled_from(
        [
            b"",
            b"\x00" * 1000,
            b"[" * 100_000,
            b'{"game": "straight", "players": ["A", "B"], "game": "sedma"}',
            b'{"game": "straight", "players": ["A\\u0000", "B"]}',
            b'{"game": "straight", "players": ["\\ud800", "B"]}',
            b'{"game": "straight", "players": ["A", "B"], "hands": [' + b"{}," * 100_000 + b"{}]}",
            b"\xef\xbb\xbf{}",
            b"\xff\xfe{\x00}\x00",
        ]
    )
)
def test_an_import_answers_any_bytes(client: Client, raw: bytes) -> None:
    check_import(client, raw)


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(["file", "keep", "entry_key", "csrfmiddlewaretoken", "other"]),
        st.lists(FIELD_VALUE, min_size=1, max_size=3),
        max_size=4,
    )
)
def test_an_import_answers_fields_instead_of_a_file(
    client: Client, fields: dict[str, list[str]]
) -> None:
    before = rows()

    response = served(lambda: client.post(reverse("tables:import_match"), fields))

    assert response.status_code in (302, 422)
    assert rows() == before


# -- importing a league bundle --------------------------------------------------------------------

LEAGUE = {
    "format": "dominoes-league/1",
    "name": "Thursday Fives",
    "game": "straight",
    "rules": {"target": 300},
    "members": ["Ana", "Bo", "Cy", "Di"],
    "seasons": [
        {
            "name": "Autumn",
            "starts_on": "2026-09-01",
            "ends_on": None,
            "matches": [{"file": "matches/1.json", "forfeited_by": None}],
        }
    ],
}


def bundle_of(manifest: bytes, match: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("league.json", manifest)
        archive.writestr("matches/1.json", match)
    return buffer.getvalue()


def upload_bundle(client: Client, data: bytes) -> HttpResponse:
    return client.post(
        reverse("leagues:import_bundle"),
        {"file": SimpleUploadedFile("league.zip", data, content_type="application/zip")},
    )


def check_bundle(client: Client, data: bytes) -> None:
    before = rows()

    response = served(lambda: upload_bundle(client, data))

    assert response.status_code in (302, 413, 422)
    if response.status_code == 302:
        assert rows()["League"] == before["League"] + 1
        served(lambda: client.get(response["Location"]))
        League.objects.all().delete()
    else:
        assert rows() == before, "a refused bundle left something behind"


def as_file(document: dict) -> bytes:
    return json.dumps(document).encode()


@FUZZ
@given(manifest=tampered(LEAGUE))
def test_a_bundle_import_answers_any_tampered_league_json(client: Client, manifest: bytes) -> None:
    check_bundle(client, bundle_of(manifest, as_file(STRAIGHT)))


@FUZZ
@given(match=tampered(STRAIGHT))
def test_a_bundle_import_answers_any_tampered_match_file(client: Client, match: bytes) -> None:
    check_bundle(client, bundle_of(as_file(LEAGUE), match))


@FUZZ
@given(data=st.binary(max_size=300))
def test_a_bundle_import_answers_any_bytes(client: Client, data: bytes) -> None:
    check_bundle(client, data)


# -- any request at all ---------------------------------------------------------------------------

ID = st.integers(0, 10**25).map(str) | st.sampled_from(
    ["0", "9" * 18, "9" * 19, "-1", "1e3", "²", "٣", "1\x00"]
)
PATHS = st.sampled_from(
    [
        "/matches/{}/",
        "/matches/{}/live/",
        "/matches/{}/history/",
        "/matches/{}/sheet/",
        "/matches/{}/match.json",
        "/matches/{}/match.csv",
        "/matches/{}/share/",
        "/matches/1/hands/{}/edit/",
        "/leagues/{}/",
        "/leagues/{}/bundle.zip",
        "/leagues/1/seasons/{}/",
        "/leagues/{}/seasons/1/matches/",
        "/players/{}/",
    ]
)


@FUZZ
@given(
    path=PATHS,
    value=ID,
    query=st.dictionaries(
        st.sampled_from(["v", "match", "player", "what"]), ID | FIELD_TEXT, max_size=2
    ),
)
def test_any_id_and_query_in_a_url_is_answered_without_a_server_error(
    client: Client, path: str, value: str, query: dict[str, str]
) -> None:
    served(lambda: client.get(path.format(value), query))


BOUNDARY = st.sampled_from(
    ["", "; boundary=", "; boundary=b", '; boundary="', "; boundary=" + "b" * 100]
)


@FUZZ
@given(
    url=st.sampled_from(["tables:import_match", "leagues:import_bundle", "tables:settle"]),
    content_type=st.sampled_from(
        [
            "multipart/form-data",
            "application/x-www-form-urlencoded",
            "application/json",
            "text/plain",
        ]
    ),
    boundary=BOUNDARY,
    body=st.binary(max_size=300)
    | st.sampled_from([b"--b\r\n", b"--b--\r\n", b"a=1&" * 2000, b"%ED%A0%80=%00"]),
)
def test_any_body_of_any_type_is_answered_without_a_server_error(
    client: Client, url: str, content_type: str, boundary: str, body: bytes
) -> None:
    before = rows()

    served(lambda: client.generic("POST", reverse(url), body, content_type=content_type + boundary))

    assert rows() == before
