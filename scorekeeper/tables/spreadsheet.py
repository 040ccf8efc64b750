"""Every CSV the app writes goes through here, so that no cell opens as a formula.

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and a tab
or carriage return in front lets one through on some of them; a player named
``=HYPERLINK(...)`` would run as one on the organizer's computer. As OWASP advises against CSV
injection, such a cell is written with a single quote in front, which spreadsheets show as
text. Numbers the app worked out are written as numbers; everything else is written as its text
(a side as its label), so no value slips through as something other than text.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any, Protocol

#: what a spreadsheet may read a cell starting with as the start of a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def cell(value: object) -> object:
    """The value as a spreadsheet shows it literally: a number as it is, anything else (a
    name, a side, a label) as its text."""
    if value is None or isinstance(value, int | float):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


class SafeWriter:
    """csv.writer, with every cell neutralised."""

    def __init__(self, stream: _Writable) -> None:
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([cell(value) for value in row])
