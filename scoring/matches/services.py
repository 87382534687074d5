"""Writes. A hand depends on the totals and the tie before it (Dominican endgame rules, ties), so
the stored derived numbers are always the engine's over the whole match. Appending a hand scores
that hand alone from the state stored after the previous one; any other change re-scores the match
in memory and writes only the rows whose numbers changed. Both store exactly what a full re-score
would (tests/matches/test_incremental.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Min, Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import locks
from scoring.access import LinkScope, Scope
from scoring.engine import matchdoc, rules
from scoring.engine.rules import TABLE_PROBLEMS, Lineup, Rules, table_turn
from scoring.matches import bulk, ratings, seating, stats
from scoring.models import (
    Circle,
    Event,
    EventPlayer,
    EventTable,
    Hand,
    HandRevision,
    Match,
    Membership,
    Player,
    PlayerRating,
    Seat,
    Side,
    Tally,
    name_key,
)


class HandRefused(ValidationError):
    """A hand could not be recorded or changed; the message says why. A hand the deck refuses
    carries the engine's `problems` too, and the `side_names` they were told with, so that a form
    can show each beside its field without reading the names again."""

    def __init__(
        self,
        message: Any,
        *,
        problems: Sequence[rules.Problem] = (),
        side_names: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(message, **kwargs)
        self.problems = list(problems)
        self.side_names = list(side_names)


class HandGone(HandRefused):
    """Hand `number` was deleted meanwhile (an Undo on another phone): there is nothing to edit."""

    def __init__(self, number: int) -> None:
        super().__init__(
            _("Hand %(number)d was deleted meanwhile on another screen: nothing was changed.")
            % {"number": number},
            code="hand_gone",
        )
        self.number = number


class HandNumberTaken(HandRefused):
    """Hand `number` was recorded meanwhile (another phone, another tab) with other counts; the
    next free number is `next_number`, or None when the match is over. `tallies`: the counts
    sent, which the page shows beside the hand saved."""

    def __init__(
        self, number: int, next_number: int | None, tallies: Sequence[rules.Tally] = ()
    ) -> None:
        super().__init__(
            _("Hand %(number)d was already recorded, with other counts.") % {"number": number}
        )
        self.number = number
        self.next_number = next_number
        self.tallies = list(tallies)


@dataclass(frozen=True)
class HandRecorded:
    match: Match  # as the save left it (read locked in its transaction: not to be read again)
    hand: Hand
    created: bool  # False when the same hand had already been recorded (double submit)
    # A new hand's match seats, with their players and sides as the hand left them (for the
    # board the answer shows, without reading them again); none for a hand sent again.
    seats: Sequence[Seat] = ()
    tallies: Sequence[Tally] = ()  # and its tallies, as stored
    score: rules.HandScore | None = None  # and the engine's score of it (what each side gained)


def _name_taken(name: str) -> ValidationError:
    return ValidationError(_("You already have a player called %(name)s.") % {"name": name})


def player_create(*, circle: Circle, name: str, by: User | None = None) -> Player:
    """Add a player to the circle's roster; the name must be new (ignoring case)."""
    name = name.strip()
    if Player.objects.filter(circle=circle, name_key=name_key(name)).exists():
        raise _name_taken(name)
    try:
        with transaction.atomic():
            return Player.objects.create(circle=circle, name=name)
    except IntegrityError:  # the same name, created by a concurrent request
        raise _name_taken(name) from None


def player_get_or_create(*, circle: Circle, name: str, by: User | None = None) -> Player:
    """The circle's player of that name (ignoring case), created if new."""
    name = name.strip()
    player = Player.objects.filter(circle=circle, name_key=name_key(name)).first()
    if player is None:
        try:
            with transaction.atomic():
                player = Player.objects.create(circle=circle, name=name)
        except IntegrityError:  # created by a concurrent request
            player = Player.objects.get(circle=circle, name_key=name_key(name))
    return player


@transaction.atomic
def match_start(
    *,
    circle: Circle,
    by: User | None = None,
    rules: Rules,
    sides: Lineup[Player] | Sequence[Sequence[Player]],
    first_dealer_seat: int = 0,
    start_totals: Sequence[int] | None = None,
    rematch_of: Match | None = None,
    client_id: str = "",
    event: Event | None = None,
) -> Match:
    """Create a match of these `rules` (every option of the game: a rematch passes its match's)
    at this table (`sides`: each side's players; seats alternate sides, so with two sides of two
    the partners sit opposite). A match started on a phone without signal names itself
    (`client_id`): sent again, the match already started under that id is returned."""
    if client_id:
        existing = Match.objects.filter(circle=circle, client_id=client_id).first()
        if existing is not None:
            return existing
    lineup = Lineup.of(sides)
    _refuse_table(circle, rules, lineup)
    match, created = _created_once(
        {
            "circle": circle,
            "created_by": by,
            "layout": Match.layout_for(len(lineup.sides), len(lineup.sides[0])),
            **Match.rules_fields(rules),
            "first_dealer_seat": first_dealer_seat % lineup.seat_count,
            "rematch_of": rematch_of,
            "client_id": client_id,
            "event": event,
        }
    )
    if not created:
        return match
    _seat_lineup(match, lineup, start_totals or [0] * len(lineup.sides))
    rescore(match)
    return match


def _refuse_table(circle: Circle, match_rules: Rules, lineup: Lineup[Player]) -> None:
    """A table the game cannot be played at, or with a player of another circle, is refused."""
    problem = lineup.problem(match_rules.scoring)
    if problem is not None:
        raise ValidationError(_(TABLE_PROBLEMS[problem]))
    if any(player.circle_id != circle.pk for _seat, _side, player in lineup.seats()):
        raise ValidationError(_("Every player of a match must be of the match's circle."))


def _created_once(fields: dict[str, Any]) -> tuple[Match, bool]:
    """The match of these fields, created (True); or, when a phone's match (its `client_id`)
    was sent twice at once and the other request created it, that one (False): the first
    stands."""
    if not fields["client_id"]:
        return Match.objects.create(**fields), True
    try:
        with transaction.atomic():
            return Match.objects.create(**fields), True
    except IntegrityError:
        return Match.objects.get(circle=fields["circle"], client_id=fields["client_id"]), False


def _seat_lineup(match: Match, lineup: Lineup[Player], start_totals: Sequence[int]) -> None:
    """The new match's sides, each starting from its total, and its seats."""
    sides_made = Side.objects.bulk_create(
        Side(match=match, position=position, start_total=total, total=total)
        for position, total in enumerate(start_totals)
    )
    Seat.objects.bulk_create(
        Seat(match=match, side=sides_made[side], player=player, seat=seat)
        for seat, side, player in lineup.seats()
    )


def _lock_match(match: Match) -> Match:
    return locks.match(match)  # a table's event first (the lock order)


def _refuse_impossible_hand(match: Match, tallies: Sequence[rules.Tally]) -> None:
    """The one check of a hand's counts against the deck (the form only reads them)."""
    problems = rules.validate(tallies, match.table[0], match.variant)
    if problems:
        names = seating.side_names(match)
        raise HandRefused(
            [p.describe(names, _) for p in problems], problems=problems, side_names=names
        )


def _same_tallies(hand: Hand, tallies: Sequence[rules.Tally]) -> bool:
    stored = [t.as_rules_tally() for t in hand.tallies.order_by("side__position")]
    return stored == list(tallies)


def hand_record(
    *,
    match: Match,
    number: int,
    tallies: Sequence[rules.Tally],
    by: User | None = None,
    client_id: str = "",
    quick: bool = False,
) -> HandRecorded:
    """Record hand `number` (the next one) of `match` and re-score it (the demo, benchmarks and
    tests, which hold the match; a page saves through `hand_save`); `quick`: entered as who
    took most (RULES.md §7.1)."""
    return _recorded_once(
        lambda: locks.match(match), match.pk, lambda _match: (number, tallies, quick), by, client_id
    )


# What a page posted, read for the match it is for (its table, its game): the hand's number,
# each side's tally and whether it was entered as who took most (RULES.md §7.1). A form's parser,
# which raises what the page shows again.
Entry = Callable[[Match], tuple[int, Sequence[rules.Tally], bool]]


def hand_save(
    *, scope: Scope | LinkScope, match_id: int, entry: Entry, by: User | None, client_id: str = ""
) -> HandRecorded:
    """Record the posted hand of a match the scope may change (404 or 403 as it says): in one
    transaction, the match read locked (its event first, the lock order), the entry read for
    its table, checked once, scored from the stored state and stored with everything it
    changes. Raises HandRefused and HandNumberTaken, and whatever `entry` raises."""
    return _recorded_once(
        lambda: scope.match(match_id, lock=True),
        match_id,
        entry,
        by,
        client_id,
        via_link=lambda: scope.via_link,
    )


def _recorded_once(
    read_locked: Callable[[], Match],
    match_id: int,
    entry: Entry,
    by: User | None,
    client_id: str,
    via_link: Callable[[], bool] = lambda: False,
) -> HandRecorded:
    """The same hand sent twice (double tap, two phones) is recorded once: a resend of an
    existing hand with the same counts returns it with created=False; different counts raise
    HandNumberTaken, which names the next free number. A hand saved without signal carries the
    `client_id` its phone gave it: once recorded, under whatever number, a resend of that id is
    the same hand. A failure anywhere rolls the whole save back."""
    try:
        with transaction.atomic():
            match = read_locked()
            number, tallies, quick = entry(match)
            sent = _sent_before(match, client_id)
            if sent is not None:
                return HandRecorded(match, sent, created=False)
            return _hand_insert(
                match, number, tallies, by, client_id, via_link=via_link(), quick=quick
            )
    except IntegrityError:
        # Two requests raced for the same hand number (or client id) and the other one won.
        match = Match.objects.get(pk=match_id)
        sent = _sent_before(match, client_id)
        if sent is not None:
            return HandRecorded(match, sent, created=False)
        existing = Hand.objects.filter(match=match, number=number).first()
        if existing is not None and _same_tallies(existing, tallies):
            return HandRecorded(match, existing, created=False)
        raise _number_taken(match, number, tallies) from None


def _sent_before(match: Match, client_id: str) -> Hand | None:
    """The hand a phone's outbox already delivered under this id, if any."""
    if not client_id:
        return None
    return Hand.objects.filter(match=match, client_id=client_id).first()


def match_full_message() -> str:
    return _(
        "This match holds %(limit)d hands, the most one match can: start a rematch to play on."
    ) % {"limit": matchdoc.MAX_HANDS}


def _number_taken(match: Match, number: int, tallies: Sequence[rules.Tally]) -> HandNumberTaken:
    return HandNumberTaken(number, match.hand_count + 1 if match.is_open else None, tallies)


def _hand_insert(
    match: Match,
    number: int,
    tallies: Sequence[rules.Tally],
    by: User | None,
    client_id: str = "",
    via_link: bool = False,
    quick: bool = False,
) -> HandRecorded:
    """Hand `number` of `match` (read locked) stored, unless it cannot be. The deck first: a
    hand that cannot be is refused as such, whatever else (its number taken, the match over)."""
    _refuse_impossible_hand(match, tallies)
    # Hands are numbered 1 to hand_count: only a number up to it can be taken.
    existing = (
        Hand.objects.filter(match=match, number=number).first()
        if number <= match.hand_count
        else None
    )
    if existing is not None:
        if _same_tallies(existing, tallies):
            return HandRecorded(match, existing, created=False)
        raise _number_taken(match, number, tallies)
    _refuse_out_of_place(match, number)
    sides, seats, scored = _scored_next(match, number, tallies)
    turn = rules.table_turn(
        match.rules,
        players=match.table[0] * match.table[1],
        first_dealer=match.first_dealer_seat,
        hand_index=number - 1,
    )
    pots = scored.pots  # Finnish Kasino's, carried to the next hand (NO_POTS elsewhere)
    hand = Hand.objects.create(
        match=match,
        number=number,
        dealer_seat=turn.dealer_seat,
        entered_by=by,
        client_id=client_id,
        via_link=via_link,
        quick=quick,
        pot_cards=pots[0],
        pot_spades=pots[1],
    )
    rows = _append_scored(match, hand, sides, seats, tallies, scored)
    return HandRecorded(match, hand, created=True, seats=seats, tallies=rows, score=scored)


def _refuse_out_of_place(match: Match, number: int) -> None:
    """A new hand `number` can only be the next one of an open match with room for it."""
    if not match.is_open:
        raise HandRefused(_("This match is over: no more hands can be recorded."))
    if number > matchdoc.MAX_HANDS:
        raise HandRefused(match_full_message())
    if number != match.hand_count + 1:
        raise HandRefused(
            _("The next hand is hand %(next)d, not %(number)d.")
            % {"next": match.hand_count + 1, "number": number}
        )


def _scored_next(
    match: Match, number: int, tallies: Sequence[rules.Tally]
) -> tuple[list[Side], list[Seat], rules.HandScore]:
    """The match's sides and seats (with their players), read in one query, and hand `number`
    (the next) scored from the totals, tie and (Finnish Kasino) pots stored before it."""
    by_side: dict[int, Side] = {}
    seats = list(Seat.objects.filter(match=match).select_related("side", "player").order_by("seat"))
    for seat in seats:
        # One object per side, shared by its seats: the totals written below are the seats' too.
        seat.side = by_side.setdefault(seat.side_id, seat.side)
    sides = sorted(by_side.values(), key=lambda side: side.position)
    scored = rules.score_hand(
        match.rules,
        tallies,
        [side.total for side in sides],
        tied_before=match.status == Match.Status.TIED,
        pots=seating.pots_before(match, number),
        time_up=match.last_hand is not None and number >= match.last_hand,
    )
    return sides, seats, scored


def _append_scored(
    match: Match,
    hand: Hand,
    sides: Sequence[Side],
    seats: Sequence[Seat],
    tallies: Sequence[rules.Tally],
    scored: rules.HandScore,
) -> list[Tally]:
    """Store the next hand's tallies with their points, and what they change in the match."""
    rows = Tally.objects.bulk_create(
        bulk.tally_row(hand, side, tally, breakdown, total)
        for side, tally, breakdown, total in zip(
            sides, tallies, scored.breakdown, scored.totals, strict=True
        )
    )
    _result_save(
        match,
        sides,
        scored,
        hand_count=hand.number,
        appended=(rows, seats),
    )
    for row in rows:
        row.hand = hand  # for the board the answer shows (the rows name it by id)
    return rows


def _set_points(row: Tally, breakdown: rules.Breakdown, total: int) -> bool:
    """Put the engine's numbers on a tally row; True when any of them changed."""
    values = (
        breakdown.cards,
        breakdown.spades,
        breakdown.big_casino,
        breakdown.little_casino,
        breakdown.aces,
        breakdown.sweeps,
        breakdown.last_capture,
        breakdown.jack_of_spades,
        breakdown.points,
        total,
    )
    if all(
        getattr(row, name) == value
        for name, value in zip(DERIVED_TALLY_FIELDS, values, strict=True)
    ):
        return False
    for name, value in zip(DERIVED_TALLY_FIELDS, values, strict=True):
        setattr(row, name, value)
    return True


@transaction.atomic
def hand_edit(
    *,
    match: Match,
    number: int,
    tallies: Sequence[rules.Tally],
    by: User | None = None,
    via_link: bool = False,
    quick: bool = False,
) -> Hand:
    """Change an earlier hand's counts and re-score the whole match. The counts it had are kept
    as a revision (the hand's edit history); a change to the same counts changes nothing.
    `quick`: entered now as who took most (RULES.md §7.1).

    Refused when a later hand would then come after the winning one.
    """
    match = _lock_match(match)
    hand = Hand.objects.filter(match=match, number=number).first()
    if hand is None:
        raise HandGone(number)
    _refuse_impossible_hand(match, tallies)
    stored = list(hand.tallies.select_related("side").order_by("side__position"))
    if [row.as_rules_tally() for row in stored] == list(tallies) and hand.quick == quick:
        return hand
    now = timezone.now()
    HandRevision.objects.create(
        hand=hand,
        tallies=[matchdoc.tally_json(row.as_rules_tally()) for row in stored],
        by_id=hand.changed_by_id if hand.changed_at else hand.entered_by_id,
        at=hand.changed_at or hand.created_at,
        replaced_by=by,
        quick=hand.quick,
    )
    for row, tally in zip(stored, tallies, strict=True):
        for name in TALLY_FIELDS:
            setattr(row, name, getattr(tally, name))
    Tally.objects.bulk_update(stored, [*TALLY_FIELDS])
    hand.changed_by, hand.changed_at = by, now
    hand.via_link = hand.via_link or via_link
    hand.quick = quick
    hand.save(update_fields=["updated_at", "changed_by", "changed_at", "via_link", "quick"])
    rescore(match)
    return hand


class HandUndone(NamedTuple):
    """What a deleted hand held: its tallies, and whether they were entered as who took most."""

    tallies: list[rules.Tally]
    quick: bool


@transaction.atomic
def hand_delete_last(*, match: Match, number: int, hand_id: int | None = None) -> HandUndone | None:
    """Delete hand `number`, which must be the last, and re-score (a won match is open again).
    Returns what the deleted hand held.

    The number makes a resend harmless: once the hand is gone, a second request for it is refused
    instead of deleting the hand before it. With `hand_id` (an undo right after a save) the hand
    must be that very row: a resend after it is gone changes nothing and returns None, and a hand
    of the same number saved again meanwhile (another phone) is not deleted.
    """
    match = _lock_match(match)
    last = match.hands.order_by("-number").first()
    another = hand_id is not None and (last is None or last.pk != hand_id)
    if another and hand_id is not None and not Hand.objects.filter(pk=hand_id).exists():
        return None  # already undone: the resend of a double tap
    if last is None:
        raise HandRefused(_("There is no hand to delete."))
    if another or last.number != number:
        raise HandRefused(
            _("Hand %(number)d is not the last hand any more: nothing was deleted.")
            % {"number": number}
        )
    tallies = [t.as_rules_tally() for t in last.tallies.order_by("side__position")]
    last.delete()
    rescore(match)
    return HandUndone(tallies, last.quick)


@transaction.atomic
def match_abandon(*, match: Match) -> Match:
    match = _lock_match(match)
    if match.status not in (Match.Status.WON, Match.Status.ABANDONED):
        match.status = Match.Status.ABANDONED
        match.finished_at = timezone.now()
        match.version += 1
        match.save(update_fields=["status", "finished_at", "version"])
        event_changed(match)
        stats.player_summaries_refresh(match)
    return match


@transaction.atomic
def match_paper_result(*, match: Match, paper: rules.Paper) -> Match:
    """Enter the final result of a match played on paper (each side's total and the winner)
    instead of its hands. It counts as won everywhere (standings, ratings, wins and losses);
    having no hands, no statistic of hands counts it. A result entered again replaces it (a
    resend changes nothing); a match with hands, or won by them, is refused."""
    match = _lock_match(match)
    if match.hand_count:
        raise ValidationError(
            _("This match has hands: its result is theirs. Delete them to enter a result instead.")
        )
    if match.status == Match.Status.WON and not match.on_paper:
        raise ValidationError(_("This match is over already."))
    sides = list(match.sides.order_by("position"))
    try:
        score = rules.paper_score(match.rules, paper, [side.start_total for side in sides])
    except rules.PaperError as error:
        raise ValidationError(
            _(rules.PAPER_PROBLEMS[error.problem]) % matchdoc.paper_params(match.rules)
        ) from None
    same = match.on_paper and match.winner_position == paper.winner
    if same and tuple(side.total for side in sides) == paper.totals:
        return match  # a resend
    _result_save(
        match,
        sides,
        score,
        hand_count=0,
    )
    return match


def event_changed(match: Match) -> None:
    """A table of an event changed: the event's page and big screen have something new."""
    if match.event_id is not None:
        Event.objects.filter(pk=match.event_id).update(version=F("version") + 1)


@transaction.atomic
def match_delete(*, match: Match) -> None:
    """Delete a match and its hands for good. Its players' statistics no longer count it, and
    the circle's ratings are replayed from the first rating it gave as if it never was."""
    match = _lock_match(match)
    if match.event_id is not None:
        raise ValidationError(
            _(
                "This match is a table of an event: its organiser can abandon it on the event's page."
            )
        )
    cut = PlayerRating.objects.filter(match=match).aggregate(first=Min("pk"))["first"]
    # Without its seats and hands the match counts for nobody: the statistics take it out.
    Hand.objects.filter(match=match).delete()
    Seat.objects.filter(match=match).delete()
    stats.player_summaries_refresh(match)
    circle_id = match.circle_id
    match.delete()
    if cut is not None:
        ratings.replay(circle_id=circle_id, from_pk=cut)


@transaction.atomic
def match_rematch(*, match: Match, by: User | None = None) -> Match:
    """A new match with the same players, seats and rules; the next dealer deals first.

    A match has one rematch: asked again (a second phone, a resend), the first one is returned.
    """
    match = _lock_match(match)
    existing = match.rematches.order_by("pk").first()
    if existing is not None:
        return existing
    lineup = seating.lineup(match)
    turn = table_turn(
        match.rules,
        players=lineup.seat_count,
        first_dealer=match.first_dealer_seat,
        hand_index=match.hand_count,
    )
    return match_start(
        circle=match.circle,
        by=by,
        rules=match.rules,
        sides=lineup,
        first_dealer_seat=turn.dealer_seat,
        rematch_of=match,
    )


def rescore(match: Match) -> rules.MatchScore:
    """Re-score the whole match in memory and store the derived numbers that changed.

    Raises HandRefused (and the caller's transaction rolls back) when a hand comes after the
    winning one.
    """
    sides = list(match.sides.order_by("position"))
    hands = list(
        match.hands.order_by("number").prefetch_related(
            Prefetch("tallies", queryset=Tally.objects.order_by("side__position"))
        )
    )
    rows = [list(hand.tallies.all()) for hand in hands]
    score = _match_scored(match, sides, rows)
    _points_save(rows, score)
    _pots_save(hands, score)
    _result_save(
        match,
        sides,
        score,
        hand_count=len(hands),
    )
    return score


def _match_scored(
    match: Match, sides: Sequence[Side], rows: Sequence[Sequence[Tally]]
) -> rules.MatchScore:
    """The engine's score of the match's hands (`rows`: each hand's tallies, by side), or
    HandRefused when one comes after the winning hand. A match played on paper keeps the result
    entered."""
    if match.on_paper:
        paper = rules.Paper(tuple(side.total for side in sides), match.winner_position or 0)
        return rules.paper_score(match.rules, paper, [side.start_total for side in sides])
    try:
        return rules.score_match(
            match.rules,
            [[row.as_rules_tally() for row in hand_rows] for hand_rows in rows],
            [side.start_total for side in sides],
            last_hand=match.last_hand,
        )
    except rules.MatchOverError as error:
        raise HandRefused(
            _("Hand %(number)d would come after the winning hand; delete it first.")
            % {"number": error.hand_index + 1}
        ) from None


def _points_save(rows: Sequence[Sequence[Tally]], score: rules.MatchScore) -> None:
    """Put the score's points and running totals on the tally rows; store those that changed."""
    changed = [
        row
        for hand_rows, hand_score in zip(rows, score.hands, strict=True)
        for row, breakdown, total in zip(
            hand_rows, hand_score.breakdown, hand_score.totals, strict=True
        )
        if _set_points(row, breakdown, total)
    ]
    if changed:
        Tally.objects.bulk_update(changed, [*DERIVED_TALLY_FIELDS])


def _pots_save(hands: Sequence[Hand], score: rules.MatchScore) -> None:
    """Put the pots each hand leaves (Finnish Kasino's) on the hands; store those that moved."""
    moved = [
        hand
        for hand, hand_score in zip(hands, score.hands, strict=True)
        if (hand.pot_cards, hand.pot_spades) != hand_score.pots
    ]
    for hand, hand_score in zip(hands, score.hands, strict=True):
        hand.pot_cards, hand.pot_spades = hand_score.pots
    if moved:
        Hand.objects.bulk_update(moved, ["pot_cards", "pot_spades"])


def _result_save(
    match: Match,
    sides: Sequence[Side],
    score: rules.HandScore | rules.MatchScore,
    *,
    hand_count: int,
    appended: tuple[Sequence[Tally], Sequence[Seat]] | None = None,
) -> None:
    """Store the sides' totals and how the match stands after `score` (the match's, or the
    latest hand's); bump its version; keep ratings and statistics right (`appended`: the tallies
    of the one hand just added and the match's seats, for counting it as such)."""
    status_before = match.status
    ranks_before = ratings.finishing_ranks(match, sides)
    _totals_save(sides, score.totals)
    _standing_save(
        match,
        status=score.status,
        winner=score.winner,
        outcome=score.outcome,
        hand_count=hand_count,
    )
    event_changed(match)
    # The statistics' rows, then the players' ratings (the lock order, scoring.locks).
    _statistics_count(match, sides, appended, status_before)
    _ratings_replay_if_changed(match, sides, ranks_before)


def _totals_save(sides: Sequence[Side], totals: Sequence[int]) -> None:
    """Put the totals on the sides; store those that moved."""
    moved = [side for side, total in zip(sides, totals, strict=True) if side.total != total]
    for side, total in zip(sides, totals, strict=True):
        side.total = total
    if moved:
        Side.objects.bulk_update(moved, ["total"])


def _standing_save(
    match: Match,
    *,
    status: rules.Status,
    winner: int | None,
    outcome: rules.Outcome | None,
    hand_count: int,
) -> None:
    """Store how the match stands and a new version. An abandoned match stays abandoned until
    its hands decide it: abandoning leaves a won match as it is (match_abandon), so a hand
    fixed into the winning one makes it won; fixed back, it plays on."""
    was_won = match.status == Match.Status.WON
    if match.status != Match.Status.ABANDONED or status == rules.Status.WON:
        match.status = status
        if status == rules.Status.WON and not was_won:
            match.finished_at = timezone.now()
        elif status != rules.Status.WON:
            match.finished_at = None
    match.winner_position = winner
    match.outcome_kind = outcome.kind if outcome else ""
    match.outcome_category = (outcome.category or "") if outcome else ""
    match.hand_count = hand_count
    match.version += 1
    match.save(
        update_fields=[
            "status",
            "finished_at",
            "winner_position",
            "outcome_kind",
            "outcome_category",
            "hand_count",
            "version",
        ]
    )


def _statistics_count(
    match: Match,
    sides: Sequence[Side],
    appended: tuple[Sequence[Tally], Sequence[Seat]] | None,
    status_before: str,
) -> None:
    """Count the one hand `appended` into the players' statistics, or count the match anew."""
    if appended is not None:
        rows, seats = appended
        seated = [(seat.player_id, seat.side_id) for seat in seats]
        stats.hand_appended(match, sides, rows, seated, status_before)
    else:
        stats.player_summaries_refresh(match)


def _ratings_replay_if_changed(
    match: Match, sides: Sequence[Side], ranks_before: tuple[int, ...] | None
) -> None:
    """Replay the circle's ratings when the save changed how the match's sides finished."""
    after = ratings.finishing_ranks(match, sides)
    if after != ranks_before:
        ratings.replay_after_result_change(match, was_rated=ranks_before is not None)


def player_rename(*, player: Player, name: str) -> Player:
    """Rename a player; the new name must not belong to another player of the circle."""
    name = name.strip()
    clash = Player.objects.filter(circle_id=player.circle_id, name_key=name_key(name))
    clash = clash.exclude(pk=player.pk)
    if clash.exists():
        raise _name_taken(name)
    player.name = name
    try:
        with transaction.atomic():
            # The lock order: the events they play in, their matches, then the player.
            locks.events(Event.objects.filter(entrants__player=player))
            locks.matches_in_order(Match.objects.filter(seats__player=player))
            player.save(update_fields=["name"])
            _names_changed(Match.objects.filter(seats__player=player))
            # And on the pages of the events they play in (their standings, the big screen).
            Event.objects.filter(entrants__player=player).update(version=F("version") + 1)
    except IntegrityError:  # renamed to the same name by a concurrent request
        raise _name_taken(name) from None
    return player


def _names_changed(matches: QuerySet[Match]) -> None:
    """Names are on the scoreboards: a new version, so open boards show the new one and no
    page rendered under the old name is served again."""
    Match.objects.filter(pk__in=matches.values("pk")).update(version=F("version") + 1)


@transaction.atomic
def player_merge(*, source: Player, target: Player) -> Player:
    """Move all of `source`'s seats to `target` and delete `source` (the same person twice).

    Refused when both sat at the same match: one person cannot hold two seats.
    """
    if source.pk == target.pk or source.circle_id != target.circle_id:
        raise ValidationError(_("Choose two different players of yours."))
    shared = seating.shared_matches(source, target)
    if shared:
        raise ValidationError(
            ngettext(
                "%(source)s and %(target)s played in %(count)d match together: they are two people.",
                "%(source)s and %(target)s played in %(count)d matches together: they are two people.",
                len(shared),
            )
            % {"source": source.name, "target": target.name, "count": len(shared)}
        )
    if EventPlayer.objects.filter(player=source, event__entrants__player=target).exists():
        raise ValidationError(
            _("%(source)s and %(target)s played in the same event: they are two people.")
            % {"source": source.name, "target": target.name}
        )
    # The lock order: both players' events, their matches, then the rows below them.
    both = (source, target)
    locks.events(Event.objects.filter(entrants__player__in=both))
    locks.matches_in_order(Match.objects.filter(seats__player__in=both))
    Seat.objects.filter(player=source).update(player=target)
    EventPlayer.objects.filter(player=source).update(player=target)
    EventTable.objects.filter(bye=source).update(bye=target)
    Event.objects.filter(entrants__player=target).update(version=F("version") + 1)
    # The account that is `source` ("this is me") is `target` now, unless one already is.
    if not Membership.objects.filter(player=target).exists():
        Membership.objects.filter(player=source).update(player=target)
    source.delete()
    _names_changed(Match.objects.filter(seats__player=target))
    stats.player_summaries_refresh(Match.objects.filter(seats__player=target))
    ratings.recompute(circle=target.circle)
    target.refresh_from_db()
    return target


# A tally's fields as entered (rules.Tally's), and those derived from them.
TALLY_FIELDS = rules.Tally._fields
DERIVED_TALLY_FIELDS = (
    "cards_points",
    "spades_points",
    "big_casino_points",
    "little_casino_points",
    "aces_points",
    "sweeps_points",
    "last_capture_points",
    "jack_of_spades_points",
    "points",
    "total_after",
)
