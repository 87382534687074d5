"""Looking back: the match history, a player's page and records, head to head, the leaderboard.
Read-only; one query per list wherever the page shows many rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import (
    BooleanField,
    ExpressionWrapper,
    F,
    FilteredRelation,
    Q,
    QuerySet,
)
from django.utils import timezone

from scoring.engine import rules
from scoring.engine.records import Record
from scoring.matches.seating import shared_matches
from scoring.models import (
    PROVISIONAL_BELOW,
    Circle,
    Match,
    Player,
    PlayerMatchStat,
    PlayerPairStat,
    PlayerRating,
    PlayerRecordStat,
    PlayerStat,
    Seat,
    Side,
)
from scoring.web.urls import url_of


@dataclass(frozen=True)
class MatchRow:
    match: Match
    sides: list[tuple[str, int, bool]]  # name, total, won
    # Worked out once per list rather than per row in the template (a long list's cost):
    url: str  # the scoreboard while the match is open, else its score sheet
    variant: str  # in words, in the reader's language
    layout: str
    status: str


def _match_rows(matches: Sequence[Match], *, sheets: bool = False) -> list[MatchRow]:
    """Each match with its sides' names (in seat order), totals and winner: one query for all.
    Rows link to the score sheet, or to the scoreboard of an open match unless `sheets`."""
    sides: dict[int, dict[int, tuple[list[str], int]]] = {}
    seats = (
        Seat.objects.filter(match__in=[match.pk for match in matches])
        .order_by("match_id", "side__position", "seat")
        .values_list("match_id", "side__position", "side__total", "player__name")
    )
    for match_id, position, total, name in seats:
        sides.setdefault(match_id, {}).setdefault(position, ([], total))[0].append(name)
    variants, layouts, statuses = (
        {value: str(label) for value, label in choices.choices}
        for choices in (Match.Variant, Match.Layout, Match.Status)
    )
    board, sheet = url_of("scoring:match"), url_of("scoring:match-sheet")
    return [
        MatchRow(
            match,
            [
                (
                    rules.side_name(names),
                    total,
                    match.status == Match.Status.WON and position == match.winner_position,
                )
                for position, (names, total) in sorted(sides.get(match.pk, {}).items())
            ],
            url=board(match.pk) if match.is_open and not sheets else sheet(match.pk),
            variant=variants.get(match.variant, match.variant),
            layout=layouts.get(match.layout, match.layout),
            status=statuses.get(match.status, match.status),
        )
        for match in matches
    ]


HOME_IN_PROGRESS = 6  # a few tables at once at most; the rest are a tap away in the history
HOME_TODAY = 10


@dataclass(frozen=True)
class Home:
    """What a signed-in account's home page leads with, across its circles: the matches still
    being played (to continue), newest first, and those finished today (the site's time zone)."""

    in_progress: list[MatchRow]
    today: list[MatchRow]


def home_matches(user: Any, *, since: datetime | None = None) -> Home:
    """The open matches of every circle `user` is in, and those finished since `since` (by
    default today's midnight): two queries (the circles joined in, not read first), and one
    more for their seats when there are any."""
    if since is None:
        since = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    theirs = Match.objects.filter(circle__memberships__user=user)
    open_now = theirs.filter(status__in=(Match.Status.PLAYING, Match.Status.TIED)).order_by(
        "-created_at", "-pk"
    )[:HOME_IN_PROGRESS]
    finished = theirs.filter(
        status__in=(Match.Status.WON, Match.Status.ABANDONED), finished_at__gte=since
    ).order_by("-finished_at", "-pk")[:HOME_TODAY]
    playing, done = list(open_now), list(finished)
    rows = _match_rows([*playing, *done])  # an empty list asks nothing of the database
    return Home(rows[: len(playing)], rows[len(playing) :])


HISTORY_PAGE_SIZE = 20


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class HistoryPage:
    """One page of the history. The next page starts after `next_cursor` (keyset pagination:
    the same work at any depth); `number` counts pages for the links only."""

    rows: list[MatchRow]
    number: int
    next_cursor: str | None

    @property
    def has_next(self) -> bool:
        return self.next_cursor is not None

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1


def history_cursor(created_at: datetime, pk: int) -> str:
    """Where a page ended: the last match's creation time (microseconds, UTC) and pk."""
    return f"{(created_at - _EPOCH) // timedelta(microseconds=1)}_{pk}"


def _parse_cursor(cursor: str) -> tuple[datetime, int] | None:
    micros, _, pk = cursor.partition("_")
    try:
        return _EPOCH + timedelta(microseconds=int(micros)), int(pk)
    except (ValueError, OverflowError):
        return None


MAX_PAGE = 1_000_000  # far past any history; a larger number would overflow the offset


def _page_number(page: int | str) -> int:
    try:
        return min(max(int(page), 1), MAX_PAGE)
    except (TypeError, ValueError):
        return 1


def _after(created_at: datetime, pk: int, *, on: str = "", pk_name: str = "pk") -> Q:
    """Rows after (created_at, pk) newest first; the first condition alone bounds an index range.
    `on` names the relation whose columns are compared (the player's statistics rows)."""
    return Q(**{f"{on}created_at__lte": created_at}) & (
        Q(**{f"{on}created_at__lt": created_at}) | Q(**{f"{on}{pk_name}__lt": pk})
    )


def match_history(
    circle: Circle,
    *,
    player: Player | None = None,
    variant: str = "",
    status: str = "",
    after: str = "",
    page: int | str = 1,
) -> HistoryPage:
    """One page of the circle's matches, newest first, filtered by player, variant and status.

    The page starts after the match named by `after` (a `history_cursor`), found through an
    index whatever the depth. Without one (an old link), page `page` is found by counting rows,
    and a page past the end starts from the top.
    """
    number = _page_number(page)
    cursor = _parse_cursor(after) if after else None
    if player is not None:
        # Walked along the player's statistics rows (player, newest first), not all matches.
        # One filter() call, so that every condition is on the same joined row.
        on, pk_name = "player_stats__", "match_id"
        conditions = [Q(player_stats__player=player)]
    else:
        on, pk_name = "", "pk"
        conditions = []
    if variant:
        conditions.append(Q(**{f"{on}variant": variant}))
    if status:
        conditions.append(Q(**{f"{on}status": status}))
    if cursor is not None:
        conditions.append(_after(*cursor, on=on, pk_name=pk_name))
        offset = 0
    else:
        offset = (number - 1) * HISTORY_PAGE_SIZE
    rows = (
        Match.objects.filter(circle=circle)
        .filter(*conditions)
        .order_by(f"-{on}created_at", f"-{on}{pk_name}")
    )
    window = list(rows[offset : offset + HISTORY_PAGE_SIZE + 1])
    if not window and offset:
        number, window = 1, list(rows[: HISTORY_PAGE_SIZE + 1])
    shown = window[:HISTORY_PAGE_SIZE]
    last = shown[-1] if len(window) > HISTORY_PAGE_SIZE else None
    next_cursor = history_cursor(last.created_at, last.pk) if last else None
    return HistoryPage(_match_rows(shown), number, next_cursor)


def merge_preview(source: Player, target: Player) -> dict[str, object]:
    """What merging `source` into `target` would do, shown before it is done."""
    return {
        "target": target,
        "matches": Seat.objects.filter(player=source).count(),
        "shared": shared_matches(source, target),
    }


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
    swedish_hands: int
    last_capture: float | None  # share of Swedish Kasino hands
    spade_hands: int
    jack_of_spades: float | None  # share of Spade Casino hands
    longest_streak: int
    current_streak: int
    best_match: Side | None
    partners: list[tuple[int, str, Record]]
    opponents: list[tuple[int, str, int]]
    trend: list[float]

    @property
    def provisional(self) -> bool:
        return self.overall.played < PROVISIONAL_BELOW


def _records(
    rows: Sequence[PlayerRecordStat], key: str, labels: Mapping[str, Any]
) -> list[tuple[str, Record]]:
    """Finished matches and wins per variant or per layout, in the order of the stored values."""
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for row in rows:
        value = getattr(row, key)
        played[value] = played.get(value, 0) + row.played
        won[value] = won.get(value, 0) + row.won
    return [
        (labels.get(value, value), Record(played[value], won[value]))
        for value in sorted(played)
        if played[value]
    ]


def _share(part: int | None, whole: int) -> float | None:
    return (part or 0) / whole if whole else None


def player_stats(player: Player) -> PlayerStats:
    """Everything the player page shows, from the statistics kept by scoring/matches/stats.py: a fixed
    number of small queries, however long the player's history."""
    summary = PlayerStat.objects.filter(player=player).first() or PlayerStat(player=player)
    records = list(PlayerRecordStat.objects.filter(player=player, played__gt=0))
    by_variant = _records(records, "variant", dict(Match.Variant.choices))
    by_layout = _records(records, "layout", dict(Match.Layout.choices))
    overall = Record(sum(r.played for _, r in by_variant), sum(r.won for _, r in by_variant))
    count = summary.hands
    best = (
        PlayerMatchStat.objects.filter(player=player, won=True)
        .select_related("side__match")
        .order_by("-gained", "-finished_at", "-match_id")
        .first()
    )
    pairs = PlayerPairStat.objects.filter(player=player).values_list(
        "other_id", "other__name", "partner_played", "partner_won", "opposed"
    )
    partner_rows = pairs.filter(partner_played__gt=0).order_by("-partner_played", "other__name")
    opponent_rows = pairs.filter(opposed__gt=0).order_by("-opposed", "other__name")[:5]
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
        in_progress=summary.in_progress,
        hands=count,
        points_per_hand=summary.points / count if count else None,
        most_cards=_share(summary.most_cards, count),
        most_spades=_share(summary.most_spades, count),
        big_casino=_share(summary.big_casino, count),
        little_casino=_share(summary.little_casino, count),
        aces_per_hand=summary.aces_points / count if count else None,
        sweeps_per_hand=summary.sweeps / count if count else None,
        swedish_hands=summary.swedish_hands,
        last_capture=_share(summary.last_capture, summary.swedish_hands),
        spade_hands=summary.spade_hands,
        jack_of_spades=_share(summary.jack_of_spades, summary.spade_hands),
        longest_streak=summary.longest_streak,
        current_streak=summary.current_streak,
        best_match=best.side if best is not None else None,
        partners=[(pk, name, Record(played, won)) for pk, name, played, won, _ in partner_rows],
        opponents=[(pk, name, opposed) for pk, name, _, _, opposed in opponent_rows],
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
    """Matches the two played against each other (on different sides), and who won them.

    The counts are kept by scoring/matches/stats.py; the latest matches are the first player's newest
    statistics rows joined to the second player's row of the same match on another side.
    """
    counts = {
        player: (played, won)
        for player, played, won in PlayerPairStat.objects.filter(
            Q(player=first, other=second) | Q(player=second, other=first)
        ).values_list("player_id", "against_played", "against_won")
    }
    played, first_won = counts.get(first.pk, (0, 0))
    second_won = counts.get(second.pk, (0, 0))[1]
    against = (
        PlayerMatchStat.objects.filter(player=first)
        .annotate(
            opponent=FilteredRelation(
                "match__player_stats", condition=Q(match__player_stats__player=second)
            )
        )
        .filter(Q(opponent__side_id__lt=F("side_id")) | Q(opponent__side_id__gt=F("side_id")))
        .order_by("-created_at", "-match_id")
        .values_list("match_id", flat=True)[:limit]
    )
    recent = Match.objects.filter(pk__in=list(against)).order_by("-created_at", "-pk")
    rows = _match_rows(list(recent), sheets=True)
    return HeadToHead(first, second, played, first_won, second_won, rows)


def leaderboard(circle: Circle) -> QuerySet[Player]:
    """The circle's players by rating; those with fewer than 5 rated matches are provisional.

    Players with no rated match yet (`rated` false) come after every rated one, by name: their
    0.0 is the starting point of the scale, not a rating, and must not outrank a rated player
    who has fallen below zero.
    """
    return (
        Player.objects.filter(circle=circle)
        .annotate(
            rated=ExpressionWrapper(Q(rated_matches__gt=0), output_field=BooleanField()),
            provisional=ExpressionWrapper(
                Q(rated_matches__lt=PROVISIONAL_BELOW), output_field=BooleanField()
            ),
        )
        .order_by(F("rated").desc(), "-rating", "name")
    )
