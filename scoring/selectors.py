"""Reads. Numbers shown on pages come from the stored derived fields or the engine, never from
arithmetic in templates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db.models import (
    Avg,
    BooleanField,
    Case,
    Count,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.shortcuts import get_object_or_404

from scoring import rules
from scoring.models import PROVISIONAL_BELOW, Hand, Match, Player, PlayerRating, Seat, Side, Tally


@dataclass(frozen=True)
class SideView:
    position: int
    name: str
    players: list[str]
    total: int
    start_total: int
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

    @property
    def running_totals(self) -> list[list[int]]:
        """Start totals, then each side's total after every hand (for the chart)."""
        return [
            [side.start_total for side in self.sides],
            *([tally.total_after for tally in row.tallies] for row in self.hands),
        ]


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
            start_total=side.start_total,
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


def _match_rows(matches: Sequence[Match]) -> list[MatchRow]:
    rows = []
    for match in matches:
        sides = match.sides.all()
        position = {side.pk: side.position for side in sides}
        players: dict[int, list[str]] = {}
        for seat in sorted(match.seats.all(), key=lambda seat: seat.seat):
            players.setdefault(position[seat.side_id], []).append(seat.player.name)
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
                    for side in sides
                ],
            )
        )
    return rows


def _with_sides(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.prefetch_related(
        Prefetch("sides", queryset=Side.objects.order_by("position")),
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
    )


HISTORY_PAGE_SIZE = 20


def match_history(
    owner: AbstractBaseUser,
    *,
    player: Player | None = None,
    variant: str = "",
    status: str = "",
    page: int | str = 1,
) -> tuple[Page, list[MatchRow]]:
    """One page of the owner's matches, newest first, filtered by player, variant and status."""
    matches = Match.objects.filter(owner=owner).order_by("-created_at", "-pk")
    if player is not None:
        matches = matches.filter(seats__player=player)
    if variant:
        matches = matches.filter(variant=variant)
    if status:
        matches = matches.filter(status=status)
    current = Paginator(_with_sides(matches), HISTORY_PAGE_SIZE).get_page(page)
    rows = _match_rows(current.object_list)
    return current, rows


def merge_preview(source: Player, target: Player) -> dict[str, object]:
    """What merging `source` into `target` would do, shown before it is done."""
    return {
        "target": target,
        "matches": Seat.objects.filter(player=source).count(),
        "shared": shared_matches(source, target),
    }


def player_for_owner(owner: AbstractBaseUser, pk: int) -> Player:
    return get_object_or_404(Player, pk=pk, owner=owner)


def shared_matches(first: Player, second: Player) -> list[int]:
    """Matches both players sat at (on any side)."""
    return list(
        Match.objects.filter(seats__player=first)
        .filter(seats__player=second)
        .values_list("pk", flat=True)
    )


@dataclass(frozen=True)
class Record:
    played: int
    won: int

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None


@dataclass(frozen=True)
class PlayerStats:
    player: Player
    overall: Record
    by_variant: list[tuple[str, Record]]
    by_layout: list[tuple[str, Record]]
    in_progress: int
    hands: int
    points_per_hand: float | None
    most_cards: float | None  # share of hands
    most_spades: float | None
    big_casino: float | None
    little_casino: float | None
    aces_per_hand: float | None
    sweeps_per_hand: float | None
    longest_streak: int
    current_streak: int
    best_match: Side | None
    partners: list[tuple[int, str, Record]]
    opponents: list[tuple[int, str, int]]
    trend: list[float]

    @property
    def provisional(self) -> bool:
        return self.overall.played < PROVISIONAL_BELOW


_WON = Case(
    When(position=F("match__winner_position"), then=Value(1)),
    default=Value(0),
    output_field=IntegerField(),
)


def _finished_sides(player: Player) -> QuerySet[Side]:
    return Side.objects.filter(seats__player=player, match__status=Match.Status.WON).annotate(
        won=_WON
    )


def _records(player: Player, key: str, labels: dict[str, str]) -> list[tuple[str, Record]]:
    rows = (
        _finished_sides(player)
        .values(key)
        .annotate(played=Count("pk"), wins=Sum("won"))
        .order_by(key)
    )
    return [
        (labels.get(row[key], row[key]), Record(row["played"], row["wins"] or 0)) for row in rows
    ]


def _streaks(results: Sequence[int]) -> tuple[int, int]:
    longest = run = 0
    for won in results:
        run = run + 1 if won else 0
        longest = max(longest, run)
    return longest, run


def _share(part: int | None, whole: int) -> float | None:
    return (part or 0) / whole if whole else None


def player_stats(player: Player) -> PlayerStats:
    """Everything the player page shows, from database aggregates (a fixed number of queries)."""
    by_variant = _records(player, "match__variant", dict(Match.Variant.choices))
    by_layout = _records(player, "match__layout", dict(Match.Layout.choices))
    overall = Record(sum(r.played for _, r in by_variant), sum(r.won for _, r in by_variant))
    hands = Tally.objects.filter(side__seats__player=player).aggregate(
        hands=Count("pk"),
        points=Avg("points"),
        cards=Count("pk", filter=Q(cards_points__gt=0)),
        spades=Count("pk", filter=Q(spades_points__gt=0)),
        big=Count("pk", filter=Q(big_casino=True)),
        little=Count("pk", filter=Q(little_casino=True)),
        aces=Avg("aces_points"),
        sweeps=Avg("sweeps"),
    )
    count = hands["hands"]
    results = list(
        _finished_sides(player)
        .order_by("match__finished_at", "match__pk")
        .values_list("won", flat=True)
    )
    longest, current = _streaks(results)
    best = (
        _finished_sides(player)
        .filter(won=1)
        .select_related("match")
        .order_by(F("total") - F("start_total"), "match__finished_at")
        .last()
    )
    partner_rows = (
        Seat.objects.filter(side__seats__player=player, match__status=Match.Status.WON)
        .exclude(player=player)
        .values("player_id", "player__name")
        .annotate(
            played=Count("side", distinct=True),
            wins=Count("side", distinct=True, filter=Q(side__position=F("match__winner_position"))),
        )
        .order_by("-played", "player__name")
    )
    opponent_rows = (
        Seat.objects.filter(match__seats__player=player)
        .exclude(side__seats__player=player)
        .values("player_id", "player__name")
        .annotate(matches=Count("match", distinct=True))
        .order_by("-matches", "player__name")[:5]
    )
    trend = list(
        PlayerRating.objects.filter(player=player)
        .order_by("-pk")
        .values_list("rating", flat=True)[:30]
    )
    return PlayerStats(
        player=player,
        overall=overall,
        by_variant=by_variant,
        by_layout=by_layout,
        in_progress=Match.objects.filter(
            seats__player=player, status__in=[Match.Status.PLAYING, Match.Status.TIED]
        ).count(),
        hands=count,
        points_per_hand=hands["points"],
        most_cards=_share(hands["cards"], count),
        most_spades=_share(hands["spades"], count),
        big_casino=_share(hands["big"], count),
        little_casino=_share(hands["little"], count),
        aces_per_hand=hands["aces"],
        sweeps_per_hand=hands["sweeps"],
        longest_streak=longest,
        current_streak=current,
        best_match=best,
        partners=[
            (r["player_id"], r["player__name"], Record(r["played"], r["wins"]))
            for r in partner_rows
        ],
        opponents=[(r["player_id"], r["player__name"], r["matches"]) for r in opponent_rows],
        trend=trend[::-1],
    )


@dataclass(frozen=True)
class HeadToHead:
    first: Player
    second: Player
    played: int
    first_won: int
    second_won: int
    rows: list[MatchRow]


def head_to_head(first: Player, second: Player, limit: int = 20) -> HeadToHead:
    """Matches the two played against each other (on different sides), and who won them."""

    def side_of(player: Player) -> Subquery:
        return Subquery(
            Seat.objects.filter(match=OuterRef("pk"), player=player).values("side__position")[:1]
        )

    matches = (
        Match.objects.filter(seats__player=first)
        .filter(seats__player=second)
        .annotate(first_side=side_of(first), second_side=side_of(second))
        .exclude(first_side=F("second_side"))
    )
    counts = matches.aggregate(
        played=Count("pk", filter=Q(status=Match.Status.WON)),
        first_won=Count("pk", filter=Q(status=Match.Status.WON, winner_position=F("first_side"))),
        second_won=Count("pk", filter=Q(status=Match.Status.WON, winner_position=F("second_side"))),
    )
    recent = _with_sides(matches.order_by("-created_at", "-pk"))[:limit]
    return HeadToHead(
        first,
        second,
        counts["played"],
        counts["first_won"],
        counts["second_won"],
        _match_rows(recent),
    )


def leaderboard(owner: AbstractBaseUser) -> QuerySet[Player]:
    """The owner's players by rating; those with fewer than 5 rated matches are provisional.

    Players with no rated match yet (`rated` false) come after every rated one, by name: their
    0.0 is the starting point of the scale, not a rating, and must not outrank a rated player
    who has fallen below zero.
    """
    return (
        Player.objects.filter(owner=owner)
        .annotate(
            rated=ExpressionWrapper(Q(rated_matches__gt=0), output_field=BooleanField()),
            provisional=ExpressionWrapper(
                Q(rated_matches__lt=PROVISIONAL_BELOW), output_field=BooleanField()
            ),
        )
        .order_by(F("rated").desc(), "-rating", "name")
    )


def player_list(owner: AbstractBaseUser) -> QuerySet[Player]:
    return Player.objects.filter(owner=owner)
