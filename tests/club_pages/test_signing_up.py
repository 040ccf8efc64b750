"""Anyone opens an account with a user name and a password, is signed in at once and goes back
where they came from; a weak password is refused with the reason; one address opens so many
accounts an hour; the sign-in page leads to the sign-up and, where the site sends mail, to a
reset by email."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.club_pages.conftest import PASSWORD
from tests.web.pages import text

SIGNUP = "/accounts/signup/"


def sign_up(client: Client, username: str, password: str = PASSWORD, **extra: str):
    return client.post(
        SIGNUP, {"username": username, "password1": password, "password2": password, **extra}
    )


def test_signing_up_opens_an_account_and_signs_it_in(db: None) -> None:
    client = Client()

    response = sign_up(client, "bea")

    assert response.status_code == 302
    assert response["Location"] == reverse("club_pages:club_list")
    bea = get_user_model().objects.get(username="bea")
    assert bea.check_password(PASSWORD)
    assert not bea.is_staff and not bea.is_superuser
    assert "My clubs" in text(client.get(reverse("club_pages:club_list")))


def test_signing_up_goes_back_to_where_it_came_from(db: None) -> None:
    response = sign_up(Client(), "bea", next="/invite/abc/")

    assert response["Location"] == "/invite/abc/"


def test_signing_up_never_sends_the_new_account_to_another_site(db: None) -> None:
    response = sign_up(Client(), "bea", next="https://evil.example/")

    assert response["Location"] == reverse("club_pages:club_list")


def test_a_weak_password_is_refused_with_the_reason(db: None) -> None:
    response = sign_up(Client(), "bea", password="12345678")

    assert response.status_code == 422
    assert "This password is too common." in text(response)
    assert not get_user_model().objects.filter(username="bea").exists()


def test_a_taken_user_name_is_refused_whatever_its_case(db: None) -> None:
    get_user_model().objects.create_user("Bea")

    response = sign_up(Client(), "bea")

    assert response.status_code == 422
    assert "A user with that username already exists." in text(response)
    assert get_user_model().objects.count() == 1


def test_an_address_opens_so_many_accounts_an_hour(db: None, settings) -> None:
    settings.SIGNUPS_PER_ADDRESS = 2
    for name in ("ana", "bo"):
        assert sign_up(Client(REMOTE_ADDR="203.0.113.7"), name).status_code == 302

    refused = sign_up(Client(REMOTE_ADDR="203.0.113.7"), "cy")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "A network may open 2 accounts an hour" in text(refused)
    assert not get_user_model().objects.filter(username="cy").exists()
    # another address is not held
    assert sign_up(Client(REMOTE_ADDR="198.51.100.1"), "cy").status_code == 302


def test_a_form_with_a_mistake_costs_nothing_of_the_allowance(db: None, settings) -> None:
    settings.SIGNUPS_PER_ADDRESS = 1
    for _ in range(3):
        assert sign_up(Client(REMOTE_ADDR="203.0.113.7"), "ana", "123").status_code == 422

    assert sign_up(Client(REMOTE_ADDR="203.0.113.7"), "ana").status_code == 302


def test_the_sign_in_page_leads_to_the_sign_up_and_back(db: None) -> None:
    page = Client().get(reverse("login") + "?next=/invite/abc/").content.decode()

    assert 'href="/accounts/signup/?next=/invite/abc/"' in page


def test_without_mail_the_sign_in_page_offers_no_reset_by_email(db: None, settings) -> None:
    settings.EMAIL_HOST = ""
    client = Client()

    page = text(client.get(reverse("login")))

    assert "Your club's owner can give you a link" in page
    assert client.get("/accounts/password_reset/").status_code == 404


def test_with_mail_the_sign_in_page_offers_a_reset_by_email(db: None, settings) -> None:
    settings.EMAIL_HOST = "smtp.example.com"
    client = Client()

    page = client.get(reverse("login")).content.decode()

    assert 'href="/accounts/password_reset/"' in page
    assert client.get("/accounts/password_reset/").status_code == 200


def test_with_mail_a_reset_link_is_emailed_so_many_times_an_hour(
    db: None, settings, mailoutbox
) -> None:
    settings.EMAIL_HOST = "smtp.example.com"
    settings.PASSWORD_RESETS_PER_ADDRESS = 2
    get_user_model().objects.create_user("bea", "bea@example.com", PASSWORD)
    client = Client(REMOTE_ADDR="203.0.113.7")

    for _ in range(2):
        sent = client.post("/accounts/password_reset/", {"email": "bea@example.com"})
        assert sent.status_code == 302
    refused = client.post("/accounts/password_reset/", {"email": "bea@example.com"})

    assert len(mailoutbox) == 2
    assert "/accounts/reset/" in mailoutbox[0].body
    assert refused.status_code == 429
    assert "A network may ask for 2 password reset emails an hour" in text(refused)
