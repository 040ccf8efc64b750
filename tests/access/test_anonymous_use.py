"""What a phone without an account may do, and how much: it may start matches (20 an hour from
one browser, 60 from one address, each behind the proxy the client's own; a browser without a
cookie on a budget of its own, 10 from one address; a league night's phones not counted), then
it is answered 429 and told when to try again; only a signed-in account imports a match file.
The player picker and the players page offer the people one plays with, and search finds anyone
else."""

from __future__ import annotations

import datetime
import html
import json
import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.leagues.models import League
from scorekeeper.nights.models import Night
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import create_match, player_named
from tests.access.conftest import Persona, everything
from tests.clubs import the_club
from tests.web.pages import content, text
from tests.web.table import scorekeeper_client, setup_data

pytestmark = pytest.mark.django_db

TOO_MANY = "Too many new matches"


def start(phone: Client, *names: str) -> HttpResponse:
    return phone.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", *(names or ("Ana", "Bo")), entry_key=uuid.uuid4().hex),
    )


def behind_the_proxy(client_address: str, forged: str = "") -> Client:
    """A phone reaching the app through one proxy, which appends the phone's address to
    whatever X-Forwarded-For the phone sent."""
    forwarded = f"{forged}, {client_address}" if forged else client_address
    return Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)


# -- starting matches ------------------------------------------------------------------------------


def test_a_phone_without_an_account_starts_20_matches_an_hour_then_is_told_to_wait(
    stranger: Persona,
) -> None:
    """The probe: 200 starts in 28 s were all accepted."""
    answers = [start(stranger.client).status_code for _ in range(20)]
    before = everything()

    refused = start(stranger.client)

    assert answers == [302] * 20
    assert refused.status_code == 429
    assert TOO_MANY in text(refused)
    assert "may start 20 matches an hour" in text(refused)
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert everything() == before


def test_a_phone_that_drops_its_cookies_is_still_counted_by_its_address(settings) -> None:
    settings.ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS = 3
    answers = [start(Client()).status_code for _ in range(3)]

    refused = start(Client())

    assert answers == [302] * 3
    assert refused.status_code == 429
    assert Match.objects.count() == 3


def test_a_phone_that_drops_its_cookies_cannot_spend_the_halls_allowance(
    settings, stranger: Persona
) -> None:
    """The probe: a browser dropping its cookie used the address's 60 starts an hour in
    seconds, and the hall's 29 other phones were told to wait 47 minutes."""
    settings.ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS = 3
    settings.ANONYMOUS_STARTS_PER_ADDRESS = 5
    start(stranger.client)  # the hall's phone, which keeps its cookie
    answers = [start(Client()).status_code for _ in range(10)]

    assert answers == [302] * 2 + [429] * 8
    assert [start(stranger.client).status_code for _ in range(4)] == [302] * 4


def test_behind_the_proxy_each_phone_is_counted_by_its_own_address(settings) -> None:
    settings.TRUSTED_PROXIES = 1
    settings.ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS = 2
    for _ in range(2):
        assert start(behind_the_proxy("203.0.113.5")).status_code == 302

    refused = start(behind_the_proxy("203.0.113.5"))
    # what the phone writes in the header itself is not believed
    forged = start(behind_the_proxy("203.0.113.5", forged="198.51.100.9"))
    other_phone = start(behind_the_proxy("203.0.113.6"))

    assert (refused.status_code, forged.status_code, other_phone.status_code) == (429, 429, 302)


def test_without_a_trusted_proxy_a_forged_forwarded_for_counts_for_nothing(settings) -> None:
    settings.ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS = 2
    answers = [start(Client(HTTP_X_FORWARDED_FOR=f"198.51.100.{n}")).status_code for n in range(3)]

    assert answers == [302, 302, 429]


def test_the_phones_of_a_league_night_being_played_are_not_counted(settings) -> None:
    settings.ANONYMOUS_STARTS_PER_BROWSER = 1
    settings.ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS = 1
    league = League.objects.create(club=the_club(), name="Thursday", game="straight")
    season = league.seasons.create(name="Autumn", starts_on=timezone.localdate())
    night = Night.objects.create(season=season, played_on=timezone.localdate())
    table_match = create_match(rules.Match("straight", ("Ana", "Bo")))
    link = ShareLink.objects.create(match=table_match, role=SCOREKEEPER, label="Table 1")
    night.night_rounds.create(number=1).tables.create(number=1, match=table_match, link=link)
    phone = Client()
    phone.post(reverse("access:join", args=[link.token]), {"name": "Ana"})

    answers = [start(phone).status_code for _ in range(3)]
    rematch = phone.post(reverse("tables:rematch", args=[table_match.pk]))

    assert answers == [302] * 3
    assert rematch.status_code == 302
    # the night over, the same phone is counted again (the night's starts were not)
    Night.objects.update(played_on=timezone.localdate() - datetime.timedelta(days=1))
    assert [start(phone).status_code for _ in range(2)] == [302, 429]


def test_a_form_sent_back_with_a_mistake_costs_nothing(settings, stranger: Persona) -> None:
    settings.ANONYMOUS_STARTS_PER_BROWSER = 1
    mistakes = [start(stranger.client, "Ana").status_code for _ in range(3)]

    assert mistakes == [422] * 3
    assert start(stranger.client).status_code == 302


def test_a_rematch_is_a_start_too(settings, stranger: Persona) -> None:
    settings.ANONYMOUS_STARTS_PER_BROWSER = 1
    start(stranger.client)
    match = Match.objects.get()

    response = stranger.client.post(reverse("tables:rematch", args=[match.pk]))

    assert response.status_code == 429
    assert Match.objects.count() == 1


@pytest.mark.parametrize("persona", ["owner", "organizer", "member"], indirect=True)
def test_signed_in_accounts_are_not_counted(settings, persona: Persona) -> None:
    settings.ANONYMOUS_STARTS_PER_BROWSER = settings.ANONYMOUS_STARTS_PER_ADDRESS = 1

    answers = [start(persona.client).status_code for _ in range(3)]

    assert answers == [302] * 3


# -- importing -------------------------------------------------------------------------------------


def upload(client: Client) -> HttpResponse:
    document = {"game": "straight", "players": ["Earl", "Dale"], "hands": []}
    raw = json.dumps(document).encode()
    return client.post(reverse("tables:import_match"), {"file": SimpleUploadedFile("m.json", raw)})


@pytest.mark.parametrize("persona", ["stranger", "link_scorekeeper", "revoked"], indirect=True)
def test_a_phone_without_an_account_is_asked_to_sign_in_to_import(persona: Persona) -> None:
    before = everything()

    opened = persona.client.get(reverse("tables:import_match"))
    sent = upload(persona.client)

    for response in (opened, sent):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert everything() == before


@pytest.mark.parametrize("persona", ["owner", "member", "organizer"], indirect=True)
def test_a_signed_in_account_imports(persona: Persona) -> None:
    response = upload(persona.client)

    imported = Match.objects.latest("pk")
    assert response["Location"] == reverse("tables:scoreboard", args=[imported.pk])
    assert list(imported.players.values_list("name", flat=True)) == ["Dale", "Earl"]


# -- the people one plays with ---------------------------------------------------------------------


@pytest.fixture
def hall(db: None) -> None:
    """A league with Lou and Mo as members, and a flood of made-up names from another phone."""
    league = League.objects.create(club=the_club(), name="Thursday Fives", game="straight")
    league.members.set([player_named("Lou"), player_named("Mo")])
    flooder = Client()
    for n in range(5):
        start(flooder, f"Spam{n}", f"Junk{n}")


def offered(page: HttpResponse) -> list[str]:
    html = content(page)
    start_at = html.index('<datalist id="known-players">')
    return [
        part.split('"')[0] for part in html[start_at:].split("</datalist>")[0].split('value="')[1:]
    ]


def test_the_picker_offers_league_members_and_the_phones_own_players(
    hall: None, stranger: Persona
) -> None:
    start(stranger.client, "Ana", "Bo")

    page = stranger.client.get(reverse("tables:new_match", args=["straight"]))

    assert offered(page) == ["Ana", "Bo", "Lou", "Mo"]


def test_the_players_page_shows_the_people_one_plays_with_and_searches_anyone(
    hall: None, stranger: Persona
) -> None:
    listed = text(stranger.client.get(reverse("leagues:player_list")))
    found = text(stranger.client.get(reverse("leagues:player_list"), {"q": "spam 3"}))

    assert "Lou" in listed and "Mo" in listed
    assert "Spam" not in listed and "Junk" not in listed
    assert "Spam3" in found and "Spam2" not in found


# -- the hall's own phones ------------------------------------------------------------------------


def phone_with_a_cookie() -> Client:
    """A browser that keeps its session cookie (its starts count on the address's allowance)."""
    phone = Client()
    phone.session.save()
    return phone


def card_code(league: League, number: int) -> str:
    """What the code on the table card of ``league``'s table ``number`` opens, from the sheet
    the organizer prints."""
    sheet = content(
        scorekeeper_client().get(reverse("nights:table_cards", args=[league.pk]), {"count": 4})
    )
    codes = re.findall(r'href="([^"]*)" data-testid="card-code"', sheet)
    return html.unescape(codes[number - 1]).removeprefix("http://testserver")


def test_one_client_cannot_spend_the_halls_budget_and_a_table_card_still_starts_a_table(
    settings,
) -> None:
    """The probe: four cookie jars at one address started 61 matches, and every phone at that
    address was refused for an hour."""
    settings.ANONYMOUS_STARTS_PER_BROWSER = 2
    settings.ANONYMOUS_STARTS_PER_ADDRESS = 6
    league = League.objects.create(club=the_club(), name="Thursday", game="straight")
    jars = [phone_with_a_cookie() for _ in range(4)]

    # one client is refused at its own allowance, and its refused starts spend nothing else
    first = [start(jars[0]) for _ in range(10)]
    others = [start(jar).status_code for jar in jars[1:3] for _ in range(2)]

    assert [answer.status_code for answer in first] == [302] * 2 + [429] * 8
    assert "this phone has" in text(first[-1])
    assert others == [302] * 4
    # the clients together may spend the address's allowance ...
    address_spent = start(jars[3])
    assert address_spent.status_code == 429
    assert "the phones on this network may start 6 matches an hour" in text(address_spent)
    assert "scan the code on the table's card" in text(address_spent)
    # ... and the hall's phone at a table's card starts its match all the same
    hall_phone = phone_with_a_cookie()
    scanned = hall_phone.get(card_code(league, 3))
    started = start(hall_phone)

    assert "Start a match at table 3" in text(scanned)
    assert started.status_code == 302
    assert Match.objects.count() == 7
    # the card's address typed without its code watches, and starts nothing past the budget
    typed = phone_with_a_cookie()
    assert "Start a match at table" not in text(
        typed.get(reverse("nights:table_now", args=[league.pk, 3]))
    )
    assert start(typed).status_code == 429


def test_a_table_cards_code_is_its_own(settings) -> None:
    settings.ANONYMOUS_STARTS_PER_ADDRESS = 1
    league = League.objects.create(club=the_club(), name="Thursday", game="straight")
    start(phone_with_a_cookie())
    other_table = card_code(league, 2).replace("/tables/2/", "/tables/3/")
    forged = reverse("nights:table_now", args=[league.pk, 3]) + "?card=not-the-key"

    for address in (other_table, forged):
        phone = phone_with_a_cookie()
        assert "Start a match at table" not in text(phone.get(address))
        assert start(phone).status_code == 429


def test_a_table_cards_starts_are_counted_on_the_card_and_the_phone(settings) -> None:
    settings.ANONYMOUS_STARTS_PER_TABLE_CARD = 3
    league = League.objects.create(club=the_club(), name="Thursday", game="straight")
    code = card_code(league, 1)
    phones = [phone_with_a_cookie(), phone_with_a_cookie()]
    for phone in phones:
        phone.get(code)

    answers = [start(phones[0]).status_code, start(phones[1]).status_code]
    answers += [start(phones[0]).status_code, start(phones[1]).status_code]

    assert answers == [302, 302, 302, 429]
    assert "A table's card may start 3 matches an hour" in text(start(phones[1]))
    # a card scanned on another day is no longer the hall's: the phone counts as any other
    session = phones[1].session
    session["table_card"] = {**session["table_card"], "on": "2000-01-01"}
    session.save()
    assert start(phones[1]).status_code == 302
