"""Many matches written at once (demo data, imports): scored in memory by the engine and stored
in a fixed number of bulk inserts per chunk, with exactly the rows and derived numbers that
starting each match and recording its hands one by one through `services` would store.

Ratings are left to the caller: replay them once at the end (`ratings.recompute`),
since they depend on the order in which every match of the circle finished.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from scoring.engine import rules
from scoring.engine.rules import MatchScore
from scoring.engine.rules import Tally as HandTally  # models.Tally is the stored row
from scoring.matches import stats
from scoring.matches.inserts import insert_rows
from scoring.models import Circle, Event, Hand, Match, Player, Seat, Side, Tally

# Matches per round of inserts: a chunk's rows are kept in memory until written.
CHUNK = 500


@dataclass(frozen=True)
class NewMatch:
    """A match to write: its rules, who sits on each side (seats alternate sides, so partners
    sit opposite: `rules.Lineup`, as `services.match_start` seats them), its hands, and when it happened.

    `created_at` defaults to now; `finished_at` to now for a won or abandoned match (and is
    ignored for a match still playing). An abandoned match keeps the hands it has.
    """

    rules: rules.Rules
    sides: Sequence[Sequence[Player]]
    hands: Sequence[Sequence[HandTally]] = ()
    start_totals: Sequence[int] | None = None
    first_dealer: int = 0
    abandoned: bool = False
    created_at: datetime | None = None
    finished_at: datetime | None = None
    # A table of an event's timed round (see Match.last_hand and Match.event).
    last_hand: int | None = None
    event: Event | None = None
    # The engine's score of these hands, when the caller has already checked and scored them
    # (an import reads each match that way): it is not worked out twice.
    score: MatchScore | None = None
    # The numbers of the hands entered as who took most (RULES.md §7.1).
    quick: frozenset[int] = frozenset()


class BulkRefused(ValueError):
    """A match could not be written: the message says which and why."""


def matches_create(circle: Circle, new: Iterable[NewMatch], *, by: User | None = None) -> list[int]:
    """Write the matches, all or nothing, and bring the players' statistics up to date;
    returns the new matches' pks. `new` is read a chunk at a time (a generator keeps memory
    flat, however many matches).

    Each match is stored as `services` would store it: the same Match, Side, Seat, Hand and
    Tally rows, the engine's points and totals, status, winner and outcome, and the version the
    scoreboard would have reached (one for the start, one per hand, one for abandoning).
    Raises BulkRefused (a programming error: callers check what they are given first) for
    players that do not make a table, a hand that does not add up, or a hand after the
    deciding one.
    """
    new = iter(new)
    created: list[int] = []
    with transaction.atomic():
        while chunk := list(islice(new, CHUNK)):
            created += [match.pk for match in _create_chunk(circle, by, chunk, len(created))]
        stats.player_summaries_refresh(created)
    return created


def _create_chunk(
    circle: Circle, by: User | None, new: Sequence[NewMatch], offset: int
) -> list[Match]:
    """Score and insert one chunk of matches: a bulk insert per table."""
    now = timezone.now()
    scores = [spec.score or _score(spec, offset + index) for index, spec in enumerate(new)]
    matches = Match.objects.bulk_create(
        _match_row(circle, by, spec, score, now) for spec, score in zip(new, scores, strict=True)
    )
    # created_at is set to now on insert (auto_now_add): put the requested times back.
    dated = []
    for match, spec in zip(matches, new, strict=True):
        if spec.created_at is not None:
            match.created_at = spec.created_at
            dated.append(match)
    Match.objects.bulk_update(dated, ["created_at"], batch_size=CHUNK)
    made = list(zip(matches, new, scores, strict=True))
    sides_of = _by_match(matches, Side.objects.bulk_create(_side_rows(made)))
    Seat.objects.bulk_create(_seat_rows(made, sides_of))
    hands_of = _by_match(matches, Hand.objects.bulk_create(_hand_rows(made, by)))
    insert_rows(Tally, _tally_rows(made, sides_of, hands_of))
    return matches


# A match just inserted, what it was made from, and the engine's score of it.
Made = tuple[Match, NewMatch, MatchScore]
Row = TypeVar("Row", Side, Hand)


def _by_match(matches: Sequence[Match], rows: Iterable[Row]) -> dict[int, list[Row]]:
    """The rows of each match, by its pk, in the order given."""
    grouped: dict[int, list[Row]] = {match.pk: [] for match in matches}
    for row in rows:
        grouped[row.match_id].append(row)
    return grouped


def _side_rows(made: Sequence[Made]) -> Iterator[Side]:
    for match, spec, score in made:
        for position, (start, total) in enumerate(
            zip(_start_totals(spec), score.totals, strict=True)
        ):
            yield Side(match=match, position=position, start_total=start, total=total)


def _seat_rows(made: Sequence[Made], sides_of: dict[int, list[Side]]) -> Iterator[Seat]:
    for match, spec, _ in made:
        for seat, side, player in rules.Lineup.of(spec.sides).seats():
            yield Seat(match=match, side=sides_of[match.pk][side], player=player, seat=seat)


def _hand_rows(made: Sequence[Made], by: User | None) -> Iterator[Hand]:
    for match, spec, score in made:
        for index, hand_score in enumerate(score.hands):
            yield Hand(
                match=match,
                number=index + 1,
                dealer_seat=_dealer(spec, index),
                entered_by=by,
                quick=index + 1 in spec.quick,
                pot_cards=hand_score.pots[0],
                pot_spades=hand_score.pots[1],
            )


def _tally_rows(
    made: Sequence[Made], sides_of: dict[int, list[Side]], hands_of: dict[int, list[Hand]]
) -> Iterator[dict[str, Any]]:
    """The tallies' column values (for insert_rows): one per side per hand."""
    for match, spec, score in made:
        for tallies, hand_score, hand in zip(
            spec.hands, score.hands, hands_of[match.pk], strict=True
        ):
            for side, tally, breakdown, total in zip(
                sides_of[match.pk], tallies, hand_score.breakdown, hand_score.totals, strict=True
            ):
                yield tally_values(hand.pk, side.pk, tally, breakdown, total)


def _start_totals(spec: NewMatch) -> list[int]:
    return list(spec.start_totals or [0] * len(spec.sides))


def _score(spec: NewMatch, index: int) -> rules.MatchScore:
    """The engine's score of the match; BulkRefused for what `services` would refuse."""
    problem = rules.table_problem([len(players) for players in spec.sides], spec.rules.scoring)
    if problem is not None:
        raise BulkRefused(f"match {index + 1}: {rules.TABLE_PROBLEMS[problem]}")
    for number, tallies in enumerate(spec.hands, start=1):
        problems = rules.validate(tallies, len(spec.sides), spec.rules.variant)
        if problems:
            raise BulkRefused(f"match {index + 1}, hand {number}: {problems[0].describe()}")
    try:
        return rules.score_match(
            spec.rules, spec.hands, _start_totals(spec), last_hand=spec.last_hand
        )
    except rules.MatchOverError as error:
        raise BulkRefused(
            f"match {index + 1}: hand {error.hand_index + 1} comes after the winning hand"
        ) from None


def _seat_count(spec: NewMatch) -> int:
    return sum(len(players) for players in spec.sides)


def _dealer(spec: NewMatch, hand_index: int) -> int:
    return rules.table_turn(
        spec.rules,
        players=_seat_count(spec),
        first_dealer=spec.first_dealer % _seat_count(spec),
        hand_index=hand_index,
    ).dealer_seat


def _match_row(
    circle: Circle,
    by: User | None,
    spec: NewMatch,
    score: rules.MatchScore,
    now: datetime,
) -> Match:
    """The match as `services` leaves it: rules, status, winner, outcome, hands and version."""
    seats = _seat_count(spec)
    # Like services.match_abandon, abandoning leaves a won match as it is.
    abandoned = spec.abandoned and score.status is not rules.Status.WON
    status = Match.Status.ABANDONED if abandoned else Match.Status(str(score.status))
    finished = status in (Match.Status.WON, Match.Status.ABANDONED)
    outcome = score.outcome
    return Match(
        circle=circle,
        created_by=by,
        layout=Match.layout_for(len(spec.sides), len(spec.sides[0])),
        **Match.rules_fields(spec.rules),
        first_dealer_seat=spec.first_dealer % seats,
        status=status,
        winner_position=score.winner,
        outcome_kind=outcome.kind if outcome else "",
        outcome_category=(outcome.category or "") if outcome else "",
        hand_count=len(spec.hands),
        finished_at=(spec.finished_at or now) if finished else None,
        # services.match_start scores the empty match (1), each hand is one more, and
        # abandoning one more: the version an open scoreboard would have seen last.
        version=1 + len(spec.hands) + (1 if abandoned else 0),
        last_hand=spec.last_hand,
        event=spec.event,
    )


def tally_values(
    hand_id: int, side_id: int, tally: rules.Tally, breakdown: rules.Breakdown, total: int
) -> dict[str, Any]:
    """A side's counts in a hand and the points `services` derives from them, by column."""
    return {
        "hand_id": hand_id,
        "side_id": side_id,
        "cards": tally.cards,
        "spades": tally.spades,
        "big_casino": tally.big_casino,
        "little_casino": tally.little_casino,
        "aces": tally.aces,
        "sweeps": tally.sweeps,
        "last_capture": tally.last_capture,
        "jack_of_spades": tally.jack_of_spades,
        "cards_points": breakdown.cards,
        "spades_points": breakdown.spades,
        "big_casino_points": breakdown.big_casino,
        "little_casino_points": breakdown.little_casino,
        "aces_points": breakdown.aces,
        "sweeps_points": breakdown.sweeps,
        "last_capture_points": breakdown.last_capture,
        "jack_of_spades_points": breakdown.jack_of_spades,
        "points": breakdown.points,
        "total_after": total,
    }


def tally_row(
    hand: Hand, side: Side, tally: rules.Tally, breakdown: rules.Breakdown, total: int
) -> Tally:
    """The same as an unsaved Tally (for `bulk_create`, which wants model objects)."""
    return Tally(**tally_values(hand.pk, side.pk, tally, breakdown, total))
