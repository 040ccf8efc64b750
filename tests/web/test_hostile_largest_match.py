"""Memory under hostile input: the largest match file the limits allow, every number in it at its
bound and every play flagged, is imported, and every page of it stays within a fixed size.

Its import takes at most MOST_IMPORT_SECONDS of the server's CPU on the idle 2-core machine,
judged against a yardstick measured beside it (tests/cpu.py): the best of three imports (and of
three such tries when a try is over: cpu.TRIES)."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.rules import Hand, HandEnd, Match, Play, limits
from scorekeeper.rules.matchfile import dumps_match
from scorekeeper.tables.models import Match as StoredMatch
from tests import cpu
from tests.web.table import scorekeeper_client
from tests.web.test_import_findings import keep, kept_token, upload

#: what a page of the largest match may weigh. The scoreboard (and its live partial) is the
#: heaviest: it explains every hand and lists each hand's first ten findings (of about 9,000
#: here), some 730 KB
MOST_PAGE_BYTES = 1_000_000
#: the CPU seconds of keeping the largest file (its findings already shown), at most on the idle
#: 2-core machine
MOST_IMPORT_SECONDS = 1.0
#: the file is imported this many times (each a match of its own), and the best one counts
IMPORTS = 3


def largest_match() -> Match:
    """Four players with the longest names, the most hands of the most plays, each play of 37
    (two findings each), the most pips left in every hand and the highest target."""
    names = tuple(str(seat) * limits.MOST_NAME_LENGTH for seat in range(1, 5))
    plays = tuple(Play(names[i % 4], points=37) for i in range(limits.MOST_PLAYS))
    end = HandEnd("domino", player=names[0], pips=dict.fromkeys(names[1:], limits.MOST_PIPS))
    hand = Hand(plays=plays, end=end, claimed={names[1]: limits.MOST_CLAIMED})
    return Match(
        "straight",
        names,
        rules={"target": limits.MOST_TARGET},
        hands=(hand,) * limits.MOST_HANDS,
    )


@pytest.fixture
def client(db: None) -> Client:
    return scorekeeper_client()


def test_the_largest_match_file_is_imported_within_a_second_and_every_page_is_bounded(
    client: Client,
) -> None:
    raw = dumps_match(largest_match()).encode()
    assert len(raw) <= limits.MOST_FILE_BYTES

    imported = 0

    def best_import() -> float:
        nonlocal imported
        readings = []
        for _ in range(IMPORTS):
            asked = upload(client, raw)
            token = kept_token(asked)
            started = time.process_time()
            kept = keep(client, token)
            readings.append(time.process_time() - started)
            assert (asked.status_code, kept.status_code) == (422, 302)
            assert len(asked.content) < 100_000
            imported += 1
        return min(readings)

    spent, most = cpu.judged(best_import, MOST_IMPORT_SECONDS)
    assert StoredMatch.objects.count() == imported
    # the figure for docs/limits.md, shown with -s
    print(f"kept the largest file in {spent:.3f} s of CPU (at most {most:.3f} s now)")
    assert spent < most, f"{spent:.2f} s of server time to import, at most {most:.2f} s now"
    match = StoredMatch.objects.latest("pk")
    pages = {
        "scoreboard": reverse("tables:scoreboard", args=[match.pk]),
        "live": reverse("tables:live", args=[match.pk]),
        "history": reverse("tables:history", args=[match.pk]),
        "sheet": reverse("tables:sheet", args=[match.pk]),
        "match.json": reverse("tables:export_json", args=[match.pk]),
        "match.csv": reverse("tables:export_csv", args=[match.pk]),
        "first hand": reverse("tables:edit_hand", args=[match.pk, 1]),
        "last hand": reverse("tables:edit_hand", args=[match.pk, limits.MOST_HANDS]),
    }
    weights = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        weights[name] = len(response.content)

    assert max(weights.values()) <= MOST_PAGE_BYTES, weights
