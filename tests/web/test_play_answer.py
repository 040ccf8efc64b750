"""The answer to a Straight play tapped on a phone (htmx): when the phone shows the match as it
was just before the play, only what the play changed is sent, each part swapped into its place,
with new keys for the forms; otherwise the whole board, as for any entry."""

from __future__ import annotations

import re

from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import match_value, refetch, stored_state
from tests.web.pages import HTMX, content, is_board_only, text, text_of, totals, winner
from tests.web.table import FOUR, rows, scorekeeper_client, stored

#: the parts of the board a play changes, each sent to replace its own
PARTS = ("board-messages", "live-top", "live-history", "live-poll")
SEEN = re.compile(r'name="seen" value="(\d+)"')
ENTRY_KEY = re.compile(r'name="entry_key" value="([^"]*)"')


def phone(client: Client, match: Match) -> tuple[str, str]:
    """The version the scoreboard says it shows, and its forms' one-time key."""
    page = content(client.get(reverse("tables:scoreboard", args=[match.pk])))
    [seen] = set(SEEN.findall(page))
    [key] = set(ENTRY_KEY.findall(page))
    return seen, key


def tap(
    client: Client, match: Match, player: str, points: int, seen: str, key: str, **fields: str
) -> HttpResponse:
    """A tap on a points button, as htmx sends it from a board showing version ``seen``."""
    return client.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": player, "points": points, "seen": seen, "entry_key": key, **fields},
        headers=HTMX,
    )


def swapped_in(response: HttpResponse) -> tuple[str, str]:
    """The version and the key the answer gives the phone's forms."""
    page = content(response)
    [seen] = re.findall(r'name="seen" value="(\d+)" hx-swap-oob="[^"]*"', page)
    [key] = re.findall(r'name="entry_key" value="([^"]*)" hx-swap-oob="[^"]*"', page)
    return seen, key


def out_of_band(response: HttpResponse, part: str) -> bool:
    """Whether the answer carries ``part`` of the board, to be swapped in where it is."""
    tag = re.search(rf'<[a-z]+ [^>]*\bid="{part}"[^>]*>', content(response))
    return tag is not None and 'hx-swap-oob="true"' in tag.group(0)


def messages_in(response: HttpResponse) -> list[tuple[str, str]]:
    """The messages the answer puts in the board's message area: (kind, sentence)."""
    area = re.search(r'<div id="board-messages"[^>]*>(.*?)</div>', content(response), re.S)
    assert area is not None, "the answer has no message area"
    found = re.findall(r'<li class="message message-(\w+)">(.*?)</li>', area.group(1), re.S)
    return [(kind, text_of(said)) for kind, said in found]


def version_of(match: Match) -> int:
    return Match.objects.values_list("version", flat=True).get(pk=match.pk)


def test_a_play_from_an_up_to_date_phone_is_answered_with_what_it_changed(
    client: Client, straight_match: Match
) -> None:
    seen, key = phone(client, straight_match)

    response = tap(client, straight_match, "Ana", 10, seen, key)

    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    assert all(out_of_band(response, part) for part in PARTS)
    assert '<div id="earlier-hands" hx-preserve></div>' in content(response)
    assert 'id="board"' not in content(response)
    assert totals(response) == [10, 0, 0, 0]
    new_seen, new_key = swapped_in(response)
    assert int(new_seen) == int(seen) + 1 == version_of(straight_match)
    assert new_key != key
    assert key not in ENTRY_KEY.findall(content(response))


def test_the_next_play_from_the_same_phone_uses_what_the_answer_gave_it(
    client: Client, straight_match: Match
) -> None:
    first = tap(client, straight_match, "Ana", 10, *phone(client, straight_match))

    response = tap(client, straight_match, "Bo", 15, *swapped_in(first))

    assert response["HX-Reswap"] == "none"
    assert totals(response) == [10, 15, 0, 0]
    assert rows(straight_match) == (1, 2)


def test_a_play_from_a_phone_behind_the_match_is_answered_with_the_whole_board(
    client: Client, straight_match: Match
) -> None:
    mine, other = client, scorekeeper_client()
    seen, key = phone(mine, straight_match)
    # another phone at the table plays first: this phone's board is one version behind
    assert tap(other, straight_match, "Bo", 15, *phone(other, straight_match)).status_code == 200

    response = tap(mine, straight_match, "Ana", 10, seen, key)

    assert response.status_code == 200
    assert not response.has_header("HX-Reswap")
    assert is_board_only(response)
    assert totals(response) == [10, 15, 0, 0]
    assert rows(straight_match) == (1, 2)


def test_the_play_that_wins_the_match_is_answered_with_the_whole_board(
    client: Client, db: None
) -> None:
    match = stored(
        "straight",
        *FOUR,
        rules={"target": 50},
        hands=(rules.Hand(leader="Ana", plays=(rules.Play("Ana", points=30),)),),
    )
    seen, key = phone(client, match)

    response = tap(client, match, "Ana", 20, seen, key)

    assert response.status_code == 200
    assert not response.has_header("HX-Reswap")
    assert is_board_only(response)
    assert totals(response) == [50, 0, 0, 0]
    assert winner(response) == "Ana wins the match."
    # the entry forms are gone: nothing more can be recorded
    page = content(response)
    assert reverse("tables:record_play", args=[match.pk]) not in page
    assert 'name="seen"' not in page


def test_a_warning_is_said_in_the_message_area_of_the_short_answer(
    client: Client, db: None
) -> None:
    # the table wrote down Ana's 10 so far in the hand; a play of 5 makes it 15
    claimed, points = 10, 5
    match = stored(
        "straight",
        *FOUR,
        hands=(
            rules.Hand(
                leader="Ana", plays=(rules.Play("Ana", points=claimed),), claimed={"Ana": claimed}
            ),
        ),
    )
    seen, key = phone(client, match)

    response = tap(client, match, "Ana", points, seen, key)

    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    assert totals(response) == [claimed + points, 0, 0, 0]
    [(kind, said)] = messages_in(response)
    assert kind == "warning"
    assert said.startswith(
        f"Hand 1: the table wrote {claimed} for Ana, the app makes it {claimed + points}."
    )
    assert rows(match) == (1, 2)
    # said once: the next look at the board shows the finding on its hand, not the message
    page = client.get(reverse("tables:scoreboard", args=[match.pk]))
    assert "message-warning" not in content(page)
    assert said.split(".")[0] in text(page)


def test_an_impossible_play_is_refused_and_kept_anyway_only_with_the_whole_board(
    client: Client, straight_match: Match
) -> None:
    seen, key = phone(client, straight_match)

    refused = tap(client, straight_match, "Ana", 12, seen, key)

    assert refused.status_code == 422
    assert not refused.has_header("HX-Reswap")
    assert is_board_only(refused)
    assert rows(straight_match) == (1, 0)
    assert str(version_of(straight_match)) == seen

    kept = tap(client, straight_match, "Ana", 12, seen, key, override="on")

    assert kept.status_code == 200
    assert not kept.has_header("HX-Reswap")
    assert is_board_only(kept)
    assert totals(kept) == [12, 0, 0, 0]
    assert "Kept on purpose although the rules flag it." in text(kept)


# -- the engine's view kept in the cache after the short answers --------------------------------

NAMES = ("Ana", "Bo", "Cy", "Di")
PLAYS = st.lists(
    st.tuples(st.integers(0, len(NAMES) - 1), st.sampled_from(range(5, 36, 5))),
    min_size=1,
    max_size=8,
)


def a_match(players: int, partners: bool, earlier_hand: bool) -> Match:
    """A Straight match of ``players`` (in partnerships, with four), its hand being played
    open, after a hand dominoed by Ana when ``earlier_hand``."""
    names = NAMES[:players]
    hands = []
    if earlier_hand:
        pips = {name: 6 for name in names[1:]}
        hands.append(
            rules.Hand(
                leader="Ana",
                plays=(rules.Play("Ana", points=10),),
                end=rules.HandEnd("domino", player="Ana", pips=pips),
            )
        )
    hands.append(rules.Hand(leader="Ana"))
    return stored(
        "straight",
        *names,
        partnerships=(("Ana", "Cy"), ("Bo", "Di")) if partners and players == 4 else (),
        rules={"target": 100_000},
        hands=tuple(hands),
    )


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    players=st.integers(2, 4),
    partners=st.booleans(),
    earlier_hand=st.booleans(),
    plays=PLAYS,
)
def test_after_short_answers_the_kept_engine_view_is_the_stored_match(
    db: None, players: int, partners: bool, earlier_hand: bool, plays: list[tuple[int, int]]
) -> None:
    match = a_match(players, partners, earlier_hand)
    client = scorekeeper_client()
    seen, key = phone(client, match)

    for seat, points in plays:
        response = tap(client, match, NAMES[seat % players], points, seen, key)
        assert response.status_code == 200
        assert response["HX-Reswap"] == "none"
        seen, key = swapped_in(response)

        row = Match.objects.get(pk=match.pk)
        assert str(row.version) == seen
        # the view the play left in the cache: read from it in one query, nothing rebuilt
        with CaptureQueriesContext(connection) as asked:
            state = stored_state(row)
        assert len(asked.captured_queries) == 1
        assert state.value == match_value(refetch(row))
        assert state.board == rules.score_match(state.value)
        assert row.totals == state.board.totals
        assert totals(response) == [state.board.totals[side] for side in state.board.sides]

    # the hand being played holds the plays tapped, each for its player's side
    scored = dict.fromkeys(state.board.sides, 0)
    for seat, points in plays:
        scored[state.value.side_of(NAMES[seat % players])] += points
    assert state.board.hands[-1].points == scored
    assert len(state.value.hands[-1].plays) == len(plays)


def test_the_short_answer_keeps_the_note_on_a_play_kept_on_purpose(
    client: Client, straight_match: Match
) -> None:
    """A play the rules flag, kept anyway, stays marked when the next tap is answered short."""
    seen, key = phone(client, straight_match)
    assert tap(client, straight_match, "Ana", 12, seen, key, override="on").status_code == 200
    seen, key = phone(client, straight_match)

    answer = tap(client, straight_match, "Bo", 10, seen, key)

    assert answer["HX-Reswap"] == "none"
    assert "Kept on purpose although the rules flag it." in text(answer)
