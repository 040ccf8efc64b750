"""Signing in can't be used against a user: wrong passwords lock a user name at the address
they came from (django-axes, user name and address together), an address that fails under many
names is stopped by a budget of its own, a lock lasts a few minutes that more failures do not
stretch, the organizer signs in from any other address, and behind the proxy the address is the
client's own."""

from __future__ import annotations

import datetime
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.db.models import F
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from tests.web.pages import text

PASSWORD = "plenty of dominoes on the table"
LOCKED = 429


@pytest.fixture
def olga(db: None, settings) -> str:
    """The hall's organizer, with a password."""
    # the fast hasher: the tests are about counting attempts, not about hashing
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user("olga", password=PASSWORD)
    return "olga"


def sign_in(client: Client, username: str, password: str) -> HttpResponse:
    return client.post(reverse("login"), {"username": username, "password": password})


def from_address(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def behind_the_proxy(address: str) -> Client:
    """A browser reaching the app through one proxy, which appends its address."""
    return Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=address)


def minutes_pass(minutes: float) -> None:
    """As if the failures so far were made that much earlier."""
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - datetime.timedelta(minutes=minutes)
    )


def test_one_password_sprayed_over_many_user_names_from_one_address_is_stopped(
    olga: str,
) -> None:
    """The probe: 33 user names tried once each from one address locked nothing. The address
    has a budget of failures of its own; the organizer signs in from any other address."""
    stranger = from_address("203.0.113.5")

    answers = [sign_in(stranger, f"user{n}", "password1").status_code for n in range(33)]

    assert answers[:30] == [200] * 30
    assert answers[30:] == [LOCKED] * 3
    assert sign_in(stranger, olga, PASSWORD).status_code == LOCKED
    assert sign_in(from_address("192.0.2.10"), olga, PASSWORD).status_code == 302


def test_guesses_at_one_account_from_many_addresses_do_not_lock_it(olga: str) -> None:
    """The probe: five wrong passwords for the organizer from five addresses locked the
    organizer out from everywhere, the right password included."""
    for n in range(5):
        sign_in(from_address(f"198.51.100.{n}"), olga, f"guess {n}")

    assert sign_in(from_address("203.0.113.7"), olga, PASSWORD).status_code == 302


def test_wrong_passwords_for_one_name_lock_that_name_at_that_address_only(olga: str) -> None:
    get_user_model().objects.create_user("bea", password=PASSWORD)
    stranger = from_address("203.0.113.5")
    answers = [sign_in(stranger, olga, f"guess {n}").status_code for n in range(5)]

    assert answers == [200, 200, 200, 200, LOCKED]
    assert sign_in(from_address("203.0.113.5"), olga, PASSWORD).status_code == LOCKED
    # another account at that address, and the organizer from anywhere else, sign in
    assert sign_in(from_address("203.0.113.5"), "bea", PASSWORD).status_code == 302
    assert sign_in(from_address("192.0.2.10"), olga, PASSWORD).status_code == 302


def test_a_few_mistyped_names_at_the_hall_lock_nobody_there(olga: str) -> None:
    """The probe: five failures under any names from the hall's address locked everyone
    there."""
    hall = "198.51.100.20"
    for name in ("olgaa", "bea", "Olga ", "cy", "di"):
        assert sign_in(from_address(hall), name, "typo").status_code == 200

    assert sign_in(from_address(hall), olga, PASSWORD).status_code == 302


def test_more_wrong_passwords_during_the_lock_do_not_make_it_longer(olga: str) -> None:
    """The probe: five wrong passwords kept the organizer out for 15 minutes, and a stranger
    who went on typing kept them out for good."""
    stranger = from_address("203.0.113.5")
    for n in range(5):
        sign_in(stranger, olga, f"guess {n}")
    minutes_pass(4)
    for n in range(20):
        assert sign_in(stranger, olga, f"more {n}").status_code == LOCKED
    minutes_pass(1.5)

    response = sign_in(from_address("203.0.113.5"), olga, PASSWORD)

    assert response.status_code == 302


def test_behind_the_proxy_a_strangers_failures_lock_the_stranger_not_the_hall(
    olga: str, settings
) -> None:
    settings.TRUSTED_PROXIES = 1
    settings.SIGNIN_FAILURES_PER_ADDRESS = 5
    stranger = behind_the_proxy("203.0.113.5")
    for n in range(5):
        sign_in(stranger, f"user{n}", "password1")

    refused = sign_in(stranger, "user9", "password1")
    organizer = sign_in(behind_the_proxy("203.0.113.6"), olga, PASSWORD)

    assert refused.status_code == LOCKED
    assert int(refused["Retry-After"]) > 0
    assert organizer.status_code == 302


def test_without_a_trusted_proxy_a_forged_forwarded_for_is_no_new_address(
    olga: str, settings
) -> None:
    settings.SIGNIN_FAILURES_PER_ADDRESS = 4
    answers = [
        sign_in(Client(HTTP_X_FORWARDED_FOR=f"198.51.100.{n}"), f"user{n}", "x").status_code
        for n in range(6)
    ]

    assert answers == [200, 200, 200, 200, LOCKED, LOCKED]


# -- one browser, one account ---------------------------------------------------------------


def signed_in_as(client: Client) -> str | None:
    page = text(client.get(reverse("tables:home")))
    found = re.search(r"Sign out (\S+)", page)
    return found.group(1) if found else None


def test_the_right_password_signs_in(olga: str) -> None:
    client = Client()

    response = sign_in(client, olga, PASSWORD)

    assert response.status_code == 302
    assert signed_in_as(client) == "olga"


def test_a_wrong_password_is_refused_with_the_form_again(olga: str) -> None:
    client = Client()

    response = sign_in(client, olga, "not it")

    assert response.status_code == 200
    assert "Please enter a correct username and password." in text(response)
    assert signed_in_as(client) is None


def test_after_four_wrong_passwords_the_right_one_still_signs_in(olga: str) -> None:
    client = Client()
    for _ in range(4):
        sign_in(client, olga, "not it")

    response = sign_in(client, olga, PASSWORD)

    assert response.status_code == 302
    assert signed_in_as(client) == "olga"


def test_after_five_wrong_passwords_even_the_right_one_is_refused(olga: str) -> None:
    client = Client()
    answers = [sign_in(client, olga, f"guess {n}").status_code for n in range(5)]

    response = sign_in(client, olga, PASSWORD)

    # the fifth failure already answers that the account is locked
    assert answers == [200, 200, 200, 200, 429]
    assert response.status_code == 429
    assert "Too many sign-in attempts" in text(response)
    assert signed_in_as(client) is None
    # another browser from the same address is refused too: the lock is on the account there
    assert sign_in(Client(), olga, PASSWORD).status_code == 429
    assert sign_in(from_address("192.0.2.10"), olga, PASSWORD).status_code == 302


def test_a_sign_in_without_the_csrf_token_is_refused(olga: str) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("login"))

    response = sign_in(client, olga, PASSWORD)

    assert response.status_code == 403
    assert signed_in_as(client) is None


# -- a browser that has signed in before (a device cookie) -------------------------------


def known_browser(address: str, username: str) -> Client:
    """The organizer's own phone at the hall: it signed in there before, then signed out."""
    phone = from_address(address)
    assert sign_in(phone, username, PASSWORD).status_code == 302
    phone.post(reverse("logout"))
    assert signed_in_as(phone) is None
    return phone


def test_a_browser_that_signed_in_before_signs_in_while_its_address_is_locked(olga: str) -> None:
    """The probe: 31 failed sign-ins under invented names locked the hall's address for an
    hour, the organizer on the hall's Wi-Fi included."""
    hall = "198.51.100.20"
    phone = known_browser(hall, olga)
    stranger = from_address(hall)
    for n in range(31):
        sign_in(stranger, f"made-up{n}", "password1")
    assert sign_in(from_address(hall), olga, PASSWORD).status_code == LOCKED

    response = sign_in(phone, olga, PASSWORD)

    assert response.status_code == 302
    assert signed_in_as(phone) == "olga"


def test_a_known_browser_signs_in_while_a_stranger_has_locked_its_user_name_there(
    olga: str,
) -> None:
    hall = "198.51.100.20"
    phone = known_browser(hall, olga)
    stranger = from_address(hall)
    for n in range(6):
        sign_in(stranger, olga, f"guess {n}")
    assert sign_in(stranger, olga, PASSWORD).status_code == LOCKED

    assert sign_in(phone, olga, PASSWORD).status_code == 302


def test_the_device_cookie_speaks_for_its_own_user_only(olga: str) -> None:
    get_user_model().objects.create_user("bea", password=PASSWORD)
    hall = "198.51.100.20"
    phone = known_browser(hall, olga)
    for n in range(31):
        sign_in(from_address(hall), f"made-up{n}", "password1")

    assert sign_in(phone, "bea", PASSWORD).status_code == LOCKED


def test_a_forged_device_cookie_counts_for_nothing(olga: str) -> None:
    hall = "198.51.100.20"
    phone = known_browser(hall, olga)
    for n in range(31):
        sign_in(from_address(hall), f"made-up{n}", "password1")
    forged = from_address(hall)
    for name, morsel in phone.cookies.items():
        forged.cookies[name] = morsel.value[:-2] + ("xx" if morsel.value[-2:] != "xx" else "yy")

    assert sign_in(forged, olga, PASSWORD).status_code == LOCKED


def test_wrong_passwords_from_a_known_browser_lock_that_browser_not_the_hall(olga: str) -> None:
    hall = "198.51.100.20"
    phone = known_browser(hall, olga)
    answers = [sign_in(phone, olga, f"guess {n}").status_code for n in range(6)]

    locked = sign_in(phone, olga, PASSWORD)

    assert answers[:4] == [200] * 4
    assert LOCKED in answers
    assert locked.status_code == LOCKED
    minutes = -(-int(locked["Retry-After"]) // 60)
    assert 0 < minutes <= 5
    assert f"Try again in {minutes} minute" in text(locked)
    # the hall's other browsers, and the organizer's name there, were not locked by it
    assert sign_in(from_address(hall), olga, PASSWORD).status_code == 302


def test_the_locked_page_says_how_long_the_lock_lasts(olga: str) -> None:
    stranger = from_address("203.0.113.5")
    for n in range(5):
        sign_in(stranger, olga, f"guess {n}")

    locked = sign_in(stranger, olga, PASSWORD)

    assert locked.status_code == LOCKED
    assert "Try again in 5 minutes" in text(locked)
    assert 4 * 60 < int(locked["Retry-After"]) <= 5 * 60


def test_the_page_of_an_address_out_of_attempts_says_how_long_too(olga: str, settings) -> None:
    settings.SIGNIN_FAILURES_PER_ADDRESS = 3
    stranger = from_address("203.0.113.5")
    for n in range(3):
        sign_in(stranger, f"user{n}", "x")

    locked = sign_in(stranger, "user9", "x")

    minutes = -(-int(locked["Retry-After"]) // 60)
    assert locked.status_code == LOCKED
    assert f"Try again in {minutes} minute" in text(locked)


def test_the_device_cookie_counts_for_nothing_at_the_admins_own_sign_in(olga: str) -> None:
    """Failures there are counted by axes alone: a stolen cookie gets no guesses past a lock."""
    get_user_model().objects.filter(username=olga).update(is_staff=True)
    phone = known_browser("198.51.100.20", olga)
    admin_sign_in = reverse("admin:login")
    answers = [
        phone.post(admin_sign_in, {"username": olga, "password": f"guess {n}"}).status_code
        for n in range(6)
    ]

    assert answers[-1] == LOCKED
