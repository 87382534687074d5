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

from scoring.engine import charts, rules
from scoring.matches.selectors import quick_word
from scoring.web import once, watch

register = template.Library()

CATEGORY_TAKEN = {
    "cards": gettext_lazy("most cards"),
    "spades": gettext_lazy("most spades"),
    # "the big casino (10♦)", "the ace of spades", ... (marked for translation in rules)
    **{card.category: gettext_lazy(card.taken) for card in rules.SPECIAL_CARDS},
    "sweeps": gettext_lazy("sweeps"),
    "last_capture": gettext_lazy("the last capture"),
    # The count-out steps of several categories (Finnish Kasino, Spade Casino).
    "point_cards": gettext_lazy("the point cards (aces, 10♦ and 2♠)"),
    "pegged": gettext_lazy("the pegged points (all but most cards)"),
}
# A special card's symbol by its Tally field or ace letter: "big_casino" → "10♦", "S" → "A♠".
CARD_SYMBOLS = {card.category: card.symbol for card in rules.CARDS.values()}


# How far short of the target an endgame condition applies (the rest: 1 point).
CONDITION_SHORT = {"cards": 3, "big_casino": 2}

# Why a match was won, one sentence for each kind of rules.Outcome (rules.OUTCOME_KINDS; "tied"
# has no winner), or for a (kind, category) that needs its own. The one place these words are:
# the board, the share page and the phone's offline board (offline_phrases) all take them from
# here, and tests/cross/test_outcome_words.py checks them against rules.outcomes for every game.
# Placeholders: name (the winner), total (its total), target, what (CATEGORY_TAKEN[category]),
# before (the total a Dominican condition applies at).
OUTCOME_SENTENCES: dict[str | tuple[str, str], Any] = {
    "reached": gettext_lazy("%(name)s reached %(target)d, with %(total)d."),
    "highest": gettext_lazy("Several sides reached %(target)d; %(name)s has the highest total."),
    ("highest", "spades"): gettext_lazy(
        "Several sides reached %(target)d and share the highest total, %(total)d: %(name)s took "
        "more spades in this hand, which decides."
    ),
    "count-out": gettext_lazy("Counting out, %(name)s reached %(target)d first (with %(what)s)."),
    "same-step": gettext_lazy(
        "Counting out, several sides reached %(target)d at the same step (with %(what)s): "
        "%(name)s has the highest total, %(total)d."
    ),
    "condition": gettext_lazy("%(name)s took %(what)s at %(before)d and wins automatically."),
    "conditions": gettext_lazy(
        "Several sides met their condition: %(name)s took %(what)s at %(before)d, which comes "
        "first in the count-out order, and wins."
    ),
    "time": gettext_lazy(
        "Time was called: %(name)s was ahead after the last hand, with %(total)d."
    ),
    "paper": gettext_lazy(
        "Played on paper: the final result was entered from the score sheet, without its hands."
    ),
}


def outcome_sentence(kind: str, category: str | None) -> Any:
    """The sentence (untranslated, lazy) for an outcome; KeyError for one that has none."""
    if category and (kind, category) in OUTCOME_SENTENCES:
        return OUTCOME_SENTENCES[(kind, category)]
    return OUTCOME_SENTENCES[kind]


@register.simple_tag
def form_once() -> SafeString:
    """A one-time token for a creating form: sent twice, the form creates once (scoring/web/once.py)."""
    return format_html('<input type="hidden" name="{}" value="{}">', once.FIELD, once.new_token())


@register.simple_tag(takes_context=True)
def watch_token(context: dict[str, Any], match: Any) -> str:
    """The watch token of the reader's board of `match` in this session (scoring/web/watch.py: its
    poll's 204 costs one indexed read)."""
    request = context["request"]
    session_key = request.session.session_key
    if not request.user.is_authenticated or not session_key:
        return ""
    salt = watch.EVENT_SALT if match._meta.model_name == "event" else watch.SALT
    return watch.token_for(request.user.pk, match.pk, session_key, salt=salt)


@register.simple_tag
def condition_text(condition: str, total: int) -> str:
    """'At 19: wins only by taking the big casino (10♦)'."""
    return _("At %(total)d: wins only by taking %(what)s.") % {
        "total": total,
        "what": CATEGORY_TAKEN[condition],
    }


@register.simple_tag
def outcome_text(kind: str, category: str, name: str, total: int, target: int) -> str:
    """Why the match was won, in one sentence (OUTCOME_SENTENCES)."""
    return str(outcome_sentence(kind, category)) % {
        "name": name,
        "target": target,
        "total": total,
        "what": CATEGORY_TAKEN[category] if category else "",
        "before": target - CONDITION_SHORT.get(category, 1),
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
        **_outcome_phrases(),
        **_turn_phrases(),
        "final": _("Final score:"),
        "preview": _("This hand scores:"),
        "tied": _(
            "Tied at %(total)s: play another hand. The first hand after which one side alone "
            "is highest decides."
        ),
        "held_at": _("held at %(total)s"),
        "time_last": _("Time: this is the last hand. The side ahead after it wins."),
        "time_ahead": _(
            "Time has been called: hand %(number)s is the last hand. The side ahead after it wins."
        ),
        "time_more": _("Time: the top totals are equal, so one more hand is played."),
        "rematch": _("Rematch"),
        "not_sent": _("not sent yet"),
        "offline": _(
            "Scored on this phone, without signal: the server scores the waiting hands again "
            "when they are sent. Ratings, statistics and the shared link update when online."
        ),
    }


def _outcome_phrases() -> dict[str, Any]:
    """Who won and how: the words of outcome_text and the result line."""
    return {
        "winner": _("winner"),
        "ahead": _("ahead"),
        "condition": _("At %(total)d: wins only by taking %(what)s."),
        "taken": {key: str(value) for key, value in CATEGORY_TAKEN.items()},
        # By kind, or "kind:category" for one of its own (outbox.js tries that first).
        "outcome": {
            key if isinstance(key, str) else ":".join(key): str(sentence)
            for key, sentence in OUTCOME_SENTENCES.items()
        },
        # An endgame condition is met this many points short of the target (outcome_text).
        "condition_short": {**CONDITION_SHORT, "": 1},
        # By the number of players on the winning side: a team takes the plural.
        "wins": {
            players: ngettext("%(name)s wins!", "%(name)s win!", players)
            for players in sorted({size for _sides, size in rules.TABLES})
        },
    }


def _turn_phrases() -> dict[str, Any]:
    """The next hand: its number, who deals and plays first, the deals, the pots carried."""
    return {
        "hand": _("Hand %(number)s"),
        "deals_label": _("Deals:"),
        "plays_first_label": _("Plays first:"),
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
    }


@register.filter
def local_time(moment: datetime) -> str:
    """A moment as the server's time of day, in a <time> the phone shows in its own time zone
    (events.js): the round's end on a club night's page and big screen."""
    shown = formats.date_format(localtime(moment), "TIME_FORMAT")
    return format_html('<time datetime="{}" data-local-time>{}</time>', moment.isoformat(), shown)


@register.filter
def quick_count(tally: Any, kind: str) -> str:
    """A quick hand's cards or spades (RULES.md §7.1) as what they stand for (`quick_word`)."""
    return quick_word(kind, getattr(tally, kind))
