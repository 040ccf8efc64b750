from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_it_shows_the_app_name(client: Client) -> None:
    response = client.get(reverse("tables:home"))

    assert response.status_code == 200
    assert b"Domino Scorekeeper" in response.content


@pytest.mark.django_db
def test_it_sends_the_csrf_token_with_every_htmx_request(client: Client) -> None:
    response = client.get(reverse("tables:home"))

    assert b'hx-headers=\'{"X-CSRFToken": "' in response.content


def test_it_serves_the_stylesheet(client: Client) -> None:
    response = client.get("/static/css/app.css")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert b"--tap: 44px" in b"".join(response.streaming_content)


def test_it_serves_the_bundled_htmx(client: Client) -> None:
    response = client.get("/static/django_htmx/htmx-2.min.js")

    assert response.status_code == 200
