"""A side's name laid out for a narrow column: the hand form's rows, the score sheet's heads."""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from scoring.engine.rules import PARTNERS

register = template.Library()


@register.filter
def side_lines(name: str) -> SafeString:
    """The name as a line per partner ("Ana &", "Cleo"), so that a phone's narrow column names
    both partners; a player's name is one line. Each line is cut with an ellipsis if it must be;
    the text (what a screen reader reads) stays the whole name."""
    partners = str(name).split(PARTNERS)
    lines = [f"{partner}{PARTNERS.rstrip()}" for partner in partners[:-1]] + partners[-1:]
    return format_html(
        '<span class="side-lines">{}</span>',
        format_html_join(" ", '<span class="side-line">{}</span>', ((line,) for line in lines)),
    )
