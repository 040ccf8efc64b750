"""Requests no page can answer get a clear 4xx, never a server error: ids past 64 bits, bodies
larger than their door takes, malformed multipart, too many fields, numbers and text that no
database column holds."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from scorekeeper.hardening import RequestLimitsMiddleware
from scorekeeper.tables.models import Match, Player
from tests.web.table import scorekeeper_client

BEYOND_64_BITS = "99999999999999999999"


@pytest.fixture
def client(db: None) -> Client:
    client = scorekeeper_client()
    # a server error is an answer here, to be asserted on, not an exception in the test
    client.raise_request_exception = False
    return client


@pytest.mark.parametrize(
    "url",
    [
        "/matches/9223372036854775808/",
        f"/matches/{BEYOND_64_BITS}/",
        f"/matches/{BEYOND_64_BITS}/live/",
        f"/matches/{BEYOND_64_BITS}/history/",
        f"/matches/{BEYOND_64_BITS}/match.json",
        f"/matches/{BEYOND_64_BITS}/sheet/",
        f"/matches/{BEYOND_64_BITS}/share/",
        f"/matches/1/hands/{BEYOND_64_BITS}/edit/",
        f"/leagues/{BEYOND_64_BITS}/",
        f"/leagues/1/seasons/{BEYOND_64_BITS}/",
        f"/leagues/{BEYOND_64_BITS}/seasons/1/wall/",
        f"/players/{BEYOND_64_BITS}/",
    ],
)
def test_an_id_past_64_bits_is_not_found(client: Client, url: str) -> None:
    assert client.get(url).status_code == 404


def test_the_largest_id_a_url_takes_is_looked_up_and_not_found(client: Client) -> None:
    assert client.get("/matches/999999999999999999/").status_code == 404


def test_a_number_past_64_bits_in_a_query_is_never_a_server_error(client: Client) -> None:
    player = Player.objects.create(name="Ana")

    response = client.get(reverse("leagues:player", args=[player.pk]), {"match": BEYOND_64_BITS})

    assert response.status_code in (400, 404)


@pytest.mark.parametrize("match", ["²", "¹²", "1²"])
def test_a_digit_that_is_no_number_in_a_query_is_never_a_server_error(
    client: Client, match: str
) -> None:
    player = Player.objects.create(name="Ana")

    response = client.get(reverse("leagues:player", args=[player.pk]), {"match": match})

    assert response.status_code == 200


def test_an_address_longer_than_any_form_sends_is_refused(client: Client) -> None:
    response = client.get(reverse("tables:settle"), {"game": "sedma", "name1": "x" * 10_000})

    assert response.status_code == 414
    assert len(response.content) < 100


def test_a_multipart_post_without_a_boundary_is_a_bad_request(client: Client) -> None:
    response = client.generic(
        "POST", reverse("tables:import_match"), b"--x\r\n", content_type="multipart/form-data"
    )

    assert response.status_code == 400


def test_more_fields_than_allowed_are_a_bad_request(client: Client) -> None:
    fields = {f"field{i}": "1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}

    response = client.post(reverse("tables:new_match", args=["straight"]), fields)

    assert response.status_code == 400
    assert not Match.objects.exists()


def test_more_query_fields_than_allowed_are_a_bad_request(client: Client) -> None:
    query = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))

    assert client.get(f"{reverse('tables:settle')}?{query}").status_code == 400


def test_a_body_larger_than_any_door_takes_is_refused_before_it_is_read(client: Client) -> None:
    body = b"--b\r\n" + b"x" * settings.MOST_REQUEST_BYTES

    response = client.generic(
        "POST",
        reverse("tables:import_match"),
        body,
        content_type="multipart/form-data; boundary=b",
    )

    assert response.status_code == 413
    assert "at most 2.5 MB" in response.content.decode()
    assert not Match.objects.exists()


def test_form_fields_larger_than_a_form_takes_are_refused_as_too_large(client: Client) -> None:
    body = b"seat_1=" + b"x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE

    response = client.generic(
        "POST",
        reverse("tables:new_match", args=["straight"]),
        body,
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 413
    assert not Match.objects.exists()


def test_a_length_that_is_no_number_is_a_bad_request(client: Client) -> None:
    response = client.generic("POST", reverse("tables:import_match"), b"", CONTENT_LENGTH="many")

    assert response.status_code == 400


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"seat_1=%ED%A0%80&seat_2=Bo&target=250", "application/x-www-form-urlencoded"),
        (b"seat_1=\xed\xa0\x80&seat_2=\xff&target=250", "application/x-www-form-urlencoded"),
        (
            b'--b\r\nContent-Disposition: form-data; name="seat_1"\r\n\r\n'
            b"\xed\xa0\x80\r\n--b--\r\n",
            "multipart/form-data; boundary=b",
        ),
    ],
    ids=["percent-encoded surrogate", "raw bytes", "multipart"],
)
def test_half_of_a_utf16_pair_in_a_form_field_is_never_a_server_error(
    client: Client, body: bytes, content_type: str
) -> None:
    response = client.generic(
        "POST", reverse("tables:new_match", args=["straight"]), body, content_type=content_type
    )

    # Django reads bytes that are no UTF-8 as the replacement character: a name like any other
    assert response.status_code < 500
    for name in Player.objects.values_list("name", flat=True):
        name.encode("utf-8")


# -- the one place that turns what no column holds into 400 -----------------------------------


def _raising(exception: Exception) -> HttpResponse | None:
    middleware = RequestLimitsMiddleware(lambda request: HttpResponse())
    return middleware.process_exception(RequestFactory().get("/"), exception)


def test_a_lone_surrogate_that_reaches_the_database_is_a_bad_request() -> None:
    error = UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")

    response = _raising(error)

    assert response is not None and response.status_code == 400


def test_a_number_that_overflows_a_column_is_a_bad_request() -> None:
    response = _raising(OverflowError("Python int too large to convert to SQLite INTEGER"))

    assert response is not None and response.status_code == 400


def test_any_other_error_is_left_to_be_reported_as_the_server_error_it_is() -> None:
    assert _raising(ValueError("a bug")) is None
