"""Who sits where, and what the hand before left on the table: the plain reads that the writes
(services) and the pages (selectors) both need, one query each."""

from __future__ import annotations

from collections.abc import Iterable

from scoring.engine import rules
from scoring.models import Match, Player, Seat


def pots_before(match: Match, number: int) -> tuple[int, int]:
    """Finnish Kasino's pots as the hand before `number` left them (none in other variants)."""
    if match.variant != Match.Variant.FINNISH or number == 1:
        return rules.NO_POTS
    before = match.hands.filter(number=number - 1).values_list("pot_cards", "pot_spades").first()
    return before or rules.NO_POTS


def players_by_side(seats: Iterable[Seat]) -> dict[int, list[str]]:
    """Player names per side position, in seat order."""
    lineup = seat_lineup(seats)
    return {
        position: [player.name for player in players]
        for position, players in enumerate(lineup.sides)
    }


def seat_lineup(seats: Iterable[Seat]) -> rules.Lineup[Player]:
    """The table of these seats (with their side and player loaded): each side's players."""
    return rules.Lineup.from_seats((seat.seat, seat.side.position, seat.player) for seat in seats)


def lineup(match: Match) -> rules.Lineup[Player]:
    """Who sits where in the match: each side's players, in seat order (one query)."""
    return seat_lineup(match.seats.select_related("player", "side"))


def player_name(player: Player) -> str:
    return player.name


def side_names(match: Match) -> list[str]:
    """Each side's name: the player, or "Ana & Ben" for a partnership (one query)."""
    return lineup(match).names(player_name)


def shared_matches(first: Player, second: Player) -> list[int]:
    """Matches both players sat at (on any side)."""
    return list(
        Match.objects.filter(seats__player=first)
        .filter(seats__player=second)
        .values_list("pk", flat=True)
    )
