"""Sentences the engine says to players.

Each sentence keeps its English template and its values apart, so that a front door can
translate the template and still fill in the numbers. ``str()`` gives the English sentence.

Every template is a string literal in a call the message extractor knows (``Says``,
``finding``), or is marked with :func:`N_` where an expression chooses it, so that the
translators' catalogs hold every sentence the engine can say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: the template of a sentence that says nothing (never looked up: "" is a catalog's header)
NOTHING = ""
_ONE_NAME = "{name}"


def N_(text: str) -> str:
    """Mark an English template for the translators where an expression chooses it."""
    return text


@dataclass(frozen=True, init=False)
class Says:
    template: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, template: str, /, **params: Any) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "params", params)

    def render(self, translate: Callable[[str], str] | None = None) -> str:
        """Fill the template; ``translate`` maps an English template to another language's."""
        template = translate(self.template) if translate and self.template else self.template
        values = {
            key: value.render(translate) if isinstance(value, Says) else value
            for key, value in self.params.items()
        }
        return template.format(**values)

    def __str__(self) -> str:
        return self.render()


def join_names(names: list[Any]) -> Says:
    """'Ana', 'Ana and Bo', 'Ana, Bo and Cy' (players, or sides by their labels)."""
    names = [str(name) for name in names]
    if len(names) <= 1:
        return Says(_ONE_NAME, name="".join(names))
    return Says("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def joined(lines: list[Says], separator: str = " ") -> Says:
    """Several sentences said as one; each is still translated on its own."""
    template = separator.join(f"{{line{i}}}" for i in range(len(lines)))
    return Says(template, **{f"line{i}": line for i, line in enumerate(lines)})


def sum_of(parts: list[tuple[str, int]]) -> str:
    """'Bo 12 + Di 11 = 23', or 'Bo 12' for one part, or '0' for none."""
    if not parts:
        return "0"
    written = " + ".join(f"{name} {value}" for name, value in parts)
    if len(parts) == 1:
        return written
    return f"{written} = {sum(value for _, value in parts)}"
