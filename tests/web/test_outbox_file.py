"""A phone whose entries the server refuses downloads the match as stored with those entries
applied: a match file that `scorecheck` reads and scores, each entry read by the form its view
reads it with. Nothing is written."""

from __future__ import annotations

import json

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.rules.matchfile import read_match
from scorekeeper.tables.forms.straight import PLAY_POINTS
from scorekeeper.tables.models import Change, Match
from tests.web.table import FOUR, rows, stored

#: hand 1 as the server stores it: Ana 10 and Bo 15 in play, then Ana dominoes with Bo, Cy and
#: Di holding 12 + 9 + 11 = 32 pips, which round to 30: Ana 40, Bo 15
FIRST_HAND = rules.Hand(
    leader="Ana",
    plays=(rules.Play("Ana", points=10), rules.Play("Bo", points=15)),
    end=rules.HandEnd("domino", player="Ana", pips={"Bo": 12, "Cy": 9, "Di": 11}),
)


def seat(player: str) -> str:
    """The seat a phone's form posts for one of FOUR, or anything else as it is."""
    return str(FOUR.index(player)) if player in FOUR else player


def play(player: str, points: int | str, **fields: str) -> dict:
    return {"kind": "play", "fields": {"player": seat(player), "points": str(points), **fields}}


def lay(player: str, tile: str) -> dict:
    return {"kind": "play", "fields": {"player": seat(player), "tile": tile}}


def end(**fields: str) -> dict:
    return {"kind": "end", "fields": fields}


UNDO = {"kind": "undo", "fields": {}}


def export(client: Client, match: Match, entries: list | str) -> HttpResponse:
    text = entries if isinstance(entries, str) else json.dumps(entries)
    return client.post(reverse("tables:outbox_file", args=[match.pk]), {"entries": text})


def exported(client: Client, match: Match, entries: list) -> rules.Match:
    """The match file the phone downloads, read back as `scorecheck` reads it."""
    response = export(client, match, entries)
    assert response.status_code == 200, response.content
    return read_match(response.content)


def totals(value: rules.Match) -> list[int]:
    board = rules.score_match(value)
    return [board.totals[side] for side in board.sides]


@pytest.fixture
def hand_played(db: None) -> Match:
    """Ana, Bo, Cy and Di each for themselves, to 250, with hand 1 stored (FIRST_HAND)."""
    return stored("straight", *FOUR, hands=(FIRST_HAND,))


# -- the file ---------------------------------------------------------------------------------


def test_the_file_is_the_stored_match_with_the_phones_plays_and_hand_end(
    client: Client, hand_played: Match
) -> None:
    value = exported(
        client,
        hand_played,
        # hand 2: Bo 10, Cy 5, then Cy dominoes; Ana, Bo and Di hold 8 + 7 + 6 = 21, round to 20
        [play("Bo", 10), play("Cy", 5), end(out="2", pips_0="8", pips_1="7", pips_3="6")],
    )

    assert value.hands[0] == FIRST_HAND
    assert value.hands[1].plays == (rules.Play("Bo", points=10), rules.Play("Cy", points=5))
    assert value.hands[1].end == rules.HandEnd(
        "domino", player="Cy", pips={"Ana": 8, "Bo": 7, "Di": 6}
    )
    assert len(value.hands) == 2
    assert totals(value) == [40, 15 + 10, 5 + 20, 0]


def test_it_is_a_download_named_for_the_match_and_this_phone(
    client: Client, hand_played: Match
) -> None:
    response = export(client, hand_played, [play("Bo", 10)])

    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="match-{hand_played.pk}-with-this-phones-entries.json"'
    )
    assert json.loads(response.content)["format"] == "dominoes-match/1"
    assert "X-Entries-Skipped" not in response


def test_no_entries_give_the_match_as_stored(client: Client, hand_played: Match) -> None:
    as_stored = client.get(reverse("tables:export_json", args=[hand_played.pk]))

    assert export(client, hand_played, []).content == as_stored.content


def test_the_entries_mean_what_they_would_have_meant_had_they_been_sent(
    client: Client, hand_played: Match
) -> None:
    entries = [
        play("Bo", 10, lead="on", leader="Ana"),  # not the leader's: no lead
        play("Cy", "", other_points="15"),  # another number typed
        UNDO,
        play("Di", 5),
        end(out="blocked", pips_0="3", pips_1="12", pips_2="5", pips_3="9"),
    ]
    file = export(client, hand_played, entries).content

    for entry in entries:
        name = {"play": "record_play", "end": "end_hand", "undo": "undo"}[entry["kind"]]
        client.post(reverse(f"tables:{name}", args=[hand_played.pk]), entry["fields"])
    sent = client.get(reverse("tables:export_json", args=[hand_played.pk])).content

    assert json.loads(file) == json.loads(sent)


# -- each game --------------------------------------------------------------------------------


def test_a_chickenfoot_round(client: Client, chickenfoot_match: Match) -> None:
    value = exported(
        client,
        chickenfoot_match,
        # Bo goes out; Cy (seat 2) is left holding 0-0, which counts 50 on top of his 30 pips; Ana
        # (seat 0) set the round's double
        [end(went_out="1", pips_0="12", pips_2="30", pips_3="7", double_blank="2", starter="0")],
    )

    (round_1,) = value.hands
    assert round_1.starter == "Ana"
    assert round_1.end == rules.HandEnd(
        "domino", player="Bo", pips={"Ana": 12, "Cy": 30, "Di": 7}, double_blank=("Cy",)
    )
    assert totals(value) == [12, 0, 80, 7]


def test_a_chickenfoot_play_is_skipped_the_game_is_entered_a_round_at_a_time(
    client: Client, chickenfoot_match: Match
) -> None:
    response = export(client, chickenfoot_match, [play("Ana", 10)])

    assert response["X-Entries-Skipped"] == "1"
    assert read_match(response.content).hands == ()


def test_sedma_doubles_and_the_hand_s_end(client: Client, sedma_match: Match) -> None:
    value = exported(
        client,
        sedma_match,
        # 1-1 scores 1; 4-4 scores 1 + one lighter double down (1-1): 2
        [lay("Ana", "1-1"), lay("Bo", "44"), end(how="blocked")],
    )

    (hand_1,) = value.hands
    assert hand_1.opener == "Ana"
    assert hand_1.plays == (
        rules.Play("Ana", tile=(1, 1)),
        rules.Play("Bo", tile=(4, 4)),
    )
    assert hand_1.end == rules.HandEnd("blocked")
    assert totals(value) == [1, 2, 0, 0]


# -- undo -------------------------------------------------------------------------------------


def test_an_undo_takes_back_the_last_play(client: Client, hand_played: Match) -> None:
    value = exported(client, hand_played, [play("Bo", 10), play("Cy", 5), UNDO])

    assert value.hands[1].plays == (rules.Play("Bo", points=10),)
    assert totals(value) == [40, 25, 0, 0]


def test_an_undo_takes_back_what_was_stored_too(client: Client, hand_played: Match) -> None:
    value = exported(client, hand_played, [UNDO])

    assert value.hands[0].end is None
    assert value.hands[0].plays == FIRST_HAND.plays
    assert totals(value) == [10, 15, 0, 0]


# -- what is kept and what is skipped ---------------------------------------------------------


def test_an_entry_its_form_refuses_is_skipped_and_the_rest_applied(
    client: Client, hand_played: Match
) -> None:
    response = export(
        client,
        hand_played,
        [
            play("Bo", 10),
            play("Zed", 10),  # not at the table
            play("Cy", 0),  # not a score
            end(out="2"),  # no pips
            play("Cy", 5),
        ],
    )

    assert response.status_code == 200
    assert response["X-Entries-Skipped"] == "2,3,4"
    value = read_match(response.content)
    assert value.hands[1].plays == (rules.Play("Bo", points=10), rules.Play("Cy", points=5))
    assert value.hands[1].end is None


def test_an_entry_the_rules_flag_is_kept_as_the_table_said_it(
    client: Client, hand_played: Match
) -> None:
    value = exported(client, hand_played, [play("Bo", 7)])

    assert value.hands[1].plays == (rules.Play("Bo", points=7),)
    codes = [found.code for found in rules.score_match(value).findings]
    assert "play-not-multiple-of-five" in codes


def test_a_preview_of_a_hand_s_end_records_nothing(client: Client, hand_played: Match) -> None:
    response = export(
        client, hand_played, [end(out="2", pips_0="8", pips_1="7", pips_3="6", preview="")]
    )

    assert response["X-Entries-Skipped"] == "1"
    assert read_match(response.content).hands == (FIRST_HAND,)


# -- who may, and what it writes --------------------------------------------------------------


def test_a_watcher_may_export_too(hand_played: Match) -> None:
    value = exported(Client(), hand_played, [play("Bo", 10)])

    assert value.hands[1].plays == (rules.Play("Bo", points=10),)


def test_it_writes_nothing(client: Client, hand_played: Match) -> None:
    changes, stored_rows = Change.objects.count(), rows(hand_played)
    hand_played.refresh_from_db()
    version, totals_kept = hand_played.version, hand_played.totals

    export(client, hand_played, [play("Bo", 10), end(out="1", pips_0="5", pips_2="5", pips_3="5")])

    hand_played.refresh_from_db()
    assert Change.objects.count() == changes
    assert rows(hand_played) == stored_rows
    assert (hand_played.version, hand_played.totals) == (version, totals_kept)


def test_it_asks_for_the_csrf_token_like_every_post(hand_played: Match) -> None:
    phone = Client(enforce_csrf_checks=True)
    phone.get(reverse("login"))
    token = phone.cookies["csrftoken"].value
    url = reverse("tables:outbox_file", args=[hand_played.pk])

    assert phone.post(url, {"entries": "[]"}).status_code == 403
    assert phone.post(url, {"entries": "[]", "csrfmiddlewaretoken": token}).status_code == 200


def test_it_is_a_post(client: Client, hand_played: Match) -> None:
    url = reverse("tables:outbox_file", args=[hand_played.pk])

    assert client.get(url).status_code == 405


def test_a_match_that_is_not_there_is_404(client: Client, db: None) -> None:
    response = client.post(reverse("tables:outbox_file", args=[999_999]), {"entries": "[]"})

    assert response.status_code == 404


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "says"),
    [
        ("[", "not JSON"),
        ("[" * 100_000, "not JSON"),
        ("1" * 5000, "not JSON"),
        ('{"kind": "play"}', "must be a JSON list"),
        (json.dumps([UNDO] * 501), "At most 500 entries"),
        (json.dumps([{"kind": "pass", "fields": {}}]), "Entry 1 is not a play"),
        (json.dumps([UNDO, "undo"]), "Entry 2 is not a play"),
        (json.dumps([{"kind": "play", "fields": ["Bo", 10]}]), "must be a JSON object"),
        (json.dumps([{"kind": "play", "fields": {"player": {"name": "Bo"}}}]), "text or numbers"),
        (json.dumps([{"kind": "play", "fields": {"points": [[10]]}}]), "text or numbers"),
        ("", "required"),
    ],
)
def test_entries_that_are_not_a_list_of_entries_are_refused_plainly(
    client: Client, hand_played: Match, entries: str, says: str
) -> None:
    changes = Change.objects.count()

    response = export(client, hand_played, entries)

    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert says in response.content.decode()
    assert Change.objects.count() == changes


def test_500_entries_are_taken(client: Client, hand_played: Match) -> None:
    assert export(client, hand_played, [UNDO] * 500).status_code == 200


def test_numbers_and_ticks_are_read_as_a_form_posts_them(
    client: Client, hand_played: Match
) -> None:
    value = exported(
        client,
        hand_played,
        [{"kind": "play", "fields": {"player": "0", "points": 10, "lead": True, "again": False}}],
    )

    assert value.hands[1].plays == (rules.Play("Ana", points=10, lead=True),)


# -- the property -----------------------------------------------------------------------------

PLAYS = st.lists(st.tuples(st.sampled_from(FOUR), st.sampled_from(PLAY_POINTS)), max_size=20)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(plays=PLAYS)
def test_any_straight_plays_export_as_the_stored_match_plus_those_plays(
    client: Client, hand_played: Match, plays: list[tuple[str, int]]
) -> None:
    value = exported(client, hand_played, [play(player, points) for player, points in plays])

    added = tuple(rules.Play(player, points=points) for player, points in plays)
    assert value.hands == ((FIRST_HAND, rules.Hand(plays=added)) if plays else (FIRST_HAND,))
    scored = {name: sum(points for player, points in plays if player == name) for name in FOUR}
    assert totals(value) == [40 + scored["Ana"], 15 + scored["Bo"], scored["Cy"], scored["Di"]]
