"""Who may change what: every view that changes data, asked by every persona.

Those allowed get their change; everyone else is refused (403) and finds the database exactly as
it was. Leagues are run by organizers only. Signing in is rate limited and every form, htmx's
included, needs its CSRF token.
"""

from __future__ import annotations

import datetime
import io
import json
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.tables.models import Change, Hand, Match, Play
from scorekeeper.tables.scoring import create_match
from tests.access.conftest import (
    LEAGUE_RUNNERS,
    LEAGUE_WATCHERS,
    MATCH_KEEPERS,
    MATCH_WATCHERS,
    Persona,
    everything,
    join,
)
from tests.clubs import the_club
from tests.seated import named_plays
from tests.web.pages import HTMX, content, text, totals
from tests.web.table import correction, fingerprint, seat_of, setup_data

WATCHING = "You are watching this match."


def plays_of(match: Match, number: int) -> list[tuple[str, int]]:
    return list(
        named_plays(Play.objects.filter(hand__match=match, hand__number=number))
        .order_by("number")
        .values_list("player", "points")
    )


def scoreboard_of(match: Match) -> str:
    return reverse("tables:scoreboard", args=[match.pk])


def redirected_to_scoreboard(response: HttpResponse, match: Match) -> bool:
    return response.status_code == 302 and response["Location"] == scoreboard_of(match)


# -- the views that change a match -----------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """The match and the links the personas around it hold."""

    match: Match
    scorekeeper_link: ShareLink
    viewer_link: ShareLink

    def url(self, name: str, *args: object) -> str:
        app = "access" if name in ("share", "revoke") else "tables"
        return reverse(f"{app}:{name}", args=[self.match.pk, *args])


@dataclass(frozen=True)
class MatchAction:
    """A request that changes the match (or shows the form to), and what it did when allowed."""

    name: str
    send: Callable[[Client, Table], HttpResponse]
    done: Callable[[Table, HttpResponse, Persona], None]

    def __str__(self) -> str:
        return self.name


def record_play(client: Client, table: Table) -> HttpResponse:
    data = {"player": "0", "points": "10", "entry_key": uuid.uuid4().hex}
    return client.post(table.url("record_play"), data)


def play_recorded(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert redirected_to_scoreboard(response, table.match)
    assert plays_of(table.match, 3) == [("Cy", 5), ("Ana", 10)]
    assert Change.objects.filter(match=table.match).latest("number").made_by == persona.signs_as


def end_hand(client: Client, table: Table) -> HttpResponse:
    # Cy dominoes hand 3; the others hold 4 + 6 + 5 = 15
    data = {"out": "2", "pips_0": "4", "pips_1": "6", "pips_3": "5"}
    return client.post(table.url("end_hand"), {**data, "entry_key": uuid.uuid4().hex})


def hand_ended(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert redirected_to_scoreboard(response, table.match)
    hand = Hand.objects.get(match=table.match, number=3)
    assert (hand.end_how, hand.end_seat) == ("domino", 2)
    table.match.refresh_from_db()
    assert table.match.totals[2] == 20


def undo(client: Client, table: Table) -> HttpResponse:
    return client.post(table.url("undo"), {"entry_key": uuid.uuid4().hex})


def undone(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert redirected_to_scoreboard(response, table.match)
    # Cy's 5 was hand 3's only entry: the hand goes with it
    assert Hand.objects.filter(match=table.match).count() == 2
    table.match.refresh_from_db()
    assert table.match.totals[2] == 0


def open_correction(client: Client, table: Table) -> HttpResponse:
    return client.get(table.url("edit_hand", 1))


def correction_shown(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert response.status_code == 200
    assert "Correct hand 1" in text(response)
    assert f'name="fingerprint" value="{fingerprint(table.match, 1)}"' in content(response)


def correct_hand(client: Client, table: Table) -> HttpResponse:
    """Hand 1 again with Ana's 10 made a 15: everything else as it was."""
    data = {
        "play-0-player": "Ana",
        "play-0-points": "15",
        "play-1-player": "Bo",
        "play-1-points": "15",
        "out": "0",
        "pips_1": "12",
        "pips_2": "9",
        "pips_3": "11",
    }
    return client.post(table.url("edit_hand", 1), correction(table.match, 1, data))


def hand_corrected(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert redirected_to_scoreboard(response, table.match)
    assert plays_of(table.match, 1) == [("Ana", 15), ("Bo", 15)]
    table.match.refresh_from_db()
    assert table.match.totals[0] == 70


def delete_hand(client: Client, table: Table) -> HttpResponse:
    return client.post(table.url("delete_hand", 2), {"entry_key": uuid.uuid4().hex})


def hand_deleted(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert redirected_to_scoreboard(response, table.match)
    # the hand being played moves up into the deleted one's place
    assert list(Hand.objects.filter(match=table.match).values_list("number", "end_how")) == [
        (1, "domino"),
        (2, ""),
    ]
    assert plays_of(table.match, 2) == [("Cy", 5)]


def rematch(client: Client, table: Table) -> HttpResponse:
    return client.post(table.url("rematch"))


def rematch_started(table: Table, response: HttpResponse, persona: Persona) -> None:
    again = Match.objects.latest("pk")
    assert again != table.match
    assert response.status_code == 302
    assert response["Location"] == scoreboard_of(again)
    assert list(again.seats.values_list("player__name", flat=True)) == list(
        table.match.seats.values_list("player__name", flat=True)
    )
    assert again.hand_count == 0
    # whoever asked for the rematch keeps score of it
    board = persona.client.get(scoreboard_of(again))
    assert WATCHING not in text(board)
    assert 'aria-label="Record a play"' in content(board)


def revert(client: Client, table: Table) -> HttpResponse:
    return client.post(table.url("revert", 2))


def reverted(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:history", args=[table.match.pk])
    assert plays_of(table.match, 3) == []
    latest = Change.objects.filter(match=table.match).latest("number")
    assert (latest.number, latest.reverts.number, latest.made_by) == (3, 2, persona.signs_as)


def open_share(client: Client, table: Table) -> HttpResponse:
    return client.get(table.url("share"))


def share_shown(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert response.status_code == 200
    page = content(response)
    scorekeepers = reverse("access:join", args=[table.scorekeeper_link.token])
    watchers = reverse("access:join", args=[table.viewer_link.token])
    if persona.name in LINK_MANAGERS:
        # the links handed out so far, each with its QR code, and the form for another
        assert scorekeepers in page and watchers in page
        assert page.count('<svg viewBox="0 0') >= 2
        assert "New link" in text(response)
    else:
        # only the link this phone joined with, to bring another phone in with it
        assert watchers not in page
        assert (scorekeepers in page) == (persona.name == "link_scorekeeper")
        assert "New link" not in text(response)
        assert "Revoke this link" not in text(response)


def share(client: Client, table: Table) -> HttpResponse:
    return client.post(table.url("share"), {"role": "viewer", "label": "Door"})


def shared(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert response.status_code == 302
    assert response["Location"] == table.url("share")
    link = ShareLink.objects.get(match=table.match, label="Door")
    assert (link.role, link.active) == ("viewer", True)


def revoke(client: Client, table: Table) -> HttpResponse:
    return client.post(table.url("revoke", table.viewer_link.pk))


def link_revoked(table: Table, response: HttpResponse, persona: Persona) -> None:
    assert response.status_code == 302
    table.viewer_link.refresh_from_db()
    assert not table.viewer_link.active
    # a phone opening the link now finds nothing
    assert Client().get(reverse("access:join", args=[table.viewer_link.token])).status_code == 404


MATCH_ACTIONS = [
    MatchAction("record a play", record_play, play_recorded),
    MatchAction("end the hand", end_hand, hand_ended),
    MatchAction("undo", undo, undone),
    MatchAction("open a correction", open_correction, correction_shown),
    MatchAction("correct a hand", correct_hand, hand_corrected),
    MatchAction("delete a hand", delete_hand, hand_deleted),
    MatchAction("rematch", rematch, rematch_started),
    MatchAction("revert a change", revert, reverted),
    MatchAction("open the share page", open_share, share_shown),
]

#: only the match's owner and organizers make and revoke links
LINK_MANAGERS = ["organizer", "owner"]
LINK_ACTIONS = [
    MatchAction("create a share link", share, shared),
    MatchAction("revoke a share link", revoke, link_revoked),
]


@pytest.fixture
def table(match: Match, scorekeeper_link: ShareLink, viewer_link: ShareLink) -> Table:
    return Table(match, scorekeeper_link, viewer_link)


@pytest.mark.parametrize("action", MATCH_ACTIONS, ids=str)
@pytest.mark.parametrize("persona", MATCH_KEEPERS, indirect=True)
def test_the_matchs_scorekeepers_may_change_it(
    persona: Persona, table: Table, action: MatchAction
) -> None:
    response = action.send(persona.client, table)

    action.done(table, response, persona)


@pytest.mark.parametrize("action", MATCH_ACTIONS, ids=str)
@pytest.mark.parametrize("persona", MATCH_WATCHERS, indirect=True)
def test_anyone_else_is_refused_and_nothing_changes(
    persona: Persona, table: Table, action: MatchAction
) -> None:
    before = everything()

    response = action.send(persona.client, table)

    assert response.status_code == 403
    assert everything() == before


@pytest.mark.parametrize("action", LINK_ACTIONS, ids=str)
@pytest.mark.parametrize("persona", LINK_MANAGERS, indirect=True)
def test_the_owner_and_organizers_make_and_revoke_links(
    persona: Persona, table: Table, action: MatchAction
) -> None:
    response = action.send(persona.client, table)

    action.done(table, response, persona)


@pytest.mark.parametrize("action", LINK_ACTIONS, ids=str)
@pytest.mark.parametrize(
    "persona", ["scorekeeper", "link_scorekeeper", *MATCH_WATCHERS], indirect=True
)
def test_nobody_else_makes_or_revokes_a_link(
    persona: Persona, table: Table, action: MatchAction
) -> None:
    before = everything()

    response = action.send(persona.client, table)

    assert response.status_code == 403
    assert everything() == before


@pytest.mark.parametrize("persona", MATCH_WATCHERS, indirect=True)
def test_a_refused_htmx_entry_changes_nothing_either(persona: Persona, table: Table) -> None:
    before = everything()

    response = persona.client.post(
        table.url("record_play"),
        {"player": "0", "points": "10", "entry_key": uuid.uuid4().hex},
        headers=HTMX,
    )

    assert response.status_code == 403
    assert everything() == before


# -- links -----------------------------------------------------------------------------------------


def test_a_revoked_link_no_longer_lets_anyone_join(db: None, match: Match) -> None:
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER)
    link.revoke()
    phone = Client()
    url = reverse("access:join", args=[link.token])
    before = everything()

    opened = phone.get(url)
    joined = phone.post(url, {"name": "Rex"})

    assert (opened.status_code, joined.status_code) == (404, 404)
    assert everything() == before
    assert phone.post(reverse("tables:undo", args=[match.pk])).status_code == 403


def test_a_made_up_link_is_not_found(db: None, match: Match) -> None:
    url = reverse("access:join", args=["not-a-token-anyone-was-given"])

    assert Client().get(url).status_code == 404
    assert Client().post(url, {"name": "Eve"}).status_code == 404


def test_a_link_to_one_match_does_not_open_another(link_scorekeeper: Persona, table: Table) -> None:
    other = create_match(rules.Match("straight", ("Ana", "Bo"), hands=(rules.Hand(leader="Ana"),)))
    before = everything()

    response = link_scorekeeper.client.post(
        reverse("tables:record_play", args=[other.pk]),
        {"player": "0", "points": "10", "entry_key": uuid.uuid4().hex},
    )

    assert response.status_code == 403
    assert everything() == before


def test_an_owner_cannot_revoke_another_matchs_link(owner: Persona, table: Table) -> None:
    other = create_match(rules.Match("straight", ("Ana", "Bo")))
    their_link = ShareLink.objects.create(match=other, role=SCOREKEEPER)
    before = everything()

    response = owner.client.post(reverse("access:revoke", args=[table.match.pk, their_link.pk]))

    assert response.status_code == 404
    assert everything() == before


def test_a_watcher_with_an_account_who_joins_with_a_scorekeeper_link_may_keep_score(
    account_viewer: Persona, table: Table
) -> None:
    join(account_viewer.client, table.scorekeeper_link, "Vera")

    response = record_play(account_viewer.client, table)

    assert redirected_to_scoreboard(response, table.match)
    assert plays_of(table.match, 3) == [("Cy", 5), ("Ana", 10)]


def test_a_scorekeeper_with_an_account_who_joins_with_a_viewer_link_still_keeps_score(
    scorekeeper: Persona, table: Table
) -> None:
    join(scorekeeper.client, table.viewer_link, "Sam")

    response = record_play(scorekeeper.client, table)

    assert redirected_to_scoreboard(response, table.match)


def test_a_phone_loses_its_scorekeeping_the_moment_its_link_is_revoked(
    link_scorekeeper: Persona, owner: Persona, table: Table
) -> None:
    assert record_play(link_scorekeeper.client, table).status_code == 302

    owner.client.post(table.url("revoke", table.scorekeeper_link.pk))
    response = record_play(link_scorekeeper.client, table)

    assert response.status_code == 403
    assert plays_of(table.match, 3) == [("Cy", 5), ("Ana", 10)]
    assert WATCHING in text(link_scorekeeper.client.get(scoreboard_of(table.match)))


# -- starting a match without an account -----------------------------------------------------------


def test_a_phone_without_an_account_may_start_a_match_and_keep_its_score(db: None) -> None:
    phone, other_phone = Client(), Client()

    started = phone.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", "Ana", "Bo", first="1"),
    )
    match = Match.objects.get()
    entered = phone.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": "0", "points": "10", "entry_key": uuid.uuid4().hex},
    )
    before = everything()
    refused = other_phone.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": "1", "points": "20", "entry_key": uuid.uuid4().hex},
    )

    assert redirected_to_scoreboard(started, match)
    assert redirected_to_scoreboard(entered, match)
    assert refused.status_code == 403
    assert everything() == before
    assert plays_of(match, 1) == [("Ana", 10)]
    assert totals(phone.get(scoreboard_of(match))) == [10, 0]
    assert WATCHING not in text(phone.get(scoreboard_of(match)))
    assert WATCHING in text(other_phone.get(scoreboard_of(match)))


def test_the_phone_that_started_a_match_may_share_it(db: None) -> None:
    phone, friend = Client(), Client()
    phone.post(reverse("tables:new_match", args=["straight"]), setup_data("straight", "Ana", "Bo"))
    match = Match.objects.get()

    phone.post(reverse("access:share", args=[match.pk]), {"role": "scorekeeper"})
    link = ShareLink.objects.get(match=match, label="", owner=False)
    join(friend, link, "Bo's phone")
    entered = friend.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": "1", "points": "15", "entry_key": uuid.uuid4().hex},
    )

    assert redirected_to_scoreboard(entered, match)
    assert Change.objects.filter(match=match).latest("number").made_by == "Bo's phone"


# -- who hands out links ---------------------------------------------------------------------------


def share_page_of(match: Match) -> str:
    return reverse("access:share", args=[match.pk])


def test_a_phone_that_joined_with_a_link_sees_only_its_own_link(
    link_scorekeeper: Persona, table: Table
) -> None:
    other = ShareLink.objects.create(match=table.match, role=SCOREKEEPER, label="Table 4")

    page = content(link_scorekeeper.client.get(share_page_of(table.match)))

    assert reverse("access:join", args=[table.scorekeeper_link.token]) in page
    for hidden in (other, table.viewer_link):
        assert hidden.token not in page


def test_a_revoked_link_holder_has_no_link_of_its_own_to_come_back_through(
    link_scorekeeper: Persona, owner: Persona, table: Table
) -> None:
    """The attack: a phone that joined by a link made a link for itself, then came back
    through it once its own was revoked."""
    made = link_scorekeeper.client.post(
        share_page_of(table.match), {"role": "scorekeeper", "label": "Spare"}
    )
    owner.client.post(table.url("revoke", table.scorekeeper_link.pk))

    assert made.status_code == 403
    assert not ShareLink.objects.filter(label="Spare").exists()
    assert record_play(link_scorekeeper.client, table).status_code == 403
    assert plays_of(table.match, 3) == [("Cy", 5)]


@dataclass(frozen=True)
class PhoneMatch:
    """A match started by a phone without an account, a friend who joined it with a scorekeeper
    link the starter made, and the starter's own link."""

    match: Match
    starter: Client
    friend: Client
    friends_link: ShareLink
    owners_link: ShareLink


@pytest.fixture
def phone_match(db: None) -> PhoneMatch:
    starter, friend = Client(), Client()
    starter.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", "Ana", "Bo", first="1"),
    )
    match = Match.objects.get()
    starter.post(share_page_of(match), {"role": "scorekeeper", "label": "Bo's phone"})
    friends_link = ShareLink.objects.get(match=match, label="Bo's phone")
    join(friend, friends_link, "Bo")
    owners_link = ShareLink.objects.get(match=match, owner=True)
    return PhoneMatch(match, starter, friend, friends_link, owners_link)


def play(client: Client, match: Match, player: str = "Ana") -> HttpResponse:
    return client.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": seat_of(match, player), "points": "10", "entry_key": uuid.uuid4().hex},
    )


def test_a_link_holder_cannot_revoke_the_starters_own_link(phone_match: PhoneMatch) -> None:
    table = phone_match
    before = everything()

    response = table.friend.post(
        reverse("access:revoke", args=[table.match.pk, table.owners_link.pk])
    )

    assert response.status_code == 403
    assert everything() == before
    assert redirected_to_scoreboard(play(table.starter, table.match), table.match)


def test_the_starters_own_link_is_never_shown_nor_joined(phone_match: PhoneMatch) -> None:
    table = phone_match
    url = reverse("access:join", args=[table.owners_link.token])

    pages = [
        content(client.get(share_page_of(table.match))) for client in (table.starter, table.friend)
    ]

    assert all(table.owners_link.token not in page for page in pages)
    assert Client().get(url).status_code == 404
    assert Client().post(url, {"name": "Eve"}).status_code == 404


def test_the_starter_keeps_its_own_link_when_it_opens_another(phone_match: PhoneMatch) -> None:
    table = phone_match

    join(table.starter, table.friends_link, "Ana")
    table.owners_link.refresh_from_db()

    assert table.owners_link.active
    assert (
        table.starter.post(
            share_page_of(table.match), {"role": "viewer", "label": "Wall"}
        ).status_code
        == 302
    )


def test_revoking_a_link_revokes_every_link_made_through_it(phone_match: PhoneMatch) -> None:
    table = phone_match

    # the starter gives the table up: its own link, and the friend's made through it
    response = table.starter.post(
        reverse("access:revoke", args=[table.match.pk, table.owners_link.pk])
    )

    assert response.status_code == 302
    assert not ShareLink.objects.filter(match=table.match, revoked_at=None).exists()
    # the starter, and every phone that joined through a link it made, only watch now
    for client in (table.starter, table.friend):
        assert play(client, table.match).status_code == 403
        assert WATCHING in text(client.get(scoreboard_of(table.match)))
    assert plays_of(table.match, 1) == []


def test_a_clubs_organizer_has_no_say_over_a_casual_match(
    phone_match: PhoneMatch, organizer: Persona
) -> None:
    # a casual match belongs to no club: its owner and its links alone keep it
    table = phone_match
    before = everything()

    revoked = organizer.client.post(
        reverse("access:revoke", args=[table.match.pk, table.owners_link.pk])
    )
    played = play(organizer.client, table.match)

    assert (revoked.status_code, played.status_code) == (403, 403)
    assert everything() == before


# -- what watchers see -----------------------------------------------------------------------------


ENTRY_FORMS = ("tables:record_play", "tables:end_hand", "tables:undo", "tables:rematch")


def entry_forms_on(page: str, match: Match) -> list[str]:
    return [name for name in ENTRY_FORMS if f'action="{reverse(name, args=[match.pk])}"' in page]


@pytest.mark.parametrize("persona", MATCH_WATCHERS, indirect=True)
def test_watchers_see_the_score_but_no_entry_forms(persona: Persona, match: Match) -> None:
    response = persona.client.get(scoreboard_of(match))

    assert response.status_code == 200
    assert totals(response) == [65, 35, 5, 0]
    assert WATCHING in text(response)
    assert entry_forms_on(content(response), match) == []
    assert reverse("tables:edit_hand", args=[match.pk, 1]) not in content(response)
    assert reverse("access:share", args=[match.pk]) not in content(response)


@pytest.mark.parametrize("persona", MATCH_KEEPERS, indirect=True)
def test_scorekeepers_see_the_entry_forms(persona: Persona, match: Match) -> None:
    response = persona.client.get(scoreboard_of(match))

    assert WATCHING not in text(response)
    assert entry_forms_on(content(response), match) == list(ENTRY_FORMS)
    assert reverse("tables:edit_hand", args=[match.pk, 1]) in content(response)


@pytest.mark.parametrize("persona", MATCH_WATCHERS, indirect=True)
def test_watchers_read_the_history_without_revert_buttons(persona: Persona, match: Match) -> None:
    response = persona.client.get(reverse("tables:history", args=[match.pk]))

    assert response.status_code == 200
    assert "Cy scored 5 by sam" in text(response)
    assert "Revert to before this change" not in text(response)


def test_the_scorekeeper_reads_the_history_with_revert_buttons(
    scorekeeper: Persona, match: Match
) -> None:
    response = scorekeeper.client.get(reverse("tables:history", args=[match.pk]))

    assert text(response).count("Revert to before this change") == 1


# -- leagues ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hall:
    league: League
    season: Season
    #: a season match still being played, Ana against Bo
    entry: SeasonMatch

    def season_url(self, name: str, *args: object) -> str:
        return reverse(f"leagues:{name}", args=[self.league.pk, self.season.pk, *args])


@pytest.fixture
def hall(db: None) -> Hall:
    league = League.objects.create(club=the_club(), name="Thursday Fives", game="straight")
    season = Season.objects.create(
        league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1)
    )
    game = create_match(rules.Match("straight", ("Ana", "Bo"), hands=(rules.Hand(leader="Ana"),)))
    league.members.set(game.players.all())
    return Hall(league, season, season_match_add(season=season, match=game))


def bundle(name: str) -> bytes:
    """A league bundle with one season and one finished match in it."""
    match = {
        "game": "straight",
        "players": ["Ana", "Bo"],
        "rules": {"target": 50},
        "hands": [{"plays": [{"player": "Ana", "points": 30}, {"player": "Ana", "points": 20}]}],
    }
    manifest = {
        "format": "dominoes-league/1",
        "name": name,
        "game": "straight",
        "rules": {"target": 50},
        "members": ["Ana", "Bo"],
        "seasons": [
            {
                "name": "Spring",
                "starts_on": "2026-03-01",
                "matches": [{"file": "matches/1.json", "forfeited_by": None}],
            }
        ],
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("league.json", json.dumps(manifest))
        archive.writestr("matches/1.json", json.dumps(match))
    return buffer.getvalue()


@dataclass(frozen=True)
class LeagueAction:
    name: str
    send: Callable[[Client, Hall], HttpResponse]
    done: Callable[[Hall, HttpResponse], None]

    def __str__(self) -> str:
        return self.name


def create_league(client: Client, hall: Hall) -> HttpResponse:
    data = {"name": "Friday Fives", "game": "straight", "members": "Ana, Bo"}
    return client.post(reverse("leagues:league_list"), data)


def league_created(hall: Hall, response: HttpResponse) -> None:
    league = League.objects.get(name="Friday Fives")
    assert response["Location"] == reverse("leagues:league", args=[league.pk])


def open_season(client: Client, hall: Hall) -> HttpResponse:
    data = {"name": "Winter", "starts_on": "2027-01-04"}
    return client.post(reverse("leagues:league", args=[hall.league.pk]), data)


def season_opened(hall: Hall, response: HttpResponse) -> None:
    season = hall.league.seasons.get(name="Winter")
    assert response["Location"] == reverse("leagues:season", args=[hall.league.pk, season.pk])


def open_league_match_form(client: Client, hall: Hall) -> HttpResponse:
    return client.get(hall.season_url("new_match"))


def league_match_form_shown(hall: Hall, response: HttpResponse) -> None:
    assert response.status_code == 200
    assert "Start the match" in text(response)


def start_league_match(client: Client, hall: Hall) -> HttpResponse:
    return client.post(hall.season_url("new_match"), setup_data("straight", "Ana", "Bo"))


def league_match_started(hall: Hall, response: HttpResponse) -> None:
    entry = hall.season.entries.latest("pk")
    assert entry != hall.entry
    assert redirected_to_scoreboard(response, entry.match)


def forfeit(client: Client, hall: Hall) -> HttpResponse:
    return client.post(hall.season_url("forfeit", hall.entry.match_id), {"side": "1"})


def forfeited(hall: Hall, response: HttpResponse) -> None:
    assert response["Location"] == hall.season_url("season")
    hall.entry.refresh_from_db()
    assert hall.entry.forfeited_by == 1


def import_bundle(client: Client, hall: Hall) -> HttpResponse:
    upload = SimpleUploadedFile("league.zip", bundle("Spring Fives"), "application/zip")
    return client.post(reverse("leagues:import_bundle"), {"file": upload})


def bundle_imported(hall: Hall, response: HttpResponse) -> None:
    league = League.objects.get(name="Spring Fives")
    assert response["Location"] == reverse("leagues:league", args=[league.pk])
    assert league.seasons.get().entries.get().match.winner_text == "Ana"


LEAGUE_ACTIONS = [
    LeagueAction("create a league", create_league, league_created),
    LeagueAction("open a season", open_season, season_opened),
    LeagueAction("open the league match form", open_league_match_form, league_match_form_shown),
    LeagueAction("start a league match", start_league_match, league_match_started),
    LeagueAction("record a forfeit", forfeit, forfeited),
    LeagueAction("import a league bundle", import_bundle, bundle_imported),
]


@pytest.mark.parametrize("action", LEAGUE_ACTIONS, ids=str)
@pytest.mark.parametrize("persona", LEAGUE_RUNNERS, indirect=True)
def test_organizers_run_the_leagues(persona: Persona, hall: Hall, action: LeagueAction) -> None:
    response = action.send(persona.client, hall)

    action.done(hall, response)


@pytest.mark.parametrize("action", LEAGUE_ACTIONS, ids=str)
@pytest.mark.parametrize("persona", LEAGUE_WATCHERS, indirect=True)
def test_nobody_else_changes_a_league(persona: Persona, hall: Hall, action: LeagueAction) -> None:
    before = everything()

    response = action.send(persona.client, hall)

    assert response.status_code == 403
    assert everything() == before


@pytest.mark.parametrize("persona", LEAGUE_WATCHERS, indirect=True)
def test_anyone_may_read_the_standings(persona: Persona, hall: Hall) -> None:
    response = persona.client.get(hall.season_url("season"))

    assert response.status_code == 200
    assert "Autumn" in text(response)


# -- CSRF ------------------------------------------------------------------------------------------


def test_a_post_without_the_csrf_token_is_refused(organizer: Persona, match: Match) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.get(username="olga"))
    client.get(scoreboard_of(match))  # the page sets the CSRF cookie; the post leaves it out
    before = everything()

    response = client.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": "0", "points": "10", "entry_key": uuid.uuid4().hex},
        headers=HTMX,
    )

    assert response.status_code == 403
    assert everything() == before


def test_an_htmx_post_with_the_csrf_cookies_header_is_accepted(
    organizer: Persona, match: Match
) -> None:
    """What static/js/app.js sends with an htmx POST: the token from the CSRF cookie."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.get(username="olga"))
    client.get(scoreboard_of(match))

    response = client.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": "0", "points": "10", "entry_key": uuid.uuid4().hex},
        headers={**HTMX, "X-CSRFToken": client.cookies["csrftoken"].value},
    )

    assert response.status_code == 200
    assert totals(response) == [75, 35, 5, 0]
    assert plays_of(match, 3) == [("Cy", 5), ("Ana", 10)]
