"""Does the clubs migration keep what a hall sees? Standings, ratings and pages, before and after.

The clubs app came in after commit 7cf8847 (one global "Organizers" group ran every league). Its
migrations (clubs 0001, leagues 0009 and 0010, nights 0006) put every existing league into one
club, whose organizers are the old group's members, the first of them its owner. This script
checks, on two databases made by the code of 7cf8847, that the migration changes nothing a user
sees:

* the demo data (``manage.py demo``), and
* a hall written by the benchmark's filler (``benchmarks/data.py``'s ``fill``, small sizes).

For each, it

1. makes the database with the old code (a temporary git worktree of 7cf8847): ``migrate``,
   ``createcachetable``, then the demo or the filler; it adds a superuser for the check
   (``check-admin``) and a second member of the Organizers group (``check-organizer``, after the
   data's own organizer), so that both roles the migration hands out are seen;
2. reads, with the old code, what a user sees, with Django's test client, as nobody signed in,
   as the superuser and as the data's organizer: the leagues' list; every league's page; every
   season's page (its standings), matches, wall board, standings.csv and hands.csv; every game's
   ratings page (in each order, and filtered by each league and season of the game); every
   rated match's ratings page; every league night's pages; the players' list and every player's
   page (played, won, lost, rating, partners, opponents, recent matches). It also reads the kept
   values: every StandingRow, HeadToHead, Rating, RatingChange, Season and SeasonMatch row;
3. copies the database, migrates the copy with the current code (the checkout this script is
   in), with a cache database of its own, and reads the same with the current code;
4. compares the two readings and prints, per database, how many leagues, seasons, standings
   rows, ratings rows and pages were compared, and every difference; and checks that every league
   is in the club the migration makes (its name read from the migration), and that each member of
   the old Organizers group runs it (the first, by account, its owner; the others organizers).

A page is compared by its status, the rows of its <table> elements, its CSV lines and the text of
its <main> element a line a block (the navigation and the footer are left out): a line changed or
gone is a difference, a line added (something new, a night's directors) is listed apart. The
leagues' list and a league's page now say the league's club: their tables alone are compared.
An error page's text (Django's, in debug mode) is not compared, only its status.

It exits 1 on any difference or failed check, 0 otherwise. Run it from the checkout's root:

    .venv/bin/python tests/migration_check/compare_clubs_migration.py

Options: ``--keep`` keeps the temporary folder (the databases and the JSON readings) and says
where it is; ``--players``, ``--matches``, ``--tables`` size the filler's hall (default 40, 300,
10). It takes two to three minutes. The folder holds no test_*.py: pytest does not collect it.

The same file is also run inside each code tree (``read``, ``fill`` and ``accounts``), where it
imports that tree's Django project: the orchestration calls it so.
"""

from __future__ import annotations

import argparse
import datetime
import decimal
import difflib
import html.parser
import importlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: the code before clubs
BEFORE = "7cf8847"
#: this checkout: the code after clubs
CHECKOUT = Path(__file__).resolve().parents[2]
#: the migration that puts the leagues in a club (its FIRST_CLUB and ORGANIZERS are read)
CLUBS_MIGRATION = "scorekeeper.leagues.migrations.0009_leagues_in_clubs"
CHECK_ADMIN = "check-admin"
CHECK_ORGANIZER = "check-organizer"
VIEWERS = ("anonymous", "superuser", "organizer")


# -- run inside a code tree ---------------------------------------------------------------------


def setup_django() -> None:
    """Import the Django project of the current folder (the old worktree or this checkout)."""
    root = Path.cwd().resolve()
    sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    import scorekeeper

    imported = Path(scorekeeper.__file__).resolve()
    if root not in imported.parents:
        raise SystemExit(f"scorekeeper imported from {imported}, not from {root}")


def fill_benchmark(players: int, matches: int, tables: int) -> None:
    from benchmarks.data import fill

    hall = fill("default", players=players, matches=matches, tables=tables)
    print(f"filled: {hall.players} players, {hall.matches} matches, {hall.hands} hands")


def add_accounts() -> None:
    """The check's superuser, and a second organizer after the data's own."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    users = get_user_model().objects
    users.create_superuser(CHECK_ADMIN, password=None)
    group, _ = Group.objects.get_or_create(name="Organizers")
    users.create_user(CHECK_ORGANIZER, password=None).groups.add(group)


#: the tags that start a line of a page's text
BLOCKS = set(
    "p li h1 h2 h3 h4 tr section div form ul ol table figure dl dt dd label option br".split()
)


class TableText(html.parser.HTMLParser):
    """The rows of every <table> (each a list of its cells' text), and the text of <main> (the
    page without its navigation and footer), a line a block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self._tables_open = 0
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._in_main = False
        self._line: list[str] = []
        self.lines: list[str] = []
        self._skip = 0

    def _end_line(self) -> None:
        line = " ".join(" ".join(self._line).split())
        if line:
            self.lines.append(line)
        self._line = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCKS:
            self._end_line()
        if tag in ("script", "style", "svg"):
            self._skip += 1
        elif tag == "main":
            self._in_main = True
        elif tag == "table":
            self._tables_open += 1
            self.tables.append([])
        elif tag == "tr" and self._tables_open:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCKS:
            self._end_line()
        if tag in ("script", "style", "svg"):
            self._skip = max(0, self._skip - 1)
        elif tag == "main":
            self._in_main = False
        elif tag == "table" and self._tables_open:
            self._tables_open -= 1
        elif tag == "tr" and self._row is not None:
            self.tables[-1].append(self._row)
            self._row = None
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join(" ".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._cell is not None:
            self._cell.append(data)
        if self._in_main:
            self._line.append(data)


def jsonable(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    return value


def row_values(row: Any) -> dict[str, Any]:
    """Every column of a model row, as stored."""
    return {f.attname: jsonable(getattr(row, f.attname)) for f in row._meta.concrete_fields}


def read_kept() -> dict[str, dict[str, Any]]:
    """The standings and ratings kept at write time, each row by a key that says what it is."""
    from scorekeeper.leagues.models import (
        HeadToHead,
        Rating,
        RatingChange,
        Season,
        SeasonMatch,
        StandingRow,
    )

    def season_key(season: Any) -> str:
        return f"{season.league.name} / {season.name}"

    def player_key(player: Any) -> str:
        return f"{player.name} (#{player.pk})"

    return {
        "seasons": {
            season_key(row): row_values(row) for row in Season.objects.select_related("league")
        },
        "season matches": {
            f"{season_key(row.season)} / match {row.match_id}": row_values(row)
            for row in SeasonMatch.objects.select_related("season__league")
        },
        "standings": {
            f"{season_key(row.season)} / {player_key(row.player)}": row_values(row)
            for row in StandingRow.objects.select_related("season__league", "player")
        },
        "head to head": {
            f"{season_key(row.season)} / {player_key(row.player)} v {player_key(row.opponent)}": (
                row_values(row)
            )
            for row in HeadToHead.objects.select_related("season__league", "player", "opponent")
        },
        "ratings": {
            f"{row.game} / {player_key(row.player)}": row_values(row)
            for row in Rating.objects.select_related("player")
        },
        "rating changes": {
            f"{row.game} / match {row.match_id} / {player_key(row.player)}": row_values(row)
            for row in RatingChange.objects.select_related("player")
        },
    }


def page_urls() -> list[str]:
    """Every page that shows a league's, season's, night's, player's standings or ratings."""
    from django.urls import reverse

    from scorekeeper.leagues.models import League, RatingChange, Season
    from scorekeeper.nights.models import Night
    from scorekeeper.rules.match import GAME_NAMES
    from scorekeeper.tables.models import Player

    urls = [reverse("leagues:league_list"), reverse("leagues:player_list")]
    for league in League.objects.order_by("pk"):
        urls.append(reverse("leagues:league", args=[league.pk]))
    for season in Season.objects.order_by("pk"):
        ids = [season.league_id, season.pk]
        for name in ("season", "season_matches", "wall", "standings_csv", "hands_csv"):
            urls.append(reverse(f"leagues:{name}", args=ids))
    for game in GAME_NAMES:
        ratings = reverse("leagues:ratings", args=[game])
        urls.append(ratings)
        for sort in ("name", "played", "moved"):
            urls.append(f"{ratings}?sort={sort}")
        for league in League.objects.filter(game=game).order_by("pk"):
            urls.append(f"{ratings}?league={league.pk}")
        for season in Season.objects.filter(league__game=game).order_by("pk"):
            urls.append(f"{ratings}?season={season.pk}")
    for match_id in (
        RatingChange.objects.order_by("match_id").values_list("match_id", flat=True).distinct()
    ):
        urls.append(reverse("leagues:match_ratings", args=[match_id]))
    for night in Night.objects.order_by("pk"):
        for name in ("night", "pairings", "board", "standings_csv", "standings_sheet"):
            urls.append(reverse(f"nights:{name}", args=[night.pk]))
    for player in Player.objects.order_by("pk"):
        urls.append(reverse("leagues:player", args=[player.pk]))
    return urls


def read_page(client: Any, url: str) -> dict[str, Any]:
    response = client.get(url)
    page: dict[str, Any] = {"status": response.status_code}
    if response.status_code in (301, 302, 303, 307, 308):
        page["location"] = response["Location"]
        return page
    if getattr(response, "streaming", False):
        body = b"".join(response.streaming_content)
    else:
        body = response.content
    kind = response.get("Content-Type", "")
    if "text/csv" in kind:
        page["csv"] = body.decode().splitlines()
    elif "text/html" in kind:
        parsed = TableText()
        parsed.feed(body.decode())
        page["tables"] = parsed.tables
        page["text"] = parsed.lines
    else:
        page["bytes"] = len(body)
    return page


def read_pages() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.test import Client

    users = get_user_model().objects
    organizer = users.filter(username__in=("demo", "bench-organizer")).order_by("pk").first()
    signed_in = {"superuser": users.get(username=CHECK_ADMIN), "organizer": organizer}
    urls = page_urls()
    pages: dict[str, Any] = {}
    for viewer in VIEWERS:
        client = Client()
        if viewer in signed_in:
            client.force_login(
                signed_in[viewer], backend="django.contrib.auth.backends.ModelBackend"
            )
        for url in urls:
            pages[f"{viewer} {url}"] = read_page(client, url)
    return pages


def after_clubs() -> bool:
    from django.apps import apps

    return apps.is_installed("scorekeeper.clubs")


def read_roles() -> dict[str, Any]:
    """Before: the Organizers group's members by account. After: the clubs and their roles."""
    from django.contrib.auth.models import Group

    from scorekeeper.leagues.models import League

    if not after_clubs():
        group = Group.objects.filter(name="Organizers").first()
        members = group.user_set.order_by("pk") if group else []
        return {"organizers": [user.username for user in members]}
    from scorekeeper.clubs.models import Club

    migration = importlib.import_module(CLUBS_MIGRATION)
    return {
        "club the migration makes": migration.FIRST_CLUB,
        "group left": Group.objects.filter(name=migration.ORGANIZERS).exists(),
        "league clubs": {
            league.name: league.club.name if league.club_id else None
            for league in League.objects.select_related("club")
        },
        "clubs": {
            club.name: [
                (membership.user.username, membership.role)
                for membership in club.memberships.select_related("user").order_by("user_id")
            ]
            for club in Club.objects.all()
        },
    }


def read(out: str) -> None:
    from scorekeeper.leagues.models import League, Season

    reading = {
        "leagues": sorted(League.objects.values_list("name", flat=True)),
        "seasons": Season.objects.count(),
        "kept": read_kept(),
        "roles": read_roles(),
        "pages": read_pages(),
    }
    Path(out).write_text(json.dumps(reading, indent=1, sort_keys=True))


# -- the orchestration -------------------------------------------------------------------------


def environment(database: Path, release: str) -> dict[str, str]:
    """The settings' variables for one database: a SQLite file (its cache beside it), the
    development mode (static files from their folders, tasks run at once), and folders of the
    run's own for exports and bundles."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.pop("REDIS_URL", None)
    env.pop("PYTEST_VERSION", None)
    work = database.parent
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        DJANGO_DEBUG="1",
        DJANGO_EXPORTS_ROOT=str(work / f"exports-{release}"),
        DJANGO_BUNDLES_ROOT=str(work / f"bundles-{release}"),
        DJANGO_ANONYMOUS_EXPORTS_PER_ADDRESS="100000",
        # the cache's keys carry the release: the two codes never share a drawn fragment
        SCOREKEEPER_RELEASE=f"migration-check-{release}",
    )
    return env


def run(args: list[str], *, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"failed in {cwd}: {' '.join(args)}")
    return done.stdout


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy (what the WAL holds included), through SQLite's backup."""
    with sqlite3.connect(source) as old, sqlite3.connect(target) as new:
        old.backup(new)
    old.close()
    new.close()


def make_and_read(
    name: str, old_tree: Path, work: Path, options: argparse.Namespace
) -> tuple[dict[str, Any], dict[str, Any]]:
    python = sys.executable
    me = str(Path(__file__).resolve())
    folder = work / name
    folder.mkdir()
    before_db, after_db = folder / "before.sqlite3", folder / "after.sqlite3"

    env = environment(before_db, "before")
    for step in (["migrate"], ["createcachetable"]):
        run([python, "manage.py", *step], cwd=old_tree, env=env)
    if name == "demo":
        run([python, "manage.py", "demo"], cwd=old_tree, env=env)
    else:
        sizes = [str(options.players), str(options.matches), str(options.tables)]
        run([python, me, "fill", *sizes], cwd=old_tree, env=env)
    run([python, me, "accounts"], cwd=old_tree, env=env)
    run([python, me, "read", str(folder / "before.json")], cwd=old_tree, env=env)

    copy_database(before_db, after_db)
    env = environment(after_db, "after")
    for step in (["migrate"], ["createcachetable"]):
        run([python, "manage.py", *step], cwd=CHECKOUT, env=env)
    run([python, me, "read", str(folder / "after.json")], cwd=CHECKOUT, env=env)
    return (
        json.loads((folder / "before.json").read_text()),
        json.loads((folder / "after.json").read_text()),
    )


def differences(before: Any, after: Any, where: str = "") -> list[str]:
    """Each place where the two readings differ, with both values."""
    if isinstance(before, dict) and isinstance(after, dict):
        found = []
        for key in sorted(set(before) | set(after)):
            here = f"{where} / {key}" if where else str(key)
            if key not in after:
                found.append(f"{here}: only before: {before[key]!r}")
            elif key not in before:
                found.append(f"{here}: only after: {after[key]!r}")
            else:
                found += differences(before[key], after[key], here)
        return found
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        found = []
        for number, (one, other) in enumerate(zip(before, after, strict=True)):
            found += differences(one, other, f"{where} [{number}]")
        return found
    return [] if before == after else [f"{where}: before {before!r}, after {after!r}"]


def page_differences(before: dict[str, Any], after: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(differences, additions) between the pages read before and after. A page keeps its status;
    a page answered keeps its tables' rows and CSV lines exactly, and every line of its text (an
    error page's text, Django's, is not compared). A line the new code adds where there was none
    (a feature of the clubs: a night's directors) is an addition, listed apart; a line changed or
    gone is a difference. The leagues' list and a league's page name the league's club now:
    their tables alone are compared."""
    found, added = [], []
    for key in sorted(set(before) | set(after)):
        if key not in after or key not in before:
            found.append(f"{key}: read {'before' if key in before else 'after'} only")
            continue
        old, new = before[key], after[key]
        if old["status"] != new["status"]:
            found.append(f"{key}: status before {old['status']}, after {new['status']}")
            continue
        found += differences(
            {part: value for part, value in old.items() if part != "text"},
            {part: value for part, value in new.items() if part != "text"},
            key,
        )
        if old["status"] != 200 or "text" not in old or names_the_club(key):
            continue
        lines = difflib.SequenceMatcher(a=old["text"], b=new["text"], autojunk=False)
        for how, start, end, new_start, new_end in lines.get_opcodes():
            if how == "insert":
                added.append(
                    f"{key}: {new_end - new_start} lines added after line {start}: "
                    f"{new['text'][new_start:new_end]!r}"
                )
            elif how != "equal":
                found.append(
                    f"{key} / text lines {start + 1}-{end}: before "
                    f"{old['text'][start:end]!r}, after {new['text'][new_start:new_end]!r}"
                )
    return found, added


def names_the_club(page: str) -> bool:
    """The leagues' list and a league's page, which say a league's club after the migration."""
    url = page.split(" ", 1)[1]
    return url == "/leagues/" or re.fullmatch(r"/leagues/\d+/", url) is not None


def check_roles(before: dict[str, Any], after: dict[str, Any]) -> tuple[list[str], list[str]]:
    """What the migration was to do with the leagues and the Organizers group: (said, failed)."""
    club = after["club the migration makes"]
    organizers = before["organizers"]
    said, failed = [], []
    leagues = after["league clubs"]
    outside = {league: held for league, held in leagues.items() if held != club}
    said.append(f"leagues in the club {club!r}: {len(leagues) - len(outside)} of {len(leagues)}")
    failed += [f"the league {league!r} is in {held!r}" for league, held in outside.items()]
    roles = dict(after["clubs"].get(club, []))
    expected = {user: "owner" if i == 0 else "organizer" for i, user in enumerate(organizers)}
    said.append(
        "the Organizers group before: "
        + ", ".join(f"{user} (#{i + 1})" for i, user in enumerate(organizers))
    )
    said.append(
        f"roles in {club!r} after: " + ", ".join(f"{user}: {role}" for user, role in roles.items())
    )
    for user, role in expected.items():
        if roles.get(user) != role:
            failed.append(f"{user} should be {role} of {club!r}, is {roles.get(user)!r}")
    failed += [
        f"{user} is {role} of {club!r}, not an old organizer"
        for user, role in roles.items()
        if user not in expected
    ]
    if len(after["clubs"]) != 1:
        failed.append(f"clubs after: {sorted(after['clubs'])}, not one")
    said.append(
        f"the Organizers group after the migration: {'kept' if after['group left'] else 'gone'}"
    )
    return said, failed


def report(name: str, before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Print what was compared and every difference; True if there is none."""
    kept = before["kept"]
    pages = before["pages"]
    print(f"== {name} ==")
    print(f"leagues: {len(before['leagues'])} ({', '.join(before['leagues'])})")
    print(f"seasons: {before['seasons']}")
    print(
        f"standings rows: {len(kept['standings'])}, head-to-head rows: {len(kept['head to head'])}"
    )
    print(f"ratings rows: {len(kept['ratings'])}, rating changes: {len(kept['rating changes'])}")
    print(f"season matches: {len(kept['season matches'])}")
    rows = sum(len(table) for page in pages.values() for table in page.get("tables", []))
    print(
        f"pages: {len(pages)} ({len(pages) // len(VIEWERS)} addresses, each read by "
        f"{', '.join(VIEWERS)}), {rows} table rows; "
        f"statuses before: {sorted({page['status'] for page in pages.values()})}"
    )
    found = differences(
        {key: before[key] for key in ("leagues", "seasons", "kept")},
        {key: after[key] for key in ("leagues", "seasons", "kept")},
    )
    on_pages, added = page_differences(before["pages"], after["pages"])
    found += on_pages
    said, failed = check_roles(before["roles"], after["roles"])
    for line in said:
        print(line)
    for line in failed:
        print(f"ROLE CHECK FAILED: {line}")
    if added:
        print(f"{len(added)} pages show something new (nothing they showed before changed):")
        for line in added:
            print(f"  {line}")
    if found:
        print(f"{len(found)} differences:")
        for line in found:
            print(f"  {line}")
    else:
        print("no difference")
    print()
    return not found and not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--tables", type=int, default=10)
    options = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="clubs-migration-"))
    old_tree = work / "before-clubs"
    git = ["git", "-C", str(CHECKOUT)]
    subprocess.run(
        [*git, "worktree", "add", "--detach", str(old_tree), BEFORE],
        check=True,
        capture_output=True,
    )
    try:
        head = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        uncommitted = f" and {len(changed)} files changed since" if changed else ""
        print(f"before: {BEFORE} (a worktree); after: {CHECKOUT}, {head}{uncommitted}")
        print()
        same = True
        for name in ("demo", "benchmark filler"):
            before, after = make_and_read(name.split()[0], old_tree, work, options)
            same = report(name, before, after) and same
    finally:
        subprocess.run(
            [*git, "worktree", "remove", "--force", str(old_tree)], check=True, capture_output=True
        )
        if options.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("the migration keeps every standing, rating and page" if same else "DIFFERENCES FOUND")
    return 0 if same else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("read", "fill", "accounts"):
        command, *arguments = sys.argv[1:]
        setup_django()
        if command == "read":
            read(arguments[0])
        elif command == "fill":
            fill_benchmark(*(int(value) for value in arguments))
        else:
            add_accounts()
    else:
        sys.exit(main())
