"""An event as its writers and its page read it: who plays, the rounds with their tables, players
and totals, the results and the pairing history, the standings' rows. Pairing a round and
exporting an event build it; the page (events.selectors.EventPage) is built over it and adds what
only a page needs (its cache keys, the reader's table, the standings' lines, links)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from scoring.engine import pairing, standings
from scoring.models import Event, EventRound, EventTable, Match, Seat

COUNTED = (Match.Status.WON, Match.Status.ABANDONED)
OPEN = (Match.Status.PLAYING, Match.Status.TIED)


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


class MatchRow(NamedTuple):
    """A table's match (read as values, not model instances: an event of 64 players has 200 of
    them)."""

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


@dataclass
class TableState:
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

    def fingerprint(self) -> str:
        """How the table stands, as the pairing of a later round saw it."""
        match = self.match
        if match is None:
            return "bye"
        return f"{match.status}:{match.winner_position}"


@dataclass
class RoundState:
    round: EventRound
    tables: list[TableState]

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def playing(self) -> list[TableState]:
        return [table for table in self.tables if table.match is not None]

    @property
    def byes(self) -> list[TableState]:
        return [table for table in self.tables if table.bye is not None]

    @property
    def unfinished(self) -> int:
        return sum(1 for table in self.tables if table.is_open)

    @property
    def time_called(self) -> bool:
        return self.round.time_called_at is not None


# How the seats of the rounds before the latest are read (the event, every round's table rows,
# the earlier rounds' ids): `seat_rows` by default; the pages keep them in a cache.
EarlierSeats = Callable[[Event, Sequence[Any], set[int]], list[Any]]


class EventState:
    """An event read once, the parts computed when first used."""

    def __init__(self, event: Event, *, earlier_seats: EarlierSeats | None = None) -> None:
        self.event = event
        self._earlier_seats = earlier_seats

    @cached_property
    def entrants(self) -> list[EntrantRow]:
        rows = self.event.entrants.order_by("order").values_list(
            "player_id", "order", "joined_round", "left_round", "player__name", "player__rating"
        )
        return [EntrantRow(*row) for row in rows]

    @cached_property
    def rounds(self) -> list[RoundState]:
        """Every round with its tables, their players and totals; none read until first asked,
        so a page whose parts are already rendered reads nothing. The rounds' rows, their tables
        (one query), the earlier rounds' seats (one query, or `earlier_seats`: a page's cache),
        the latest round's (one query)."""
        event = self.event
        # Without what each round was paired from (a JSON object): only the organiser's notice
        # reads it (changed_after_pairing).
        round_rows = list(event.round_set.order_by("number").defer("paired_from"))
        if not round_rows:
            return []
        *earlier_rows, latest = round_rows
        tables = _table_rows([row.pk for row in round_rows])
        earlier = {row.pk for row in earlier_rows}
        seats = self._seats_before(tables, earlier) if earlier else []
        seats = [*seats, *seat_rows(event, {latest.pk})]
        return _round_states(round_rows, tables, seats)

    def _seats_before(self, tables: Sequence[Any], earlier: set[int]) -> list[Any]:
        """The seats of the rounds before the latest (`earlier`, of these table rows)."""
        if self._earlier_seats is not None:
            return self._earlier_seats(self.event, tables, earlier)
        return seat_rows(self.event, earlier)

    @property
    def current(self) -> RoundState | None:
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


def seat_rows(event: Event, rounds: set[int]) -> list[Any]:
    """The seats of the matches of these rounds (player, side, total), as values: one query."""
    seats = (
        Seat.objects.filter(match__event=event, match__event_table__round_id__in=rounds)
        .order_by("match_id", "seat")
        .values_list("match_id", "side__position", "side__total", "player_id", "player__name")
    )
    return list(seats)


Seated = tuple[int, int, int, str]  # a seat of a match: side, total, player, name


def _round_states(
    round_rows: Sequence[EventRound], tables: Sequence[Any], seats: Sequence[Any]
) -> list[RoundState]:
    """The rounds with their tables, players and totals, from `_table_rows` and `seat_rows`."""
    by_match: dict[int, list[Seated]] = {}
    for match_id, *seat in seats:
        by_match.setdefault(match_id, []).append(tuple(seat))
    views: dict[int, list[TableState]] = {row.pk: [] for row in round_rows}
    for pk, round_id, number, bye_id, bye_name, match_id, *match in tables:
        view = TableState(number, TableRow(pk, number))
        if bye_id is not None:
            view.bye = PlayerRow(bye_id, bye_name)
        if match_id is not None:
            view.match = MatchRow(match_id, *match)
            _seat(view, by_match.get(match_id, []))
        views[round_id].append(view)
    return [RoundState(row, views[row.pk]) for row in round_rows]


def _seat(view: TableState, seated: Sequence[Seated]) -> None:
    """The table's sides: their players (in seat order) and totals."""
    sides = len({position for position, *_rest in seated})
    view.player_ids = [[] for _ in range(sides)]
    view.names = [[] for _ in range(sides)]
    view.totals = [0] * sides
    for position, total, player_id, name in seated:
        view.player_ids[position].append(player_id)
        view.names[position].append(name)
        view.totals[position] = total
