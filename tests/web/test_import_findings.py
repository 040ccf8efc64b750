"""An import keeps error findings only when asked: a match file the rules find errors in is not
stored; the page lists the findings and asks once to keep them all (docs/rules.md)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.rules import limits, score_match
from scorekeeper.rules.matchfile import read_match
from scorekeeper.tables.models import Match, Play
from tests.web.pages import content, text, totals, winner

pytestmark = pytest.mark.django_db

WITH_ERRORS = {
    "game": "straight",
    "players": ["Ana", "Bo"],
    "hands": [{"plays": [{"player": "Ana", "points": 37}, {"player": "Bo", "points": 10}]}],
}


def upload(client: Client, document: dict[str, Any] | bytes):
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    return client.post(
        reverse("tables:import_match"),
        {"file": SimpleUploadedFile("match.json", raw, content_type="application/json")},
    )


def kept_token(response) -> str:
    found = re.search(r'name="keep" value="([^"]+)"', content(response))
    assert found is not None, "the page does not ask to keep the findings"
    return found.group(1)


def keep(client: Client, token: str):
    return client.post(reverse("tables:import_match"), {"keep": token, "entry_key": token})


def test_a_file_with_error_findings_is_not_stored_but_listed_with_one_question(
    client: Client,
) -> None:
    response = upload(client, WITH_ERRORS)

    assert response.status_code == 422
    assert not Match.objects.exists()
    said = text(response)
    assert "Not imported yet: the rules find errors in this match file" in said
    assert "Ana scored 37, but the open ends only score when they add up" in said
    assert "Ana scored 37, but the open ends can show at most 35." in said
    assert content(response).count('name="keep"') == 1
    assert "Keep them all and import" in said


def test_keeping_them_all_stores_the_file_as_it_was_shown_with_the_findings_flagged(
    client: Client,
) -> None:
    token = kept_token(upload(client, WITH_ERRORS))

    response = keep(client, token)

    assert response.status_code == 302
    match = Match.objects.get()
    assert response["Location"] == reverse("tables:scoreboard", args=[match.pk])
    assert totals(client.get(response["Location"])) == [37, 10]
    flagged = Play.objects.filter(hand__match=match, overridden=True)
    assert list(flagged.values_list("points", flat=True)) == [37]


def test_keeping_them_twice_stores_one_match(client: Client) -> None:
    token = kept_token(upload(client, WITH_ERRORS))

    first = keep(client, token)
    again = keep(client, token)

    assert Match.objects.count() == 1
    assert again.status_code == 302
    assert again["Location"] == first["Location"]


@pytest.mark.parametrize("token", ["", "x" * 20, "not a token!", "a" * 500])
def test_keeping_a_file_that_is_not_at_hand_asks_for_it_again(client: Client, token: str) -> None:
    response = keep(client, token)

    assert response.status_code == 422
    assert not Match.objects.exists()
    if token:
        assert "That file is no longer at hand: choose it again." in text(response)


def test_a_file_with_warnings_only_is_imported_at_once(client: Client) -> None:
    document = {**WITH_ERRORS, "hands": [{"plays": [{"player": "Ana", "points": 35}]}]}
    document["hands"][0]["claimed"] = {"Ana": 30}

    response = upload(client, document)

    assert response.status_code == 302
    assert Match.objects.count() == 1


def test_the_page_lists_a_bounded_number_of_findings_however_many_there_are(
    client: Client,
) -> None:
    plays = [{"player": "Ana", "points": 37}] * limits.MOST_PLAYS
    hand = {"plays": plays, "end": {"how": "domino", "player": "Ana", "pips": {"Bo": 5}}}
    document = {**WITH_ERRORS, "rules": {"target": limits.MOST_TARGET}}
    document["hands"] = [hand] * limits.MOST_HANDS

    response = upload(client, document)

    assert response.status_code == 422
    assert len(response.content) < 100_000
    findings = score_match(read_match(json.dumps(document))).findings
    assert f"And {len(findings) - 50} more." in text(response)
    assert not Match.objects.exists()


def test_a_file_larger_than_a_match_is_refused_as_too_large(client: Client) -> None:
    raw = json.dumps(WITH_ERRORS).encode() + b" " * limits.MOST_FILE_BYTES

    response = upload(client, raw)

    assert response.status_code == 413
    assert "(file): too-large: a match file has at most 1,000,000 bytes" in text(response)
    assert not Match.objects.exists()


def test_pips_far_beyond_any_set_are_refused_with_the_place_and_the_bound(client: Client) -> None:
    document = {
        "game": "straight",
        "players": ["Ana", "Bo"],
        "hands": [{"end": {"how": "domino", "player": "Ana", "pips": {"Bo": 3_000_000_000}}}],
    }

    response = upload(client, document)

    assert response.status_code == 422
    assert "hands[0].end.pips.Bo: invalid-number" in text(response)
    assert "1092" in text(response)
    assert not Match.objects.exists()


#: time was called in hand 2, which Ana ends ahead 45 to 20; Bo reaches the target of 100 in
#: hand 3, recorded after the match was decided
DECIDED_AT_TIME = {
    "game": "straight",
    "rules": {"target": 100, "last_hand": 2},
    "players": ["Ana", "Bo"],
    "hands": [
        {
            "plays": [{"player": "Ana", "points": 35}, {"player": "Ana", "points": 10}],
            "end": {"how": "domino", "player": "Ana", "pips": {"Bo": 0}},
        },
        {
            "plays": [{"player": "Bo", "points": 20}],
            "end": {"how": "domino", "player": "Bo", "pips": {"Ana": 0}},
        },
        {
            "plays": [{"player": "Bo", "points": 35}] * 3,
            "end": {"how": "domino", "player": "Bo", "pips": {"Ana": 0}},
        },
    ],
}


def test_a_match_decided_at_time_is_imported_with_its_winner_and_the_hand_after_flagged(
    client: Client,
) -> None:
    asked = upload(client, DECIDED_AT_TIME)

    assert asked.status_code == 422
    assert "Hand 3: recorded after Ana had won the match." in text(asked)
    response = keep(client, kept_token(asked))

    page = client.get(response["Location"])
    assert totals(page) == [45, 125]
    assert winner(page) == "Ana wins the match."
    assert Match.objects.get().winners == [0]
