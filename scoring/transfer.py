"""Matches leaving and entering the app: read-only share links, export and import.

Export and import speak the match JSON format ("casino-score/1", docs/MATCH_FORMAT.md)
through `matchdoc`; imported hands go through the services' re-scoring, so stored points and
totals are always the engine's, whatever `result` the file claims.
"""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring import matchdoc, rules, selectors, services
from scoring.matchdoc import DocumentError, MatchDoc
from scoring.models import Hand, Match, Player, Seat, Side, Tally

# 32 random bytes from the OS's CSPRNG: 43 URL-safe characters, 256 bits nobody can guess.
SHARE_TOKEN_BYTES = 32
MAX_IMPORT_BYTES = 2 * 1024 * 1024


# --- share links ---------------------------------------------------------------------------------


@transaction.atomic
def share_link_create(*, match: Match) -> Match:
    """Give the match a read-only share token; a match already shared keeps its token."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if not match.share_token:
        match.share_token = secrets.token_urlsafe(SHARE_TOKEN_BYTES)
        match.save(update_fields=["share_token"])
    return match


@transaction.atomic
def share_link_revoke(*, match: Match) -> Match:
    """Forget the share token: the old link stops working, and a new link gets a new token."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.share_token is not None:
        match.share_token = None
        match.save(update_fields=["share_token"])
    return match


def match_for_share_token(token: str) -> Match:
    """The match shared under `token`, or 404 (a revoked or wrong token shows nothing)."""
    if not token:
        raise Http404
    return get_object_or_404(Match, share_token=token)


# --- export --------------------------------------------------------------------------------------


def _matches_for_export(owner: AbstractBaseUser | None) -> QuerySet[Match]:
    """Matches (oldest first, so an import re-creates them in the same order) with everything
    a document needs prefetched: five queries however many matches and hands."""
    matches = Match.objects.all() if owner is None else Match.objects.filter(owner=owner)
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
    players = selectors.players_by_side(match.seats.all())
    sides = list(match.sides.all())
    return MatchDoc(
        rules=match.rules,
        sides=tuple(tuple(players[side.position]) for side in sides),
        start_totals=tuple(side.start_total for side in sides),
        hands=tuple(
            tuple(tally.as_rules_tally() for tally in hand.tallies.all())
            for hand in match.hands.all()
        ),
    )


def match_documents(
    owner: AbstractBaseUser | None, *, pks: Iterable[int] | None = None
) -> list[MatchDoc]:
    """The owner's matches (everyone's when owner is None) as match documents, oldest first.

    Abandoned matches are exported with their hands: the format has no "abandoned".
    """
    matches = _matches_for_export(owner)
    if pks is not None:
        matches = matches.filter(pk__in=list(pks))
    return [_match_doc(match) for match in matches.iterator(chunk_size=services.PREFETCH_CHUNK)]


def export_json(docs: Sequence[MatchDoc], *, as_list: bool = True) -> list | dict:
    """The documents with `result` filled in: a list, or one object for one match."""
    documents = [matchdoc.match_json(doc) for doc in docs]
    if as_list:
        return documents
    (document,) = documents
    return document


HAND_CSV_COLUMNS = (
    "match",
    "variant",
    "hand",
    "side",
    "players",
    *matchdoc.TALLY_KEYS,  # the raw counts, as in the JSON format
    *services.DERIVED_TALLY_FIELDS,  # the points derived from them
)
# A cell starting with one of these is run as a formula by spreadsheet programs.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_text(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_START) else value


def hands_csv(owner: AbstractBaseUser, *, pk: int | None = None) -> str:
    """Every hand of the owner's matches (or of one) as CSV: one row per side per hand, with the
    raw counts and the stored points. Column names are the format's keys, so they stay English."""
    tallies = Tally.objects.filter(hand__match__owner=owner).select_related("hand__match", "side")
    seats = Seat.objects.filter(match__owner=owner).select_related("player", "side")
    if pk is not None:
        tallies, seats = tallies.filter(hand__match_id=pk), seats.filter(match_id=pk)
    names: dict[tuple[int, int], list[str]] = {}
    for seat in seats.order_by("match_id", "seat"):
        names.setdefault((seat.match_id, seat.side.position), []).append(seat.player.name)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HAND_CSV_COLUMNS)
    ordered = tallies.order_by(
        "hand__match__created_at", "hand__match_id", "hand__number", "side__position"
    )
    for tally in ordered:
        match = tally.hand.match
        writer.writerow(
            [
                match.pk,
                match.variant,
                tally.hand.number,
                tally.side.position + 1,
                _csv_text(" & ".join(names.get((match.pk, tally.side.position), []))),
                tally.cards,
                tally.spades,
                int(tally.big_casino),
                int(tally.little_casino),
                tally.aces,
                tally.sweeps,
                tally.cards_points,
                tally.spades_points,
                tally.big_casino_points,
                tally.little_casino_points,
                tally.aces_points,
                tally.sweeps_points,
                tally.points,
                tally.total_after,
            ]
        )
    return out.getvalue()


# --- import --------------------------------------------------------------------------------------


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


def _read(text: str, translate: Callable[[str], str]) -> list[MatchDoc]:
    try:
        docs, _is_list = matchdoc.load_document(text)
    except DocumentError as error:
        raise ImportRefused([problem.describe(translate) for problem in error.problems]) from None
    return docs


def matches_import(
    *, owner: AbstractBaseUser, text: str, translate: Callable[[str], str] = _
) -> ImportResult:
    """Create the matches of a match document (one object or a list), all or nothing.

    Every match and hand is checked first (format, deck, no hand after the deciding one); one bad
    match and nothing is saved. Players are found by name, ignoring case, or added to the roster.
    `result` in the file is ignored: the services re-score every match.
    """
    docs = _read(text, translate)
    try:
        return _import_docs(owner, docs)
    except (ValidationError, DatabaseError) as error:
        # Checked documents should always store; if the database still says no (a number too
        # big for a column, say), the transaction is rolled back and nothing is kept.
        detail = " ".join(getattr(error, "messages", [])) or error.__class__.__name__
        raise ImportRefused(
            [_("The matches could not be saved (%(detail)s).") % {"detail": detail}]
        ) from error


@transaction.atomic
def _import_docs(owner: AbstractBaseUser, docs: Sequence[MatchDoc]) -> ImportResult:
    # Names are compared here, in Python, ignoring case the Unicode way ("Émile" is "ÉMILE"),
    # which SQLite's LIKE and LOWER() do only for ASCII letters.
    roster = {player.name.casefold(): player for player in Player.objects.filter(owner=owner)}
    known = Player.objects.filter(owner=owner).count()
    matches = [_import_doc(owner, doc, roster) for doc in docs]
    return ImportResult(matches, Player.objects.filter(owner=owner).count() - known)


def _import_doc(owner: AbstractBaseUser, doc: MatchDoc, roster: dict[str, Player]) -> Match:
    sides = []
    for names in doc.sides:
        players = []
        for name in names:
            key = name.casefold()
            if key not in roster:
                roster[key] = services.player_get_or_create(owner=owner, name=name)
            players.append(roster[key])
        sides.append(players)
    match_rules = doc.rules
    match = services.match_start(
        owner=owner,
        variant=match_rules.variant,
        sides=sides,
        first_dealer_seat=0,  # the format does not say who dealt first
        target=match_rules.target,
        sweeps=match_rules.sweeps,
        several_reach=match_rules.several_reach,
        scoring=match_rules.scoring,
        twenty_needs=match_rules.twenty_needs,
        start_totals=doc.start_totals,
    )
    if doc.hands:
        _hands_insert(match, doc.hands)
        services.rescore(match)
    return match


def _hands_insert(match: Match, hands: Sequence[Sequence[rules.Tally]]) -> None:
    """Insert the hands and their raw counts in two queries; `services.rescore` derives the rest."""
    players = match.seats.count()
    match_rules = match.rules
    rows = Hand.objects.bulk_create(
        Hand(
            match=match,
            number=index + 1,
            dealer_seat=rules.table_turn(
                match_rules,
                players=players,
                first_dealer=match.first_dealer_seat,
                hand_index=index,
            ).dealer_seat,
        )
        for index in range(len(hands))
    )
    services.tallies_create(match=match, hands=rows, tallies=hands)
