"""A whole league as a zip of match files: export, import into an empty database, same table."""

from __future__ import annotations

import io
import json
import zipfile
from typing import TYPE_CHECKING

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.leagues import bundle
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.moves import season_match_forfeit
from scorekeeper.tables.models import Hand, Match, Play, Player, Seat
from tests.clubs import the_club
from tests.leagues.bundles import manifest_change, rewritten
from tests.leagues.pages import csv_rows, standings
from tests.leagues.season import expected_ranks, expected_records
from tests.web.pages import text

if TYPE_CHECKING:
    from tests.leagues.conftest import StoredSeason

pytestmark = pytest.mark.django_db

MODELS = (League, Season, SeasonMatch, Match, Seat, Hand, Play, Player)


def export(client: Client, league: StoredSeason) -> bytes:
    response = client.get(reverse("leagues:export_bundle", args=[league.league.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    return b"".join(response.streaming_content)


def wipe() -> None:
    """Empty the database of everything a league bundle holds."""
    League.objects.all().delete()
    Match.objects.all().delete()
    Player.objects.all().delete()
    assert rows_in_database() == dict.fromkeys(model.__name__ for model in MODELS)


def rows_in_database() -> dict[str, int | None]:
    return {model.__name__: model.objects.count() or None for model in MODELS}


def upload(client: Client, data: bytes) -> HttpResponse:
    return client.post(
        reverse("leagues:import_bundle"),
        {"file": SimpleUploadedFile("league.zip", data, content_type="application/zip")},
    )


def season_url(season: Season) -> str:
    return reverse("leagues:season", args=[season.league_id, season.pk])


def last_match_file(files: dict[str, bytes]) -> str:
    manifest = json.loads(files["league.json"])
    return manifest["seasons"][0]["matches"][-1]["file"]


# -- export then import ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["straight", "chickenfoot"])
def test_a_league_exported_and_imported_into_an_empty_database_has_identical_standings(
    client: Client, request: pytest.FixtureRequest, game: str
) -> None:
    league: StoredSeason = request.getfixturevalue(f"{game}_league")
    in_progress = next(iter(league.in_progress))
    entry = SeasonMatch.objects.get(match_id=in_progress)
    season_match_forfeit(entry=entry, side=1)
    before = standings(client.get(league.url("season")))
    before_csv = csv_rows(client.get(league.url("standings_csv")))
    data = export(client, league)
    wipe()

    response = upload(client, data)

    imported = League.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("leagues:league", args=[imported.pk])
    season = imported.seasons.get()
    assert standings(client.get(season_url(season))) == before
    after_csv = csv_rows(
        client.get(reverse("leagues:standings_csv", args=[imported.pk, season.pk]))
    )
    assert after_csv == before_csv


def test_the_imported_standings_are_the_ones_worked_out_from_the_generated_season(
    client: Client, straight_league: StoredSeason
) -> None:
    data = export(client, straight_league)
    wipe()
    upload(client, data)
    season = Season.objects.get()

    shown = standings(client.get(season_url(season)))

    records = expected_records(straight_league.matches)
    ranks = expected_ranks(straight_league.matches, records)
    assert {row["Player"]: int(row["#"]) for row in shown} == ranks
    assert {row["Player"]: (int(row["W"]), int(row["+/−"])) for row in shown} == {
        player: (record.won, record.difference) for player, record in records.items()
    }


def test_an_import_keeps_the_league_its_rules_members_seasons_and_forfeits(
    client: Client, straight_league: StoredSeason
) -> None:
    in_progress = next(iter(straight_league.in_progress))
    entry = SeasonMatch.objects.get(match_id=in_progress)
    season_match_forfeit(entry=entry, side=0)
    data = export(client, straight_league)
    wipe()

    upload(client, data)

    league = League.objects.get()
    assert (league.name, league.game, league.rules) == (
        "Thursday Fives",
        "straight",
        {"target": 60},
    )
    assert sorted(league.members.values_list("name", flat=True)) == [
        "Ana",
        "Bo",
        "Cy",
        "Di",
        "Eve",
        "Flo",
    ]
    season = league.seasons.get()
    assert (season.name, season.starts_on.isoformat()) == ("Autumn", "2026-09-01")
    assert season.entries.count() == len(straight_league.matches)
    assert list(season.entries.exclude(forfeited_by=None).values_list("forfeited_by")) == [(0,)]


def test_an_import_stopped_half_way_leaves_nothing_behind(
    client: Client, straight_league: StoredSeason, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker stopped half way through an import (its timeout, a restart) leaves nothing
    behind: the league and every match are written in the one transaction, so no part of a
    league is ever committed (a match a transaction left 2,988 of 8,000 matches behind)."""
    data = export(client, straight_league)
    wipe()
    write = bundle._write
    written: list[int] = []

    def stopped_half_way(*args: object) -> int:
        if len(written) == len(straight_league.matches) // 2:
            raise SystemExit("the worker is stopped")
        written.append(write(*args))
        return written[-1]

    monkeypatch.setattr(bundle, "_write", stopped_half_way)
    with pytest.raises(SystemExit):
        bundle.import_league(data, club=the_club())

    assert written, "some matches were written before the stop"
    assert not League.objects.exists()
    assert not Match.objects.exists()
    assert not Season.objects.exists()


def test_an_import_scores_every_match_before_it_starts_writing(
    client: Client, straight_league: StoredSeason, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The transaction only writes: on SQLite it holds the write lock while it lasts, and the
    hall's taps wait for it, so the engine's work is done before it begins."""
    data = export(client, straight_league)
    wipe()
    outside = len(connection.atomic_blocks)
    depths: list[int] = []
    score_match = rules.score_match

    def scoring(value: rules.Match) -> rules.Scoreboard:
        depths.append(len(connection.atomic_blocks))
        return score_match(value)

    monkeypatch.setattr(rules, "score_match", scoring)
    assert upload(client, data).status_code == 302

    assert len(depths) >= len(straight_league.matches)
    assert max(depths) == outside


def test_a_bundle_is_a_zip_of_the_league_and_a_match_file_per_match(
    client: Client, straight_league: StoredSeason
) -> None:
    with zipfile.ZipFile(io.BytesIO(export(client, straight_league))) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("league.json"))

    assert manifest["format"] == "dominoes-league/1"
    files = [entry["file"] for entry in manifest["seasons"][0]["matches"]]
    assert len(files) == len(straight_league.matches)
    assert names == {"league.json", *files}


def test_a_league_of_that_name_already_here_is_not_imported_again(
    client: Client, straight_league: StoredSeason
) -> None:
    data = export(client, straight_league)
    counts = rows_in_database()

    response = upload(client, data)

    assert response.status_code == 422
    assert "There is already a league called Thursday Fives." in text(response)
    assert rows_in_database() == counts


# -- broken bundles -------------------------------------------------------------------------------


def drop_last_match_file(files: dict[str, bytes]) -> None:
    del files[last_match_file(files)]


def break_last_match_file(files: dict[str, bytes]) -> None:
    files[last_match_file(files)] = b'{"format": "dominoes-match/1", "game": "straight", '


def make_last_match_sedma(files: dict[str, bytes]) -> None:
    name = last_match_file(files)
    match = json.loads(files[name])
    match["game"] = "sedma"
    match["players"] = ["Ana", "Bo", "Cy", "Di"]
    match["hands"] = []
    match.pop("partnerships", None)
    match.pop("rules", None)
    files[name] = json.dumps(match).encode()


def negative_pips_in_last_match(files: dict[str, bytes]) -> None:
    name = last_match_file(files)
    match = json.loads(files[name])
    ended = next(hand for hand in match["hands"] if hand.get("end", {}).get("pips"))
    player = next(iter(ended["end"]["pips"]))
    ended["end"]["pips"][player] = -5
    files[name] = json.dumps(match).encode()


def forfeit_by_a_side_that_is_not_there(manifest: dict) -> None:
    manifest["seasons"][0]["matches"][-1]["forfeited_by"] = 7


def season_without_dates(manifest: dict) -> None:
    del manifest["seasons"][0]["starts_on"]


def second_season_of_the_same_name(manifest: dict) -> None:
    manifest["seasons"].append({**manifest["seasons"][0], "matches": []})


def unknown_game(manifest: dict) -> None:
    manifest["game"] = "poker"


def another_format(manifest: dict) -> None:
    manifest["format"] = "dominoes-league/9"


def nameless(manifest: dict) -> None:
    manifest["name"] = " "


def seasons_not_a_list(manifest: dict) -> None:
    manifest["seasons"] = 5


def matches_not_a_list(manifest: dict) -> None:
    manifest["seasons"][0]["matches"] = "matches/1.json"


def members_not_names(manifest: dict) -> None:
    manifest["members"] = [{"name": "Ana"}]


def no_manifest(files: dict[str, bytes]) -> None:
    del files["league.json"]


BROKEN = {
    "a match file missing": (drop_last_match_file, "missing from the bundle"),
    "a match file that is not JSON": (break_last_match_file, "not-json"),
    "a match file of another game": (make_last_match_sedma, "a sedma match in a straight league"),
    "a match file with negative pips": (negative_pips_in_last_match, "invalid-number"),
    "a forfeit by a side that is not there": (
        manifest_change(forfeit_by_a_side_that_is_not_there),
        "forfeited_by must be the number of a side",
    ),
    "a season without dates": (manifest_change(season_without_dates), "needs a name and dates"),
    "two seasons of the same name": (
        manifest_change(second_season_of_the_same_name),
        "Thursday Fives already has a season called Autumn.",
    ),
    "an unknown game": (manifest_change(unknown_game), "unknown game"),
    "another format": (manifest_change(another_format), '"format": "dominoes-league/1"'),
    "a league without a name": (manifest_change(nameless), "the league needs a name"),
    "seasons that are not a list": (manifest_change(seasons_not_a_list), "seasons must be a list"),
    "matches that are not a list": (
        manifest_change(matches_not_a_list),
        "each with a list of matches",
    ),
    "members that are not names": (
        manifest_change(members_not_names),
        "members must be a list of names",
    ),
    "no league.json": (no_manifest, "Not a league bundle"),
}


@pytest.mark.parametrize("broken", BROKEN, ids=list(BROKEN))
def test_a_broken_bundle_is_refused_with_a_message_and_creates_nothing(
    client: Client, straight_league: StoredSeason, broken: str
) -> None:
    change, message = BROKEN[broken]
    data = rewritten(export(client, straight_league), change)
    wipe()

    response = upload(client, data)

    assert response.status_code == 422
    assert message in text(response)
    assert rows_in_database() == dict.fromkeys(model.__name__ for model in MODELS)


@pytest.mark.parametrize(
    "data",
    [b"", b"not a zip at all", b"PK\x03\x04 truncated"],
    ids=["empty", "text", "truncated zip"],
)
def test_a_file_that_is_not_a_zip_is_refused_with_a_message(client: Client, data: bytes) -> None:
    response = upload(client, data)

    assert response.status_code == 422
    assert "Not a league bundle" in text(response)
    assert not League.objects.exists()


def test_an_import_without_a_file_asks_for_one(client: Client) -> None:
    response = client.post(reverse("leagues:import_bundle"))

    assert response.status_code == 422
    assert "Choose a league bundle (.zip) to import." in text(response)
