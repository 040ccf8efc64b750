"""A whole league as one zip: `league.json` plus a match file per match.

`league.json` (format "dominoes-league/1") names the league, its game, house rules and members,
and its seasons with their matches in the order they were played, each pointing at its match
file under `matches/` and saying which side forfeited, if one did.

A bundle is read within limits (docs/limits.md): its size as uploaded, and from the zip's own
directory, before anything is unpacked, its number of files and what they unpack to; then the
nesting of league.json, its names and counts, and each match file as the match file reader
reads one.
"""

from __future__ import annotations

import datetime
import io
import json
import unicodedata
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import Any, TypeGuard

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext

from scorekeeper.clubs.models import Club
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.moves import matches_imported
from scorekeeper.leagues.results import in_chunks, stored_matches
from scorekeeper.rules import limits
from scorekeeper.rules.match import GAMES
from scorekeeper.rules.matchfile import (
    MatchFileError,
    dumps_match,
    nesting_depth,
    parse_rules,
    read_match,
)
from scorekeeper.tables.names import BadName, name_key, normal_name
from scorekeeper.tables.players import alike_among, look_alikes, stored_names
from scorekeeper.tables.scoring import ScoredMatch, create_match, player_named, score_new_match
from scorekeeper.tables.seats import by_name

FORMAT = "dominoes-league/1"
#: the zip as uploaded
MOST_BYTES = 50_000_000
#: league.json and a match file per match: 20,000 matches are a busy hall's many years
MOST_FILES = 20_001
#: what the files unpack to, all told: as the zip's directory declares it, and as they are
#: unpacked (a file is unpacked a piece at a time, never past its declared size)
MOST_UNPACKED_BYTES = 200_000_000
#: league.json: a line or two per match
MOST_MANIFEST_BYTES = 5_000_000
#: a file of the bundle is unpacked this much at a time
UNPACK_PIECE = 64 * 1024
#: matches in a bundle, and in one of its seasons, as league.json lists them (each match file
#: at most once). A bundle is imported in one transaction, about 10 ms of CPU a match (10,001
#: matches took 96 s): this many keep it to some 20 s, inside the app server's 30-s timeout
MOST_MATCHES = 2_000
MOST_SEASON_MATCHES = 2_000
#: league.json nests 4 deep (the league, its seasons, a season's matches, a match); a value of
#: the wrong shape a few levels deeper is still told apart, anything deeper is no league
MOST_DEPTH = 8
MOST_SEASONS = 500
MOST_MEMBERS = 1000
#: a league's and a season's name, as the tables keep them
MOST_LEAGUE_NAME = 80


class BundleError(ValueError):
    #: the bundle holds something the app cannot keep
    status = 422


class BundleTooLarge(BundleError):
    #: the bundle, or something in it, is larger than the app takes
    status = 413


#: the matches read and written at a time: an export makes the same few queries for each so
#: many matches (results.stored_matches), and holds no more than these in memory, whatever the
#: league's size
EXPORT_CHUNK = 200
#: the zip is handed on to the client in pieces of about this size
EXPORT_PIECE = 64 * 1024


def export_league(league: League) -> Iterator[bytes]:
    """The league's bundle, as it is written: for a StreamingHttpResponse."""
    seasons = [
        (
            season.name,
            season.starts_on,
            season.ends_on,
            SeasonMatch.objects.filter(season=season).order_by(
                "match__finished_at", "created_at", "pk"
            ),
        )
        for season in league.seasons.order_by("starts_on", "pk")
    ]
    return export_bundle(league, league.name, seasons)


#: a season as a bundle holds it: its name, first and last day, and its entries in order
BundledSeason = tuple[str, datetime.date, "datetime.date | None", QuerySet[SeasonMatch]]


class _Pipe(io.RawIOBase):
    """What the zip is written to: it keeps what was written until it is taken. It cannot
    seek, so zipfile writes each file's sizes after it (a data descriptor) and never goes
    back."""

    def __init__(self) -> None:
        super().__init__()
        self._pieces: list[bytes] = []
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self._pieces.append(bytes(data))
        self.size += len(data)
        return len(data)

    def take(self) -> bytes:
        taken = b"".join(self._pieces)
        self._pieces.clear()
        self.size = 0
        return taken


def _match_files(entries: QuerySet[SeasonMatch]) -> Iterator[tuple[int, int | None, str]]:
    """Each entry's match id, the side that forfeited it and its match file, a chunk of
    matches read at a time as plain values (results.stored_matches)."""
    rows = entries.values_list("match_id", "forfeited_by", "match__game", "match__rules")
    for chunk in in_chunks(rows.iterator(chunk_size=EXPORT_CHUNK), EXPORT_CHUNK):
        forfeits = {pk: forfeited for pk, forfeited, _, _ in chunk}
        stored = stored_matches([(pk, game, rules) for pk, _, game, rules in chunk])
        for pk, seated, value in stored:
            yield pk, forfeits[pk], dumps_match(by_name(value, seated.players))


def export_bundle(league: League, name: str, seasons: list[BundledSeason]) -> Iterator[bytes]:
    """The league's game, rules and members, under ``name``, with the seasons given (a whole
    league's, or one night's matches as a season of its own): the zip in pieces, as it is
    written, a chunk of matches read at a time."""
    pipe = _Pipe()
    written = []
    with zipfile.ZipFile(pipe, "w", zipfile.ZIP_DEFLATED) as archive:
        for season_name, starts_on, ends_on, entries in seasons:
            matches = []
            for match_id, forfeited_by, match_file in _match_files(entries):
                file = f"matches/{match_id}.json"
                archive.writestr(file, match_file)
                matches.append({"file": file, "forfeited_by": forfeited_by})
                if pipe.size >= EXPORT_PIECE:
                    yield pipe.take()
            written.append(
                {
                    "name": season_name,
                    "starts_on": starts_on.isoformat(),
                    "ends_on": ends_on.isoformat() if ends_on else None,
                    "matches": matches,
                }
            )
        manifest = {
            "format": FORMAT,
            "name": name,
            "game": league.game,
            "rules": league.rules,
            "members": sorted(league.members.values_list("name", flat=True)),
            "seasons": written,
        }
        archive.writestr("league.json", json.dumps(manifest, indent=2, ensure_ascii=False))
    yield pipe.take()


#: how many matches are read between two reports of progress
PROGRESS_EVERY = 50


def import_league(
    data: bytes, *, club: Club, progress: Callable[[int, int], None] | None = None
) -> League:
    """Create the league, its seasons and matches: all or nothing, in one transaction.
    ``progress``, if given, is told how many of the listed matches are read and checked so far,
    and how many are listed, as the reading goes (before the transaction: it may write)."""
    if len(data) > MOST_BYTES:
        raise _too_large(f"{len(data):,} bytes; a bundle has at most {MOST_BYTES:,}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError, OSError) as error:
        raise _not_a_bundle(error) from None
    _check_sizes(archive)
    unpacker = _Unpacker(archive)
    manifest = _manifest(unpacker)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BundleError(f'league.json: expected "format": "{FORMAT}".')
    name = manifest.get("name")
    if not _is_name(name, MOST_LEAGUE_NAME):
        raise BundleError(
            f"league.json: the league needs a name (at most {MOST_LEAGUE_NAME} characters, "
            "none of them control characters)."
        )
    if League.objects.filter(club=club, name__iexact=name).exists():
        raise BundleError(gettext("There is already a league called %(name)s.") % {"name": name})
    game = manifest.get("game")
    if game not in GAMES:
        raise BundleError(f"league.json: unknown game {_short(repr(game))}.")
    rules = manifest.get("rules") or {}
    members = manifest.get("members", [])
    seasons = manifest.get("seasons", [])
    if not isinstance(rules, dict):
        raise BundleError("league.json: rules must be an object of house rules.")
    try:
        parse_rules(game, rules)
    except MatchFileError as error:
        raise BundleError(f"league.json: {error}") from None
    if (
        not isinstance(members, list)
        or len(members) > MOST_MEMBERS
        or not all(_is_name(member, limits.MOST_NAME_LENGTH) for member in members)
    ):
        raise BundleError(
            f"league.json: members must be a list of names (at most {MOST_MEMBERS}, "
            f"each at most {limits.MOST_NAME_LENGTH} characters)."
        )
    if (
        not isinstance(seasons, list)
        or len(seasons) > MOST_SEASONS
        or not all(
            isinstance(season, dict) and isinstance(season.get("matches", []), list)
            for season in seasons
        )
    ):
        raise BundleError(
            f"league.json: seasons must be a list (at most {MOST_SEASONS}), each with a list "
            "of matches."
        )
    members = _member_names(members)
    listed = _check_matches(seasons)
    told = progress or (lambda read, listed: None)
    told(0, listed)
    # Everything is read, checked and scored first: the transaction below only writes. One
    # transaction, so a bundle is imported whole or not at all, even when the worker is stopped
    # half way (a match a transaction left part of a league behind). On SQLite it holds the
    # write lock while it lasts and the hall's taps wait for it: only for the writing, which
    # MOST_MATCHES keeps to what the worker's timeout allows (docs/limits.md).
    scored: list[list[tuple[ScoredMatch, int | None]]] = []
    read = 0
    for season_data in seasons:
        scored.append([])
        for entry in season_data.get("matches", []):
            scored[-1].append(_scored(unpacker, entry, game))
            read += 1
            if read % PROGRESS_EVERY == 0:
                told(read, listed)
    told(listed, listed)
    with transaction.atomic():
        league = League.objects.create(club=club, name=name, game=game, rules=rules)
        league.members.set([player_named(member) for member in members])
        written = []
        for i, (season_data, matches) in enumerate(zip(seasons, scored, strict=True)):
            season = _season(league, season_data, f"league.json: seasons[{i}]")
            written.append(season)
            for match, forfeited_by in matches:
                _write(season, match, forfeited_by)
        matches_imported(game=game, seasons=written)
    return league


def _check_matches(seasons: list[dict]) -> int:
    """Count the matches league.json lists, not the files in the zip: each file once, so many
    in a season and in the bundle. Returns how many."""
    listed: set[str] = set()
    count = 0
    for i, season in enumerate(seasons):
        matches = season.get("matches", [])
        if len(matches) > MOST_SEASON_MATCHES:
            raise _too_large(
                f"league.json: seasons[{i}] lists {len(matches):,} matches; a season holds at "
                f"most {MOST_SEASON_MATCHES:,}"
            )
        for entry in matches:
            file = entry.get("file") if isinstance(entry, dict) else None
            if isinstance(file, str):
                if file in listed:
                    raise BundleError(
                        f"league.json: {_short(file)} is listed twice; each match has a file of "
                        "its own."
                    )
                listed.add(file)
        count += len(matches)
        if count > MOST_MATCHES:
            raise _too_large(f"league.json lists more than {MOST_MATCHES:,} matches")
    return count


def _member_names(members: list[str]) -> list[str]:
    """The members' names as the tables store them, each once; a known player written another
    way is refused."""
    names: dict[str, str] = {}
    for i, member in enumerate(members):
        try:
            name = normal_name(member)
        except BadName as problem:
            raise BundleError(f"league.json: members[{i}]: {problem}") from None
        names.setdefault(name_key(name), name)
    alike = alike_among(names.values())
    if alike is not None:
        later, earlier = alike
        raise BundleError(
            f"league.json: members: {_short(repr(later))} looks like {_short(repr(earlier))}; "
            "give each player a name that tells them apart"
        )
    found = look_alikes(names.values())
    if found:
        name, known = next(iter(found.items()))
        raise BundleError(
            f"league.json: members: {_short(repr(name))} is the known player {known!r} written "
            f"another way; write {known!r} for them, or a name that tells a new player apart"
        )
    return list(names.values())


def _not_a_bundle(error: object) -> BundleError:
    # the details name places in the files and stay in English, as the file formats do
    return BundleError(
        gettext("Not a league bundle (a zip with league.json): %(error)s") % {"error": error}
    )


def _too_large(detail: str) -> BundleTooLarge:
    return BundleTooLarge(f"{gettext('That file is too large to be a league bundle.')} ({detail})")


def _check_sizes(archive: zipfile.ZipFile) -> None:
    """Refuse a bundle by what its directory declares, before a single file is unpacked."""
    files = archive.infolist()
    if len(files) > MOST_FILES:
        raise _too_large(f"{len(files):,} files; a bundle holds at most {MOST_FILES:,}")
    unpacked = sum(info.file_size for info in files)
    if unpacked > MOST_UNPACKED_BYTES:
        raise _too_large(
            f"it unpacks to {unpacked:,} bytes; a bundle unpacks to at most {MOST_UNPACKED_BYTES:,}"
        )
    for info in files:
        most = MOST_MANIFEST_BYTES if info.filename == "league.json" else limits.MOST_FILE_BYTES
        if info.file_size > most:
            raise _too_large(
                f"{_short(info.filename)} unpacks to {info.file_size:,} bytes, at most {most:,}"
            )


class _Unpacker:
    """Unpacks the bundle's files a piece at a time, and stops at what each one declared and at
    what the bundle may unpack to all told: memory stays bounded whatever the archive claims (a
    member declared small that inflates to a gigabyte is refused after its declared size)."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.left = MOST_UNPACKED_BYTES

    def read(self, name: str) -> bytes:
        """One file of the bundle; a file that is missing or cannot be unpacked is no bundle."""
        info = self.archive.getinfo(name)
        most = MOST_MANIFEST_BYTES if name == "league.json" else limits.MOST_FILE_BYTES
        pieces = []
        size = 0
        try:
            with self.archive.open(info) as member:
                while piece := member.read(UNPACK_PIECE):
                    size += len(piece)
                    if size > min(info.file_size, most, self.left):
                        raise _too_large(
                            f"{_short(name)} unpacks to more than the {info.file_size:,} bytes it "
                            "declares, or than a bundle holds"
                        )
                    pieces.append(piece)
        except (
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            OSError,
            # an encrypted file, or one compressed in a way this Python cannot unpack
            RuntimeError,
            NotImplementedError,
        ) as error:
            raise _not_a_bundle(f"{name}: {error}") from None
        self.left -= size
        return b"".join(pieces)


def _manifest(unpacker: _Unpacker) -> Any:
    if "league.json" not in unpacker.archive.namelist():
        raise _not_a_bundle("there is no item named 'league.json' in the archive")
    try:
        manifest = json.loads(unpacker.read("league.json"))
    except (ValueError, RecursionError) as error:
        detail = error if isinstance(error, ValueError) else "nested too deeply"
        raise _not_a_bundle(f"league.json: {detail}") from None
    if nesting_depth(manifest, MOST_DEPTH) > MOST_DEPTH:
        raise _not_a_bundle(f"league.json: nested more than {MOST_DEPTH} deep")
    return manifest


def _short(text: str) -> str:
    """Text from the bundle as a message quotes it: short, and printable whatever it holds."""
    if len(text) > 100:
        text = text[:100] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _is_name(value: Any, most: int) -> TypeGuard[str]:
    """A name the tables can keep: some text, not too long, no control characters, no half of a
    UTF-16 pair (no database stores one)."""
    return (
        isinstance(value, str)
        and 0 < len(value.strip()) <= most
        and not any(unicodedata.category(char) in ("Cc", "Cs") for char in value)
    )


def _season(league: League, data: dict, where: str) -> Season:
    try:
        starts_on = datetime.date.fromisoformat(data["starts_on"])
        ends_on = datetime.date.fromisoformat(data["ends_on"]) if data.get("ends_on") else None
        name = str(data["name"])
    except (KeyError, TypeError, ValueError) as error:
        raise BundleError(
            f"{where}: needs a name and dates like 2026-09-01 ({_short(str(error))})."
        ) from None
    if not _is_name(name, MOST_LEAGUE_NAME):
        raise BundleError(
            f"{where}: a season's name has at most {MOST_LEAGUE_NAME} characters, none of them "
            "control characters."
        )
    # the unique constraint would fail the whole import with a server error instead
    if league.seasons.filter(name__iexact=name).exists():
        already = gettext("%(league)s already has a season called %(name)s.") % {
            "league": league,
            "name": name,
        }
        raise BundleError(f"{where}: {already}")
    return Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)


def _scored(unpacker: _Unpacker, entry: dict, game: str) -> tuple[ScoredMatch, int | None]:
    """A match the bundle lists, read, checked and scored: nothing written yet."""
    name = entry.get("file", "") if isinstance(entry, dict) else ""
    if not isinstance(name, str) or not name:
        raise BundleError("(no file named): missing from the bundle.")
    name = _short(name)
    try:
        unpacker.archive.getinfo(name)
    except KeyError:
        raise BundleError(f"{name}: missing from the bundle.") from None
    try:
        value = stored_names(read_match(unpacker.read(name)))
    except (MatchFileError, BadName) as error:
        raise BundleError(f"{name}: {error}") from None
    if value.game != game:
        raise BundleError(f"{name}: a {value.game} match in a {game} league.")
    forfeited_by = entry.get("forfeited_by")
    if forfeited_by is not None and (
        isinstance(forfeited_by, bool)
        or not isinstance(forfeited_by, int)
        or not 0 <= forfeited_by < len(value.sides)
    ):
        raise BundleError(f"{name}: forfeited_by must be the number of a side.")
    return score_new_match(value), forfeited_by


def _write(season: Season, match: ScoredMatch, forfeited_by: int | None) -> int:
    written = create_match(
        match,
        also_write=lambda match: SeasonMatch.objects.create(
            season=season, match=match, forfeited_by=forfeited_by
        ),
        moved_by_caller=True,
    )
    return written.pk
