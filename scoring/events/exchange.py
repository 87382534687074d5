"""An event as a file: JSON (the match documents of its tables, the pairings and the standings)
and CSV (its tables' results, its standings); a JSON file imported into another circle, all or
nothing."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import matchdoc, standings
from scoring.engine.matchdoc import DocumentError, MatchDoc
from scoring.events import services as events
from scoring.events.fields import MAX_PLAYERS, MAX_ROUNDS
from scoring.events.state import EventState
from scoring.matches import bulk, ratings
from scoring.models import (
    Circle,
    Event,
    EventPlayer,
    EventRound,
    EventTable,
    Match,
    Player,
    name_key,
)
from scoring.sharing import exchange
from scoring.sharing.exchange import ImportRefused

FORMAT = "casino-event"
VERSION = 1
NAME_KEY_LENGTH = int(Player._meta.get_field("name_key").max_length or 0)
# Limits of one event file, checked before any table is read (the upload form checks the size
# too, before it reads the file): an import within them is written in a few seconds, so a few
# at once do not hold up the site's workers. 300 tables: 40 players for 15 rounds, 128 for 4.
MAX_IMPORT_BYTES = exchange.MAX_IMPORT_BYTES
MAX_IMPORT_TABLES = 300
MAX_IMPORT_HANDS = exchange.MAX_IMPORT_HANDS  # in all the tables together, as a match file's


def event_json(event: Event) -> dict[str, Any]:
    state = EventState(event)
    pairings = _pairings_json(state)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": event.name,
        "date": event.date.isoformat(),
        "event_format": event.format,
        "seeding": event.seeding,
        "rounds": event.rounds,
        "round_minutes": event.round_minutes,
        "rules": matchdoc.rules_json(event.rules),
        "players": [
            {
                "name": entrant.player.name,
                "joined_round": entrant.joined_round,
                "left_round": entrant.left_round,
            }
            for entrant in state.entrants
        ],
        "pairings": pairings,
        "standings": [
            {
                "place": row.place,
                "name": name,
                "match_points": row.match_points,
                "played": row.played,
                "byes": row.byes,
                "head_to_head": row.head_to_head,
                "difference": row.difference,
                "opponents": row.opponents,
                "scored": row.scored,
            }
            for name, row in _standings(state)
        ],
    }


def _pairings_json(state: EventState) -> list[dict[str, Any]]:
    """Every round: its tables (their matches' documents, read at once) and its byes."""
    match_pks = [table.match.pk for view in state.rounds for table in view.playing if table.match]
    documents = exchange.documents_by_pk(match_pks)
    return [
        {
            "round": view.number,
            "time_called": view.time_called,
            "tables": [
                {"table": table.number, "match": matchdoc.match_json(documents[table.match.pk])}
                for table in view.playing
                if table.match is not None
            ],
            "byes": [table.bye.name for table in view.byes if table.bye is not None],
        }
        for view in state.rounds
    ]


def _standings(state: EventState) -> list[tuple[str, standings.Row]]:
    """The standings' rows, each with its player's name."""
    names = {entrant.player_id: entrant.player.name for entrant in state.entrants}
    return [(names[row.player], row) for row in state.standing_rows()]


RESULT_COLUMNS = ("round", "table", "side_1", "side_2", "total_1", "total_2", "result")
STANDING_COLUMNS = (
    "place",
    "player",
    "match_points",
    "played",
    "byes",
    "head_to_head",
    "difference",
    "opponents",
    "scored",
)


def event_csv(event: Event) -> str:
    """The standings, then (after an empty line) every table's result: column names stay
    English, as in the match CSV; names are made safe for spreadsheets."""
    state = EventState(event)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(STANDING_COLUMNS)
    for name, row in _standings(state):
        writer.writerow(
            [
                row.place,
                exchange.csv_text(name),
                row.match_points,
                row.played,
                row.byes,
                row.head_to_head,
                row.difference,
                row.opponents,
                row.scored,
            ]
        )
    writer.writerow([])
    writer.writerow(RESULT_COLUMNS)
    for view in state.rounds:
        for table in view.tables:
            if table.bye is not None:
                writer.writerow(
                    [view.number, "", exchange.csv_text(table.bye.name), "", "", "", "bye"]
                )
                continue
            match = table.match
            assert match is not None
            if match.status == Match.Status.WON:
                result = f"side {(match.winner_position or 0) + 1} won"
            else:
                result = str(match.status)
            names = [exchange.csv_text(name) for name in table.side_names]
            writer.writerow([view.number, table.number, *names, *table.totals, result])
    return out.getvalue()


# --- import --------------------------------------------------------------------------------------


class _Problems:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def add(self, message: str) -> None:
        self.messages.append(message)


def _integer(raw: Any, least: int, most: int) -> int | None:
    if isinstance(raw, bool) or not isinstance(raw, int) or not least <= raw <= most:
        return None
    return raw


def _text(raw: Any, most: int) -> str | None:
    if not isinstance(raw, str) or not raw.strip() or len(raw) > most or "\x00" in raw:
        return None
    if matchdoc.bad_text(raw):
        return None
    return raw.strip()


def _read_rules(raw: Any, problems: _Problems, translate: Callable[[str], str]) -> Any:
    """The event's rules, read by the match format's own reader (a match of no hands)."""
    try:
        doc = matchdoc.read_match(
            {
                "format": matchdoc.FORMAT,
                "rules": raw,
                "sides": [{"players": ["A"]}, {"players": ["B"]}],
                "hands": [],
            }
        )
    except DocumentError as error:
        for problem in error.problems:
            problems.add(
                _("The event's rules: %(problem)s") % {"problem": problem.describe(translate)}
            )
        return None
    return doc.rules


def event_import(
    *, circle: Circle, text: str, by: User | None = None, translate: Callable[[str], str] = _
) -> Event:
    """Create the event of an export file in `circle`: its players (by name, ignoring case, or
    added), rounds, tables (their matches as a match import makes them) and byes. Everything is
    checked first; one problem and nothing is stored (ImportRefused lists them)."""
    raw = _parse(text, translate)
    problems = _Problems()
    read = _read(raw, problems, translate)
    if problems.messages:
        raise ImportRefused(problems.messages)
    try:
        return _store(circle, by, read)
    except ValidationError as error:  # what the setup form would refuse (too few players...)
        raise ImportRefused(error.messages) from None
    except (DatabaseError, bulk.BulkRefused) as error:
        raise ImportRefused(
            [_("The event could not be saved (%(detail)s).") % {"detail": error.__class__.__name__}]
        ) from error


def _parse(text: str, translate: Callable[[str], str]) -> dict[str, Any]:
    """The file's JSON object, refused at once (before any of it is read) when it is too large,
    not JSON, not an event file, or holds too many tables or hands."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_IMPORT_BYTES:
        raise ImportRefused([too_large_message()])
    try:
        raw = matchdoc.parse_json(text)
    except DocumentError as error:
        raise ImportRefused([p.describe(translate) for p in error.problems]) from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ImportRefused(
            [
                _("This is not an event file of this app (its format is not %(format)s).")
                % {"format": FORMAT}
            ]
        )
    tables, hands = _size(raw.get("pairings"))
    if tables > MAX_IMPORT_TABLES:
        raise ImportRefused(
            [
                _("Tables in this event file: %(count)d. One import can hold at most %(limit)d.")
                % {"count": tables, "limit": MAX_IMPORT_TABLES}
            ]
        )
    if hands > MAX_IMPORT_HANDS:
        raise ImportRefused(
            [
                _("Hands in this event file: %(count)d. One import can hold at most %(limit)d.")
                % {"count": hands, "limit": MAX_IMPORT_HANDS}
            ]
        )
    return raw


@dataclass
class _Read:
    """An event file, read: each part None (or empty) where it is wrong, its problem listed."""

    name: str | None
    day: date | None
    fmt: Any
    seeding: Any
    rounds: int | None
    minutes: Any
    rules: Any
    entrants: list[tuple[str, int, int | None]]
    pairings: list[Pairing]


def _read(raw: dict[str, Any], problems: _Problems, translate: Callable[[str], str]) -> _Read:
    """Every part of the file, checked in the order its problems are listed."""
    if raw.get("version") != VERSION:
        problems.add(_("This event file's version is not %(version)d.") % {"version": VERSION})
    name, day = _read_name_and_date(raw, problems)
    fmt, seeding = _read_format(raw, problems)
    rounds, minutes = _read_rounds(raw, problems)
    event_rules = _read_rules(raw.get("rules"), problems, translate)
    entrants = _read_players(raw.get("players"), rounds or MAX_ROUNDS, problems)
    pairings = _read_pairings(
        raw.get("pairings"),
        entrants,
        rounds or MAX_ROUNDS,
        problems,
        translate,
        fmt=fmt,
        event_rules=event_rules,
    )
    return _Read(name, day, fmt, seeding, rounds, minutes, event_rules, entrants, pairings)


def _read_name_and_date(raw: dict[str, Any], problems: _Problems) -> tuple[str | None, date | None]:
    name = _text(raw.get("name"), 80)
    if name is None:
        problems.add(_("The event needs a name of at most %(count)d characters.") % {"count": 80})
    try:
        day = date.fromisoformat(str(raw.get("date")))
    except ValueError:
        day = None
        problems.add(_("The event's date is not a date (YYYY-MM-DD)."))
    return name, day


def _read_format(raw: dict[str, Any], problems: _Problems) -> tuple[Any, Any]:
    """The event's format and round 1's seeding (as the file says them)."""
    fmt = raw.get("event_format")
    if fmt not in Event.Format.values:
        problems.add(
            _("The event's format is not one of: %(formats)s.")
            % {"formats": ", ".join(Event.Format.values)}
        )
    seeding = raw.get("seeding", Event.Seeding.RATING)
    if seeding not in Event.Seeding.values:
        problems.add(
            _("Round 1's seeding is not one of: %(values)s.")
            % {"values": ", ".join(Event.Seeding.values)}
        )
    return fmt, seeding


def _read_rounds(raw: dict[str, Any], problems: _Problems) -> tuple[int | None, Any]:
    """The event's rounds and their time in minutes (None: no time limit)."""
    rounds = _integer(raw.get("rounds"), 1, MAX_ROUNDS)
    if rounds is None:
        problems.add(
            _("The number of rounds is not a whole number from 1 to %(most)d.")
            % {"most": MAX_ROUNDS}
        )
    minutes = raw.get("round_minutes")
    if minutes is not None and _integer(minutes, 5, 600) is None:
        problems.add(_("The round time is not a whole number of minutes from 5 to 600."))
    return rounds, minutes


def too_large_message() -> str:
    return _("This file is larger than %(limit)s, the most that can be imported at once.") % {
        "limit": filesizeformat(MAX_IMPORT_BYTES)
    }


def _size(raw: Any) -> tuple[int, int]:
    """The tables of a file's pairings and their hands, counted before any is read."""
    tables = _tables_of(raw)
    matches = [table.get("match") for table in tables if isinstance(table, dict)]
    hands = [match.get("hands") for match in matches if isinstance(match, dict)]
    return len(tables), sum(len(some) for some in hands if isinstance(some, list))


def _tables_of(raw: Any) -> list[Any]:
    """The tables of a file's pairings, whatever they hold."""
    return [
        table
        for item in (raw if isinstance(raw, list) else [])
        if isinstance(item, dict) and isinstance(item.get("tables"), list)
        for table in item["tables"]
    ]


def _read_players(raw: Any, rounds: int, problems: _Problems) -> list[tuple[str, int, int | None]]:
    if not isinstance(raw, list) or not raw or len(raw) > MAX_PLAYERS:
        problems.add(
            _("The event's players are not a list of 1 to %(count)d players.")
            % {"count": MAX_PLAYERS}
        )
        return []
    entrants: list[tuple[str, int, int | None]] = []
    seen: set[str] = set()
    for index, item in enumerate(raw, start=1):
        entrant = _read_player(item if isinstance(item, dict) else {}, rounds)
        if entrant is None:
            problems.add(
                _("Player %(number)d of the event is not a name with its rounds.")
                % {"number": index}
            )
            continue
        name = entrant[0]
        if name_key(name) in seen:
            problems.add(_("%(name)s is listed twice.") % {"name": name})
        seen.add(name_key(name))
        entrants.append(entrant)
    return entrants


def _read_player(item: dict[str, Any], rounds: int) -> tuple[str, int, int | None] | None:
    """A player of the file: their name, the round they joined and the one they left (None:
    they play on), or None when one of these is wrong."""
    name = _text(item.get("name"), 60)
    joined = _integer(item.get("joined_round", 1), 1, rounds + 1)
    left = item.get("left_round")
    if name is not None and len(name_key(name)) > NAME_KEY_LENGTH:
        name = None  # too long once case-folded ("ß" is "ss"): it would not fit its column
    if (
        name is None
        or joined is None
        or (left is not None and _integer(left, 1, rounds + 1) is None)
    ):
        return None
    return name, joined, left


Pairing = tuple[int, bool, list[tuple[int, MatchDoc, Any]], list[str]]


def _read_pairings(
    raw: Any,
    entrants: Sequence[tuple[str, int, int | None]],
    rounds: int,
    problems: _Problems,
    translate: Callable[[str], str],
    *,
    fmt: Any,
    event_rules: Any,
) -> list[Pairing]:
    """The rounds of a file, each as the app pairs one: tables of the event's rules, two sides
    of the format's size, the players of that round (joined by then, not left), at most the
    format's byes."""
    if not isinstance(raw, list) or len(raw) > rounds:
        problems.add(
            _("The event's pairings are not a list of at most %(count)d rounds.")
            % {"count": rounds}
        )
        return []
    reader = _RoundReader(
        entrants,
        problems,
        translate,
        partners=fmt == Event.Format.PARTNERS,
        event_rules=event_rules,
    )
    read: list[Pairing] = []
    for number, item in enumerate(raw, start=1):
        found = reader.round(number, item if isinstance(item, dict) else {})
        if found is not None:
            read.append(found)
    return read


class _RoundReader:
    """Reads a file's rounds in turn: their tables (the matches numbered across the rounds, as
    a match file's problems number them) and byes, each player seated once a round."""

    def __init__(
        self,
        entrants: Sequence[tuple[str, int, int | None]],
        problems: _Problems,
        translate: Callable[[str], str],
        *,
        partners: bool,
        event_rules: Any,
    ) -> None:
        self.known = {name_key(name): (joined, left) for name, joined, left in entrants}
        self.problems = problems
        self.translate = translate
        self.partners = partners
        self.event_rules = event_rules
        self.index = 0  # the next table's match, counted over every round

    def round(self, number: int, item: dict[str, Any]) -> Pairing | None:
        """Round `number`, or None when it is missing or has no list of tables."""
        problems = self.problems
        if item.get("round") != number:
            problems.add(_("Round %(number)d is missing or out of order.") % {"number": number})
            return None
        raw_tables = item.get("tables")
        if not isinstance(raw_tables, list):
            problems.add(_("Round %(number)d has no list of tables.") % {"number": number})
            return None
        if not raw_tables:
            problems.add(_("Round %(number)d has no table.") % {"number": number})
        seated: set[str] = set()
        tables = []
        for table_number, table in enumerate(raw_tables, start=1):
            found = self._table(number, table_number, table, seated)
            if found is not None:
                tables.append(found)
        byes = self._byes(number, item, seated)
        return (number, bool(item.get("time_called", False)), tables, byes)

    def _table(
        self, number: int, table_number: int, table: Any, seated: set[str]
    ) -> tuple[int, MatchDoc, Any] | None:
        """A table of round `number`: its match, or None when its document is wrong."""
        table = table if isinstance(table, dict) else {}
        index = self.index
        self.index += 1
        try:
            doc, score = matchdoc.read_scored_match(table.get("match"), index)
        except DocumentError as error:
            for problem in error.problems:
                self.problems.add(
                    _("Round %(round)d, table %(table)d: %(problem)s")
                    % {
                        "round": number,
                        "table": table_number,
                        "problem": problem.describe(self.translate),
                    }
                )
            return None
        found = _table_problems(doc, partners=self.partners, event_rules=self.event_rules)
        for message in found:
            self.problems.add(message % {"round": number, "table": table_number})
        for names in doc.sides:
            for player in names:
                _seat(player, number, self.known, seated, self.problems)
        return (table_number, doc, score)

    def _byes(self, number: int, item: dict[str, Any], seated: set[str]) -> list[str]:
        """Round `number`'s byes: names, at most the format's (one; three for partners)."""
        byes = item.get("byes", [])
        if not isinstance(byes, list) or not all(isinstance(bye, str) for bye in byes):
            self.problems.add(
                _("Round %(number)d's byes are not a list of names.") % {"number": number}
            )
            byes = []
        if len(byes) > (3 if self.partners else 1):
            if self.partners:
                message = _("Round %(number)d has more than three byes.")
            else:
                message = _("Round %(number)d has more than one bye.")
            self.problems.add(message % {"number": number})
        for bye in byes:
            _seat(bye, number, self.known, seated, self.problems)
        return list(byes)


def _table_problems(doc: MatchDoc, *, partners: bool, event_rules: Any) -> list[str]:
    """What keeps a table's match from being one the event paired (messages to fill in with
    the round and the table): a match of the event's rules, from 0, two sides of the format's
    size (one player a side, two for partners)."""
    found = []
    if event_rules is not None and doc.rules != event_rules:
        found.append(_("Round %(round)d, table %(table)d is not played by the event's rules."))
    size = 2 if partners else 1
    if len(doc.sides) != 2 or any(len(side) != size for side in doc.sides):
        if partners:
            found.append(
                _("Round %(round)d, table %(table)d is not a table of two sides of two players.")
            )
        else:
            found.append(
                _("Round %(round)d, table %(table)d is not a table of two players, one a side.")
            )
    if any(doc.start_totals):
        found.append(_("Round %(round)d, table %(table)d does not start from 0."))
    return found


def _seat(
    name: str,
    number: int,
    known: dict[str, tuple[int, int | None]],
    seated: set[str],
    problems: _Problems,
) -> None:
    """A player at a table or with a bye in round `number`: one of the event's, playing in that
    round (joined by then and not left), once a round."""
    key = name_key(name)
    joined, left = known.get(key, (0, None))
    if key not in known:
        problems.add(
            _("Round %(round)d: %(name)s is not a player of the event.")
            % {"round": number, "name": name}
        )
    elif number < joined:
        problems.add(
            _("Round %(round)d: %(name)s plays, but joins the event in round %(joined)d.")
            % {"round": number, "name": name, "joined": joined}
        )
    elif left is not None and number >= left:
        problems.add(
            _("Round %(round)d: %(name)s plays, but left the event before round %(left)d.")
            % {"round": number, "name": name, "left": left}
        )
    elif key in seated:
        problems.add(
            _("Round %(round)d: %(name)s plays at two tables.") % {"round": number, "name": name}
        )
    seated.add(key)


@transaction.atomic
def _store(circle: Circle, by: User | None, read: _Read) -> Event:
    assert read.name is not None and read.day is not None
    assert read.rounds is not None and read.rules is not None
    players = exchange.roster(circle, (entrant[0] for entrant in read.entrants))
    # Made as the setup form makes one (its checks too), then who joined late or left.
    event = events.event_create(
        circle=circle,
        by=by,
        name=read.name,
        day=read.day,
        fmt=str(read.fmt),
        rules=read.rules,
        players=[players[name_key(entrant)] for entrant, _joined, _left in read.entrants],
        rounds=read.rounds,
        seeding=str(read.seeding),
        round_minutes=read.minutes,
    )
    for order, (_entrant, joined, left) in enumerate(read.entrants):
        if joined != 1 or left is not None:
            EventPlayer.objects.filter(event=event, order=order).update(
                joined_round=joined, left_round=left
            )
    now = timezone.now()
    for pairing in read.pairings:
        _store_round(event, pairing, players, now, by)
    won = list(Match.objects.filter(event=event, status=Match.Status.WON).order_by("pk"))
    ratings.rate_imported(circle, won, now)
    return event


def _store_round(
    event: Event, pairing: Pairing, players: dict[str, Player], now: datetime, by: User | None
) -> None:
    """A round of the file: its matches at once (as a match import makes them), then its byes."""
    number, time_called, tables, byes = pairing
    made = EventRound.objects.create(
        event=event, number=number, time_called_at=now if time_called else None
    )
    pks = bulk.matches_create(
        event.circle,
        (exchange.new_match(doc, score, players, now, event) for _n, doc, score in tables),
        by=by,
    )
    EventTable.objects.bulk_create(
        EventTable(round=made, number=index, match_id=pk) for index, pk in enumerate(pks, start=1)
    )
    EventTable.objects.bulk_create(
        EventTable(round=made, number=len(pks) + index, bye=players[name_key(bye)])
        for index, bye in enumerate(byes, start=1)
    )
