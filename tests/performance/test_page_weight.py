"""What a phone on a hall's weak Wi-Fi downloads: the scoreboard's first load with everything
it pulls in, and the answer to a tap on a points button.

The pages are the real responses, compressed by the app as it sends them; the static files are
collected by `collectstatic` with the production storage (hashed names, gzip and brotli copies)
and measured as WhiteNoise serves them to a browser that accepts brotli.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.tables.models import Match
from tests.performance.hall import long_match
from tests.web.pages import HTMX
from tests.web.table import scorekeeper_client, stored

pytestmark = pytest.mark.django_db

#: 40 KB until the pages followed a stream: its two scripts (htmx's SSE extension, live.js) add
#: 3.6 KB once, and spare a watching phone a poll every two seconds from then on; live.js's
#: putting a board sent inside its event in place (docs/live.md) 0.6 KB more, sparing it the
#: question after each play
FIRST_LOAD_BUDGET = 45 * 1000
UPDATE_BUDGET = 12 * 1000
#: what a phone's browser says it accepts
ACCEPTS = {"Accept-Encoding": "gzip, deflate, br"}
#: what a page pulls in as it loads: style sheets, scripts, the icon, the app manifest
ASSETS = re.compile(
    r'<link rel="(?:stylesheet|icon|manifest)"[^>]* href="([^"]+)"|<script[^>]* src="([^"]+)"'
)
PRODUCTION_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture(scope="module")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION_STORAGES):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def production_static(static_root: Path) -> Iterator[Path]:
    """Static files as in production: the collected, hashed, compressed copies, served by
    WhiteNoise from STATIC_ROOT (a Client made inside sets its middleware up this way)."""
    with override_settings(
        STATIC_ROOT=static_root,
        STORAGES=PRODUCTION_STORAGES,
        WHITENOISE_USE_FINDERS=False,
        WHITENOISE_AUTOREFRESH=False,
    ):
        yield static_root


def sent_size(client: Client, url: str) -> int:
    """The bytes a browser receives for ``url``, compressed as the app or WhiteNoise sends it."""
    response = client.get(url, headers=ACCEPTS)
    assert response.status_code == 200, url
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if response.get("Content-Encoding") == "gzip":
        # the app's own answers (the manifest) are padded at random as the page is
        return len(body) - random_padding(body)
    return len(body)


def first_load(client: Client, match: Match) -> dict[str, int]:
    """Each download of the scoreboard's first load, by address, in bytes as sent."""
    url = reverse("tables:scoreboard", args=[match.pk])
    response = client.get(url, headers=ACCEPTS)
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    page = gzip.decompress(response.content).decode()
    assets = [link or script for link, script in ASSETS.findall(page)]
    assert any(".css" in asset for asset in assets) and any(".js" in asset for asset in assets)
    return {url: len(response.content) - random_padding(response.content)} | {
        asset: sent_size(client, asset) for asset in assets
    }


def random_padding(gzipped: bytes) -> int:
    """The bytes GZipMiddleware adds at random to every answer (up to 100, in the gzip header's
    file name, against BREACH): left out, so the weight measured is the page's own and the
    same at every run."""
    if not gzipped[3] & 0x08:  # FNAME
        return 0
    return gzipped.index(b"\0", 10) - 10 + 1


def test_the_first_load_of_a_long_scoreboard_fits_in_forty_five_kilobytes(
    production_static: Path,
) -> None:
    match = long_match()
    assert match.hand_count >= 50

    sizes = first_load(Client(), match)

    assert sum(sizes.values()) <= FIRST_LOAD_BUDGET, sizes


def test_the_first_load_for_the_scorekeeper_fits_in_forty_five_kilobytes(
    production_static: Path,
) -> None:
    """The scorekeeper's board has the entry forms and each hand's edit buttons too."""
    match = long_match()

    sizes = first_load(scorekeeper_client(), match)

    assert sum(sizes.values()) <= FIRST_LOAD_BUDGET, sizes


def test_static_files_are_served_compressed_and_cached_for_good(production_static: Path) -> None:
    sizes = first_load(Client(), long_match())
    css = next(url for url in sizes if url.endswith(".css"))

    response = Client().get(css, headers=ACCEPTS)

    assert re.search(r"/app\.[0-9a-f]{12}\.css$", css), "the file name carries its hash"
    assert response["Content-Encoding"] == "br"
    assert "immutable" in response["Cache-Control"]
    assert int(re.search(r"max-age=(\d+)", response["Cache-Control"]).group(1)) >= 365 * 86400


def tap_points(client: Client, match: Match) -> HttpResponse:
    """A tap on 10 for the first player, as htmx sends it."""
    return client.post(
        reverse("tables:record_play", args=[match.pk]),
        # the first seat, as the board posts who scored
        {"player": "0", "points": 10},
        headers={**HTMX, **ACCEPTS},
    )


def hand_being_played(client: Client) -> Match:
    """A match of sixty hands whose sixty-first has begun with a play."""
    match = long_match(hands_to=100_000, hands=60)
    tap_points(client, match)
    return match


def test_a_tap_on_a_points_button_is_answered_with_the_board_in_twelve_kilobytes(
    db: None,
) -> None:
    """The htmx answer to a play recorded on a match of sixty-one hands, as sent: the board
    with every hand and the new total (7.7 KB when measured), never the whole page."""
    client = scorekeeper_client()
    match = hand_being_played(client)

    response = tap_points(client, match)
    board = gzip.decompress(response.content).decode()

    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert len(response.content) <= UPDATE_BUDGET, len(response.content)
    assert 'id="hand-1"' in board and 'id="hand-61"' in board
    assert "<html" not in board


#: the answer to a tap on the board as it stands, before compression, whatever the match
TAP_BUDGET = 6 * 1024


def tap_on_the_board_as_drawn(client: Client, match: Match, **entry: str | int) -> HttpResponse:
    """A tap on 10 for the second seat (or ``entry``) on a board drawn at the match's version,
    as htmx sends it (the buttons post the seat and the version they were drawn at)."""
    match.refresh_from_db()
    return client.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": "1", **(entry or {"points": 10}), "drawn": str(match.version)},
        headers=HTMX,
    )


def only_what_the_tap_changed(response: HttpResponse) -> str:
    """The answer, once it is shown to be the few parts a tap changes, within the budget."""
    answer = response.content.decode()
    assert response.status_code == 200
    assert len(response.content) <= TAP_BUDGET, len(response.content)
    assert response["HX-Retarget"] == "#play-entry"
    assert 'id="live-top" hx-swap-oob="true"' in answer
    assert 'id="board"' not in answer
    return answer


@pytest.mark.parametrize("hands", [1, 60])
def test_a_tap_in_the_hand_being_played_is_answered_in_a_few_kilobytes_at_any_length(
    db: None, hands: int
) -> None:
    """Only the play buttons, the totals, the hand being played and the poll come back."""
    client = scorekeeper_client()
    match = long_match(hands_to=100_000, hands=hands)
    tap_on_the_board_as_drawn(client, match)  # begins the next hand: the whole board
    tap_on_the_board_as_drawn(client, match)

    answer = only_what_the_tap_changed(tap_on_the_board_as_drawn(client, match))

    assert f'id="hand-{hands + 1}"' in answer and 'id="hand-1"' not in answer


@pytest.mark.parametrize("hands", [1, 60])
def test_the_watchers_poll_after_a_tap_in_the_hand_is_a_few_kilobytes_at_any_length(
    db: None, hands: int
) -> None:
    """The table's other phones, showing the board as it was just before the tap, are given
    the totals, the hand being played and the poll (tables/_live_play.html)."""
    client, watcher = scorekeeper_client(), Client()
    match = long_match(hands_to=100_000, hands=hands)
    tap_on_the_board_as_drawn(client, match)
    tap_on_the_board_as_drawn(client, match)
    page = watcher.get(reverse("tables:scoreboard", args=[match.pk])).content.decode()
    poll = re.search(r'id="live-poll"[^>]* hx-get="([^"]+)"', page).group(1)

    tap_on_the_board_as_drawn(client, match)
    response = watcher.get(poll.replace("&amp;", "&"), headers=HTMX)

    answer = response.content.decode()
    assert response.status_code == 200
    assert len(response.content) <= TAP_BUDGET, len(response.content)
    assert 'id="live-top" hx-swap-oob="true"' in answer
    assert f'id="hand-{hands + 1}"' in answer and 'id="hand-1"' not in answer


def test_a_tap_with_four_players_each_drawn_in_chalk_fits_too(db: None) -> None:
    """Four players on their own, each with houses and strokes of chalk (the most a tally
    draws) and a progress bar, playing to 300."""
    client = scorekeeper_client()
    match = long_match(hands_to=300, hands=19, seed=9)
    tap_on_the_board_as_drawn(client, match)
    tap_on_the_board_as_drawn(client, match)

    answer = only_what_the_tap_changed(tap_on_the_board_as_drawn(client, match))

    totals = [int(total) for total in re.findall(r'data-total="(\d+)"', answer)]
    assert totals == [235, 265, 225, 260]
    assert answer.count('class="chalk"') == 4 and answer.count("<progress") == 4
    assert 'id="hand-20"' in answer


def test_a_double_laid_in_sedma_is_answered_in_a_few_kilobytes(db: None) -> None:
    client = scorekeeper_client()
    match = stored("sedma", hands=(rules.Hand(opener="Ana"),))
    tap_on_the_board_as_drawn(client, match, player="0", tile="1-1")
    tap_on_the_board_as_drawn(client, match, player="1", tile="2-2")

    answer = only_what_the_tap_changed(
        tap_on_the_board_as_drawn(client, match, player="2", tile="3-3")
    )

    assert 'value="3-3" disabled' in answer and 'id="hand-1"' in answer


def test_a_tap_on_a_board_drawn_before_another_phones_entry_brings_the_whole_board(
    db: None,
) -> None:
    client = scorekeeper_client()
    match = long_match(hands_to=100_000, hands=3)
    tap_on_the_board_as_drawn(client, match)
    match.refresh_from_db()
    drawn = match.version
    tap_on_the_board_as_drawn(client, match)  # another phone's play

    response = client.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": "2", "points": 5, "drawn": str(drawn)},
        headers=HTMX,
    )

    assert response.status_code == 200
    assert "HX-Retarget" not in response
    assert 'id="board"' in response.content.decode()
