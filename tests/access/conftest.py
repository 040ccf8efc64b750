"""The people around a table, built in one place.

Each persona is a browser (a test client) holding whatever it has to get in: an account with a
role, a share link it joined with, a link revoked since it joined, or nothing at all. They all
look at the same match: Ana, Bo, Cy and Di each for themselves, two hands played and a third
under way, started by Rosa for the test club's league.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, VIEWER, MatchRole, ShareLink
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match
from tests.clubs import organizer_of_the_club, the_club
from tests.seated import seat_key
from tests.web.table import FOUR

#: who may change the match, and who may only watch it (or not even that far)
MATCH_KEEPERS = ["organizer", "owner", "scorekeeper", "link_scorekeeper"]
MATCH_WATCHERS = ["stranger", "member", "account_viewer", "link_viewer", "revoked"]
#: who runs leagues; everyone else, a match's own scorekeepers included, may only look
LEAGUE_RUNNERS = ["organizer"]
LEAGUE_WATCHERS = ["stranger", "member", "owner", "scorekeeper", "link_scorekeeper"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "server: starts the app in a real server process on 127.0.0.1 (runs in the normal suite)",
    )


@dataclass(frozen=True)
class Persona:
    name: str
    client: Client
    #: how the match's history and "Last change" sign what this persona enters
    signs_as: str


def account(username: str, *, organizer: bool = False):
    user = get_user_model().objects.create_user(username)
    if organizer:
        organizer_of_the_club(user)
    return user


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def join(client: Client, link: ShareLink, name: str) -> None:
    """Open the link (as scanning its QR code does); a scorekeeper's link asks for a name and a
    tap on Join, a watch link opens the scoreboard straight away."""
    url = reverse("access:join", args=[link.token])
    opened = client.get(url)
    if link.role == VIEWER:
        assert opened.status_code == 302
        assert opened["Location"] == reverse("tables:scoreboard", args=[link.match_id])
        return
    assert opened.status_code == 200
    response = client.post(url, {"name": name})
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:scoreboard", args=[link.match_id])


def everything() -> dict[str, list[dict]]:
    """Every row the app keeps about matches, leagues and who may change them."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for label in ("tables", "leagues", "access")
        for model in apps.get_app_config(label).get_models()
    }


# -- the match -------------------------------------------------------------------------------------


@pytest.fixture
def match(db: None) -> Match:
    """Started by Rosa, who has an account, for a season of the test club's league (whose
    organizers may change it). Hand 1: Ana dominoes; hand 2 is blocked; hand 3 is being played,
    and Cy's 5 in it was the match's second change, entered by Sam.

    Totals: Ana 10 + 30 + 25 = 65, Bo 15 + 20 = 35, Cy 5, Di 0.
    """
    league = League.objects.create(club=the_club(), name="Access League", game="straight")
    season = Season.objects.create(league=league, name="Fall", starts_on=datetime.date(2026, 9, 1))
    match = create_match(
        rules.Match(
            "straight",
            FOUR,
            hands=(
                rules.Hand(
                    leader="Ana",
                    plays=(rules.Play("Ana", points=10), rules.Play("Bo", points=15)),
                    end=rules.HandEnd("domino", player="Ana", pips={"Bo": 12, "Cy": 9, "Di": 11}),
                ),
                rules.Hand(
                    leader="Ana",
                    plays=(rules.Play("Bo", points=20),),
                    end=rules.HandEnd("blocked", pips={"Ana": 3, "Bo": 12, "Cy": 5, "Di": 9}),
                ),
                rules.Hand(leader="Ana"),
            ),
        ),
        made_by="rosa",
        user=account("rosa"),
        also_write=lambda match: SeasonMatch.objects.create(season=season, match=match),
    )
    entries.play_record(match=match, player=seat_key(match, "Cy"), points=5, by=Author(name="sam"))
    match.refresh_from_db()
    assert match.totals == [65, 35, 5, 0]
    return match


@pytest.fixture
def scorekeeper_link(match: Match) -> ShareLink:
    return ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 3")


@pytest.fixture
def viewer_link(match: Match) -> ShareLink:
    return ShareLink.objects.create(match=match, role=VIEWER, label="The wall")


# -- the personas ----------------------------------------------------------------------------------


@pytest.fixture
def organizer(db: None) -> Persona:
    """Runs the hall's leagues and may change any match."""
    return Persona("organizer", signed_in(account("olga", organizer=True)), "olga")


@pytest.fixture
def owner(match: Match) -> Persona:
    """Started the match from her own account."""
    return Persona("owner", signed_in(match.created_by), "rosa")


@pytest.fixture
def scorekeeper(match: Match) -> Persona:
    """Has an account and was made a scorekeeper of this match."""
    user = account("sam")
    MatchRole.objects.create(match=match, user=user, role=SCOREKEEPER)
    return Persona("scorekeeper", signed_in(user), "sam")


@pytest.fixture
def account_viewer(match: Match) -> Persona:
    """Has an account and may watch this match, nothing more."""
    user = account("vera")
    MatchRole.objects.create(match=match, user=user, role=VIEWER)
    return Persona("account_viewer", signed_in(user), "vera")


@pytest.fixture
def member(db: None) -> Persona:
    """Has an account, but no part in this match and no league to run."""
    return Persona("member", signed_in(account("max")), "max")


@pytest.fixture
def link_scorekeeper(scorekeeper_link: ShareLink) -> Persona:
    """A phone at the table without an account that joined with the scorekeeper link."""
    client = Client()
    join(client, scorekeeper_link, "Bea")
    return Persona("link_scorekeeper", client, "Bea")


@pytest.fixture
def link_viewer(viewer_link: ShareLink) -> Persona:
    """A phone that joined with the watch-only link."""
    client = Client()
    join(client, viewer_link, "Vic")
    return Persona("link_viewer", client, "Vic")


@pytest.fixture
def revoked(match: Match) -> Persona:
    """Joined with a scorekeeper link that was revoked afterwards."""
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Lost phone")
    client = Client()
    join(client, link, "Rex")
    link.revoke()
    return Persona("revoked", client, "Rex")


@pytest.fixture
def stranger(db: None) -> Persona:
    """Anyone in the hall: no account, no link."""
    return Persona("stranger", Client(), "a phone at the table")


@pytest.fixture
def persona(request: pytest.FixtureRequest) -> Persona:
    """The persona named by the test's parameter (``indirect=["persona"]``)."""
    return request.getfixturevalue(request.param)
