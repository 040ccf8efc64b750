from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_it_shows_the_app_name(client: Client) -> None:
    response = client.get(reverse("tables:home"))

    assert response.status_code == 200
    assert b"Domino Scorekeeper" in response.content


@pytest.mark.django_db
def test_the_language_can_be_changed_without_a_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post(reverse("set_language"), {"language": "es", "next": "/"})

    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    assert "Partidas" in client.get("/").content.decode()


def test_it_serves_the_stylesheet(client: Client) -> None:
    response = client.get("/static/css/app.css")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert b"--tap: 44px" in b"".join(response.streaming_content)


def test_it_serves_the_bundled_htmx(client: Client) -> None:
    response = client.get("/static/django_htmx/htmx-2.min.js")

    assert response.status_code == 200
