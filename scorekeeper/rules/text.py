"""Sentences the engine says to players.

Each sentence keeps its English template and its values apart, so that a front door can
translate the template and still fill in the numbers. ``str()`` gives the English sentence.

The engine knows players by the keys its front door gives it (a seat, "0", "1" ..., or a
name where a match file is read): a sentence keeps who it speaks of as a :class:`Who` (or a
side), and the front door puts each name in when it says the sentence (``render(names=...)``).

Every template is a string literal in a call the message extractor knows (``Says``,
``finding``), or is marked with :func:`N_` where an expression chooses it, so that the
translators' catalogs hold every sentence the engine can say.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

#: the template of a sentence that says nothing (never looked up: "" is a catalog's header)
NOTHING = ""
_ONE_NAME = "{name}"
# sentences with no words of their own: never looked up in a catalog
_SCORED = "{name} {value}"
_SUM = "{parts} = {total}"
_NUMBER = "{total}"


def N_(text: str) -> str:
    """Mark an English template for the translators where an expression chooses it."""
    return text


@runtime_checkable
class Named(Protocol):
    """A value a sentence says by name: a player, or a side."""

    def said_with(self, names: Mapping[str, str]) -> str: ...


@dataclass(frozen=True)
class Who:
    """A player a sentence speaks of, by their key; said by their name (``names``), or by the
    key itself where the front door gives no names."""

    key: str

    def said_with(self, names: Mapping[str, str]) -> str:
        return names.get(self.key, self.key)

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True, init=False)
class Says:
    template: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, template: str, /, **params: Any) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "params", params)

    def render(
        self,
        translate: Callable[[str], str] | None = None,
        names: Mapping[str, str] | None = None,
    ) -> str:
        """Fill the template; ``translate`` maps an English template to another language's,
        ``names`` a player's key to their name."""
        template = self.template
        if translate and _has_words(template):
            template = translate(template)
        values = {key: _said(value, translate, names) for key, value in self.params.items()}
        return template.format(**values)

    def __str__(self) -> str:
        return self.render()


def _said(
    value: Any, translate: Callable[[str], str] | None, names: Mapping[str, str] | None
) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Says):
        return value.render(translate, names)
    # a player or a side (Named): asked by attribute, as isinstance() with a Protocol took
    # a tenth of a tap's time to draw a board of twenty hands
    said_with = getattr(value, "said_with", None)
    return value if said_with is None else said_with(names or {})


#: the values a sentence says as they are: most of its values, told apart first
_PLAIN = frozenset({int, str})

#: a template of placeholders and separators alone ("{item0}, {item1}"): nothing to translate
_NO_WORDS = re.compile(r"(?:\{\w+\}|[\s,;:+=&])*")


@lru_cache(maxsize=4096)
def _has_words(template: str) -> bool:
    """Whether a template has words of its own to look up in a catalog."""
    return _NO_WORDS.fullmatch(template) is None


def join_names(names: list[Any]) -> Says:
    """'Ana', 'Ana and Bo', 'Ana, Bo and Cy': players (``Who``), sides, or words such as tiles."""
    if len(names) <= 1:
        return Says(_ONE_NAME, name=names[0] if names else "")
    return Says("{names} and {last}", names=listed(names[:-1]), last=names[-1])


def listed(items: list[Any], separator: str = ", ") -> Says:
    """Values said one after another, "Ana 15, Bo 10", each said by name where it names one."""
    template = separator.join(f"{{item{i}}}" for i in range(len(items)))
    return Says(template, **{f"item{i}": item for i, item in enumerate(items)})


def joined(lines: list[Says], separator: str = " ") -> Says:
    """Several sentences said as one; each is still translated on its own."""
    template = separator.join(f"{{line{i}}}" for i in range(len(lines)))
    return Says(template, **{f"line{i}": line for i, line in enumerate(lines)})


def scored(name: Any, value: object) -> Says:
    """'Bo 12': a player (or side) and a number."""
    return Says(_SCORED, name=name, value=value)


def sum_of(parts: list[tuple[Any, int]]) -> Says:
    """'Bo 12 + Di 11 = 23', or 'Bo 12' for one part, or '0' for none (players as ``Who``)."""
    if not parts:
        return Says(_NUMBER, total=0)
    written = listed([scored(name, value) for name, value in parts], " + ")
    if len(parts) == 1:
        return written
    return Says(_SUM, parts=written, total=sum(value for _, value in parts))
