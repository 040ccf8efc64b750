"""A league bundle is read within limits: too large, too many files, a zip bomb, league.json nested
too deep, names too long or not text, bad house rules: each gets a clear 413 or 422 and nothing is
saved. A zip bomb is refused from the zip's own directory, before anything is unpacked."""

from __future__ import annotations

import io
import json
import tracemalloc
import zipfile
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues import bundle
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.tables.models import Match, Player
from tests.web.pages import text

pytestmark = pytest.mark.django_db

MATCH = {
    "format": "dominoes-match/1",
    "game": "straight",
    "players": ["Ana", "Bo"],
    "hands": [{"end": {"how": "domino", "player": "Ana", "pips": {"Bo": 12}}}],
}


def league(**changes: Any) -> dict[str, Any]:
    manifest = {
        "format": "dominoes-league/1",
        "name": "Thursday Fives",
        "game": "straight",
        "rules": {"target": 150},
        "members": ["Ana", "Bo"],
        "seasons": [
            {"name": "Autumn", "starts_on": "2026-09-01", "matches": [{"file": "matches/1.json"}]}
        ],
    }
    manifest.update(changes)
    return manifest


def zipped(files: dict[str, bytes | str], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def a_bundle(manifest: Any = None, **files: bytes | str) -> bytes:
    manifest = league() if manifest is None else manifest
    text_of = manifest if isinstance(manifest, str) else json.dumps(manifest)
    return zipped({"league.json": text_of, "matches/1.json": json.dumps(MATCH), **files})


def upload(client: Client, data: bytes) -> HttpResponse:
    return client.post(
        reverse("leagues:import_bundle"),
        {"file": SimpleUploadedFile("league.zip", data, content_type="application/zip")},
    )


def nothing_saved() -> bool:
    return not any(model.objects.exists() for model in (League, Season, SeasonMatch, Match, Player))


def test_a_small_bundle_imports(client: Client) -> None:
    response = upload(client, a_bundle())

    assert response.status_code == 302
    assert League.objects.get().rules == {"target": 150}


# -- sizes --------------------------------------------------------------------------------------


def test_a_bundle_larger_than_the_app_takes_is_refused_as_too_large(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = a_bundle()
    monkeypatch.setattr(bundle, "MOST_BYTES", len(data) - 1)

    response = upload(client, data)

    assert response.status_code == 413
    assert "too large to be a league bundle" in text(response)
    assert nothing_saved()


def test_a_request_larger_than_a_bundle_is_refused_before_it_is_read(client: Client) -> None:
    response = client.generic(
        "POST",
        reverse("leagues:import_bundle"),
        b"--b\r\n",
        content_type="multipart/form-data; boundary=b",
        CONTENT_LENGTH=str(settings.MOST_BUNDLE_REQUEST_BYTES + 1),
    )

    assert response.status_code == 413
    assert nothing_saved()


def test_a_match_file_that_unpacks_larger_than_a_match_is_refused_before_unpacking(
    client: Client,
) -> None:
    # three megabytes of spaces pack into a few kilobytes
    bomb = a_bundle(**{"matches/1.json": " " * 3_000_000 + json.dumps(MATCH)})
    assert len(bomb) < 20_000

    with mock.patch.object(zipfile.ZipFile, "read", side_effect=AssertionError("unpacked")):
        response = upload(client, bomb)

    assert response.status_code == 413
    assert "matches/1.json unpacks to 3,000,1" in text(response)
    assert nothing_saved()


def test_files_that_unpack_to_more_than_a_bundle_are_refused_before_unpacking(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle, "MOST_UNPACKED_BYTES", 5_000_000)
    padding = {f"padding/{i}.json": " " * 1_900_000 for i in range(3)}

    with mock.patch.object(zipfile.ZipFile, "read", side_effect=AssertionError("unpacked")):
        response = upload(client, a_bundle(**padding))

    assert response.status_code == 413
    assert "unpacks to 5,7" in text(response)
    assert nothing_saved()


def test_a_bundle_of_more_files_than_a_league_has_is_refused(client: Client) -> None:
    files = {f"matches/{i}.json": "" for i in range(2, bundle.MOST_FILES + 1)}

    response = upload(client, a_bundle(**files))

    assert response.status_code == 413
    assert "files; a bundle holds at most" in text(response)
    assert nothing_saved()


# -- league.json --------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [50, 100_000], ids=["deeper than a league", "past the parser"])
def test_league_json_nested_too_deep_is_refused_with_a_message(client: Client, depth: int) -> None:
    manifest = "[" * depth + "]" * depth

    response = upload(client, a_bundle(manifest))

    assert response.status_code == 422
    assert "Not a league bundle" in text(response)
    assert "nested" in text(response)
    assert nothing_saved()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "L" * 81}, "the league needs a name (at most 80 characters"),
        ({"name": "Thursday\x00"}, "the league needs a name"),
        ({"name": "\ud800"}, "the league needs a name"),
        ({"members": ["Ana", "B" * 41]}, "members must be a list"),
        ({"members": ["Ana", "Bo\udfff"]}, "members must be a list"),
        ({"members": ["Ana"] * (bundle.MOST_MEMBERS + 1)}, "members must be a list"),
        ({"rules": {"target": 10**12}}, "rules.target: invalid-number"),
        ({"rules": {"set": 9}}, "rules.set: unknown-rule"),
        ({"rules": {"target": "\ud800"}}, "rules.target: invalid-number"),
        ({"game": "x" * 100_000}, "unknown game"),
        (
            {"seasons": [{"name": "S" * 81, "starts_on": "2026-09-01", "matches": []}]},
            "a season's name has at most 80 characters",
        ),
        (
            {"seasons": [{"name": "S", "starts_on": "2" * 100_000, "matches": []}]},
            "needs a name and dates",
        ),
        (
            {"seasons": [{"name": "S", "starts_on": "2026-09-01", "matches": [{"file": ["x"]}]}]},
            "missing from the bundle",
        ),
        (
            {
                "seasons": [
                    {"name": "S", "starts_on": "2026-09-01", "matches": [{"file": "\ud800"}]}
                ]
            },
            "missing from the bundle",
        ),
        (
            {
                "seasons": [
                    {
                        "name": "S",
                        "starts_on": "2026-09-01",
                        "matches": [{"file": "matches/1.json", "forfeited_by": True}],
                    }
                ]
            },
            "forfeited_by must be the number of a side",
        ),
    ],
    ids=[
        "league name too long",
        "NUL in the league name",
        "lone surrogate as the league name",
        "member name too long",
        "lone surrogate in a member name",
        "too many members",
        "a target past any match",
        "a rule the game does not have",
        "a target that is text",
        "a huge game",
        "season name too long",
        "a huge date",
        "a file name that is a list",
        "a file name that is a lone surrogate",
        "forfeited by true",
    ],
)
def test_what_league_json_holds_beyond_its_bounds_is_refused_with_a_short_message(
    client: Client, changes: dict[str, Any], message: str
) -> None:
    response = upload(client, a_bundle(league(**changes)))

    assert response.status_code == 422
    assert message in text(response)
    assert len(response.content) < 20_000
    assert nothing_saved()


def test_a_match_file_past_the_readers_bounds_is_refused(client: Client) -> None:
    huge = {**MATCH, "hands": [{"end": {"how": "domino", "player": "Ana", "pips": {"Bo": 3e9}}}]}
    huge["hands"][0]["end"]["pips"]["Bo"] = 3_000_000_000

    response = upload(client, a_bundle(**{"matches/1.json": json.dumps(huge)}))

    assert response.status_code == 422
    assert "hands[0].end.pips.Bo: invalid-number" in text(response)
    assert nothing_saved()


def test_a_match_file_that_cannot_be_unpacked_is_refused(client: Client) -> None:
    data = bytearray(a_bundle())
    packed = json.dumps(MATCH).encode()
    # damage the packed bytes of the match file: the last file before the directory
    directory = data.rfind(b"PK\x01\x02", 0, data.rfind(b"PK\x01\x02"))
    for at in range(directory - 20, directory - 5):
        data[at] ^= 0xFF
    assert packed not in data

    response = upload(client, bytes(data))

    assert response.status_code == 422
    assert "Not a league bundle" in text(response)
    assert nothing_saved()


# -- what the files really hold, and what league.json lists -----------------------------------


def lying_about_its_size(files: dict[str, bytes | str], name: str, declared: int) -> bytes:
    """The zip, with ``name`` declared ``declared`` bytes long in its headers whatever it
    unpacks to."""
    data = bytearray(zipped(files))
    encoded = name.encode()
    for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        at = data.find(signature)
        while at >= 0:
            if data[at + name_at : at + name_at + len(encoded)] == encoded:
                data[at + size_at : at + size_at + 4] = declared.to_bytes(4, "little")
            at = data.find(signature, at + 1)
    return bytes(data)


def test_a_file_unpacking_past_its_declared_size_is_refused_in_bounded_memory(
    client: Client,
) -> None:
    """A file that says it unpacks to a kilobyte and holds 50 MB of zeros: it is unpacked a
    piece at a time and refused at its declared size (zipfile alone unpacked it whole)."""
    bomb = lying_about_its_size(
        {"league.json": json.dumps(league()), "matches/1.json": b"\0" * 50_000_000},
        "matches/1.json",
        1_000,
    )
    assert len(bomb) < 100_000

    tracemalloc.start()
    try:
        response = upload(client, bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert response.status_code in (413, 422)
    assert peak < 10_000_000
    assert nothing_saved()


def test_a_match_file_listed_twice_is_refused(client: Client) -> None:
    """A 685-byte zip listing one file 8,000 times ran past the worker's timeout: the matches
    league.json lists are counted, each file once."""
    for times, status, said in ((3, 422, "matches/1.json is listed twice"), (8_000, 413, "")):
        listed = [{"file": "matches/1.json"}] * times
        season = {"name": "Autumn", "starts_on": "2026-09-01", "matches": listed}

        response = upload(client, a_bundle(league(seasons=[season])))

        assert response.status_code == status
        assert said in text(response)
        assert nothing_saved()


def test_a_season_of_more_matches_than_a_bundle_takes_is_refused(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle, "MOST_SEASON_MATCHES", 2)
    listed = [{"file": f"matches/{i}.json"} for i in (1, 2, 3)]
    manifest = league(seasons=[{"name": "Autumn", "starts_on": "2026-09-01", "matches": listed}])
    files = {f"matches/{i}.json": json.dumps(MATCH) for i in (2, 3)}

    response = upload(client, a_bundle(manifest, **files))

    assert response.status_code == 413
    assert "lists 3 matches; a season holds at most 2" in text(response)
    assert nothing_saved()


def test_matches_past_the_bundles_limit_are_refused_whatever_their_seasons(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bundle, "MOST_MATCHES", 2)
    seasons = [
        {
            "name": f"Season {i}",
            "starts_on": "2026-09-01",
            "matches": [{"file": f"matches/{i}.json"}],
        }
        for i in (1, 2, 3)
    ]
    files = {f"matches/{i}.json": json.dumps(MATCH) for i in (2, 3)}

    response = upload(client, a_bundle(league(seasons=seasons), **files))

    assert response.status_code == 413
    assert "lists more than 2 matches" in text(response)
    assert nothing_saved()
