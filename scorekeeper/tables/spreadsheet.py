"""Every CSV the app writes goes through here, so that no cell opens as a formula.

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and a tab
or carriage return in front lets one through on some of them; a player named
``=HYPERLINK(...)`` would run as one on the organizer's computer. As OWASP advises against CSV
injection, such a cell is written with a single quote in front, which spreadsheets show as
text. Numbers the app worked out are written as numbers; everything else is written as its text
(a side as its label), so no value slips through as something other than text.

A spreadsheet may also split the file on another separator than the comma: where the decimal
point is a comma (Spain, Poland, Czechia) it splits on ``;``, some split on tabs or ``|``. A
cell such as ``x;=2+2`` would then open as ``x`` and the formula ``=2+2``; so wherever a common
separator stands in a cell, what follows it is neutralised the same way (``x;'=2+2``). Every
cell is quoted, so that none of them is read as anything but one value by a reader that
splits on the comma.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any, Protocol

#: what a spreadsheet may read a cell starting with as the start of a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: a formula's start at the start of the text or of any piece a separator could make of it,
#: behind the spaces and quotes a spreadsheet skips there
_FORMULA = re.compile(r'(^|[,;\t|\r\n])([ "]*)(?=[=+\-@\t\r])')


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def cell(value: object) -> object:
    """The value as a spreadsheet shows it literally: a number as it is, anything else (a
    name, a side, a label) as its text, with a quote in front of any formula a separator
    could make of it."""
    if value is None or isinstance(value, int | float):
        return value
    return _neutral(str(value))


@lru_cache(maxsize=4096)
def _neutral(text: str) -> str:
    # the same few names and sides fill a season's hands.csv row after row
    return _FORMULA.sub(r"\1\2'", text)


class SafeWriter:
    """csv.writer, with every cell neutralised and quoted."""

    def __init__(self, stream: _Writable) -> None:
        self._writer = csv.writer(stream, quoting=csv.QUOTE_ALL)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([cell(value) for value in row])


class _Line:
    """Where csv.writer writes one row, for the row to be handed on as text."""

    text = ""

    def write(self, text: str, /) -> None:
        self.text = text


def csv_lines(rows: Iterable[Iterable[object]]) -> Iterator[str]:
    """Each row as a line of CSV, written as SafeWriter writes it, as the rows come: a
    StreamingHttpResponse sends a file of any length in the memory of one row."""
    line = _Line()
    writer = SafeWriter(line)
    for row in rows:
        writer.writerow(row)
        yield line.text
