"""What an event's page and big screen show: its rounds, every table's live totals, and the
standings from the finished tables (four queries, however many rounds), over the event's state
(events.state, which its writers read too)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any, NamedTuple, cast

from django.core.cache import caches
from django.db.models import Q, QuerySet

from scoring.engine import rules, standings
from scoring.events.state import (
    OPEN,
    EntrantRow,
    EventState,
    MatchRow,
    OpenTable,
    RoundState,
    TableState,
    seat_rows,
)
from scoring.matches import seating
from scoring.models import Event, EventPlayer, EventRound, EventTable, Match, Player, Seat
from scoring.web.urls import url_of


@functools.cache
def _match_url() -> Callable[[int], str]:
    return url_of("scoring:match")


class MatchView(MatchRow):
    """What the event's pages show of a table's match: its note once time is called, its link."""

    __slots__ = ()

    @property
    def time_note(self) -> str | None:
        """Time called in the round: where the open match stands (rules.time_stage), as its
        board's note says it."""
        return rules.time_stage(self.last_hand, self.hand_count) if self.is_open else None

    def get_absolute_url(self) -> str:
        return _match_url()(self.pk)


class OpenTableView(OpenTable):
    """A table still playing, with the link to its match (the organiser's list of them)."""

    __slots__ = ()

    def get_absolute_url(self) -> str:
        return _match_url()(self.match)


@dataclass
class TableView(TableState):
    """A table as the event's pages show it (its match a MatchView)."""

    @classmethod
    def of(cls, table: TableState) -> TableView:
        match = MatchView(*table.match) if table.match is not None else None
        return cls(
            table.number, table.table, match, table.bye, table.player_ids, table.names, table.totals
        )

    @property
    def sides(self) -> list[tuple[str, int, bool]]:
        """(name, total, won) per side."""
        match = self.match
        won = match.winner_position if match and match.status == Match.Status.WON else None
        return [
            (name, total, position == won)
            for position, (name, total) in enumerate(zip(self.side_names, self.totals, strict=True))
        ]

    @property
    def cache_key(self) -> str:
        """What the table's rendered line depends on: its match in this version (the template
        adds its round's start, as a deleted event's numbers may come back)."""
        match = self.match
        return f"{self.table.pk}:{match.pk}.{match.version}" if match else f"{self.table.pk}:bye"


@dataclass
class RoundView(RoundState):
    """A round as the event's pages show it (its tables TableViews)."""

    @classmethod
    def of(cls, view: RoundState) -> RoundView:
        return cls(view.round, [TableView.of(table) for table in view.tables])

    @property
    def cache_key(self) -> str:
        """What the round's rendered tables depend on: its tables' matches in their versions."""
        versions = ",".join(
            f"{table.match.pk}.{table.match.version}" if table.match else f"b{table.table.pk}"
            for table in self.tables
        )
        return f"{self.round.pk}:{self.round.started_at.timestamp()}:{versions}"

    @property
    def ends_at(self) -> datetime | None:
        return self.round.ends_at


@dataclass
class StandingView:
    row: standings.Row
    entrant: EntrantRow

    @property
    def name(self) -> str:
        return self.entrant.player.name

    @property
    def left(self) -> bool:
        return self.entrant.left_round is not None


class EventPage:
    """An event as its page and big screen show it, built over its state (events.state): what
    the rendered parts depend on (their cache keys), the reader's table, the standings' lines,
    the links; read once, the parts computed when first used."""

    def __init__(self, event: Event, *, me: int | None = None, kept: bool = False) -> None:
        self.event = event
        self.me = me  # the reader's player ("this is me"), for "your table"
        # A page (`kept`): the earlier rounds' seats may come from the fragments cache.
        self.state = EventState(event, earlier_seats=_kept_seats if kept else None)

    @property
    def cache_key(self) -> str:
        """What the event's rendered page depends on besides the reader and the language: the
        event in this version (any change of its tables bumps it). Its creation time is in the
        key, as a deleted event's number may come back."""
        event = self.event
        return f"{event.pk}:{event.created_at.timestamp()}:{event.version}"

    @property
    def entrants(self) -> list[EntrantRow]:
        return self.state.entrants

    @cached_property
    def rounds(self) -> list[RoundView]:
        """The state's rounds as the page shows them (none read until first asked)."""
        return [RoundView.of(view) for view in self.state.rounds]

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def paired(self) -> int:
        return self.state.paired

    @property
    def latest_round(self) -> EventRound | None:
        return self.state.latest_round

    @property
    def open_tables(self) -> list[OpenTable]:
        return self.state.open_tables

    @property
    def earlier_open_tables(self) -> list[OpenTableView]:
        """The unfinished tables of the rounds before the latest, with their links."""
        return [OpenTableView(*table) for table in self.state.earlier_open_tables]

    @property
    def latest_open_tables(self) -> list[OpenTable]:
        """The unfinished tables of the round being played (time is called on those)."""
        latest = self.latest_round
        return [t for t in self.open_tables if latest is not None and t.round == latest.number]

    @property
    def next_number(self) -> int | None:
        return self.state.next_number

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def off_schedule_from(self) -> int | None:
        return self.state.off_schedule_from

    @property
    def changed_after_pairing(self) -> int | None:
        return self.state.changed_after_pairing

    @cached_property
    def standings(self) -> list[StandingView]:
        by_player = {entrant.player_id: entrant for entrant in self.entrants}
        return [StandingView(row, by_player[row.player]) for row in self.state.standing_rows()]

    @property
    def podium(self) -> list[tuple[str, int]] | None:
        """Each place's name and match points, best first, once the night is over (else None):
        what its result card shows."""
        if not self.finished:
            return None
        return [(line.name, line.row.match_points) for line in self.standings]

    @property
    def podium_line(self) -> str:
        """The first three places: "1. Ana, 2. Ben, 3. Cy" (a shared text, a chat's preview)."""
        return ", ".join(
            f"{place}. {line.name}" for place, line in enumerate(self.standings[:3], start=1)
        )

    @property
    def standings_key(self) -> str:
        """What the standings depend on: the counted tables (their results and totals), the
        byes and who plays (and who left); not the totals of the tables still playing."""
        counted = ";".join(
            f"{table.table.pk}:{table.fingerprint()}:{table.totals}"
            for view in self.state.rounds
            for table in view.tables
            if table.bye is not None or table.counted
        )
        digest = hashlib.sha256(f"{counted}|{self.entrants_key}".encode()).hexdigest()
        return f"{self.event.pk}:{self.event.created_at.timestamp()}:{digest}"

    @cached_property
    def entrants_key(self) -> str:
        """What the list of players depends on: who plays, from and until which round, named."""
        entrants = ",".join(
            f"{e.player_id}.{e.joined_round}.{e.left_round}.{e.player.name}" for e in self.entrants
        )
        digest = hashlib.sha256(entrants.encode()).hexdigest()
        return f"{self.event.pk}:{self.event.created_at.timestamp()}:{digest}"

    @cached_property
    def my_table(self) -> tuple[TableState, list[str]] | None:
        return self.table_of(self.me) if self.me is not None else None

    def table_of(self, player_id: int) -> tuple[TableState, list[str]] | None:
        """The open table of the current round where this player sits, and their opponents."""
        current = self.current
        if current is None:
            return None
        for table in current.playing:
            for position, ids in enumerate(table.player_ids):
                if player_id in ids and table.is_open:
                    return table, _opponents(table, position)
        return None


def _opponents(table: TableState, position: int) -> list[str]:
    """The names of the players at the table not on side `position`."""
    return [name for side, names in enumerate(table.names) if side != position for name in names]


def _kept_seats(event: Event, tables: Sequence[Any], earlier: set[int]) -> list[Any]:
    """The earlier rounds' seats (their players, sides and totals) change only with their
    matches' versions, which the table rows hold: kept under a digest of those rows."""
    rows = repr([row for row in tables if row[1] in earlier]).encode()
    key = f"event-seats:{event.pk}:{hashlib.sha256(rows).hexdigest()}"
    seats = caches["fragments"].get(key)
    if seats is None:
        seats = seat_rows(event, earlier)
        caches["fragments"].set(key, seats, 86400)
    return cast(list[Any], seats)


def events_of(queryset: QuerySet[Event]) -> QuerySet[Event]:
    return queryset.order_by("-date", "-pk")


@dataclass(frozen=True)
class YourTable:
    event: Event
    round: int
    table: int
    match: Match
    against: list[str]


def tables_of(players: Sequence[int]) -> list[YourTable]:
    """The unfinished event tables where these players (an account's "this is me", in each of
    its circles) sit, with who they play against: none without players, else one query, and one
    more when there are any."""
    if not players:
        return []
    seats = list(
        Seat.objects.filter(
            player_id__in=players,
            match__event__isnull=False,
            match__status__in=OPEN,
        ).select_related("match__event_table__round__event")
    )
    if not seats:
        return []
    others: dict[int, list[str]] = {}
    mine = {seat.match_id: seat.side_id for seat in seats}
    rows = Seat.objects.filter(match_id__in=mine).order_by("seat")
    for match_id, side_id, name in rows.values_list("match_id", "side_id", "player__name"):
        if side_id != mine[match_id]:
            others.setdefault(match_id, []).append(name)
    found = []
    for seat in seats:
        table = seat.match.event_table
        found.append(
            YourTable(
                table.round.event,
                table.round.number,
                table.number,
                seat.match,
                others.get(seat.match_id, []),
            )
        )
    return found


PLAYER_EVENTS_SHOWN = 10


@dataclass(frozen=True)
class PlayedEvent:
    event: Event
    place: int
    of: int
    finished: bool


def events_played(player: Player) -> list[PlayedEvent]:
    """The latest events the player played in, with their place (live while one runs)."""
    played = []
    entries = EventPlayer.objects.filter(player=player).select_related("event")
    for entry in entries.order_by("-event__date", "-event_id")[:PLAYER_EVENTS_SHOWN]:
        state = EventState(entry.event)
        rows = state.standing_rows()
        place = next(row.place for row in rows if row.player == player.pk)
        played.append(PlayedEvent(entry.event, place, len(rows), state.finished))
    return played


class ScoringLink(NamedTuple):
    """An open table with a scoring link, as the organiser's list of them shows it."""

    round: int
    number: int
    match: int
    token: str


def scoring_links(event: Event) -> list[ScoringLink]:
    """The event's open tables that have a scoring link, round by round, table by table."""
    rows = (
        EventTable.objects.filter(
            round__event=event, match__status__in=OPEN, match__scoring_token__isnull=False
        )
        .order_by("round__number", "number")
        .values_list("round__number", "number", "match_id", "match__scoring_token")
    )
    return [ScoringLink(round, number, match, str(token)) for round, number, match, token in rows]


class PaperTable(NamedTuple):
    """A table whose result the organiser may enter from paper: open without a hand, or entered
    so already (to fix it)."""

    pk: int
    round: int
    number: int
    on_paper: bool


def paper_tables(event: Event) -> list[PaperTable]:
    """The event's tables a result from paper may be entered for, round by round: one query."""
    rows = (
        EventTable.objects.filter(round__event=event, match__hand_count=0)
        .filter(Q(match__status__in=OPEN) | Q(match__outcome_kind=rules.PAPER))
        .order_by("round__number", "number")
        .values_list("pk", "round__number", "number", "match__outcome_kind")
    )
    return [PaperTable(pk, round, number, kind == rules.PAPER) for pk, round, number, kind in rows]


@dataclass(frozen=True)
class PaperEntry:
    """One table's result from paper as its form shows it: the sides, their start totals, and
    the result entered so far (None: none yet)."""

    table: EventTable
    side_names: list[str]
    start_totals: list[int]
    entered: rules.Paper | None


def paper_entry(event: Event, table_pk: int) -> PaperEntry | None:
    """The form's view of one of `paper_tables`, or None when it is not one of them."""
    table = (
        EventTable.objects.select_related("match", "round")
        .filter(pk=table_pk, round__event=event, match__isnull=False)
        .first()
    )
    if table is None or table.match is None:
        return None
    match = table.match
    sides = list(match.sides.order_by("position"))
    players = seating.players_by_side(match.seats.select_related("player", "side").order_by("seat"))
    entered = None
    if match.on_paper and match.winner_position is not None:
        entered = rules.Paper(tuple(side.total for side in sides), match.winner_position)
    return PaperEntry(
        table,
        [rules.side_name(players[side.position]) for side in sides],
        [side.start_total for side in sides],
        entered,
    )
