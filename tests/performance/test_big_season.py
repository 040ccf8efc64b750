"""Every page of a season at its real size stays small and quick: the benchmark's season of
10,000 finished matches and 200 players, with a league night of tables being played, filled once
for this module by the benchmark's own filler (benchmarks/data.py), and each page read as
the first visitor after a change reads it (the season's version moved: nothing kept drawn).

A page may weigh at most 200 KB and take at most 0.3 s of CPU on the idle 2-core machine, judged
against a yardstick measured beside it (tests/cpu.py), the best of five readings (and of three
such tries when a try is over: tests/cpu.py, TRIES).

The season is filled in one transaction that is rolled back after the test, so no other test
sees it; every page is read in one test, so that one pytest-xdist process alone fills it (the
tests of a module may go to either process). Deselect it with ``-m "not big_season"``.
"""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from django.core.cache import caches
from django.db import transaction
from django.db.models import Count, F
from django.test import Client
from django.urls import reverse

from benchmarks import data
from scorekeeper.leagues.models import Season
from scorekeeper.tables.models import Match, Player
from tests import cpu

pytestmark = [pytest.mark.big_season, pytest.mark.django_db]

MATCHES = 10_000
PLAYERS = 200
#: a league night's tables being played in the season, as the wall board shows them
TABLES = 30
MOST_BYTES = 200 * 1024
#: a page's CPU seconds at most on the idle 2-core machine (docs/limits.md's)
MOST_SECONDS = 0.3


@dataclass(frozen=True)
class BigSeason:
    hall: data.Hall
    #: the player with the most matches in the season, and one of their finished matches
    player: Player
    match: Match


@pytest.fixture(scope="module")
def big_season(django_db_setup: None, django_db_blocker) -> Iterator[BigSeason]:
    with django_db_blocker.unblock(), transaction.atomic():
        started = time.process_time()
        hall = data.fill("default", players=PLAYERS, matches=MATCHES, tables=0)
        data.open_tables("default", season_id=hall.season_id, count=TABLES, seed=28)
        # some 53 s of CPU on the 2-core machine; shown with -s
        print(f"filled {MATCHES} matches in {time.process_time() - started:.1f} s of CPU")
        player = Player.objects.annotate(seated=Count("seats")).order_by("-seated", "pk").first()
        match = Match.objects.filter(seats__player=player, finished=True).latest("pk")
        # what the process holds by now (its modules, the fill's leftovers) is set aside from
        # the collector: each reading and yardstick collects first, and going through all of it
        # took 85 ms a time, half the test's time; what a page makes is collected as before
        gc.collect()
        gc.freeze()
        try:
            yield BigSeason(hall, player, match)
        finally:
            gc.unfreeze()
        # nothing of it stays for the tests that follow in this process
        transaction.set_rollback(True)


def season_url(name: str, season: BigSeason, **query: object) -> str:
    url = reverse(f"leagues:{name}", args=[season.hall.league_id, season.hall.season_id])
    return f"{url}?{urlencode(query)}" if query else url


def player_query(season: BigSeason, **more: object) -> dict[str, object]:
    return {"player": season.player.name, **more}


PAGES: dict[str, Callable[[BigSeason], str]] = {
    "league": lambda s: reverse("leagues:league", args=[s.hall.league_id]),
    "league list": lambda s: reverse("leagues:league_list"),
    "season standings": lambda s: season_url("season", s),
    "standings CSV": lambda s: season_url("standings_csv", s),
    "wall board": lambda s: season_url("wall", s),
    "match list": lambda s: season_url("season_matches", s),
    "match list, last page": lambda s: season_url("season_matches", s, page=MATCHES),
    "a player's matches": lambda s: season_url("season_matches", s, **player_query(s)),
    "a player's wins": lambda s: season_url("season_matches", s, **player_query(s, what="won")),
    "a player's losses, page 2": lambda s: season_url(
        "season_matches", s, **player_query(s, what="lost", page=2)
    ),
    "a player's forfeits": lambda s: season_url(
        "season_matches", s, **player_query(s, what="forfeits")
    ),
    "player": lambda s: reverse("leagues:player", args=[s.player.pk]),
    "player with a match chart": lambda s: (
        reverse("leagues:player", args=[s.player.pk]) + f"?match={s.match.pk}"
    ),
    "player list": lambda s: reverse("leagues:player_list"),
    "player search": lambda s: reverse("leagues:player_list") + "?q=a",
    "ratings": lambda s: reverse("leagues:ratings", args=["straight"]),
    "ratings of the season's players by matches": lambda s: (
        reverse("leagues:ratings", args=["straight"]) + f"?season={s.hall.season_id}&sort=played"
    ),
    "a match's ratings": lambda s: reverse("leagues:match_ratings", args=[s.match.pk]),
    "the long match's ratings": lambda s: reverse(
        "leagues:match_ratings", args=[s.hall.long_match_id]
    ),
}


def read_afresh(client: Client, url: str, season_id: int) -> tuple[int, int, float]:
    """Status, size and CPU seconds of the page as the first visitor after a change reads it:
    the season's version moves (the kept standings and drawn pieces are keyed by it) and this
    process's own cache is emptied."""
    Season.objects.filter(pk=season_id).update(version=F("version") + 1)
    caches["local"].clear()
    gc.collect()
    started = time.process_time()
    response = client.get(url)
    body = response.content
    spent = time.process_time() - started
    return response.status_code, len(body), spent


def read_best(client: Client, url: str, season_id: int, readings: list) -> float:
    """The page read afresh READINGS times, into ``readings``; the least CPU of them."""
    readings[:] = [read_afresh(client, url, season_id) for _ in range(cpu.READINGS)]
    return min(spent for _, _, spent in readings)


def test_every_page_of_a_ten_thousand_match_season_is_small_and_quick(
    big_season: BigSeason,
) -> None:
    season = Season.objects.get(pk=big_season.hall.season_id)
    # the figures are for the season they claim to be for (and the benchmark's long match)
    assert season.counted_matches == MATCHES + 1
    assert Match.objects.filter(league_entry__season=season, finished=False).count() == TABLES

    client = Client()
    over = []
    for page, url_of in PAGES.items():
        url = url_of(big_season)
        readings: list[tuple[int, int, float]] = []
        took, most = cpu.judged(
            functools.partial(read_best, client, url, season.pk, readings), MOST_SECONDS
        )
        statuses = {status for status, _, _ in readings}
        size = max(size for _, size, _ in readings)
        # the figures for docs/limits.md, shown with -s
        print(f"{page}: {size / 1024:.1f} KB, {took:.3f} s of CPU (at most {most:.3f} s now)")
        if statuses != {200} or size > MOST_BYTES or took > most:
            over.append(
                f"{page} ({url}): {statuses}, {size / 1024:.0f} KB, {took:.3f} s of CPU, "
                f"at most {most:.3f} s beside the yardstick"
            )

    assert over == [], "\n".join(over)
