"""Matches leaving and entering the app: export and import (share links: scoring/sharing/links.py).

Export and import speak the match JSON format ("casino-score/1", docs/MATCH_FORMAT.md)
through `matchdoc`. An import is scored by the engine and written in bulk with the derived
numbers `services.rescore` would store, so stored points and totals are always the engine's,
whatever `result` the file claims.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import matchdoc, rules
from scoring.engine.matchdoc import DocumentError, MatchDoc
from scoring.matches import bulk, ratings, seating
from scoring.models import Circle, Event, Hand, Match, Player, Seat, Side, Tally, name_key
from scoring.web import chunks

MAX_IMPORT_BYTES = 2 * 1024 * 1024


# --- export --------------------------------------------------------------------------------------


def _matches_for_export(circle: Circle | None) -> QuerySet[Match]:
    """Matches (oldest first, so an import re-creates them in the same order) with everything
    a document needs prefetched: five queries however many matches and hands."""
    matches = Match.objects.all() if circle is None else Match.objects.filter(circle=circle)
    return matches.order_by("created_at", "pk").prefetch_related(
        Prefetch("sides", queryset=Side.objects.order_by("position")),
        Prefetch("seats", queryset=Seat.objects.select_related("player", "side")),
        Prefetch(
            "hands",
            queryset=Hand.objects.order_by("number").prefetch_related(
                Prefetch("tallies", queryset=Tally.objects.order_by("side__position"))
            ),
        ),
    )


def _match_doc(match: Match) -> MatchDoc:
    """The document for a match whose sides, seats and hands are prefetched."""
    players = seating.players_by_side(match.seats.all())
    sides = list(match.sides.all())
    return MatchDoc(
        rules=match.rules,
        sides=tuple(tuple(players[side.position]) for side in sides),
        start_totals=tuple(side.start_total for side in sides),
        # (A match stored abandoned although its hands won it, as fixing a hand once left one,
        # is written as its hands decide it: the format has no abandoned match that was won.)
        abandoned=match.status == Match.Status.ABANDONED and match.winner_position is None,
        first_dealer=match.first_dealer_seat,
        hands=tuple(
            tuple(tally.as_rules_tally() for tally in hand.tallies.all())
            for hand in match.hands.all()
        ),
        last_hand=match.last_hand,
        paper=_paper(match, sides),
        quick=frozenset(hand.number for hand in match.hands.all() if hand.quick),
    )


def _paper(match: Match, sides: Sequence[Side]) -> rules.Paper | None:
    """A match played on paper: its result as entered."""
    if not match.on_paper or match.winner_position is None:
        return None
    return rules.Paper(tuple(side.total for side in sides), match.winner_position)


def iter_match_documents(
    circle: Circle | None, *, pks: Iterable[int] | None = None
) -> Iterator[MatchDoc]:
    """The circle's matches (everyone's when circle is None) as match documents, oldest first,
    abandoned ones with their hands and `abandoned` true: read from the database in chunks of
    chunks.PREFETCH_CHUNK matches (five queries a chunk), one document at a time."""
    matches = _matches_for_export(circle)
    if pks is not None:
        matches = matches.filter(pk__in=list(pks))
    for match in matches.iterator(chunk_size=chunks.PREFETCH_CHUNK):
        yield _match_doc(match)


def documents_by_pk(pks: Iterable[int]) -> dict[int, MatchDoc]:
    """These matches' documents, by match pk (an event's tables)."""
    matches = _matches_for_export(None).filter(pk__in=list(pks))
    return {
        match.pk: _match_doc(match) for match in matches.iterator(chunk_size=chunks.PREFETCH_CHUNK)
    }


def match_documents(circle: Circle | None, *, pks: Iterable[int] | None = None) -> list[MatchDoc]:
    """`iter_match_documents`, as a list."""
    return list(iter_match_documents(circle, pks=pks))


def export_json(docs: Sequence[MatchDoc], *, as_list: bool = True) -> list | dict:
    """The documents with `result` filled in: a list, or one object for one match."""
    documents = [matchdoc.match_json(doc) for doc in docs]
    if as_list:
        return documents
    (document,) = documents
    return document


EXPORT_INDENT = 2  # export files are pretty-printed (as they always were: easy to read and diff)


def export_chunks(docs: Iterable[MatchDoc], *, as_list: bool = True) -> Iterator[str]:
    """The text of an export file, a match at a time: the documents with `result` filled in, as
    a JSON list (or one object for one match), indented, ending with a newline.

    Nothing is held but the match being written: give it `iter_match_documents` and a history of
    any length is written in the memory of one match.
    """
    documents = (matchdoc.match_json(doc) for doc in docs)
    return matchdoc.json_chunks(documents, as_list=as_list, indent=EXPORT_INDENT)


# The points derived from the raw counts, in the columns' order since the CSV export began.
_CSV_POINTS = (
    "cards_points",
    "spades_points",
    "big_casino_points",
    "little_casino_points",
    "aces_points",
    "sweeps_points",
    "points",
    "total_after",
)
# Added at the end, so older spreadsheets keep their columns: Swedish Kasino's last capture and
# Spade Casino's J♠ (false and 0 in the other variants).
_CSV_VARIANT_COLUMNS = (
    *matchdoc.VARIANT_TALLY_KEYS,
    *(f"{name}_points" for name in matchdoc.VARIANT_TALLY_KEYS),
)
# A hand's side's columns, named as the Tally fields they are read from.
_CSV_TALLY_COLUMNS = (
    *matchdoc.TALLY_KEYS,  # the raw counts, as in the JSON format
    *_CSV_POINTS,  # the points derived from them
    *_CSV_VARIANT_COLUMNS,
)
_CSV_FLAGS = ("big_casino", "little_casino", *matchdoc.VARIANT_TALLY_KEYS)  # written 0 or 1
HAND_CSV_COLUMNS = ("match", "variant", "hand", "side", "players", *_CSV_TALLY_COLUMNS)
# A cell starting with one of these is run as a formula by spreadsheet programs. A spreadsheet may
# split a line on any of the separators (";" is the default in most of the locales this app
# speaks, TAB and "|" are offered on opening), so every piece after one is a cell start too; line
# breaks and TABs in a name become spaces (TAB is itself a separator).
_FORMULA_PIECE = re.compile(r"(^|[,;|\t\r\n])([ ]*)(?=[=+\-@])")
_BREAKS = re.compile(r"[\t\r\n\v\f]")


def csv_text(value: str) -> str:
    """A text cell no spreadsheet runs, whatever separator it splits the line on: a formula
    character at the start of the cell or after any separator gets a leading apostrophe."""
    return _BREAKS.sub(" ", _FORMULA_PIECE.sub(r"\1\2'", value))


class _Line:
    """A file for csv.writer that hands back what is written instead of keeping it."""

    def write(self, text: str) -> str:
        return text


def iter_hands_csv(circle: Circle, *, pk: int | None = None) -> Iterator[str]:
    """Every hand of the circle's matches (or of one) as CSV, a line at a time: one row per side
    per hand, with the raw counts and the stored points, matches oldest first. Column names are
    the format's keys, so they stay English.

    The matches are read in chunks of chunks.PREFETCH_CHUNK (two queries a chunk), so a history
    of any length is written in the memory of one chunk.
    """
    writer = csv.DictWriter(_Line(), HAND_CSV_COLUMNS, lineterminator="\r\n")
    yield writer.writeheader()
    for row in _hand_csv_rows(circle, pk):
        yield writer.writerow(row)


def _hand_csv_rows(circle: Circle, pk: int | None) -> Iterator[dict[str, Any]]:
    """The CSV's rows (HAND_CSV_COLUMNS) of the circle's matches, or of match `pk`."""
    matches = Match.objects.filter(circle=circle)
    if pk is not None:
        matches = matches.filter(pk=pk)
    pks = list(matches.order_by("created_at", "pk").values_list("pk", flat=True))
    for chunk in chunks.chunked(pks, chunks.PREFETCH_CHUNK):
        names = _side_player_names(chunk)
        rows = (
            Tally.objects.filter(hand__match_id__in=chunk)
            .order_by("hand__match__created_at", "hand__match_id", "hand__number", "side__position")
            .values_list(
                "hand__match_id",
                "hand__match__variant",
                "hand__number",
                "side__position",
                *_CSV_TALLY_COLUMNS,
            )
        )
        for match_id, variant, number, position, *values in rows:
            row = dict(zip(_CSV_TALLY_COLUMNS, values, strict=True))
            row.update((flag, int(row[flag])) for flag in _CSV_FLAGS)
            players = rules.side_name(names.get((match_id, position), []))
            yield {
                "match": match_id,
                "variant": variant,
                "hand": number,
                "side": position + 1,
                "players": csv_text(players),
                **row,
            }


def _side_player_names(pks: Sequence[int]) -> dict[tuple[int, int], list[str]]:
    """The players' names of each side of the matches, by (match pk, side position), in seat
    order."""
    names: dict[tuple[int, int], list[str]] = {}
    seats = Seat.objects.filter(match_id__in=pks).order_by("match_id", "seat")
    for match_id, position, name in seats.values_list("match_id", "side__position", "player__name"):
        names.setdefault((match_id, position), []).append(name)
    return names


def hands_csv(circle: Circle, *, pk: int | None = None) -> str:
    """`iter_hands_csv`, as one text."""
    return "".join(iter_hands_csv(circle, pk=pk))


# --- import --------------------------------------------------------------------------------------

# Limits of one import (docs/MATCH_FORMAT.md), checked before any match is read: an import that
# passes them is written in a few seconds, so five at once do not hold up the site.
MAX_IMPORT_MATCHES = 2_000
MAX_IMPORT_HANDS = 10_000  # in all the matches of the file together
# (A match holds at most matchdoc.MAX_HANDS hands; an upload is at most MAX_IMPORT_BYTES.)


class ImportRefused(ValueError):
    """Nothing was imported; `messages` says why, one line per problem (which match, which hand,
    what is off)."""

    def __init__(self, messages: Sequence[str]) -> None:
        super().__init__("; ".join(messages))
        self.messages = list(messages)


@dataclass(frozen=True)
class ImportResult:
    matches: list[Match]
    players_created: int


def _read(text: str, translate: Callable[[str], str]) -> list[tuple[MatchDoc, rules.MatchScore]]:
    try:
        return matchdoc.load_scored_documents(
            text, max_matches=MAX_IMPORT_MATCHES, max_hands=MAX_IMPORT_HANDS
        )
    except DocumentError as error:
        raise ImportRefused([problem.describe(translate) for problem in error.problems]) from None


def matches_import(
    *,
    circle: Circle,
    text: str,
    by: User | None = None,
    translate: Callable[[str], str] = _,
) -> ImportResult:
    """Create the matches of a match document (one object or a list), all or nothing.

    Every match and hand is checked first (limits, format, deck, no hand after the deciding
    one); one bad match and nothing is saved. Players are found by name, ignoring case, or added
    to the roster. `result` in the file is ignored: each match is scored by the engine, and
    stored with the same derived numbers `services.rescore` would give it.
    """
    scored = _read(text, translate)
    try:
        return _import_docs(circle, by, scored)
    except (ValidationError, DatabaseError, bulk.BulkRefused) as error:
        # Checked documents should always store; if the database still says no (a number too
        # big for a column, say), the transaction is rolled back and nothing is kept.
        detail = " ".join(getattr(error, "messages", [])) or error.__class__.__name__
        if isinstance(error, bulk.BulkRefused):
            detail = str(error)
        raise ImportRefused(
            [_("The matches could not be saved (%(detail)s).") % {"detail": detail}]
        ) from error


@transaction.atomic
def _import_docs(
    circle: Circle,
    by: User | None,
    scored: Sequence[tuple[MatchDoc, rules.MatchScore]],
) -> ImportResult:
    """Write the checked documents, with the scores worked out while checking them, by
    `bulk.matches_create` (a fixed number of bulk inserts per chunk of matches, the statistics
    brought up to date), then rate the won ones."""
    known = Player.objects.filter(circle=circle).count()
    known_names = roster(
        circle, (name for doc, _score in scored for names in doc.sides for name in names)
    )
    now = timezone.now()
    pks = bulk.matches_create(
        circle, (new_match(doc, score, known_names, now) for doc, score in scored), by=by
    )
    matches = _matches(pks)
    ratings.rate_imported(
        circle, [match for match in matches if match.status == Match.Status.WON], now
    )
    return ImportResult(matches, Player.objects.filter(circle=circle).count() - known)


def new_match(
    doc: MatchDoc,
    score: rules.MatchScore,
    players: Mapping[str, Player],
    finished_at: datetime,
    event: Event | None = None,
) -> bulk.NewMatch:
    """The match of a checked document, for bulk.matches_create: its players found by name key
    in `players` (see `roster`), scored as checked, of `event` if given (an event's table)."""
    return bulk.NewMatch(
        rules=doc.rules,
        sides=[[players[name_key(name)] for name in names] for names in doc.sides],
        hands=doc.hands,
        start_totals=doc.start_totals,
        first_dealer=doc.first_dealer,
        abandoned=doc.abandoned,
        finished_at=finished_at,
        score=score,
        last_hand=doc.last_hand,
        event=event,
        quick=doc.quick,
    )


def _matches(pks: Sequence[int]) -> list[Match]:
    """The matches, in the order of `pks` (a few queries, however many)."""
    by_pk: dict[int, Match] = {}
    for start in range(0, len(pks), chunks.PREFETCH_CHUNK):
        by_pk.update(Match.objects.in_bulk(pks[start : start + chunks.PREFETCH_CHUNK]))
    return [by_pk[pk] for pk in pks]


def roster(circle: Circle, names: Iterable[str]) -> dict[str, Player]:
    """The circle's players by name key (case-folded, any script), with the new names added."""
    known = {player.name_key: player for player in Player.objects.filter(circle=circle)}
    new: dict[str, Player] = {}
    for name in names:
        key = name_key(name)
        if key not in known and key not in new:
            new[key] = Player(circle=circle, name=name, name_key=key)
    if new:
        # A name added meanwhile by another request is left as it is, and used.
        Player.objects.bulk_create(new.values(), ignore_conflicts=True)
        known = {player.name_key: player for player in Player.objects.filter(circle=circle)}
    return known
