"""What field of players an event can take: the limits, the rounds a format plays by default,
and why a field cannot play a format. Pure checks the form, the file reader and the writes share."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import pairing
from scoring.models import Event

MIN_PLAYERS = {Event.Format.ROUND_ROBIN: 2, Event.Format.SWISS: 2, Event.Format.PARTNERS: 4}
MAX_PLAYERS = 128
MAX_ROUNDS = 30


def default_rounds(fmt: str, count: int) -> int:
    """The rounds an event of this format and field plays when the organiser does not say."""
    if fmt == Event.Format.ROUND_ROBIN:
        return pairing.round_robin_rounds(count)
    if fmt == Event.Format.SWISS:
        # Never more rounds than it takes everyone to meet everyone (two players: one).
        return min(pairing.swiss_rounds(count), pairing.round_robin_rounds(count))
    return max(1, min(count - 1, 3))


def field_problem(fmt: str, players: Sequence[int], rounds: int | None) -> str | None:
    """Why this field cannot play this format (a message), or None."""
    least = MIN_PLAYERS[Event.Format(fmt)]
    if len(players) < least:
        return ngettext(
            "An event of this format needs at least %(count)d player.",
            "An event of this format needs at least %(count)d players.",
            least,
        ) % {"count": least}
    if len(players) > MAX_PLAYERS:
        return _("An event can have at most %(count)d players.") % {"count": MAX_PLAYERS}
    if len(set(players)) != len(players):
        return _("A player is listed twice.")
    if fmt == Event.Format.ROUND_ROBIN and rounds is not None:
        most = pairing.round_robin_rounds(len(players))
        if rounds > most:
            return ngettext(
                "A round robin of %(players)d players has %(count)d round.",
                "A round robin of %(players)d players has %(count)d rounds.",
                most,
            ) % {"players": len(players), "count": most}
    return None
