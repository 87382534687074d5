"""Words for the engine's codes (conditions, outcomes), in the reader's language."""

from typing import Any

from django import template
from django.utils import formats
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import charts, once

register = template.Library()

CATEGORY_TAKEN = {
    "cards": gettext_lazy("most cards"),
    "spades": gettext_lazy("most spades"),
    "big_casino": gettext_lazy("the big casino (10♦)"),
    "little_casino": gettext_lazy("the little casino (2♠)"),
    "S": gettext_lazy("the ace of spades"),
    "C": gettext_lazy("the ace of clubs"),
    "H": gettext_lazy("the ace of hearts"),
    "D": gettext_lazy("the ace of diamonds"),
    "sweeps": gettext_lazy("sweeps"),
}


@register.simple_tag
def form_once() -> SafeString:
    """A one-time token for a creating form: sent twice, the form creates once (scoring/once.py)."""
    return format_html('<input type="hidden" name="{}" value="{}">', once.FIELD, once.new_token())


@register.simple_tag
def condition_text(condition: str, total: int) -> str:
    """'At 19: wins only by taking the big casino (10♦)'."""
    return _("At %(total)d: wins only by taking %(what)s.") % {
        "total": total,
        "what": CATEGORY_TAKEN[condition],
    }


@register.simple_tag
def outcome_text(kind: str, category: str, name: str, total: int, target: int) -> str:
    """Why the match was won, in one sentence."""
    if kind == "condition":
        return _("%(name)s took %(what)s at %(before)d and wins automatically.") % {
            "name": name,
            "what": CATEGORY_TAKEN[category],
            "before": target - {"cards": 3, "big_casino": 2}.get(category, 1),
        }
    if kind == "count-out":
        return _("Counting out, %(name)s reached %(target)d first (with %(what)s).") % {
            "name": name,
            "target": target,
            "what": CATEGORY_TAKEN[category],
        }
    if kind == "highest":
        return _("Several sides reached %(target)d; %(name)s has the highest total.") % {
            "name": name,
            "target": target,
        }
    return _("%(name)s reached %(target)d, with %(total)d.") % {
        "name": name,
        "target": target,
        "total": total,
    }


@register.filter
def percent(value: float | None) -> str:
    """0.456 → '46 %' in the reader's number format; '–' when there is nothing to divide."""
    if value is None:
        return "–"
    return _("%(value)s %%") % {"value": formats.number_format(round(value * 100))}


@register.filter
def decimal(value: float | None, places: int = 1) -> str:
    """A number with `places` decimals in the reader's format; '–' for nothing."""
    if value is None:
        return "–"
    return formats.number_format(value, decimal_pos=places)


@register.simple_tag
def sparkline(values: list[float]) -> charts.Sparkline:
    return charts.sparkline(values)


@register.filter
def index(sequence: Any, position: int) -> Any:
    """sequence[position] in a template ('' past the end)."""
    try:
        return sequence[position]
    except (IndexError, KeyError, TypeError):
        return ""


ACE_SYMBOLS = {"S": "A♠", "C": "A♣", "H": "A♥", "D": "A♦"}


@register.filter
def suits(aces: str) -> str:
    """A tally's aces ("SH") as cards ("A♠ A♥"), as the table sees them."""
    return " ".join(ACE_SYMBOLS.get(letter, letter) for letter in aces)
