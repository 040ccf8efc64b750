from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

from scorekeeper.tables.chalk import chalk_svg

register = template.Library()


@register.simple_tag
def chalk(points: int) -> str:
    """``{% chalk side.total %}``: the score as the hall writes it in chalk."""
    return mark_safe(chalk_svg(int(points)))
