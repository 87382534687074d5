"""What an event's page and big screen show: its rounds, every table's live totals, and the
standings from the finished tables (four queries, however many rounds)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, NamedTuple

from django.core.cache import caches
from django.db.models import QuerySet

from scoring.engine import pairing, rules, standings
from scoring.models import Event, EventPlayer, EventRound, EventTable, Match, Player, Seat
from scoring.web.urls import url_of

COUNTED = (Match.Status.WON, Match.Status.ABANDONED)
OPEN = (Match.Status.PLAYING, Match.Status.TIED)


@functools.cache
def _match_url() -> Callable[[int], str]:
    return url_of("scoring:match")


class TableRow(NamedTuple):
    pk: int
    number: int


class PlayerRow(NamedTuple):
    pk: int
    name: str


class EntrantRow(NamedTuple):
    """A player of the event, as its pages and the pairing read them (values, not instances)."""

    player_id: int
    order: int
    joined_round: int
    left_round: int | None
    name: str
    rating: float

    @property
    def player(self) -> PlayerRow:
        return PlayerRow(self.player_id, self.name)


class OpenTable(NamedTuple):
    """A table still playing, as the organiser's list of them reads it."""

    pk: int
    round: int
    number: int
    hands: int
    match: int

    def get_absolute_url(self) -> str:
        return _match_url()(self.match)


class MatchRow(NamedTuple):
    """What the event's pages show of a table's match (read as values, not model instances:
    an event of 64 players has 200 of them)."""

    pk: int
    status: str
    winner_position: int | None
    version: int
    hand_count: int
    last_hand: int | None
    outcome_kind: str

    @property
    def is_open(self) -> bool:
        return self.status in OPEN

    @property
    def time_note(self) -> str | None:
        """Time called in the round: where the open match stands (rules.time_stage), as its
        board's note says it."""
        return rules.time_stage(self.last_hand, self.hand_count) if self.is_open else None

    def get_absolute_url(self) -> str:
        return _match_url()(self.pk)


@dataclass
class TableView:
    number: int
    table: TableRow
    match: MatchRow | None = None
    bye: PlayerRow | None = None
    # Each side's players (ids and names, in seat order) and total.
    player_ids: list[list[int]] = field(default_factory=list)
    names: list[list[str]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)

    @property
    def side_names(self) -> list[str]:
        return [" & ".join(names) for names in self.names]

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
    def is_open(self) -> bool:
        return self.match is not None and self.match.is_open

    @property
    def counted(self) -> bool:
        return self.match is not None and self.match.status in COUNTED

    def result(self, round_number: int) -> standings.Result | None:
        match = self.match
        if match is None or match.status not in COUNTED or len(self.player_ids) != 2:
            return None
        winner = match.winner_position if match.status == Match.Status.WON else None
        return standings.Result(
            round=round_number,
            sides=(tuple(self.player_ids[0]), tuple(self.player_ids[1])),
            totals=(self.totals[0], self.totals[1]),
            winner=winner,
        )

    @property
    def cache_key(self) -> str:
        """What the table's rendered line depends on: its match in this version (the template
        adds its round's start, as a deleted event's numbers may come back)."""
        match = self.match
        return f"{self.table.pk}:{match.pk}.{match.version}" if match else f"{self.table.pk}:bye"

    def fingerprint(self) -> str:
        """How the table stands, as the pairing of a later round saw it."""
        match = self.match
        if match is None:
            return "bye"
        return f"{match.status}:{match.winner_position}"


@dataclass
class RoundView:
    round: EventRound
    tables: list[TableView]

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def cache_key(self) -> str:
        """What the round's rendered tables depend on: its tables' matches in their versions."""
        versions = ",".join(
            f"{table.match.pk}.{table.match.version}" if table.match else f"b{table.table.pk}"
            for table in self.tables
        )
        return f"{self.round.pk}:{self.round.started_at.timestamp()}:{versions}"

    @property
    def playing(self) -> list[TableView]:
        return [table for table in self.tables if table.match is not None]

    @property
    def byes(self) -> list[TableView]:
        return [table for table in self.tables if table.bye is not None]

    @property
    def unfinished(self) -> int:
        return sum(1 for table in self.tables if table.is_open)

    @property
    def ends_at(self) -> datetime | None:
        return self.round.ends_at

    @property
    def time_called(self) -> bool:
        return self.round.time_called_at is not None


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


class EventState:
    """An event as its page shows it (read once; the parts computed when first used)."""

    def __init__(self, event: Event, *, me: int | None = None, kept: bool = False) -> None:
        self.event = event
        self.me = me  # the reader's player ("this is me"), for "your table"
        self.kept = kept  # a page: the earlier rounds may come from the fragments cache

    @property
    def cache_key(self) -> str:
        """What the event's rendered page depends on besides the reader and the language: the
        event in this version (any change of its tables bumps it). Its creation time is in the
        key, as a deleted event's number may come back."""
        event = self.event
        return f"{event.pk}:{event.created_at.timestamp()}:{event.version}"

    @cached_property
    def entrants(self) -> list[EntrantRow]:
        rows = self.event.entrants.order_by("order").values_list(
            "player_id", "order", "joined_round", "left_round", "player__name", "player__rating"
        )
        return [EntrantRow(*row) for row in rows]

    @cached_property
    def rounds(self) -> list[RoundView]:
        """Every round with its tables, their players and totals; none read until first asked,
        so a page whose parts are already rendered reads nothing. With `kept` (the pages), the
        rounds before the latest come from the fragments cache while none of their tables has
        changed (one aggregate query says so: their matches' versions only grow), and only the
        latest is read (two queries); else all are read (two queries)."""
        event = self.event
        # Without what each round was paired from (a JSON object): only the organiser's notice
        # reads it (changed_after_pairing).
        round_rows = list(event.round_set.order_by("number").defer("paired_from"))
        if not round_rows:
            return []
        *earlier_rows, latest = round_rows
        tables = _table_rows([row.pk for row in round_rows])
        earlier = {row.pk for row in earlier_rows}
        seats: list[Any] | None = None
        key = ""
        if self.kept and earlier:
            # The earlier rounds' seats (their players, sides and totals) change only with their
            # matches' versions, which the table rows hold: kept under a digest of those rows.
            rows = repr([row for row in tables if row[1] in earlier]).encode()
            key = f"event-seats:{event.pk}:{hashlib.sha256(rows).hexdigest()}"
            seats = caches["fragments"].get(key)
        if seats is None:
            seats = _seat_rows(event, earlier) if earlier else []
            if key:
                caches["fragments"].set(key, seats, 86400)
        seats = [*seats, *_seat_rows(event, {latest.pk})]
        return _round_views(round_rows, tables, seats)

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @cached_property
    def paired(self) -> int:
        """How many rounds are paired (one count, when the rounds are not read already)."""
        if "rounds" in self.__dict__:
            return len(self.rounds)
        return self.event.round_set.count()

    @cached_property
    def latest_round(self) -> EventRound | None:
        """The round being played (or the last one), read alone when the rounds are not."""
        if "rounds" in self.__dict__:
            return self.rounds[-1].round if self.rounds else None
        return self.event.round_set.order_by("-number").first()

    @cached_property
    def open_tables(self) -> list[OpenTable]:
        """The unfinished tables of every round (a table of an earlier round is open again when
        its last hand is deleted), in round and table order, for the organiser's buttons: one
        query when the rounds are not read already."""
        if "rounds" in self.__dict__:
            return [
                OpenTable(t.table.pk, view.number, t.number, t.match.hand_count, t.match.pk)
                for view in self.rounds
                for t in view.tables
                if t.match is not None and t.is_open
            ]
        tables = EventTable.objects.filter(round__event=self.event, match__status__in=OPEN)
        rows = tables.order_by("round__number", "number").values_list(
            "pk", "round__number", "number", "match__hand_count", "match_id"
        )
        return [OpenTable(*row) for row in rows]

    @property
    def earlier_open_tables(self) -> list[OpenTable]:
        """The unfinished tables of the rounds before the latest: they hold the next round and
        the final standings until they are finished or abandoned."""
        latest = self.latest_round
        return [t for t in self.open_tables if latest is not None and t.round < latest.number]

    @property
    def latest_open_tables(self) -> list[OpenTable]:
        """The unfinished tables of the round being played (time is called on those)."""
        latest = self.latest_round
        return [t for t in self.open_tables if latest is not None and t.round == latest.number]

    @property
    def next_number(self) -> int | None:
        """The round to pair next, or None when every planned round is paired."""
        number = self.paired + 1
        return number if number <= self.event.rounds else None

    @cached_property
    def finished(self) -> bool:
        """Every round paired and every table of every round finished or abandoned (a table
        of an earlier round open again keeps the standings from being final)."""
        return self.next_number is None and self.paired > 0 and not self.open_tables

    @cached_property
    def off_schedule_from(self) -> int | None:
        """A round robin's first round paired without repeats instead of by its schedule, which
        was made for round 1's players: the first round a late arrival plays (see
        pairing.round_robin_on_schedule); None while the schedule holds, and for other formats."""
        if self.event.format != Event.Format.ROUND_ROBIN:
            return None
        late = [
            entrant.joined_round
            for entrant in self.entrants
            if entrant.joined_round > 1
            and (entrant.left_round is None or entrant.left_round > entrant.joined_round)
        ]
        return min(late, default=None)

    def active(self, round_number: int) -> list[EntrantRow]:
        """Who plays in this round: joined by then and not left before it."""
        return [
            entrant
            for entrant in self.entrants
            if entrant.joined_round <= round_number
            and (entrant.left_round is None or entrant.left_round > round_number)
        ]

    def results(
        self, before: int | None = None
    ) -> tuple[list[standings.Result], list[tuple[int, int]]]:
        """The counted tables and the byes of the rounds (before round `before`)."""
        results: list[standings.Result] = []
        byes: list[tuple[int, int]] = []
        for view in self.rounds:
            if before is not None and view.number >= before:
                break
            for table in view.tables:
                if table.bye is not None:
                    byes.append((view.number, table.bye.pk))
                elif (result := table.result(view.number)) is not None:
                    results.append(result)
        return results, byes

    def standing_rows(self, before: int | None = None) -> list[standings.Row]:
        results, byes = self.results(before)
        return standings.standings(
            [entrant.player_id for entrant in self.entrants],
            results,
            byes,
            swiss=self.event.format == Event.Format.SWISS,
        )

    @cached_property
    def standings(self) -> list[StandingView]:
        by_player = {entrant.player_id: entrant for entrant in self.entrants}
        return [StandingView(row, by_player[row.player]) for row in self.standing_rows()]

    def history(self) -> list[pairing.Played]:
        """The rounds paired so far, as the pairing engine reads them."""
        return [
            pairing.Played(
                tables=tuple(
                    pairing.Table((tuple(table.player_ids[0]), tuple(table.player_ids[1])))
                    for table in view.playing
                    if len(table.player_ids) == 2
                ),
                byes=tuple(table.bye.pk for table in view.byes if table.bye is not None),
            )
            for view in self.rounds
        ]

    def paired_from(self, before: int) -> dict[str, str]:
        """How the tables of the rounds before round `before` stand, as a digest (stored with a
        round when it is paired: EventRound.paired_from)."""
        return {"results": self._results_digests().get(before, "")}

    def _results_digests(self) -> dict[int, str]:
        """Round number -> the digest of how every table of the rounds before it stands (and
        one for the round after the last)."""
        digest = hashlib.sha256()
        digests = {}
        for view in self.rounds:
            digests[view.number] = digest.hexdigest()
            for table in view.tables:
                digest.update(f"{table.table.pk}:{table.fingerprint()};".encode())
        digests[len(self.rounds) + 1] = digest.hexdigest()
        return digests

    @cached_property
    def changed_after_pairing(self) -> int | None:
        """The latest round paired from results that have changed since (an edit changed a
        winner): its pairings stand as they were made, and the organiser is told."""
        now = self._results_digests()
        paired_from = dict(self.event.round_set.values_list("number", "paired_from"))
        for view in reversed(self.rounds[1:]):
            seen = (paired_from.get(view.number) or {}).get("results")
            if seen and seen != now[view.number]:
                return view.number
        return None

    @property
    def standings_key(self) -> str:
        """What the standings depend on: the counted tables (their results and totals), the
        byes and who plays (and who left); not the totals of the tables still playing."""
        counted = ";".join(
            f"{table.table.pk}:{table.fingerprint()}:{table.totals}"
            for view in self.rounds
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
    def my_table(self) -> tuple[TableView, list[str]] | None:
        return self.table_of(self.me) if self.me is not None else None

    def table_of(self, player_id: int) -> tuple[TableView, list[str]] | None:
        """The open table of the current round where this player sits, and their opponents."""
        current = self.current
        if current is None:
            return None
        for table in current.playing:
            for position, ids in enumerate(table.player_ids):
                if player_id in ids and table.is_open:
                    others = [
                        name
                        for side, names in enumerate(table.names)
                        if side != position
                        for name in names
                    ]
                    return table, others
        return None


def _table_rows(rounds: Sequence[int]) -> list[Any]:
    """The tables of these rounds with their matches, as rows of values: one query."""
    tables = (
        EventTable.objects.filter(round_id__in=rounds)
        .order_by("round__number", "number")
        .values_list(
            "pk",
            "round_id",
            "number",
            "bye_id",
            "bye__name",
            "match_id",
            "match__status",
            "match__winner_position",
            "match__version",
            "match__hand_count",
            "match__last_hand",
            "match__outcome_kind",
        )
    )
    return list(tables)


def _seat_rows(event: Event, rounds: set[int]) -> list[Any]:
    """The seats of the matches of these rounds (player, side, total), as values: one query."""
    seats = (
        Seat.objects.filter(match__event=event, match__event_table__round_id__in=rounds)
        .order_by("match_id", "seat")
        .values_list("match_id", "side__position", "side__total", "player_id", "player__name")
    )
    return list(seats)


def _round_views(
    round_rows: Sequence[EventRound], tables: Sequence[Any], seats: Sequence[Any]
) -> list[RoundView]:
    """The rounds with their tables, players and totals, from `_table_rows` and `_seat_rows`."""
    by_match: dict[int, list[tuple[int, int, int, str]]] = {}
    for match_id, *seat in seats:
        by_match.setdefault(match_id, []).append(tuple(seat))
    views: dict[int, list[TableView]] = {row.pk: [] for row in round_rows}
    for pk, round_id, number, bye_id, bye_name, match_id, *match in tables:
        view = TableView(number, TableRow(pk, number))
        if bye_id is not None:
            view.bye = PlayerRow(bye_id, bye_name)
        if match_id is not None:
            view.match = MatchRow(match_id, *match)
            seated = by_match.get(match_id, [])
            sides = len({position for position, *_rest in seated})
            view.player_ids = [[] for _ in range(sides)]
            view.names = [[] for _ in range(sides)]
            view.totals = [0] * sides
            for position, total, player_id, name in seated:
                view.player_ids[position].append(player_id)
                view.names[position].append(name)
                view.totals[position] = total
        views[round_id].append(view)
    return [RoundView(row, views[row.pk]) for row in round_rows]


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
