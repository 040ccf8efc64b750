"""Every door that changes something, knocked on by every role in a hall: each one is let in or
refused as docs/clubs.md says, and a refused knock changes nothing.

The hall: the club *Test Hall* with its owner, an organizer, a plain member, the director of
tonight's night and the director of another night; an organizer of *Other Hall*; a stranger
with an account and nobody signed in; and the phone at table 1 that joined with the table's
link. Tonight's round 1 is in play at two tables: table 1 has one hand ended and is playing
the second, table 2 is finished and its result disputed. A later night is drawn, not started.

Each door is knocked on once per role, on the same hall: every knock runs in a savepoint
rolled back after it, so each role finds the hall as it was built.

The doors outside these roles (an account's own sign-in and password, the language, a link
whose token is the key, a casual match anyone may start) are listed with why in ``KEYED`` and
``OWN``; every other address of the site refuses a POST (``test_every_other_address_...``). So
an address added later is in one of the lists, or this file fails.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.clubs.models import Club, Invitation, Membership, Role
from scorekeeper.leagues.models import League, Season
from scorekeeper.nights import signing
from scorekeeper.nights.models import Dispute, Night
from scorekeeper.tables.models import Match, Player
from tests.access.conftest import join
from tests.clubs import the_club
from tests.nights.test_nights import draw, new_night, season_of, start
from tests.nights.test_tournament import tournament
from tests.web.table import (
    correction,
    domino,
    out_choice,
    pips_fields,
    scorekeeper_client,
    seat_of,
    seated_names,
    setup_data,
)

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "stranger",
    "member",
    "table_link",
    "director",
    "other_director",
    "other_club_organizer",
    "organizer",
    "owner",
)
RUNS_CLUB = frozenset({"organizer", "owner"})
OWNS_CLUB = frozenset({"owner"})
RUNS_NIGHT = RUNS_CLUB | {"director"}
KEEPS_TABLE = RUNS_NIGHT | {"table_link"}

#: sent to sign in where a door needs an account
WITHOUT_AN_ACCOUNT = frozenset({"anonymous", "table_link"})

TONIGHT = ("Ana", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal")
OTHER_NIGHT = ("Ivy", "Jo", "Kai", "Lu")
LATER = ("Ana", "Bo", "Cy", "Di")
#: a member of the league who has played nowhere yet: Ana under another name
NEWCOMER = "Ana Maria"


@dataclass
class Hall:
    season: Season
    tonight: Night
    other_night: Night
    later: Night
    cup: Night  # a Swiss tournament in partnerships, its partners not yet paired
    playing: Match  # table 1: hand 1 ended, hand 2 in play
    disputed: Match  # table 2: finished, its result disputed
    dispute: Dispute
    table_link: ShareLink
    invitation: Invitation  # an organizer's, still open
    bundle: bytes
    clients: dict[str, Client] = field(default_factory=dict)


def account(username: str, club: Club | None = None, role: Role = Role.MEMBER):
    user = get_user_model().objects.create_user(username)
    if club is not None:
        Membership.objects.create(club=club, user=user, role=role)
    return user


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def hall() -> Hall:
    admin = scorekeeper_client()
    club = the_club()
    other = Club.objects.create(name="Other Hall")
    season = season_of("straight", {"target": 25}, members=(*TONIGHT, *OTHER_NIGHT, NEWCOMER))
    tonight = new_night(admin, season, players=TONIGHT, round_minutes=30)
    other_night = new_night(admin, season, players=OTHER_NIGHT, played_on="2026-12-05")
    later = new_night(admin, season, players=LATER, played_on="2026-12-11")
    cup = tournament(admin, season, OTHER_NIGHT, draw="swiss", rounds=3, played_on="2026-12-12")
    first = draw(admin, tonight)
    assert start(admin, tonight, 1).status_code == 302
    draw(admin, later)
    table_one, table_two = first.tables.order_by("number")

    phone = Client()
    join(phone, table_one.link, "Table 1")
    playing = table_one.match
    seats = seated_names(playing)
    played = phone.post(
        reverse("tables:record_play", args=[playing.pk]),
        {"player": seat_of(playing, seats[0]), "points": "10", "entry_key": uuid.uuid4().hex},
    )
    ended = domino(phone, playing, seats[1], **{seats[0]: 2, seats[2]: 1, seats[3]: 1})
    assert (played.status_code, ended.status_code) == (302, 302)
    playing.refresh_from_db()
    assert not playing.finished and playing.version == 3  # started, a play, a domino

    disputed = table_two.match
    table_two_phone = Client()
    join(table_two_phone, table_two.link, "Table 2")
    won = table_two_phone.post(
        reverse("tables:record_play", args=[disputed.pk]),
        {"player": seat_of(disputed, seated_names(disputed)[0]), "points": "25"},
    )
    assert won.status_code == 302
    disputed.refresh_from_db()
    assert disputed.finished
    other_side = signing.sign_token(disputed.pk, signing.asked_side(disputed.seating().sides))
    answered = table_two_phone.post(
        reverse("nights:sign", args=[other_side]),
        {"answer": "disagree", "hand": "1", "reason": "pips", "version": str(disputed.version)},
    )
    assert answered.status_code in (200, 302), answered.content
    (dispute,) = signing.open_disputes(tonight)

    bundle = admin.get(reverse("leagues:export_bundle", args=[season.league_id]))
    assert bundle.status_code == 200
    # renamed since: the bundle's league is a new league's name when it is imported
    League.objects.filter(pk=season.league_id).update(name="Friday Fives 2026")

    director, other_director = account("dina", club), account("dirk", club)
    tonight.directors.add(director)
    later.directors.add(director)
    cup.directors.add(director)
    other_night.directors.add(other_director)
    clients = {
        "anonymous": Client(),
        "stranger": signed_in(account("stan")),
        "member": signed_in(account("max", club)),
        "table_link": phone,
        "director": signed_in(director),
        "other_director": signed_in(other_director),
        "other_club_organizer": signed_in(account("otto", other, Role.ORGANIZER)),
        "organizer": signed_in(account("olga", club, Role.ORGANIZER)),
        "owner": signed_in(account("owen", club, Role.OWNER)),
    }
    return Hall(
        season=season,
        tonight=tonight,
        other_night=other_night,
        later=later,
        cup=cup,
        playing=playing,
        disputed=disputed,
        dispute=dispute,
        table_link=table_one.link,
        invitation=Invitation.objects.create(club=club, role=Role.MEMBER),
        bundle=b"".join(bundle.streaming_content) if bundle.streaming else bundle.content,
        clients=clients,
    )


# -- the doors -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Door:
    """A POST that changes something: where, with what, and who is let in."""

    name: str
    allowed: frozenset[str]
    url: Callable[[Hall], str]
    data: Callable[[Hall], dict] = lambda hall: {}
    #: how a refusal answers: 403, or 422 where the form offers only the clubs one runs (an
    #: organizer of another club is told this one is not among them)
    refused: tuple[int, ...] = (403,)
    #: False for a door that hands something over and stores nothing (a one-time password
    #: link): let in, it answers 200 and changes nothing all the same
    writes: bool = True


def _season(name: str) -> Callable[[Hall], str]:
    return lambda h: reverse(name, args=[h.season.league_id, h.season.pk])


def _match(name: str, *more: int) -> Callable[[Hall], str]:
    return lambda h: reverse(name, args=[h.playing.pk, *more])


def _entry(h: Hall, **fields: str) -> dict:
    return {**fields, "entry_key": uuid.uuid4().hex}


def _player_id(name: str) -> int:
    return Player.objects.get(name=name).pk


def _the_bundle(h: Hall) -> dict:
    upload = SimpleUploadedFile("league.zip", h.bundle, content_type="application/zip")
    return {"club": str(the_club().pk), "file": upload}


def _new_match(h: Hall) -> dict:
    return setup_data("straight", "Ana", "Bo", "Cy", "Di", first="1")


def _domino_by(h: Hall, seat: int) -> dict[str, str]:
    """The fields of a domino by the player in ``seat``, the others holding a pip or two."""
    names = seated_names(h.playing)
    held = {name: 1 + (at % 2) for at, name in enumerate(names) if at != seat}
    fields = {"out": out_choice(h.playing, names[seat]), **pips_fields(h.playing, held)}
    return {key: str(value) for key, value in fields.items()}


def _corrected(h: Hall) -> dict:
    """Hand 1 with its play of 10 made 15, still ended by seat 2's domino."""
    ana, bo, cy, di = seated_names(h.playing)
    fields = {"play-0-player": ana, "play-0-points": "15", "out": out_choice(h.playing, bo)}
    return correction(h.playing, 1, fields | pips_fields(h.playing, {ana: 2, cy: 1, di: 1}))


DOORS = [
    # a club's leagues and seasons: its organizers and owner
    Door(
        "leagues:league_list",
        RUNS_CLUB,
        lambda h: reverse("leagues:league_list"),
        lambda h: {"club": str(the_club().pk), "name": "Spring League", "game": "straight"},
        refused=(403, 422),
    ),
    Door(
        "leagues:league",
        RUNS_CLUB,
        lambda h: reverse("leagues:league", args=[h.season.league_id]),
        lambda h: {"name": "Spring", "starts_on": "2027-03-01"},
    ),
    Door(
        "leagues:import_bundle",
        RUNS_CLUB,
        lambda h: reverse("leagues:import_bundle"),
        _the_bundle,
        refused=(403, 422),
    ),
    Door("leagues:new_match", RUNS_CLUB, _season("leagues:new_match"), _new_match),
    Door(
        "leagues:forfeit",
        RUNS_CLUB,
        lambda h: reverse("leagues:forfeit", args=[h.season.league_id, h.season.pk, h.playing.pk]),
        lambda h: {"side": "1"},
    ),
    Door(
        "nights:new_night",
        RUNS_CLUB,
        _season("nights:new_night"),
        lambda h: {
            "played_on": "2026-12-18",
            "draw": "blind",
            "rounds": 3,
            "partnerships": "on",
            "most_at_a_table": 4,
            "players": [_player_id(name) for name in LATER],
        },
    ),
    Door(
        "nights:directors",
        RUNS_CLUB,
        lambda h: reverse("nights:directors", args=[h.tonight.pk]),
        lambda h: {"user": str(get_user_model().objects.get(username="max").pk)},
    ),
    # a night's running: its directors too
    Door(
        "nights:check_in",
        RUNS_NIGHT,
        lambda h: reverse("nights:check_in", args=[h.later.pk]),
        lambda h: {"players": [_player_id("Eve")]},
    ),
    Door(
        "nights:draw",
        RUNS_NIGHT,
        lambda h: reverse("nights:draw", args=[h.later.pk]),
        lambda h: {"seed": "again"},
    ),
    Door(
        "nights:partners",
        RUNS_NIGHT,
        lambda h: reverse("nights:partners", args=[h.cup.pk]),
        lambda h: {
            f"partner_{_player_id(one)}": str(_player_id(other))
            for one, other in (OTHER_NIGHT[0:2], OTHER_NIGHT[2:4])
        },
    ),
    Door("nights:start", RUNS_NIGHT, lambda h: reverse("nights:start", args=[h.later.pk, 1])),
    Door(
        "nights:leave",
        RUNS_NIGHT,
        lambda h: reverse("nights:leave", args=[h.tonight.pk]),
        lambda h: {"player": str(_player_id(seated_names(h.playing)[0]))},
    ),
    Door(
        "nights:clock",
        RUNS_NIGHT,
        lambda h: reverse("nights:clock", args=[h.tonight.pk, 1, "start"]),
    ),
    Door(
        "nights:dispute",
        RUNS_NIGHT,
        lambda h: reverse("nights:dispute", args=[h.dispute.pk]),
        lambda h: {"version": str(Match.objects.get(pk=h.disputed.pk).version)},
    ),
    # a table's match at the night: its phone, the night's directors, the club's organizers
    Door(
        "tables:record_play",
        KEEPS_TABLE,
        _match("tables:record_play"),
        lambda h: _entry(h, player=seat_of(h.playing, seated_names(h.playing)[2]), points="5"),
    ),
    Door(
        "tables:end_hand",
        KEEPS_TABLE,
        _match("tables:end_hand"),
        lambda h: _entry(h, **_domino_by(h, 2)),
    ),
    Door("tables:undo", KEEPS_TABLE, _match("tables:undo"), lambda h: _entry(h)),
    Door("tables:edit_hand", KEEPS_TABLE, _match("tables:edit_hand", 1), _corrected),
    Door("tables:delete_hand", KEEPS_TABLE, _match("tables:delete_hand", 1), lambda h: _entry(h)),
    Door("tables:revert", KEEPS_TABLE, _match("tables:revert", 2), lambda h: _entry(h)),
    # who may make and revoke its links: whoever runs it
    Door(
        "access:share",
        RUNS_NIGHT,
        _match("access:share"),
        lambda h: {"role": SCOREKEEPER, "label": "Spare phone"},
    ),
    Door(
        "access:revoke",
        RUNS_NIGHT,
        lambda h: reverse("access:revoke", args=[h.playing.pk, h.table_link.pk]),
    ),
]


def _member(h: Hall, name: str = "max") -> int:
    return get_user_model().objects.get(username=name).pk


def _club(name: str, *more: Callable[[Hall], int]) -> Callable[[Hall], str]:
    return lambda h: reverse(name, args=[the_club().pk, *(arg(h) for arg in more)])


DOORS += [
    # the club itself: its members' roles are its owner's; invitations its organizers' too
    Door(
        "club_pages:change_role",
        OWNS_CLUB,
        _club("club_pages:change_role", _member),
        lambda h: {"role": Role.ORGANIZER},
    ),
    Door(
        "club_pages:rename_club",
        OWNS_CLUB,
        _club("club_pages:rename_club"),
        lambda h: {"name": "Test Hall of Fame"},
    ),
    Door("club_pages:remove_member", OWNS_CLUB, _club("club_pages:remove_member", _member)),
    Door(
        "club_pages:password_link",
        OWNS_CLUB,
        _club("club_pages:password_link", _member),
        writes=False,
    ),
    Door(
        "club_pages:invitations",
        RUNS_CLUB,
        _club("club_pages:invitations"),
        lambda h: {"role": Role.MEMBER},
    ),
    Door(
        "club_pages:revoke_invitation",
        RUNS_CLUB,
        _club("club_pages:revoke_invitation", lambda h: h.invitation.pk),
    ),
]

DOORS += [
    # a player's record: the organizers of a club the player plays in
    Door(
        "records:claim_for_player",
        RUNS_CLUB,
        lambda h: reverse("records:claim_for_player", args=[_player_id("Ana")]),
    ),
    Door(
        "records:merge",
        RUNS_CLUB,
        lambda h: reverse("records:merge", args=[_player_id("Ana")]),
        lambda h: {"other": str(_player_id(NEWCOMER)), "confirm": "1"},
    ),
    Door(
        "records:forget",
        RUNS_CLUB,
        lambda h: reverse("records:forget", args=[_player_id(NEWCOMER)]),
    ),
]

#: doors whose token is the key: whoever holds the link goes in, with or without a role
KEYED = {
    "access:join": "a match's share link (tests/access/test_sharing.py)",
    "nights:sign": "a side's signing link (tests/nights/test_signing_links.py)",
    "club_pages:invitation": "an invitation's link (tests/club_pages/test_invitations.py)",
    "records:claim_code": "a claim's code (tests/records/test_claims.py)",
    "records:claim_link": "a claim's link (tests/records/test_claims.py)",
}

#: doors of one's own: an account, a browser's language, a casual match of one's own
OWN = {
    "login": "signing in",
    "logout": "signing out",
    "password_change": "an account's own password",
    "password_reset": "a reset link sent to the account's own address",
    "password_reset_confirm": "a reset link's token is the key",
    "set_language": "the browser's own language cookie",
    "club_pages:signup": "anyone opens an account",
    "club_pages:new_club": "any account makes a club, and owns it",
    "records:my_initials": "a player's own record shown by initials, or not",
    "tables:new_match": "anyone starts a casual match",
    "tables:import_match": "anyone imports a match file as a casual match of their own",
    "tables:rematch": "a casual rematch of a finished match, started by whoever asks",
}

#: posted to, but written nothing by: checked below to change nothing
WRITES_NOTHING = {
    "tables:outbox_file": "a phone's unsent entries with the match, as a file to download",
}


def everything() -> dict[str, list[dict]]:
    """Every row the hall keeps: matches, leagues, nights, clubs and who may change what."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for label in ("tables", "leagues", "access", "clubs", "nights", "records")
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    }


def knock(hall: Hall, door: Door, role: str) -> tuple[int, bool]:
    """The role posts to the door: the answer's status, and whether anything changed. In a
    savepoint rolled back afterwards, so the next role finds the hall as it was."""
    with transaction.atomic():
        before = everything()
        response = hall.clients[role].post(door.url(hall), door.data(hall))
        changed = everything() != before
        transaction.set_rollback(True)
    return response.status_code, changed


@pytest.mark.parametrize("door", DOORS, ids=[door.name for door in DOORS])
def test_each_role_is_let_in_or_refused_and_a_refusal_changes_nothing(hall: Hall, door: Door):
    wrong = []
    for role in ROLES:
        status, changed = knock(hall, door, role)
        if role in door.allowed and not (changed == door.writes and status < 400):
            wrong.append(f"{role} was not let in ({status}, changed: {changed})")
        if role not in door.allowed and (changed or status not in (302, *door.refused)):
            wrong.append(f"{role} was not refused ({status}, changed: {changed})")
        if role not in door.allowed and status == 302 and role not in WITHOUT_AN_ACCOUNT:
            wrong.append(f"{role} was sent away instead of refused")
    assert not wrong, "; ".join(wrong)


def test_a_refused_anonymous_knock_is_sent_to_sign_in(hall: Hall) -> None:
    door = DOORS[0]
    response = hall.clients["anonymous"].post(door.url(hall), door.data(hall))
    assert response.status_code in (302, 403)
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))


# -- every address is in the matrix, or refuses a POST ---------------------------------------------


def addresses() -> list[tuple[str, str]]:
    """Every named address of the site (the admin aside), with a URL for it."""
    found = []

    def walk(patterns, namespace: str | None) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.app_name != "admin":
                    walk(pattern.url_patterns, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                name = f"{namespace}:{pattern.name}" if namespace else pattern.name
                found.append((name, pattern))

    walk(get_resolver().url_patterns, None)
    values = {"id": "1", "str": "x", "slug": "straight", "int": "1"}
    urls = []
    for name, pattern in found:
        converters = pattern.pattern.converters
        kwargs = {}
        for key, converter in converters.items():
            kind = type(converter).__name__.replace("Converter", "").lower()
            kwargs[key] = values.get(kind, "1")
        urls.append((name, reverse(name, kwargs=kwargs)))
    return urls


KNOCKED = {door.name for door in DOORS} | set(KEYED) | set(OWN)
OTHERS = [(name, url) for name, url in addresses() if name not in KNOCKED]


def test_every_door_of_the_matrix_is_an_address_of_the_site() -> None:
    assert KNOCKED - {name for name, _ in addresses()} == set()


@pytest.mark.parametrize("name,url", OTHERS, ids=[name for name, _ in OTHERS])
def test_every_other_address_refuses_a_post(name: str, url: str) -> None:
    admin = scorekeeper_client()
    before = everything()

    response = admin.post(url, {})

    if name not in WRITES_NOTHING:
        assert response.status_code == 405, f"{name} answers a POST: add it to the matrix"
    assert everything() == before
