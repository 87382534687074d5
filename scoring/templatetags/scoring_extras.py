"""Words for the engine's codes (conditions, outcomes), in the reader's language."""

from datetime import datetime
from typing import Any

from django import template
from django.utils import formats
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring import charts, once, rules, watch

register = template.Library()

CATEGORY_TAKEN = {
    "cards": gettext_lazy("most cards"),
    "spades": gettext_lazy("most spades"),
    # "the big casino (10♦)", "the ace of spades", ... (marked for translation in rules)
    **{card.category: gettext_lazy(card.taken) for card in rules.SPECIAL_CARDS},
    "sweeps": gettext_lazy("sweeps"),
    # The other count-out steps (rules._count_out_steps): Finnish Kasino's point cards, Spade
    # Casino's points pegged as they are taken, Swedish Kasino's last capture.
    "point_cards": gettext_lazy("the point cards"),
    "pegged": gettext_lazy("the points pegged during play"),
    "last_capture": gettext_lazy("the last capture"),  # Swedish Kasino's last step
}
# A special card's symbol by its Tally field or ace letter: "big_casino" → "10♦", "S" → "A♠".
CARD_SYMBOLS = {card.category: card.symbol for card in rules.CARDS.values()}


# How far short of the target an endgame condition applies (the rest: 1 point).
CONDITION_SHORT = {"cards": 3, "big_casino": 2}


@register.simple_tag
def form_once() -> SafeString:
    """A one-time token for a creating form: sent twice, the form creates once (scoring/once.py)."""
    return format_html('<input type="hidden" name="{}" value="{}">', once.FIELD, once.new_token())


@register.simple_tag(takes_context=True)
def watch_token(context: dict[str, Any], match: Any) -> str:
    """The watch token of the reader's board of `match` (scoring/watch.py: its poll's 204 costs
    one indexed read)."""
    user = context["request"].user
    if not user.is_authenticated:
        return ""
    salt = watch.EVENT_SALT if match._meta.model_name == "event" else watch.SALT
    return watch.token_for(user.pk, match.pk, salt=salt)


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
            "before": target - CONDITION_SHORT.get(category, 1),
        }
    if kind == "count-out":
        return _("Counting out, %(name)s reached %(target)d first (with %(what)s).") % {
            "name": name,
            "target": target,
            "what": CATEGORY_TAKEN[category],
        }
    if kind == "time":
        return _("Time was called: %(name)s was ahead after the last hand, with %(total)d.") % {
            "name": name,
            "total": total,
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


@register.filter
def suits(aces: str) -> str:
    """A tally's aces ("SH") as cards ("A♠ A♥"), as the table sees them."""
    return " ".join(CARD_SYMBOLS.get(letter, letter) for letter in aces)


@register.filter
def card_symbol(category: str) -> str:
    """The symbol of the special card a Tally field names: "big_casino" → "10♦"."""
    return CARD_SYMBOLS[category]


@register.simple_tag
def offline_phrases() -> dict[str, Any]:
    """The board's words, in the reader's language, for the phone to fill in when it scores
    without signal (outbox.js): the same texts the server's templates say, with %(name)s
    placeholders, so an offline board reads like an online one."""
    return {
        "winner": _("winner"),
        "leads": _("leads"),
        "condition": _("At %(total)d: wins only by taking %(what)s."),
        "taken": {key: str(value) for key, value in CATEGORY_TAKEN.items()},
        "outcome": {
            "condition": _("%(name)s took %(what)s at %(before)d and wins automatically."),
            "count-out": _("Counting out, %(name)s reached %(target)d first (with %(what)s)."),
            "highest": _("Several sides reached %(target)d; %(name)s has the highest total."),
            "reached": _("%(name)s reached %(target)d, with %(total)d."),
            "time": _("Time was called: %(name)s was ahead after the last hand, with %(total)d."),
        },
        # An endgame condition is met this many points short of the target (outcome_text).
        "condition_short": {**CONDITION_SHORT, "": 1},
        "wins": _("%(name)s wins!"),
        "final": _("Final score:"),
        "tied": _(
            "Tied at %(total)s: play another hand. The first hand after which one side alone "
            "is highest decides."
        ),
        "hand": _("Hand %(number)s"),
        "deals_label": _("Deals:"),
        "leads_label": _("Leads:"),
        "deals": {
            count: ngettext(
                "%(deals)s deal of 4 cards each", "%(deals)s deals of 4 cards each", count
            )
            % {"deals": count}
            for count in sorted(set(rules.DEALS_PER_HAND.values()))
        },
        "clockwise": _("clockwise"),
        "counter_clockwise": _("counter-clockwise"),
        "last": _("The dealer calls “last” on deal %(deal)s."),
        "pot_cards": _("Most cards is worth %(points)s this hand (a tie carried over)."),
        "pot_spades": _("Most spades is worth %(points)s this hand (a tie carried over)."),
        "rematch": _("Rematch"),
        "not_sent": _("not sent yet"),
        "offline": _(
            "Scored on this phone, without signal: the server scores the waiting hands again "
            "when they are sent. Ratings, statistics and the shared link update when online."
        ),
    }


@register.filter
def local_time(moment: datetime) -> str:
    """A moment as the server's time of day, in a <time> the phone shows in its own time zone
    (events.js): the round's end on a club night's page and big screen."""
    shown = formats.date_format(localtime(moment), "TIME_FORMAT")
    return format_html('<time datetime="{}" data-local-time>{}</time>', moment.isoformat(), shown)
