from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from scorekeeper.tables.chalk import MOST_SHOWN, chalk_defs, chalk_svg, shown, tally

register = template.Library()


@register.simple_tag
def chalk(points: int) -> str:
    """``{% chalk side.total %}``: the score as the hall writes it in chalk."""
    try:
        points = int(points)
    except (TypeError, ValueError, OverflowError):
        # not a score: nothing to draw, rather than no page
        return ""
    return mark_safe(chalk_svg(points, label=describe(points)))


def describe(points: int) -> str:
    """The tally in words, for screen readers, in the reader's language."""
    if points >= MOST_SHOWN:
        # beyond any match: the number is the whole description
        return shown(points)
    houses, strokes, left_over = tally(points)
    parts = []
    if houses:
        parts.append(
            ngettext("%(count)s house of fifty", "%(count)s houses of fifty", houses)
            % {"count": houses}
        )
    if strokes:
        parts.append(
            ngettext("%(count)s stroke of five", "%(count)s strokes of five", strokes)
            % {"count": strokes}
        )
    if left_over:
        parts.append(gettext("%(count)s over") % {"count": left_over})
    return gettext("%(points)s in chalk: %(tally)s") % {
        "points": points,
        "tally": ", ".join(parts) if parts else gettext("nothing yet"),
    }


@register.simple_tag
def chalk_strokes() -> str:
    """``{% chalk_strokes %}``: once on a page that shows tallies, outside what htmx swaps, the
    strokes they are drawn from."""
    return mark_safe(chalk_defs())
