"""A whole league as one zip: `league.json` plus a match file per match.

`league.json` (format "dominoes-league/1") names the league, its game, house rules and members,
and its seasons with their matches in the order they were played, each pointing at its match
file under `matches/` and saying which side forfeited, if one did.
"""

from __future__ import annotations

import datetime
import io
import json
import zipfile

from django.db import transaction
from django.utils.translation import gettext

from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.results import season_entries
from scorekeeper.rules.match import GAMES
from scorekeeper.rules.matchfile import MatchFileError, dumps_match, read_match
from scorekeeper.tables.scoring import create_match, match_value, player_named, refetch

FORMAT = "dominoes-league/1"
MOST_BYTES = 50_000_000


class BundleError(ValueError):
    pass


def export_league(league: League) -> bytes:
    buffer = io.BytesIO()
    seasons = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for season in league.seasons.order_by("starts_on", "pk"):
            matches = []
            for entry in season_entries(season.pk):
                name = f"matches/{entry.match_id}.json"
                archive.writestr(name, dumps_match(match_value(refetch(entry.match))))
                matches.append({"file": name, "forfeited_by": entry.forfeited_by})
            seasons.append(
                {
                    "name": season.name,
                    "starts_on": season.starts_on.isoformat(),
                    "ends_on": season.ends_on.isoformat() if season.ends_on else None,
                    "matches": matches,
                }
            )
        manifest = {
            "format": FORMAT,
            "name": league.name,
            "game": league.game,
            "rules": league.rules,
            "members": sorted(league.members.values_list("name", flat=True)),
            "seasons": seasons,
        }
        archive.writestr("league.json", json.dumps(manifest, indent=2, ensure_ascii=False))
    return buffer.getvalue()


def import_league(data: bytes) -> League:
    """Create the league, its seasons and matches in one transaction: all or nothing."""
    if len(data) > MOST_BYTES:
        raise BundleError(gettext("That file is too large to be a league bundle."))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        manifest = json.loads(archive.read("league.json"))
    except (zipfile.BadZipFile, KeyError, ValueError) as error:
        # the details name places in the files and stay in English, as the file formats do
        raise BundleError(
            gettext("Not a league bundle (a zip with league.json): %(error)s") % {"error": error}
        ) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BundleError(f'league.json: expected "format": "{FORMAT}".')
    name = manifest.get("name")
    if not isinstance(name, str) or not name.strip():
        raise BundleError("league.json: the league needs a name.")
    if League.objects.filter(name__iexact=name).exists():
        raise BundleError(gettext("There is already a league called %(name)s.") % {"name": name})
    game = manifest.get("game")
    if game not in GAMES:
        raise BundleError(f"league.json: unknown game {game!r}.")
    rules = manifest.get("rules") or {}
    members = manifest.get("members", [])
    seasons = manifest.get("seasons", [])
    if not isinstance(rules, dict):
        raise BundleError("league.json: rules must be an object of house rules.")
    if not isinstance(members, list) or not all(
        isinstance(member, str) and 0 < len(member.strip()) <= 40 for member in members
    ):
        raise BundleError("league.json: members must be a list of names (at most 40 characters).")
    if not isinstance(seasons, list) or not all(
        isinstance(season, dict) and isinstance(season.get("matches", []), list)
        for season in seasons
    ):
        raise BundleError("league.json: seasons must be a list, each with a list of matches.")
    with transaction.atomic():
        league = League.objects.create(name=name, game=game, rules=rules)
        league.members.set([player_named(member.strip()) for member in members])
        for i, season_data in enumerate(seasons):
            season = _season(league, season_data, f"league.json: seasons[{i}]")
            for entry in season_data.get("matches", []):
                _match(archive, season, entry, game)
    return league


def _season(league: League, data: dict, where: str) -> Season:
    try:
        starts_on = datetime.date.fromisoformat(data["starts_on"])
        ends_on = datetime.date.fromisoformat(data["ends_on"]) if data.get("ends_on") else None
        name = str(data["name"])
    except (KeyError, TypeError, ValueError) as error:
        raise BundleError(f"{where}: needs a name and dates like 2026-09-01 ({error}).") from None
    # the unique constraint would fail the whole import with a server error instead
    if league.seasons.filter(name__iexact=name).exists():
        already = gettext("%(league)s already has a season called %(name)s.") % {
            "league": league,
            "name": name,
        }
        raise BundleError(f"{where}: {already}")
    return Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)


def _match(archive: zipfile.ZipFile, season: Season, entry: dict, game: str) -> None:
    name = entry.get("file", "") if isinstance(entry, dict) else ""
    try:
        value = read_match(archive.read(name))
    except KeyError:
        raise BundleError(f"{name or '(no file named)'}: missing from the bundle.") from None
    except MatchFileError as error:
        raise BundleError(f"{name}: {error}") from None
    if value.game != game:
        raise BundleError(f"{name}: a {value.game} match in a {game} league.")
    match = create_match(value)
    forfeited_by = entry.get("forfeited_by")
    if forfeited_by is not None and (
        not isinstance(forfeited_by, int) or not 0 <= forfeited_by < len(value.sides)
    ):
        raise BundleError(f"{name}: forfeited_by must be the number of a side.")
    SeasonMatch.objects.create(season=season, match=match, forfeited_by=forfeited_by)
