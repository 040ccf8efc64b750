"""Results both sides sign: a league night's finished match is agreed to on the scorekeeper's
phone handed over or from the other side's own phone, and then locked; or disputed, and settled
by the organizer with a correction the history and the standings show. Casual matches are
never asked.

One table of four plays to 25: seat 2 plays 10, then seat 1 plays 25 and their side wins."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.kept import standings_read
from scorekeeper.leagues.models import Season
from scorekeeper.nights import signing
from scorekeeper.nights.models import Dispute, Night
from scorekeeper.tables.models import Change, Match
from tests.nights.test_nights import draw, new_night, season_of, start
from tests.web.pages import HTMX, content, text, totals
from tests.web.table import board, correction, play, scorekeeper_client, seated_names
from tests.web.table import start as start_match

pytestmark = pytest.mark.django_db

PLAYERS = ("Ana", "Bo", "Cy", "Di")


@pytest.fixture
def season() -> Season:
    return season_of("straight", {"target": 25}, members=PLAYERS)


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


def night_match(organizer: Client, season: Season, **fields) -> tuple[Night, Match, Client]:
    """A night of one table, its match finished by the table's phone (joined with the card's
    link): seat 1's side wins 25 to 10."""
    night = new_night(organizer, season, players=PLAYERS, **fields)
    first = draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302
    table = first.tables.get()
    phone = Client()
    assert (
        phone.post(reverse("access:join", args=[table.link.token]), {"name": "T1"}).status_code
        == 302
    )
    match = table.match
    seats = seated_names(match)
    assert play(phone, match, seats[1], 10).status_code in (200, 302)
    assert play(phone, match, seats[0], 25).status_code in (200, 302)
    match.refresh_from_db()
    assert match.finished
    return night, match, phone


def sides(match: Match) -> tuple[str, str]:
    seats = seated_names(match)
    return f"{seats[0]} & {seats[2]}", f"{seats[1]} & {seats[3]}"


def correct_hand_one(client: Client, match: Match, *, second_side_scored: int):
    """The first hand posted corrected: the second side's play ``second_side_scored``, then the
    first side's 25."""
    seats = seated_names(match)
    return client.post(
        reverse("tables:edit_hand", args=[match.pk, 1]),
        correction(
            match,
            1,
            {
                "play-0-player": seats[1],
                "play-0-points": str(second_side_scored),
                "play-1-player": seats[0],
                "play-1-points": "25",
            },
        ),
    )


def sign_url(page: str) -> str:
    """The address the board's Agree button posts to."""
    found = re.search(r'action="(/nights/sign/[^"]+/)"', page)
    assert found, "the board asks nobody to sign"
    return found.group(1)


def version_shown(page: str) -> dict[str, str]:
    """The version of the result an answering form names: what it answers."""
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found, "the page has no answer to give"
    return {"version": found.group(1)}


def on_the_board(phone: Client, match: Match) -> tuple[str, dict[str, str]]:
    """Where the board's Agree posts, and the version of the result it answers."""
    page = content(board(phone, match))
    return sign_url(page), version_shown(page)


def answer_on_the_board(phone: Client, match: Match, answer: dict[str, str]):
    """The side's answer on the scorekeeper's phone handed over, to the result on its board."""
    url, shown = on_the_board(phone, match)
    return phone.post(url, {**answer, **shown})


def test_the_board_hands_over_to_the_other_side_and_agreeing_locks_the_match(organizer, season):
    night, match, phone = night_match(organizer, season)
    keepers, others = sides(match)
    page = board(phone, match)
    assert f"{others}: do you agree with this result?" in text(page)
    assert signing.sign_state(match) == signing.WAITING

    response = phone.post(
        sign_url(content(page)), {"answer": "agree", **version_shown(content(page))}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("tables:scoreboard", args=[match.pk])
    assert signing.sign_state(match) == signing.SIGNED
    signed = text(board(phone, match))
    assert re.search(rf"Signed by {re.escape(others)} at \d\d:\d\d", signed)
    assert match.signature.via == signing.ON_THE_BOARD
    # the scorekeeper's corrections are refused, saying why, and nothing changes
    for refused in (
        phone.post(reverse("tables:undo", args=[match.pk])),
        correct_hand_one(phone, match, second_side_scored=5),
        phone.post(reverse("tables:revert", args=[match.pk, 2])),
    ):
        assert refused.status_code == 403
        assert "only the league's organizer can correct the result now" in text(refused)
    match.refresh_from_db()
    assert match.totals == [25, 10]
    assert "Undo" not in text(board(phone, match))


def test_the_organizer_corrects_a_signed_match_and_the_history_keeps_it(organizer, season):
    night, match, phone = night_match(organizer, season)
    answer_on_the_board(phone, match, {"answer": "agree"})

    response = correct_hand_one(organizer, match, second_side_scored=15)

    assert response.status_code == 302
    assert totals(board(organizer, match)) == [25, 15]
    corrected = match.changes.order_by("-number").first()
    assert corrected.kind == Change.Kind.HAND_CORRECTED
    assert corrected.made_by == "organizer"
    assert signing.sign_state(match) == signing.SIGNED


def test_the_other_side_signs_from_its_own_phone_through_its_link(organizer, season):
    night, match, phone = night_match(organizer, season)
    keepers, others = sides(match)
    page = content(board(phone, match))
    links = re.findall(
        r'href="http://testserver(/nights/sign/[^"]+/)" data-testid="sign-link"', page
    )
    assert len(links) == 1
    assert page.count("<svg") >= 1
    own_phone = Client()

    shown = own_phone.get(links[0])

    assert shown.status_code == 200
    assert f"{others}: do you agree with this result?" in text(shown)
    assert f"{keepers} 25" in text(shown) and f"{others} 10" in text(shown)
    answer = own_phone.post(links[0], {"answer": "agree", **version_shown(content(shown))})
    assert answer.status_code == 302
    assert re.search(rf"Signed by {re.escape(others)} at", text(own_phone.get(links[0])))
    assert match.signature.via == signing.BY_LINK
    # the link signs for its side only: a made-up token finds nothing
    assert own_phone.get(links[0].replace(":", "x:", 1)).status_code == 404
    # and the phone holding the link keeps no score
    assert play(own_phone, match, seated_names(match)[0], 5).status_code == 403


def test_a_side_disputes_a_hand_and_the_organizer_settles_it_with_a_correction(organizer, season):
    night, match, phone = night_match(organizer, season)
    keepers, others = sides(match)
    url = sign_url(content(board(phone, match)))
    form = phone.get(url)
    assert 'name="hand"' in content(form) and "Pips counted wrong" in text(form)

    disputed = phone.post(
        url,
        {
            "answer": "disagree",
            "hand": "1",
            "reason": "points",
            "text": "Bo played 15, not 10",
            **version_shown(content(form)),
        },
        headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile"},
    )

    assert disputed.status_code == 302
    assert signing.sign_state(match) == signing.DISPUTED
    (dispute,) = signing.open_disputes(night)
    assert (dispute.hand, dispute.reason, dispute.text, dispute.side) == (
        1,
        "points",
        "Bo played 15, not 10",
        1,
    )
    assert dispute.device == "Chrome on Android" and dispute.phone
    assert dispute.match.night_table.number == 1
    # the scorekeeper cannot settle it by correcting it
    assert phone.post(reverse("tables:undo", args=[match.pk])).status_code == 403
    assert "Hand 1: Wrong points." in text(board(phone, match))
    # the night's page lists it for the organizer
    night_page = organizer.get(reverse("nights:night", args=[night.pk]))
    assert "Round 1, table 1: hand 1, Wrong points." in text(night_page)
    assert reverse("nights:dispute", args=[dispute.pk]) in content(night_page)
    # the organizer's page: the hand explained, its history, the totals
    page = organizer.get(reverse("nights:dispute", args=[dispute.pk]))
    assert page.status_code == 200
    said = text(page)
    assert f"Disputed by {others}" in said
    assert "Bo played 15, not 10" in said and "Chrome on Android" in said
    assert f"{keepers} 25" in said
    assert said.count("scored") >= 2  # the two plays of the hand, in its history
    before = {row.player: row.points_against for row in standings_read(season)}

    seats = seated_names(match)
    corrected = correct_hand_one(organizer, match, second_side_scored=15)
    assert corrected.status_code == 302
    settle = reverse("nights:dispute", args=[dispute.pk])
    settled = organizer.post(settle, version_shown(content(organizer.get(settle))))

    assert settled.status_code == 302
    dispute.refresh_from_db()
    assert dispute.closed == Dispute.Closed.CORRECTED and dispute.closed_at is not None
    assert signing.sign_state(match) == signing.SIGNED
    assert signing.open_disputes(night) == []
    assert "Signed by the director" in text(board(phone, match))
    after = {row.player: row.points_against for row in standings_read(season)}
    assert after[seats[0]] == before[seats[0]] + 5
    history = text(organizer.get(reverse("nights:dispute", args=[dispute.pk])))
    assert "corrected, and signed by the director" in history
    # the correction is in the hand's history, by the organizer
    assert "Hand 1 corrected by organizer" in history


def test_the_organizer_confirms_a_disputed_result_as_it_was(organizer, season):
    night, match, phone = night_match(organizer, season)
    answer_on_the_board(
        phone, match, {"answer": "disagree", "hand": "1", "reason": "other", "text": ""}
    )
    (dispute,) = signing.open_disputes(night)
    settle = reverse("nights:dispute", args=[dispute.pk])

    organizer.post(settle, version_shown(content(organizer.get(settle))))

    dispute.refresh_from_db()
    assert dispute.closed == Dispute.Closed.CONFIRMED
    assert match.signature.side is None


def test_a_dispute_without_a_reason_is_refused_and_saves_nothing(organizer, season):
    night, match, phone = night_match(organizer, season)
    url, shown = on_the_board(phone, match)

    refused = phone.post(url, {"answer": "disagree", "hand": "7", "text": "?", **shown})

    assert refused.status_code == 422
    assert not Dispute.objects.exists()
    assert signing.sign_state(match) == signing.WAITING


def test_only_the_organizer_opens_a_dispute(organizer, season):
    night, match, phone = night_match(organizer, season)
    answer_on_the_board(
        phone,
        match,
        {"answer": "disagree", "hand": "1", "reason": "pips"},
    )
    (dispute,) = signing.open_disputes(night)
    for client in (phone, Client()):
        assert client.get(reverse("nights:dispute", args=[dispute.pk])).status_code == 403
        assert client.post(reverse("nights:dispute", args=[dispute.pk])).status_code == 403
    assert signing.sign_state(match) == signing.DISPUTED


def test_a_casual_match_is_never_asked_to_sign():
    phone = Client()
    assert start_match(phone, "straight", *PLAYERS, target="25").status_code == 302
    match = Match.objects.get()
    play(phone, match, "Ana", 25)
    match.refresh_from_db()
    assert match.finished

    page = board(phone, match)

    assert 'data-testid="sign"' not in content(page)
    assert "Undo" in text(page)
    assert signing.sign_state(match) is None
    # its scorekeeper corrects it as before
    assert phone.post(reverse("tables:undo", args=[match.pk])).status_code == 302
    match.refresh_from_db()
    assert not match.finished


def test_unsigned_results_count_and_are_marked_provisional(organizer, season):
    night, match, phone = night_match(organizer, season)
    page = text(organizer.get(reverse("leagues:season", args=[season.league_id, season.pk])))
    # each of the four players' rows: seen as *1, heard as "1 provisional", with the legend
    assert page.count("*1 1 provisional") == 4
    assert "* provisional: counts results the other side has not signed yet." in page
    night_page = text(organizer.get(reverse("nights:night", args=[night.pk])))
    assert night_page.count("*1 1 provisional") == 4
    assert sum(row.won for row in standings_read(season)) == 2

    answer_on_the_board(phone, match, {"answer": "agree"})

    page = text(organizer.get(reverse("leagues:season", args=[season.league_id, season.pk])))
    assert "provisional" not in page
    assert sum(row.won for row in standings_read(season)) == 2


def test_a_night_counting_only_signed_results_counts_a_match_once_signed(organizer, season):
    night, match, phone = night_match(organizer, season, signed_only="on")
    assert night.signed_only
    assert standings_read(season) == [] or all(row.played == 0 for row in standings_read(season))
    assert Season.objects.get(pk=season.pk).counted_matches == 0

    answer_on_the_board(phone, match, {"answer": "agree"})

    rows = standings_read(season)
    assert sorted(row.won for row in rows) == [0, 0, 1, 1]
    assert Season.objects.get(pk=season.pk).counted_matches == 1
    results = text(organizer.get(reverse("nights:night", args=[night.pk])))
    assert "provisional" not in results


def test_the_desk_reads_the_state_of_a_table_in_one_query(
    organizer, season, django_assert_num_queries
):
    night, match, phone = night_match(organizer, season)
    with django_assert_num_queries(1):
        assert signing.sign_state(match) == signing.WAITING
    casual = Match.objects.create(game="straight", finished=True)
    with django_assert_num_queries(1):
        states = signing.sign_states([match.pk, casual.pk])
    assert states == {match.pk: signing.WAITING, casual.pk: None}
    answer_on_the_board(
        phone,
        match,
        {"answer": "disagree", "hand": "1", "reason": "twice"},
    )
    with django_assert_num_queries(1):
        found = signing.open_disputes(night)
        assert [d.match.night_table.night_round.number for d in found] == [1]


def test_the_scorekeepers_board_shows_a_result_signed_on_the_other_sides_phone(organizer, season):
    night, match, phone = night_match(organizer, season)
    keepers, others = sides(match)
    page = content(board(phone, match))
    poll = re.search(r'hx-get="(/matches/\d+/live/\?v=[^"]+)"', page).group(1)
    (link,) = re.findall(
        r'href="http://testserver(/nights/sign/[^"]+/)" data-testid="sign-link"', page
    )
    assert phone.get(poll, headers=HTMX).status_code == 304

    own_phone = Client()
    shown = version_shown(content(own_phone.get(link)))
    assert own_phone.post(link, {"answer": "agree", **shown}).status_code == 302
    moved = phone.get(poll, headers=HTMX)

    assert moved.status_code == 200 and moved["HX-Refresh"] == "true"
    again = text(board(phone, match))
    assert re.search(rf"Signed by {re.escape(others)} at", again)
    assert "do you agree" not in again


def test_a_tap_that_finishes_the_match_hands_its_board_a_poll_answered_304(organizer, season):
    night = new_night(organizer, season, players=PLAYERS)
    first = draw(organizer, night)
    start(organizer, night, 1)
    table = first.tables.get()
    phone = Client()
    phone.post(reverse("access:join", args=[table.link.token]), {"name": "T1"})
    match = table.match
    seats = seated_names(match)
    play(phone, match, seats[1], 10, htmx=True)
    finishing = play(phone, match, seats[0], 25, htmx=True)
    assert "do you agree" in text(finishing)

    poll = re.search(r'hx-get="(/matches/\d+/live/\?v=[^"]+)"', content(finishing)).group(1)
    assert phone.get(poll, headers=HTMX).status_code == 304


def test_the_desk_links_a_disputed_table_to_the_page_that_settles_it(organizer, season):
    night, match, phone = night_match(organizer, season)
    desk = reverse("nights:desk", args=[night.pk])
    assert "Settle the dispute" not in text(organizer.get(desk))

    answer_on_the_board(
        phone,
        match,
        {"answer": "disagree", "hand": "1", "reason": "points", "text": "15, not 10"},
    )
    (dispute,) = signing.open_disputes(night)
    page = content(organizer.get(desk, headers=HTMX))

    settle = reverse("nights:dispute", args=[dispute.pk])
    assert f'href="{settle}"' in page
    assert "15, not 10" in text(organizer.get(settle))


def test_the_desk_shows_a_result_signed_at_its_next_poll(organizer, season):
    night, match, phone = night_match(organizer, season)
    desk = reverse("nights:desk", args=[night.pk])
    waiting = organizer.get(desk, headers=HTMX)
    assert "Waiting for a signature" in text(waiting)
    shown = {**HTMX, "If-None-Match": waiting["ETag"]}
    assert organizer.get(desk, headers=shown).status_code == 304

    answer_on_the_board(phone, match, {"answer": "agree"})
    signed = organizer.get(desk, headers=shown)

    assert signed.status_code == 200 and "Signed" in text(signed)
