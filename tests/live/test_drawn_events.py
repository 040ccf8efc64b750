"""An entry's event carries the answer its table's watchers are given (table_pages/history.py,
draw_for_watchers): a watcher's page in the entry's language and time zone puts it in place and
asks nothing; it is the very answer its poll would be given. A scorekeeper's page (its answer
carries its own forms' token) and a page in another language are told which version the entry
made, without the drawing: the scorekeeper's page, given that version by its entry's answer,
asks nothing; another asks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper.live import fanout
from scorekeeper.live.hub import Drawing, Hub
from scorekeeper.live.models import LiveChange
from scorekeeper.tables.models import Match
from tests.live.test_streams import close, frame
from tests.performance.hall import SMALL, build
from tests.performance.test_cache import first_player, poll_address, scoreboard
from tests.web.pages import HTMX, totals
from tests.web.table import play, scorekeeper_client

# the entry's watchers are told when it has drawn their answer, after its commit: committed
# for real, as a server does
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("hub")]


@pytest.fixture
def opened(hub: Hub) -> Iterator[Callable[[Client, Match], StreamingHttpResponse]]:
    held: list[StreamingHttpResponse] = []

    def open_stream(client: Client, match: Match) -> StreamingHttpResponse:
        response: Any = client.get(reverse("tables:stream", args=[match.pk]))
        assert response.status_code == 200
        # the redraw a page's first stream begins with
        assert frame(response).endswith(f"data: match:{match.pk}\n\n")
        held.append(response)
        return response

    yield open_stream
    for response in held:
        close(response)


def event_data(text: str) -> tuple[str, str]:
    """An event's id and its data, its lines joined as a browser joins them."""
    lines = text.rstrip("\n").split("\n")
    id = next(line[4:] for line in lines if line.startswith("id: "))
    return id, "\n".join(line[6:] for line in lines if line.startswith("data: "))


def test_a_watchers_stream_is_sent_the_answer_its_poll_would_be_given(
    opened: Callable[[Client, Match], StreamingHttpResponse],
) -> None:
    hall = build(SMALL)
    match, scorekeeper, watcher = hall.match, scorekeeper_client(), Client()
    player = first_player(match)
    address = poll_address(scoreboard(watcher, match))
    stream = opened(watcher, match)

    play(scorekeeper, match, player, 10)
    id, data = event_data(frame(stream))

    version = Match.objects.get(pk=match.pk).version
    head, _, drawing = data.partition("\n")
    assert int(id) == LiveChange.objects.filter(topic=f"match:{match.pk}").latest("id").id
    asked = watcher.get(address, headers=HTMX)
    assert asked.status_code == 200
    assert drawing == asked.content.decode().replace("\r\n", "\n").replace("\r", "\n")
    if head.split(" ")[1] == "-":
        assert head == f"match:{match.pk} - {version}"
    else:
        assert head == f"match:{match.pk} {version - 1} {version}"

    # the next play of the same hand: drawn for a page at the version just before it (the
    # totals and that hand), as the poll of such a page is given
    address = poll_address(scoreboard(watcher, match))
    play(scorekeeper, match, player, 5)
    _, data = event_data(frame(stream))
    head, _, drawing = data.partition("\n")
    assert head == f"match:{match.pk} {version} {version + 1}"
    step = watcher.get(address, headers=HTMX)
    assert drawing == step.content.decode()
    assert 'id="live-history"' not in drawing
    assert totals(HttpResponse(drawing)) == totals(step)


def test_a_scorekeepers_stream_and_a_stream_in_another_language_are_told_the_version_only(
    opened: Callable[[Client, Match], StreamingHttpResponse],
) -> None:
    """No drawing for them: the version the entry made, which the scorekeeper's page shows
    already once its entry's answer is in (it asks nothing then); the Spanish page does not,
    and asks."""
    hall = build(SMALL)
    match, scorekeeper = hall.match, scorekeeper_client()
    other_scorekeeper, spanish = scorekeeper_client(), Client()
    spanish.cookies["django_language"] = "es"
    streams_held = [
        opened(scorekeeper, match),
        opened(other_scorekeeper, match),
        opened(spanish, match),
    ]

    answer = play(scorekeeper, match, first_player(match), 10, htmx=True)

    version = Match.objects.get(pk=match.pk).version
    assert poll_address(answer.content.decode()).endswith(f"v={version}")
    for stream in streams_held:
        _, data = event_data(frame(stream))
        assert data in (
            f"match:{match.pk} - {version}",
            f"match:{match.pk} {version - 1} {version}",
        )


def test_a_drawing_crosses_processes_as_the_fan_out_carries_it() -> None:
    """What Redis publishes and NOTIFY sends: the changes and their drawings, read back as they
    were."""
    changes = [(41, "match:7", "changed"), (42, "season:3", "changed")]
    drawing = Drawing("es", "America/Chicago", "", "12", '<div id="live-poll">\n  ¡Dominó!\n</div>')

    assert fanout.parsed(fanout.payload(changes, {41: drawing})) == (changes, {41: drawing})
    assert fanout.parsed(fanout.payload(changes)) == (changes, {})
