"""What a phone reads off a page: its forms, and what it polls and how often.

The hall's phones (phones.py) send what the pages they were served say, as a browser with htmx
does: the address a form posts to, its hidden fields (the CSRF token, the entry's one-time key,
the version the board shows), the names and values of its choices and buttons, the address
and period of the element that polls, and the address of the page's stream. Nothing here knows
the app's URLs or field names, so the benchmark follows the app when they change. Plain
Python: no Django, no locust.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

FORM = re.compile(r"<form\b.*?</form>", re.DOTALL | re.IGNORECASE)
#: an element that htmx polls: its address and period, in either order
POLLER = re.compile(r"<[a-z]+\b[^>]*\bhx-trigger=\"every [^\"]*\"[^>]*>", re.IGNORECASE)
ATTRIBUTE = re.compile(r'([a-z-]+)="([^"]*)"', re.IGNORECASE)
#: an input an answer sends out of band, to be swapped in for the forms' inputs of its name
OOB_INPUT = re.compile(r"<input\b[^>]*\bhx-swap-oob=[^>]*>", re.IGNORECASE)
PERIOD = re.compile(r"every (\d+(?:\.\d+)?)(ms|s)\b")
#: the element that holds the page's stream (htmx's SSE extension)
STREAM = re.compile(r"<[a-z]+\b[^>]*\bsse-connect=\"([^\"]+)\"", re.IGNORECASE)


@dataclass
class Form:
    """A form as a browser would submit it."""

    #: where htmx posts it (hx-post), else its action
    action: str = ""
    classes: tuple[str, ...] = ()
    #: hidden inputs, and text inputs with a value: sent as they are
    fields: dict[str, str] = field(default_factory=dict)
    #: radio groups and selects: the values offered (a blank option left out), in page order
    choices: dict[str, list[str]] = field(default_factory=dict)
    #: submit buttons that send a value: (name, value), in page order
    buttons: list[tuple[str, str]] = field(default_factory=list)
    #: number inputs, in page order
    numbers: list[str] = field(default_factory=list)

    def choice_offering(self, value: str) -> str | None:
        """The name of the choice that offers ``value``, if one does."""
        return next((name for name, values in self.choices.items() if value in values), None)


class _FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.form = Form()
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        name = found.get("name", "")
        kind = found.get("type", "text" if tag == "input" else "submit").lower()
        if tag == "form":
            self.form.action = found.get("hx-post") or found.get("action", "")
            self.form.classes = tuple(found.get("class", "").split())
        elif tag == "input" and name:
            if kind == "radio":
                self.form.choices.setdefault(name, []).append(found.get("value", "on"))
            elif kind == "number":
                self.form.numbers.append(name)
            elif kind in ("hidden", "text") and "value" in found:
                self.form.fields[name] = found["value"]
            elif kind == "submit":
                self.form.buttons.append((name, found.get("value", "")))
        elif tag == "button" and name and kind == "submit":
            self.form.buttons.append((name, found.get("value", "")))
        elif tag == "select" and name:
            self._select = name
            self.form.choices.setdefault(name, [])
        elif tag == "option" and self._select is not None and found.get("value"):
            self.form.choices[self._select].append(found["value"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def forms(page: str) -> list[Form]:
    """Every form of the page (forms do not nest, so each is read on its own)."""
    read = []
    for match in FORM.finditer(page):
        reader = _FormReader()
        reader.feed(match.group(0))
        read.append(reader.form)
    return read


def tap_form(read: list[Form]) -> Form | None:
    """Of a page's forms, the one a tap on a points button submits: who scored is a choice,
    and each number of points is a button of its own."""
    for form in read:
        numbered = [value for _, value in form.buttons if value.isdigit()]
        if len(numbered) > 1 and form.choices:
            return form
    return None


def end_form(read: list[Form]) -> Form | None:
    """Of a page's forms, the one that ends a hand: one of its choices is who went out, and
    "blocked" (nobody) is one of them."""
    return next((form for form in read if form.choice_offering("blocked")), None)


def pollers(page: str) -> list[tuple[str, float]]:
    """The elements that poll: (address, seconds between two polls), in page order."""
    found = []
    for tag in POLLER.findall(page):
        attributes = dict(ATTRIBUTE.findall(tag))
        period = PERIOD.search(attributes.get("hx-trigger", ""))
        if "hx-get" in attributes and period:
            seconds = float(period.group(1)) / (1000 if period.group(2) == "ms" else 1)
            found.append((attributes["hx-get"].replace("&amp;", "&"), seconds))
    return found


def poller_id(page: str) -> str:
    """The id of the page's first element that polls ("" when it has none): htmx names it in
    the poll's ``HX-Trigger`` header."""
    for tag in POLLER.findall(page):
        return dict(ATTRIBUTE.findall(tag)).get("id", "")
    return ""


def live_poll(page: str) -> tuple[str, str] | None:
    """The scoreboard's poll: its address, and the version it says the board shows (the
    ``v`` of its query), or None when the page has none."""
    for address, _ in pollers(page):
        version = parse_qs(urlsplit(address).query).get("v")
        if version:
            return address, version[0]
    return None


def stream_address(page: str) -> str | None:
    """The address of the page's stream (server-sent events), or None when it holds none."""
    found = STREAM.search(page)
    return html.unescape(found.group(1)) if found else None


def renewed_fields(page: str) -> dict[str, str]:
    """The hidden inputs an answer sends out of band (a new one-time key, the version the board
    now shows): htmx puts them in place of the inputs of the same name in the forms the phone
    keeps."""
    found = {}
    for tag in OOB_INPUT.findall(page):
        attributes = {name.lower(): value for name, value in ATTRIBUTE.findall(tag)}
        if attributes.get("type", "").lower() == "hidden" and attributes.get("name"):
            found[attributes["name"]] = html.unescape(attributes.get("value", ""))
    return found


def csrf_token(page: str) -> str:
    """The CSRF token of the page's first form that has one."""
    return next(
        (
            form.fields["csrfmiddlewaretoken"]
            for form in forms(page)
            if "csrfmiddlewaretoken" in form.fields
        ),
        "",
    )
