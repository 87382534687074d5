"""Checks every room's forms make of typed text: readable (no trace of bytes that were not UTF-8)
and a name that fits its column."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.engine import matchdoc
from scoring.models import Player, name_key


def readable_text(value: str) -> None:
    """Refuse text holding U+FFFD or a lone surrogate: what is left of bytes that were not UTF-8
    (a NUL is refused by every CharField already)."""
    if matchdoc.bad_text(value.replace("\x00", "")):
        raise ValidationError(
            _("This text holds characters that could not be read (�): type it again."),
            code="unreadable",
        )


def name_fits(value: str) -> None:
    """Refuse a name whose comparison key (case-folded: "ß" is "ss") is longer than its column."""
    limit = int(Player._meta.get_field("name_key").max_length or 0)
    length = len(name_key(value))
    if length > limit:
        raise ValidationError(
            _(
                "This name is too long: with ß counted as ss it has %(length)d characters, and "
                "at most %(limit)d fit."
            )
            % {"length": length, "limit": limit},
            code="max_length",
        )


NAME_VALIDATORS = [readable_text, name_fits]
