"""A player's name: the one form it is stored in, and when two names are the same player.

A name is stored trimmed, with each run of white space inside it made one space, in Unicode's
composed form (NFC), so that "Ana", " Ana" and "Ana " are one name, and an "é" typed on one
phone as one character and on another as "e" and an accent are the same letter. It holds no
control character (NUL, tab, line breaks ...), no half of a UTF-16 pair and none of the
characters that turn the text around it right to left.

Two names are the same player when they differ only in case, white space and invisible
characters: "Ana Maria", "ana maria" and "AnaMaria" are one player. A name typed differently
from the known player it stands for is refused with the known name to use instead (a
look-alike), so a table never seats a second "Ana" by accident.
"""

from __future__ import annotations

import unicodedata

from scorekeeper.rules.limits import MOST_NAME_LENGTH

#: characters that reorder the text around them (embeddings, overrides, isolates)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class BadName(ValueError):
    """A name no player can have; the message says why, in English (a file's words)."""


def normal_name(text: str) -> str:
    """The name as it is stored: trimmed, one space between words, NFC. "" for a blank one."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise BadName(f"{_shown(text)}: a name holds no control characters")
        if char in BIDI_CONTROLS:
            raise BadName(f"{_shown(text)}: a name holds no right-to-left controls")
    name = unicodedata.normalize("NFC", " ".join(text.split()))
    if name and not name_key(name):
        raise BadName(f"{_shown(text)}: a name needs more than invisible characters")
    if len(name) > MOST_NAME_LENGTH:
        raise BadName(f"a name has at most {MOST_NAME_LENGTH} characters, this one {len(name)}")
    return name


def name_key(name: str) -> str:
    """What two names of the same player share: the name without case, white space or
    invisible (format) characters."""
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return "".join(
        char for char in folded if not char.isspace() and unicodedata.category(char) != "Cf"
    )


def _shown(text: str) -> str:
    """A name as a message quotes it: printable whatever it holds."""
    return repr(text[: MOST_NAME_LENGTH + 10])
