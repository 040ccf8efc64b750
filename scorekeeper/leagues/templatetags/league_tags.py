from __future__ import annotations

from typing import TYPE_CHECKING

from django import template
from django.utils.translation import pgettext

if TYPE_CHECKING:
    from scorekeeper.leagues.kept_ratings import MatchExplained, SideExplained

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
        return pgettext("ordinal suffix, as in 4th, 11th", "th")
    return {
        1: pgettext("ordinal suffix, as in 1st, 21st", "st"),
        2: pgettext("ordinal suffix, as in 2nd, 22nd", "nd"),
        3: pgettext("ordinal suffix, as in 3rd, 23rd", "rd"),
    }.get(number % 10) or pgettext("ordinal suffix, as in 4th, 11th", "th")


@register.filter
def signed(number: float) -> str:
    """12.4 -> +12, -3.6 -> −4, 0.2 -> 0: a rating's move as players read it."""
    rounded = round(number)
    return f"+{rounded}" if rounded > 0 else f"−{-rounded}" if rounded < 0 else "0"


@register.filter
def percent(fraction: float) -> int:
    """0.623 -> 62."""
    return round(100 * fraction)


@register.filter
def side_of(match: MatchExplained, player_id: int) -> SideExplained | None:
    """``{{ explained|side_of:person.pk }}``: the player's side in a rated match explained."""
    return match.side_of(player_id)
