"""Reads. Numbers shown on pages come from the stored derived fields or the engine, never from
arithmetic in templates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from scoring import rules
from scoring.models import Hand, Match, Player, Seat, Side, Tally


@dataclass(frozen=True)
class SideView:
    position: int
    name: str
    players: list[str]
    total: int
    pending_sweeps: int
    condition: str | None  # Dominican: what the side must take to win the next hand
    is_winner: bool


@dataclass(frozen=True)
class TurnView:
    hand_number: int
    dealer: str
    leader: str
    deals: int
    clockwise: bool


@dataclass(frozen=True)
class HandRow:
    number: int
    dealer: str
    tallies: list[Tally]
    is_last: bool


@dataclass(frozen=True)
class Board:
    match: Match
    sides: list[SideView]
    turn: TurnView | None
    hands: list[HandRow]
    winner: SideView | None
    tied_total: int | None

    @property
    def side_names(self) -> list[str]:
        return [side.name for side in self.sides]


def match_for_owner(owner: AbstractBaseUser, pk: int) -> Match:
    """The owner's match, or 404 (another user's match does not exist for them)."""
    return get_object_or_404(Match, pk=pk, owner=owner)


def match_board(match: Match) -> Board:
    """Everything the scoreboard shows: totals, who deals, conditions, the score sheet."""
    seats = list(match.seats.select_related("player", "side").order_by("seat"))
    sides = list(match.sides.order_by("position"))
    players = players_by_side(seats)
    match_rules = match.rules
    views = [
        SideView(
            position=side.position,
            name=" & ".join(players[side.position]),
            players=players[side.position],
            total=side.total,
            pending_sweeps=side.pending_sweeps,
            condition=rules.endgame_condition(match_rules, side.total) if match.is_open else None,
            is_winner=match.status == Match.Status.WON and side.position == match.winner_position,
        )
        for side in sides
    ]
    seat_names = [seat.player.name for seat in seats]
    turn = None
    if match.is_open:
        table = rules.table_turn(
            match_rules,
            players=len(seats),
            first_dealer=match.first_dealer_seat,
            hand_index=match.hand_count,
        )
        turn = TurnView(
            table.hand_number,
            seat_names[table.dealer_seat],
            seat_names[table.leader_seat],
            table.deals,
            table.clockwise,
        )
    hands = list(
        match.hands.order_by("number").prefetch_related(
            Prefetch("tallies", queryset=Tally.objects.order_by("side__position"))
        )
    )
    rows = [
        HandRow(
            hand.number,
            seat_names[hand.dealer_seat],
            list(hand.tallies.all()),
            hand.number == len(hands),
        )
        for hand in hands
    ]
    winner = next((view for view in views if view.is_winner), None)
    tied_total = max(side.total for side in sides) if match.status == Match.Status.TIED else None
    return Board(match, views, turn, rows, winner, tied_total)


def hand_preview(
    match: Match, tallies: Sequence[rules.Tally], number: int
) -> tuple[rules.HandScore | None, bool]:
    """Score `tallies` as hand `number` of the match, without saving.

    Returns that hand's score and whether a later hand would then come after the winning one.
    """
    stored = list(
        match.hands.order_by("number").prefetch_related(
            Prefetch("tallies", queryset=Tally.objects.order_by("side__position"))
        )
    )
    hands = [[t.as_rules_tally() for t in hand.tallies.all()] for hand in stored]
    if number <= len(hands):
        hands[number - 1] = list(tallies)
    else:
        hands.append(list(tallies))
    start = list(match.sides.order_by("position").values_list("start_total", flat=True))
    try:
        score = rules.score_match(match.rules, hands, start)
    except rules.MatchOverError:
        return None, True
    return score.hands[number - 1], False


def hand_for_match(match: Match, number: int) -> Hand:
    return get_object_or_404(Hand, match=match, number=number)


def hand_tallies(hand: Hand) -> list[rules.Tally]:
    return [t.as_rules_tally() for t in hand.tallies.order_by("side__position")]


@dataclass(frozen=True)
class MatchRow:
    match: Match
    sides: list[tuple[str, int, bool]]  # name, total, won


def players_by_side(seats: Sequence[Seat]) -> dict[int, list[str]]:
    """Player names per side position, in seat order."""
    players: dict[int, list[str]] = {}
    for seat in sorted(seats, key=lambda seat: seat.seat):
        players.setdefault(seat.side.position, []).append(seat.player.name)
    return players


def match_list(owner: AbstractBaseUser) -> list[MatchRow]:
    """The owner's matches, newest first, each with its sides' names and totals."""
    matches = Match.objects.filter(owner=owner).prefetch_related(
        Prefetch("sides", queryset=Side.objects.order_by("position")),
        Prefetch("seats", queryset=Seat.objects.select_related("player", "side")),
    )
    rows = []
    for match in matches:
        players = players_by_side(match.seats.all())
        won = match.status == Match.Status.WON
        rows.append(
            MatchRow(
                match,
                [
                    (
                        " & ".join(players[side.position]),
                        side.total,
                        won and side.position == match.winner_position,
                    )
                    for side in match.sides.all()
                ],
            )
        )
    return rows


def player_list(owner: AbstractBaseUser) -> QuerySet[Player]:
    return Player.objects.filter(owner=owner)
