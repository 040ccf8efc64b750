"""A dispute whose correction makes the other side reach the target earlier: the director ends
the match where it is now won, the later hands stay in the history and out of the result, and
the standings and ratings count the result at the winning moment.

One table of four plays to 25, seat 1's side (A) against seat 2's (B), every hand a domino:
hand 1 B on 12 pips (10), hand 2 A on 10 (10), hand 3 B on 5 (5), hands 4 and 5 A on 10 each:
A 30, B 15. B disputes hand 1: the pips were 18 (20), so B reached 25 at hand 3."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.kept import standings_read
from scorekeeper.leagues.models import RatingChange
from scorekeeper.nights import signing
from scorekeeper.nights.models import Dispute
from scorekeeper.tables.models import Match
from tests.leagues.test_kept_ratings import assert_kept_equals_scratch
from tests.nights.test_nights import draw, new_night, season_of, start
from tests.nights.test_signing import PLAYERS, sign_url, version_shown
from tests.web.pages import content, text, totals
from tests.web.table import board, correction, domino, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


def disputed_match(organizer: Client) -> tuple[Match, Dispute, Client]:
    season = season_of("straight", {"target": 25}, members=PLAYERS)
    night = new_night(organizer, season, players=PLAYERS)
    first = draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302
    table = first.tables.get()
    phone = Client()
    phone.post(reverse("access:join", args=[table.link.token]), {"name": "T1"})
    match = table.match
    a1, b1, a2, b2 = seated_names(match)
    for went_out, pips in (
        (b1, {a1: 6, a2: 6, b2: 3}),
        (a1, {b1: 5, b2: 5, a2: 3}),
        (b1, {a1: 3, a2: 2, b2: 3}),
        (a1, {b1: 5, b2: 5, a2: 3}),
        (a1, {b1: 5, b2: 5, a2: 3}),
    ):
        assert domino(phone, match, went_out, **pips).status_code == 302
    match.refresh_from_db()
    assert match.finished and match.totals == [30, 15]
    shown = content(board(phone, match))
    phone.post(
        sign_url(shown),
        {
            "answer": "disagree",
            "hand": "1",
            "reason": "points",
            "text": "Ana held 12, not 6",
            **version_shown(shown),
        },
    )
    (dispute,) = signing.open_disputes(night)
    return match, dispute, phone


def hand_one_corrected(match: Match, **extra: str) -> dict:
    """Hand 1 as the director corrects it: seat 1 held 12 pips, not 6 (18 in all: 20)."""
    return correction(match, 1, {"out": "1", "pips_0": "12", "pips_2": "6", "pips_3": "3", **extra})


def test_the_director_ends_the_match_where_the_correction_makes_it_won(organizer) -> None:
    match, dispute, phone = disputed_match(organizer)
    a1, b1, a2, b2 = seated_names(match)
    dispute_url = reverse("nights:dispute", args=[dispute.pk])
    page = content(organizer.get(dispute_url))
    # the hand's Edit on the dispute page: back to it, the match ended where it is now won
    (edit,) = re.findall(r'href="(/matches/\d+/hands/1/edit/\?[^"]+)"', page)
    edit = edit.replace("&amp;", "&")
    form = organizer.get(edit)
    assert 'name="end_at_win" value="1" checked' in content(form)
    assert "If this makes a side win earlier, end the match there" in text(form)

    # as many taps as a plain correction: the pips, Save, then Sign
    saved = organizer.post(edit, hand_one_corrected(match, end_at_win="1"))

    assert saved.status_code == 302 and saved["Location"] == dispute_url
    match.refresh_from_db()
    assert match.totals == [10, 25] and match.hand_count == 3 and match.winners == [1]
    page = text(organizer.get(dispute_url))
    assert (
        f"Hands 4-5 come after {b1} & {b2} reached 25. The match ends at hand 3; what came after "
        "stays in its history." in page
    )
    # the hands after the win are kept in the history, out of the result
    change = match.changes.order_by("-number").first()
    assert len(change.before) == 5 and len(change.after) == 3
    assert "Hand 1 corrected; the match ends at hand 3, where it was won" in page
    organizer.post(dispute_url, version_shown(content(organizer.get(dispute_url))))
    dispute.refresh_from_db()
    assert dispute.closed == Dispute.Closed.CORRECTED
    assert totals(board(phone, match)) == [10, 25]
    rows = {row.player: row for row in standings_read(match.league_entry.season)}
    assert (rows[b1].won, rows[b1].points_for, rows[b1].points_against) == (1, 25, 10)
    assert (rows[a1].won, rows[a1].points_for, rows[a1].points_against) == (0, 10, 25)
    # rated as won by B: B's players' ratings rise, A's fall; as worked out from scratch
    rated = dict(RatingChange.objects.filter(match=match).values_list("player__name", "mu_after"))
    before = dict(RatingChange.objects.filter(match=match).values_list("player__name", "mu_before"))
    assert rated[b1] > before[b1] and rated[a1] < before[a1]
    assert_kept_equals_scratch()


def test_a_correction_that_moves_the_win_offers_to_end_the_match_there(organizer) -> None:
    match, dispute, phone = disputed_match(organizer)
    a1, b1, a2, b2 = seated_names(match)
    edit = reverse("tables:edit_hand", args=[match.pk, 1])

    refused = organizer.post(edit, hand_one_corrected(match))

    assert refused.status_code == 422
    said = text(refused)
    assert f"Hands 4-5 come after {b1} & {b2} reached 25." in said
    assert 'data-testid="end-at-win"' in content(refused)
    assert "End the match at hand 3" in said
    match.refresh_from_db()
    assert match.totals == [30, 15]

    ended = organizer.post(edit, hand_one_corrected(match, end_at_win="1"))

    assert ended.status_code == 302
    assert ended["Location"] == reverse("tables:scoreboard", args=[match.pk])
    match.refresh_from_db()
    assert match.totals == [10, 25] and match.hand_count == 3


def test_a_result_kept_past_the_win_is_ended_there_and_signed_in_one_tap(organizer) -> None:
    match, dispute, phone = disputed_match(organizer)
    a1, b1, a2, b2 = seated_names(match)
    edit = reverse("tables:edit_hand", args=[match.pk, 1])
    kept = organizer.post(edit, hand_one_corrected(match, override="1"))
    assert kept.status_code == 302
    match.refresh_from_db()
    # kept anyway, the points scored after the match was over counted: 30-25 for B
    assert match.totals == [30, 25]
    dispute_url = reverse("nights:dispute", args=[dispute.pk])
    page = organizer.get(dispute_url)
    assert f"Hands 4-5 come after {b1} & {b2} reached 25." in text(page)
    assert "End the match at hand 3 and sign" in text(page)

    organizer.post(dispute_url, {"end_at_win": "1", **version_shown(content(page))})

    match.refresh_from_db()
    dispute.refresh_from_db()
    assert match.totals == [10, 25] and match.hand_count == 3
    assert dispute.closed == Dispute.Closed.CORRECTED
    assert signing.sign_state(match) == signing.SIGNED
    assert "The match ends at hand 3, where it was won" in text(
        organizer.get(reverse("tables:history", args=[match.pk]))
    )
    rows = {row.player: row for row in standings_read(match.league_entry.season)}
    assert (rows[b1].won, rows[b1].points_for, rows[a1].points_for) == (1, 25, 10)
