"""A player's name: the one form it is stored in, and when two names are the same player.

A name is stored trimmed, with each run of white space inside it made one space, in Unicode's
compatibility composed form (NFKC), so that "Ana", " Ana" and "Ana " are one name, an "é" typed
on one phone as one character and on another as "e" and an accent are the same letter, and a
fullwidth "Ｒｏｓａ" is "Rosa". It holds no control character (NUL, tab, line breaks ...), no half
of a UTF-16 pair, none of the characters that turn the text around it right to left, no
character that shows as nothing or as a blank (Unicode's default-ignorable code points, the
Hangul fillers, the blank Braille pattern), and no mix of scripts whose letters look alike (a
Cyrillic "о" in a Latin "Rosa", found with the confusable-homoglyphs library's data from
Unicode's confusables list): a name that only looks like another is refused.

Two names are the same player when they differ only in case, white space and invisible
characters: "Ana Maria", "ana maria" and "AnaMaria" are one player. A name typed differently
from the known player it stands for is refused with the known name to use instead (a
look-alike), so a table never seats a second "Ana" by accident.

Two names of different players may still look the same as whole words, each in one script: an
all-Cyrillic "АНА" and a Latin "AHA". Such names share their look (:func:`name_look`, Unicode's
skeleton of TR39, worked out by ICU's spoof checker through PyICU), and a name with the look of
another player's is refused as a look-alike of that player, at a table, in a league, in a file
or a rename.
"""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs import confusables
from icu import SpoofChecker

from scorekeeper.rules.limits import MOST_NAME_LENGTH

#: characters that reorder the text around them (embeddings, overrides, isolates)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), which shows as nothing,
#: and the blank Braille pattern, which shows as a blank
INVISIBLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def invisible(char: str) -> bool:
    code = ord(char)
    return any(first <= code <= last for first, last in INVISIBLE)


class BadName(ValueError):
    """A name no player can have; the message says why, in English (a file's words)."""


def normal_name(text: str) -> str:
    """The name as it is stored: trimmed, one space between words, NFKC. "" for a blank one."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise BadName(f"{_shown(text)}: a name holds no control characters")
        if char in BIDI_CONTROLS:
            raise BadName(f"{_shown(text)}: a name holds no right-to-left controls")
    if any(invisible(char) for char in text):
        raise BadName(f"{_shown(text)}: a name holds no invisible or blank-looking characters")
    name = unicodedata.normalize("NFKC", " ".join(text.split()))
    if name and not name_key(name):
        raise BadName(f"{_shown(text)}: a name needs more than invisible characters")
    if confusables.is_dangerous(name):
        raise BadName(
            f"{_shown(text)}: a name does not mix letters of scripts that look alike; write it "
            "in one script"
        )
    if len(name) > MOST_NAME_LENGTH:
        raise BadName(f"a name has at most {MOST_NAME_LENGTH} characters, this one {len(name)}")
    return name


def name_key(name: str) -> str:
    """What two names of the same player share: the name without case, white space or
    invisible (format) characters."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(
        char for char in folded if not char.isspace() and unicodedata.category(char) != "Cf"
    )


#: ICU's checker of confusable text: its skeletons follow the confusables data of the ICU release
#: PyICU is built with (Unicode's confusables.txt)
_SPOOF_CHECKER = SpoofChecker()


def name_look(name: str) -> str:
    """What two names that look alike share: the TR39 skeleton of the name (as stored) without
    its white space. "АНА" (Cyrillic) and "AHA" (Latin) have one look, "Ana" and "ana" two
    (they are one player by their key already), "Ana" and "Anna" two. A skeleton is for
    comparing only, never shown: it mixes scripts at will."""
    return _SPOOF_CHECKER.getSkeleton(0, "".join(name.split()))


def _shown(text: str) -> str:
    """A name as a message quotes it: printable whatever it holds."""
    return repr(text[: MOST_NAME_LENGTH + 10])
