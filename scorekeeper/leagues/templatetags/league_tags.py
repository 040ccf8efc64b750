from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """``{{ totals|get_item:side }}``: a dict's value by a key that is a variable."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def index(sequence: list | tuple, position: int) -> object:
    try:
        return sequence[position]
    except (IndexError, TypeError):
        return None


@register.filter
def ordinal_suffix(number: int) -> str:
    """1 -> st, 2 -> nd, 3 -> rd, 4 -> th, 11 -> th, 22 -> nd."""
    if 10 <= number % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
