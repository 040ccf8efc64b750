"""Whatever is typed or tampered with, the app answers with a page, never a server error, and
what it refuses leaves the match as it was."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.tables.models import Hand, Match, Play
from tests.seated import named_plays
from tests.web.pages import HTMX, text, totals
from tests.web.table import (
    FOUR,
    board,
    chickenfoot_round,
    correction,
    domino,
    lay,
    pips_fields,
    play,
    post,
    rows,
    scorekeeper_client,
    stored,
)

# -- what a form says about a bad value -------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ("0", "A play scores at least 5 points; 0 or less is not a score."),
        ("-5", "A play scores at least 5 points; 0 or less is not a score."),
        ("ten", "Points are a whole number (5, 10, 15 ...)."),
        ("", "Tap the points scored."),
        ("5000", "Ensure this value is less than or equal to 1000."),
    ],
)
def test_a_play_that_is_not_a_number_of_points_is_refused(
    client: Client, straight_match: Match, points: str, message: str
) -> None:
    response = play(client, straight_match, "Ana", points)

    assert response.status_code == 422
    assert message in text(response)
    assert rows(straight_match) == (1, 0)


def test_a_play_for_someone_not_at_the_table_is_refused(
    client: Client, straight_match: Match
) -> None:
    response = play(client, straight_match, "Zed", 10)

    assert response.status_code == 422
    assert "The player tapped does not sit at this table now" in text(response)
    assert rows(straight_match) == (1, 0)


def test_a_hand_end_without_everyones_pips_asks_for_them(
    client: Client, straight_match: Match
) -> None:
    response = domino(client, straight_match, "Ana", Bo=12, Di=11)

    assert response.status_code == 422
    assert "Enter Cy's pips (0 if none)." in text(response)
    assert Hand.objects.get(match=straight_match).end_how == ""


def test_negative_pips_are_refused(client: Client, straight_match: Match) -> None:
    response = domino(client, straight_match, "Ana", Bo=12, Cy=-9, Di=11)

    assert response.status_code == 422
    assert "Enter a whole number of at least 0." in text(response)
    assert Hand.objects.get(match=straight_match).end_how == ""


def test_a_hand_end_without_who_went_out_asks_who(client: Client, straight_match: Match) -> None:
    pips = pips_fields(straight_match, {"Ana": 1, "Bo": 12, "Cy": 9, "Di": 11})
    response = post(client, "end_hand", straight_match, pips)

    assert response.status_code == 422
    assert "Tap who dominoed, or Blocked." in text(response)
    assert Hand.objects.get(match=straight_match).end_how == ""


@pytest.mark.parametrize(
    ("tile", "message"),
    [
        ("9-9", "9-9: a double-six set has halves from 0 to 6."),
        ("x", '"x" is not a tile: write it like 4-4 or 1-2.'),
        ("1-2-3", '"1-2-3" is not a tile: write it like 4-4 or 1-2.'),
        ("", "Pick a tile."),
    ],
)
def test_a_tile_that_is_not_a_tile_is_refused(
    client: Client, sedma_match: Match, tile: str, message: str
) -> None:
    response = lay(client, sedma_match, "Ana", tile)

    assert response.status_code == 422
    assert message in text(response)
    assert rows(sedma_match) == (1, 0)


def test_a_round_gone_out_by_someone_not_at_the_table_is_refused(
    client: Client, chickenfoot_match: Match
) -> None:
    response = chickenfoot_round(client, chickenfoot_match, went_out="Zed", Ana=1, Bo=2, Cy=3, Di=4)

    assert response.status_code == 422
    assert rows(chickenfoot_match) == (0, 0)
    assert totals(board(client, chickenfoot_match)) == [0, 0, 0, 0]


def test_there_is_no_entering_into_a_match_that_does_not_exist(client: Client, db: None) -> None:
    for name in ("record_play", "end_hand", "undo", "rematch"):
        assert client.post(reverse(f"tables:{name}", args=[99]), {}).status_code == 404
    assert client.get(reverse("tables:scoreboard", args=[99])).status_code == 404


def test_entries_are_only_posted(client: Client, straight_match: Match) -> None:
    for name in ("record_play", "end_hand", "undo", "rematch"):
        assert client.get(reverse(f"tables:{name}", args=[straight_match.pk])).status_code == 405
    assert rows(straight_match) == (1, 0)


# -- anything at all --------------------------------------------------------------------------

ANSWERS = {200, 302, 404, 422}
REFUSED = {404, 422}

ENTRY_FIELDS = [
    "player",
    "points",
    "tile",
    "how",
    *[f"pips_{seat}" for seat in range(5)],
    "went_out",
    "double_blank",
    "starter",
    "override",
    "preview",
]
TYPED = st.one_of(
    st.text(max_size=20),
    st.integers(min_value=-(10**6), max_value=10**6).map(str),
    st.sampled_from(
        [*FOUR, "ana", "domino", "blocked", "all-doubles", "target", "on", "4-4", "0-0", "1-2",
         "6|6", "7", "10", "12", "35", "0", "", " "]
    ),
)  # fmt: skip
FORMS = st.dictionaries(st.sampled_from(ENTRY_FIELDS), TYPED, max_size=8)


def a_match_under_way(game: str) -> Match:
    """A fresh match with something entered, so each example starts from the same place."""
    if game == "straight":
        first = rules.Hand(
            leader="Ana",
            plays=(rules.Play("Bo", points=10),),
            end=rules.HandEnd("domino", player="Bo", pips={"Ana": 4, "Cy": 5, "Di": 6}),
        )
        return stored(game, *FOUR, hands=(first, rules.Hand(plays=(rules.Play("Cy", points=5),))))
    if game == "chickenfoot":
        end = rules.HandEnd("domino", player="Di", pips={"Ana": 4, "Bo": 5, "Cy": 6})
        return stored(game, *FOUR, hands=(rules.Hand(end=end),))
    return stored(
        game, *FOUR, hands=(rules.Hand(opener="Ana", plays=(rules.Play("Ana", tile=(2, 2)),)),)
    )


def snapshot(match: Match) -> tuple:
    """Everything an entry could change."""
    hands = Hand.objects.filter(match=match).order_by("number")
    plays = named_plays(Play.objects.filter(hand__match=match)).order_by("hand__number", "number")
    return (
        list(hands.values_list("number", "end_how", "end_seat", "pips", "double_blank")),
        list(plays.values_list("hand__number", "number", "player", "points", "tile")),
        Match.objects.filter(pk=match.pk).values_list("totals", "finished").get(),
    )


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(["straight", "chickenfoot", "sedma"]),
    action=st.sampled_from(["record_play", "end_hand"]),
    data=FORMS,
    htmx=st.booleans(),
)
def test_no_entry_makes_the_app_fail_and_a_refused_one_changes_nothing(
    db: None, game: str, action: str, data: dict[str, str], htmx: bool
) -> None:
    match = a_match_under_way(game)
    before = snapshot(match)

    response = scorekeeper_client().post(
        reverse(f"tables:{action}", args=[match.pk]), data, headers=HTMX if htmx else {}
    )

    assert response.status_code in ANSWERS
    # a preview is for the end of a hand (or round) only: a play has no preview
    if response.status_code in REFUSED or (action == "end_hand" and "preview" in data):
        assert snapshot(match) == before


EDIT_FIELDS = [
    *[f"play-{row}-{name}" for row in range(3) for name in ("player", "points", "tile", "remove")],
    # the rows' count the page sends (the formset's management form), tampered with
    "play-TOTAL_FORMS",
    "play-INITIAL_FORMS",
    "how",
    "player",
    *[f"pips_{seat}" for seat in range(5)],
    "went_out",
    "double_blank",
    "starter",
    "override",
]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(["straight", "chickenfoot", "sedma"]),
    number=st.sampled_from([1, 2]),
    data=st.dictionaries(st.sampled_from(EDIT_FIELDS), TYPED, max_size=10),
)
def test_no_correction_makes_the_app_fail_and_a_refused_one_changes_nothing(
    db: None, game: str, number: int, data: dict[str, str]
) -> None:
    match = a_match_under_way(game)
    before = snapshot(match)

    data = correction(match, number, data)
    response = scorekeeper_client().post(reverse("tables:edit_hand", args=[match.pk, number]), data)

    assert response.status_code in ANSWERS
    if response.status_code in REFUSED:
        assert snapshot(match) == before


SETUP_FIELDS = [
    *[f"seat_{seat}" for seat in range(1, 11)],
    "partnerships",
    "target",
    "spinner",
    "round_each_hand",
    "subtract_own",
    "set",
    "double_blank",
    "first",
]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(["straight", "chickenfoot", "sedma"]),
    data=st.dictionaries(st.sampled_from(SETUP_FIELDS), TYPED, max_size=10),
)
def test_no_setup_makes_the_app_fail(db: None, game: str, data: dict[str, str]) -> None:
    before = Match.objects.count()

    response = scorekeeper_client().post(reverse("tables:new_match", args=[game]), data)

    assert response.status_code in {302, 422}
    assert Match.objects.count() == before + (response.status_code == 302)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 100) | st.text(max_size=8) | TYPED,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
HAND = st.fixed_dictionaries(
    {},
    optional={
        "leader": st.sampled_from(FOUR) | JSON,
        "double": st.integers(-1, 13) | JSON,
        "opener": st.sampled_from(FOUR),
        "passed_opening": st.lists(st.sampled_from(FOUR), max_size=3),
        "plays": st.lists(
            st.fixed_dictionaries(
                {"player": st.sampled_from(FOUR) | JSON},
                optional={"points": st.integers(-5, 40) | JSON, "tile": TYPED | JSON},
            ),
            max_size=4,
        ),
        "end": st.fixed_dictionaries(
            {"how": st.sampled_from(["domino", "blocked", "all-doubles", "target"]) | JSON},
            optional={
                "player": st.sampled_from(FOUR) | JSON,
                "pips": st.dictionaries(st.sampled_from(FOUR), st.integers(-5, 200) | JSON),
                "double_blank": st.sampled_from(FOUR) | JSON,
            },
        ),
        "claimed": st.dictionaries(st.sampled_from([*FOUR, "Ana & Cy"]), st.integers(-5, 99)),
    },
)
MATCH_FILE = st.fixed_dictionaries(
    {
        "game": st.sampled_from(["straight", "chickenfoot", "sedma"]) | JSON,
        "players": st.sampled_from([list(FOUR), ["Ana", "Bo"], ["Ana", "ana"]]) | JSON,
    },
    optional={
        "format": st.just("dominoes-match/1") | JSON,
        "rules": st.dictionaries(
            st.sampled_from(["target", "spinner", "set", "double_blank", "round_each_hand"]),
            st.integers(0, 300) | st.booleans() | JSON,
        ),
        "partnerships": st.just([["Ana", "Cy"], ["Bo", "Di"]]) | JSON,
        "hands": st.lists(HAND, max_size=4),
    },
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=MATCH_FILE)
def test_no_match_file_makes_the_app_fail(db: None, document: dict) -> None:
    before = Match.objects.count()
    upload = SimpleUploadedFile("match.json", json.dumps(document).encode())

    response = scorekeeper_client().post(reverse("tables:import_match"), {"file": upload})

    assert response.status_code in {302, 422}
    assert Match.objects.count() == before + (response.status_code == 302)
    if response.status_code == 302:
        imported = Match.objects.order_by("-pk").first()
        assert Client().get(reverse("tables:scoreboard", args=[imported.pk])).status_code == 200


# -- bytes that are not UTF-8 ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [b"Ren%E9e", b"Ren\xe9e", b"Ana%C3", b"%ED%A0%80Bo", b"%FF%FE"],
    ids=["percent-latin-1", "raw-latin-1", "cut-short", "encoded-surrogate", "bom"],
)
def test_a_form_whose_bytes_are_not_utf_8_is_refused_and_saves_nothing(
    db: None, name: bytes
) -> None:
    """The probe: a form sent without a charset, its name in latin-1, was stored with U+FFFD
    in place of the letter (a form declared in latin-1 is refused already)."""
    client = scorekeeper_client()
    body = b"target=250&spinner=on&seat_1=" + name + b"&seat_2=Cy"

    response = client.generic(
        "POST",
        reverse("tables:new_match", args=["straight"]),
        body,
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 400
    assert response.content.decode() == "Bad request: a form is sent as UTF-8."
    assert not Match.objects.exists()


def test_a_form_in_utf_8_without_a_charset_is_read_as_sent(db: None) -> None:
    client = scorekeeper_client()
    body = "target=250&spinner=on&seat_1=Ren%C3%A9e&seat_2=Łucja+Ż".encode()

    response = client.generic(
        "POST",
        reverse("tables:new_match", args=["straight"]),
        body,
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 302
    assert sorted(Match.objects.get().players.values_list("name", flat=True)) == [
        "Renée",
        "Łucja Ż",
    ]
