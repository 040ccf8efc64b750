"""A side's link signs for it, so only the phone keeping score and the night's organizers are
shown one: no page a watcher or a stranger opens carries a token, the watchers' board kept in
the cache and its polls included. And an answer names the result it was given: after an undo
and a new entry, an Agree or a dispute drawn before signs nothing, and the page shows the
result as it now stands and asks again.

One table of four plays to 25: seat 2 plays 10, then seat 1 plays 25 and their side wins."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import signing as django_signing
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.models import Season
from scorekeeper.nights import signing
from scorekeeper.nights.models import Dispute
from scorekeeper.tables.models import Match
from tests.nights.test_nights import draw, new_night, season_of, start
from tests.nights.test_signing import (
    PLAYERS,
    correct_hand_one,
    night_match,
    on_the_board,
    sides,
    sign_url,
    version_shown,
)
from tests.web.pages import HTMX, content, text, totals
from tests.web.table import board, play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    return season_of("straight", {"target": 25}, members=PLAYERS)


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


def tokens(match: Match) -> list[str]:
    """Every side's link token of the match (the signing module makes them from the match)."""
    return [signing.sign_token(match.pk, side) for side in range(len(seated_names(match)))]


def assert_no_token(page: str, match: Match, where: str) -> None:
    assert "/nights/sign/" not in page, where
    for token in tokens(match):
        assert token not in page, where


def public_pages(match: Match) -> list[str]:
    """Every page of the night a watcher or a stranger can open, the match's included."""
    night = match.night_table.night_round.night
    league, season = night.season.league_id, night.season_id
    return [
        reverse("tables:scoreboard", args=[match.pk]),
        reverse("tables:history", args=[match.pk]),
        reverse("tables:sheet", args=[match.pk]),
        reverse("tables:export_json", args=[match.pk]),
        reverse("tables:export_csv", args=[match.pk]),
        reverse("leagues:match_ratings", args=[match.pk]),
        reverse("nights:night", args=[night.pk]),
        reverse("nights:board", args=[night.pk]),
        reverse("nights:pairings", args=[night.pk]),
        reverse("nights:desk", args=[night.pk]),
        reverse("nights:results_csv", args=[night.pk]),
        reverse("leagues:wall", args=[league, season]),
        reverse("leagues:season", args=[league, season]),
        reverse("nights:table_now", args=[league, 1]),
    ]


def test_a_watchers_finished_board_and_its_polls_carry_no_sign_token(organizer, season):
    night, match, phone = night_match(organizer, season)
    scorekeepers = content(board(phone, match))
    # the board the watchers were shown while the match was played, whose poll now answers
    poll = reverse("tables:live", args=[match.pk]) + "?v=1.0"
    member = get_user_model().objects.create_user("watching", password="a long password")
    signed_in = Client()
    signed_in.force_login(member)

    for watcher in (Client(), Client(), signed_in):
        # twice: the second is the watchers' board kept in the cache
        for _ in range(2):
            page = board(watcher, match)
            assert "do you agree" not in text(page)
            assert "Waiting for" in text(page)
            assert_no_token(content(page), match, "the watcher's board")
        assert_no_token(
            content(watcher.get(reverse("tables:scoreboard", args=[match.pk]), headers=HTMX)),
            match,
            "the watcher's board for htmx",
        )
        polled = watcher.get(poll, headers=HTMX)
        assert polled.status_code == 200
        assert_no_token(content(polled), match, "the watcher's poll")
        for where in public_pages(match):
            answer = watcher.get(where)
            assert answer.status_code in (200, 302, 403), where
            body = b"".join(answer) if answer.streaming else answer.content
            assert_no_token(body.decode(), match, where)

    # the phone keeping score still hands over, and shows the other side's link
    assert sign_url(scorekeepers)
    assert 'data-testid="sign-link"' in scorekeepers
    # and so do the night's organizers
    assert 'data-testid="sign-link"' in content(board(organizer, match))


def test_a_watcher_opening_the_board_first_leaves_no_token_for_the_next(organizer, season):
    """The watchers' board is one page kept for all of them: drawn for a watcher before the
    scorekeeper's phone asks, it still has no link, and the scorekeeper's still has its own."""
    night, match, phone = night_match(organizer, season)
    watcher = Client()
    assert_no_token(content(board(watcher, match)), match, "the watcher's board")

    assert 'data-testid="sign-link"' in content(board(phone, match))
    assert_no_token(content(board(Client(), match)), match, "the next watcher's board")


def test_a_link_copied_from_a_watchers_board_before_signs_nothing(organizer, season):
    """The watchers' boards showed every side's link until now: a token made as they were is
    not taken, while the link the scorekeeper's board shows now is."""
    night, match, phone = night_match(organizer, season)
    copied = django_signing.dumps([match.pk, 1], salt="nights.signing", compress=False)
    stranger = Client()

    address = reverse("nights:sign", args=[copied])
    assert stranger.get(address).status_code == 404
    assert stranger.post(address, {"answer": "agree"}).status_code == 404
    assert signing.sign_state(match) == signing.WAITING
    url, _ = on_the_board(phone, match)
    assert stranger.get(url).status_code == 200


def undone_and_won_by_the_other_side(phone: Client, match: Match) -> None:
    """The scorekeeper undoes the last play and enters 25 for seat 2 instead: the other side
    wins 35 to 0 now."""
    assert phone.post(reverse("tables:undo", args=[match.pk])).status_code == 302
    seats = seated_names(match)
    assert play(phone, match, seats[1], 25).status_code in (200, 302)
    match.refresh_from_db()
    assert match.finished and match.totals == [0, 35]


@pytest.mark.parametrize("where", ["board", "link"])
def test_an_agree_to_a_result_since_undone_signs_nothing_and_asks_again(organizer, season, where):
    night, match, phone = night_match(organizer, season)
    keepers, others = sides(match)
    url, shown = on_the_board(phone, match)
    answering = phone
    if where == "link":
        (link,) = re.findall(
            r'href="http://testserver(/nights/sign/[^"]+/)" data-testid="sign-link"',
            content(board(phone, match)),
        )
        answering = Client()
        page = answering.get(link)
        assert f"{keepers} 25" in text(page)
        url, shown = link, version_shown(content(page))

    undone_and_won_by_the_other_side(phone, match)
    stale = answering.post(url, {"answer": "agree", **shown})

    assert stale.status_code == 409
    assert signing.sign_state(match) == signing.WAITING
    said = text(stale)
    assert "The result changed since this page was shown, and nothing was signed." in said
    assert f"{keepers} 0" in said and f"{others} 35" in said
    assert f"{others}: do you agree with this result?" in said
    # asked again, the answer to the result as it now stands signs it
    again = answering.post(url, {"answer": "agree", **version_shown(content(stale))})
    assert again.status_code == 302
    assert signing.sign_state(match) == signing.SIGNED
    match.refresh_from_db()
    assert match.totals == [0, 35]


def test_an_answer_while_the_match_is_played_again_signs_nothing(organizer, season):
    """Between the undo and the new entry the match is not finished: the other side's Agree or
    dispute saves nothing, and its link shows the match, asking nothing until it ends again."""
    night, match, phone = night_match(organizer, season)
    keepers, others = sides(match)
    (link,) = re.findall(
        r'href="http://testserver(/nights/sign/[^"]+/)" data-testid="sign-link"',
        content(board(phone, match)),
    )
    own_phone = Client()
    shown = version_shown(content(own_phone.get(link)))
    assert phone.post(reverse("tables:undo", args=[match.pk])).status_code == 302

    for answer in (
        {"answer": "agree"},
        {"answer": "disagree", "hand": "1", "reason": "points", "text": ""},
    ):
        stale = own_phone.post(link, {**answer, **shown})
        assert stale.status_code == 409
        said = text(stale)
        assert "The result changed since this page was shown, and nothing was signed." in said
        assert "This match is being played again" in said
        assert f"{keepers} 0" in said and f"{others} 10" in said
        assert 'name="answer"' not in content(stale)
    assert signing.sign_state(match) is None
    assert not Dispute.objects.exists()
    assert not hasattr(Match.objects.get(pk=match.pk), "signature")
    assert "This match is being played again" in text(own_phone.get(link))

    # finished again, the link asks about the result as it now stands
    seats = seated_names(match)
    assert play(phone, match, seats[1], 25).status_code in (200, 302)
    assert f"{others}: do you agree with this result?" in text(own_phone.get(link))


def test_an_agree_that_names_no_result_signs_nothing(organizer, season):
    night, match, phone = night_match(organizer, season)
    url, shown = on_the_board(phone, match)

    for version in ({}, {"version": "x"}, {"version": "99999999999999999999"}):
        refused = phone.post(url, {"answer": "agree", **version})
        assert refused.status_code == 409
        assert "do you agree with this result?" in text(refused)

    assert signing.sign_state(match) == signing.WAITING


def test_a_dispute_of_a_result_since_undone_opens_nothing_and_asks_again(organizer, season):
    night, match, phone = night_match(organizer, season)
    keepers, others = sides(match)
    url, _ = on_the_board(phone, match)
    form = phone.get(url)

    undone_and_won_by_the_other_side(phone, match)
    stale = phone.post(
        url,
        {
            "answer": "disagree",
            "hand": "1",
            "reason": "points",
            "text": "Bo played 15",
            **version_shown(content(form)),
        },
    )

    assert stale.status_code == 409
    assert not Dispute.objects.exists()
    assert signing.sign_state(match) == signing.WAITING
    said = text(stale)
    assert "The result changed since this page was shown, and nothing was signed." in said
    assert f"{keepers} 0" in said and f"{others} 35" in said
    assert 'name="hand"' in content(stale)
    again = phone.post(
        url,
        {
            "answer": "disagree",
            "hand": "1",
            "reason": "points",
            "text": "Bo played 15",
            **version_shown(content(stale)),
        },
    )
    assert again.status_code == 302
    (dispute,) = Dispute.objects.all()
    match.refresh_from_db()
    assert dispute.version == match.version


def test_the_director_settling_a_result_corrected_since_signs_nothing_and_shows_it(
    organizer, season
):
    night, match, phone = night_match(organizer, season)
    keepers, others = sides(match)
    url, shown = on_the_board(phone, match)
    phone.post(url, {"answer": "disagree", "hand": "1", "reason": "points", **shown})
    (dispute,) = signing.open_disputes(night)
    settle = reverse("nights:dispute", args=[dispute.pk])
    drawn = version_shown(content(organizer.get(settle)))
    # the organizer's other browser corrects the hand meanwhile: seat 2 played 15
    assert correct_hand_one(scorekeeper_client(), match, second_side_scored=15).status_code == 302

    stale = organizer.post(settle, drawn)

    assert stale.status_code == 409
    assert signing.sign_state(match) == signing.DISPUTED
    said = text(stale)
    assert "The result changed since this page was shown, and nothing was signed." in said
    assert "Sign the corrected result" in said
    assert f"{keepers} 25" in said and f"{others} 15" in said
    again = organizer.post(settle, version_shown(content(stale)))
    assert again.status_code == 302
    assert signing.sign_state(match) == signing.SIGNED
    dispute.refresh_from_db()
    assert dispute.closed == Dispute.Closed.CORRECTED


def test_a_tap_finishing_the_match_hands_over_with_the_version_it_finished_at(organizer, season):
    night = new_night(organizer, season, players=PLAYERS)
    first = draw(organizer, night)
    start(organizer, night, 1)
    table = first.tables.get()
    phone = Client()
    phone.post(reverse("access:join", args=[table.link.token]), {"name": "T1"})
    match = table.match
    seats = seated_names(match)
    play(phone, match, seats[1], 10, htmx=True)
    finishing = content(play(phone, match, seats[0], 25, htmx=True))

    agreed = phone.post(sign_url(finishing), {"answer": "agree", **version_shown(finishing)})

    assert agreed.status_code == 302
    assert signing.sign_state(match) == signing.SIGNED
    assert totals(board(phone, match)) == [25, 10]
