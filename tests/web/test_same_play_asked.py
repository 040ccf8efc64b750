"""The same play from a second phone within seconds is asked about: the question names the
phone that entered it first, and offers both answers, another play or the same one, each
working without JavaScript."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.access.models import ShareLink
from scorekeeper.tables.models import Match
from tests.access.conftest import join
from tests.web.pages import content, text, text_of
from tests.web.table import play, rows, setup_data

pytestmark = pytest.mark.django_db


def started_on_a_phone() -> tuple[Match, Client, Client]:
    """Ana's phone (no account, no name given) starts the match and shares a scorekeeper's
    link; Ben joins through it, giving his name."""
    starter, ben = Client(), Client()
    starter.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", "Ana", "Ben", "Cy", "Dale", first="1"),
    )
    match = Match.objects.get()
    starter.post(
        reverse("access:share", args=[match.pk]), {"role": "scorekeeper", "label": "Table 5"}
    )
    join(ben, ShareLink.objects.get(match=match, label="Table 5"), "Ben")
    return match, starter, ben


def test_the_question_names_the_phone_that_started_the_match(db: None) -> None:
    match, starter, ben = started_on_a_phone()
    play(starter, match, "Dale", 15)

    asked = play(ben, match, "Dale", 15)

    assert asked.status_code == 422
    said = text(asked)
    assert "Dale 15 was just entered by the phone that started this match. Add another?" in said
    assert "another phone" not in said
    assert rows(match) == (1, 1)


def test_no_it_is_the_same_play_drops_it_without_javascript(db: None) -> None:
    match, starter, ben = started_on_a_phone()
    play(ben, match, "Dale", 15)
    asked = content(play(starter, match, "Dale", 15))

    assert "Dale 15 was just entered by Ben's phone. Add another?" in text_of(asked)
    assert ">Add another</button>" in asked
    # the answer is a plain link back to the board: followed, nothing more is entered
    same = reverse("tables:scoreboard", args=[match.pk])
    assert f'<a class="btn" href="{same}"' in asked
    assert ">No, it is the same play</a>" in asked
    followed = starter.get(same)
    assert followed.status_code == 200
    assert rows(match) == (1, 1)
