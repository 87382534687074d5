"""Reads. Numbers shown on pages come from the stored derived fields or the engine, never from
arithmetic in templates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from django.contrib.auth.models import User
from django.db.models import (
    Count,
    Prefetch,
    QuerySet,
)
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy

from scoring.engine import matchdoc, rules
from scoring.matches.seating import lineup, player_name, players_by_side, pots_before
from scoring.models import (
    Circle,
    EventTable,
    Hand,
    Match,
    Player,
    Seat,
    Tally,
)


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
class HandCell:
    """One side's cell of a hand's row: what counted (the engine's `HandScore.credited`: with
    difference scoring the margin or nothing, for a Dominican side held at target - 1 only up
    to it), the points its captures were worth, and its total after the hand."""

    points: int
    taken: int
    total: int
    held: bool  # Dominican (RULES.md §6): held at target - 1, the points above it not counted

    @property
    def reduced(self) -> bool:
        """Fewer points counted than the captures were worth."""
        return self.points != self.taken


@dataclass(frozen=True)
class HandRow:
    number: int
    dealer: str
    tallies: list[Tally]
    is_last: bool
    # The side that won the match in this hand (the deciding hand's row), else None.
    winner: int | None = field(default=None, kw_only=True)
    # What the engine credited each side in this hand, and which sides it held (HandScore).
    credited: tuple[int, ...] = field(kw_only=True)
    held: tuple[bool, ...] = field(kw_only=True)

    @property
    def cells(self) -> list[HandCell]:
        """Each side's cell: what counted, what its captures were worth, its total."""
        return [
            HandCell(points, tally.points, tally.total_after, held)
            for tally, points, held in zip(self.tallies, self.credited, self.held, strict=True)
        ]

    @property
    def reduced(self) -> bool:
        """Some side counted fewer points than its captures were worth."""
        return any(cell.reduced for cell in self.cells)

    @property
    def any_held(self) -> bool:
        return any(self.held)

    @property
    def via_link(self) -> bool:
        """Entered, or last changed, through the match's scoring link."""
        return bool(self.tallies) and self.tallies[0].hand.via_link

    @property
    def quick(self) -> bool:
        """Entered as who took most (RULES.md §7.1): its counts are not shown as numbers."""
        return bool(self.tallies) and self.tallies[0].hand.quick

    @property
    def has_last_capture(self) -> bool:
        """Swedish Kasino records who made the last capture."""
        return any(tally.last_capture for tally in self.tallies)

    @property
    def has_jack_of_spades(self) -> bool:
        """Spade Casino records who took the J♠."""
        return any(tally.jack_of_spades for tally in self.tallies)

    @property
    def cache_key(self) -> str:
        """What the hand's row of the score sheet shows: its number and each side's points and
        total after it, and the winner it decided (a row rendered once is kept until an edit or
        an Undo changes these)."""
        return (
            f"{self.number}:"
            + "|".join(
                f"{cell.points}/{cell.taken}/{cell.total}/{cell.held:d}" for cell in self.cells
            )
            + ("" if self.winner is None else f":won{self.winner}")
            + (":link" if self.via_link else "")
        )

    @property
    def leader(self) -> int | None:
        """The side alone highest after this hand (None when two share the top), marked ahead;
        none on the hand that decided the match, which marks its winner instead: a count-out
        or a Dominican condition can be won with the lower total."""
        if self.winner is not None:
            return None
        return lone_top([tally.total_after for tally in self.tallies])


def lone_top(totals: Sequence[int]) -> int | None:
    """The position of the one highest total, or None when it is shared."""
    best = max(totals, default=None)
    if best is None or totals.count(best) != 1:
        return None
    return totals.index(best)


# The scoreboard shows the latest hands; the whole sheet has a page of its own (match_sheet), so
# the board costs the same at hand 5 and at hand 500.
BOARD_HANDS = 6


class Board:
    """Everything the scoreboard shows: totals, who deals, conditions, and the score sheet's
    latest hands. Each part is read from the database when first used, so a board whose parts
    are already rendered for this version of the match (the fragment cache) reads nothing."""

    def __init__(
        self,
        match: Match,
        *,
        latest: int | None = BOARD_HANDS,
        seats: Sequence[Seat] = (),
        last_tallies: Sequence[Tally] = (),
        last_score: rules.HandScore | None = None,
    ) -> None:
        self.match = match
        if seats:  # read already, with their players and sides (a hand just saved)
            self.__dict__["_seats"] = list(seats)
        self._last_tallies = list(last_tallies)  # the latest hand's, just stored
        self._last_score = last_score  # and the engine's score of it
        # The first hand of the sheet shown (1: every hand).
        self.first_hand = 1 if latest is None else max(1, match.hand_count - latest + 1)

    @cached_property
    def _seats(self) -> list[Seat]:
        return list(self.match.seats.select_related("player", "side").order_by("seat"))

    @cached_property
    def seat_names(self) -> list[str]:
        return [seat.player.name for seat in self._seats]

    @cached_property
    def sides(self) -> list[SideView]:
        match = self.match
        seats = self._seats
        sides = {seat.side_id: seat.side for seat in seats}.values()
        players = players_by_side(seats)
        match_rules = match.rules
        return [
            SideView(
                position=side.position,
                name=rules.side_name(players[side.position]),
                players=players[side.position],
                total=side.total,
                start_total=side.start_total,
                condition=(
                    rules.endgame_condition(match_rules, side.total) if match.is_open else None
                ),
                is_winner=(
                    match.status == Match.Status.WON and side.position == match.winner_position
                ),
            )
            for side in sorted(sides, key=lambda side: side.position)
        ]

    @cached_property
    def turn(self) -> TurnView | None:
        match = self.match
        if not match.is_open:
            return None
        table = rules.table_turn(
            match.rules,
            players=len(self._seats),
            first_dealer=match.first_dealer_seat,
            hand_index=match.hand_count,
        )
        names = self.seat_names
        return TurnView(
            table.hand_number,
            names[table.dealer_seat],
            names[table.leader_seat],
            table.deals,
            table.clockwise,
        )

    @property
    def side_names(self) -> list[str]:
        return [side.name for side in self.sides]

    @property
    def score_line(self) -> str:
        """Each side's name and total: "Ana 23 – Ben 17" (the result's line, a shared text)."""
        return " – ".join(f"{side.name} {side.total}" for side in self.sides)

    @property
    def earlier_hands(self) -> int:
        """Hands before the ones in `hands`."""
        return self.first_hand - 1

    @cached_property
    def pots(self) -> tuple[int, int]:
        """Finnish Kasino: the points the next hand's most cards and most spades are worth
        (the category's value plus its pot)."""
        cards, spades = self._pots
        return cards + rules.FINNISH_CARDS, spades + rules.FINNISH_SPADES

    @cached_property
    def _pots(self) -> tuple[int, int]:
        """Finnish Kasino: the points waiting in the pots for the next hand."""
        return pots_before(self.match, self.match.hand_count + 1)

    @cached_property
    def event_table(self) -> EventTable | None:
        """The event's table this match is (its round and event), or None: one query, for a
        match of an event only."""
        if self.match.event_id is None:
            return None
        return EventTable.objects.filter(match=self.match).select_related("round__event").first()

    @property
    def time_note(self) -> str | None:
        """Time was called in the event's round: "last" while the hand numbered `last_hand`
        (the one in progress then) is being played, "more" for each hand after it while the top
        totals are equal, and "ahead" for a hand before it (its earlier hands undone, or a file
        imported so): the hands before it are ordinary hands, as the engine scores them."""
        match = self.match
        if not match.is_open:
            return None
        return rules.time_stage(match.last_hand, match.hand_count)

    @property
    def leader(self) -> int | None:
        """While the match is open, the side alone in the lead (None at the start or level)."""
        if not self.match.is_open or not self.match.hand_count:
            return None
        return lone_top([side.total for side in self.sides])

    @property
    def winner(self) -> SideView | None:
        return next((view for view in self.sides if view.is_winner), None)

    @property
    def tied_total(self) -> int | None:
        if self.match.status != Match.Status.TIED:
            return None
        return max(side.total for side in self.sides)

    @cached_property
    def offline(self) -> dict[str, Any]:
        """What the phone needs to score the next hands without signal (static/scoring/engine.js,
        the same rules as scoring/engine/rules.py): the rules with every option, who sits where, and the
        state the next hand is scored from, which is all rules.score_match carries from one hand
        to the next (the totals, a tie, Finnish pots). Its size does not grow with the match."""
        match = self.match
        return {
            "rules": matchdoc.rules_json(match.rules, every_option=True),
            "sides": self.side_names,
            "seats": self.seat_names,
            "first_dealer": match.first_dealer_seat,
            "hand_count": match.hand_count,
            "totals": [side.total for side in self.sides],
            "tied": match.status == Match.Status.TIED,
            "pots": list(self._pots),
            "last_hand": match.last_hand,
        }

    @property
    def cache_key(self) -> str:
        """What the board's rendered parts depend on besides the language: the match, in this
        version (names too: a rename gives a new version). Its creation time is in the key, as a
        deleted match's number may come back (a test database rolled back)."""
        match = self.match
        return f"{match.pk}:{match.created_at.timestamp()}:{match.version}"

    @property
    def entry_key(self) -> str:
        """What a new hand's blank form depends on besides the language: the match's table (its
        names) and game, not its version (a save renders only the form's number)."""
        match = self.match
        return f"{match.pk}:{match.created_at.timestamp()}:{match.variant}:" + "|".join(
            self.side_names
        )

    @cached_property
    def hands(self) -> list[HandRow]:
        """The score sheet's rows, read when first used (a board whose sheet is already
        rendered for this version does not read them). The hand before the first shown is read
        too: what each row's hand credited is the engine's score of it from the totals (and
        Finnish pots) that hand left."""
        match = self.match
        # One query for the hands and their tallies.
        tallies = (
            Tally.objects.filter(hand__match=match, hand__number__gte=self.first_hand - 1)
            .select_related("hand")
            .order_by("hand__number", "side__position")
        )
        by_hand: dict[int, list[Tally]] = {}
        for tally in tallies:
            by_hand.setdefault(tally.hand.number, []).append(tally)
        before = [side.start_total for side in self.sides]
        pots = rules.NO_POTS
        rows = []
        for number, hand_tallies in by_hand.items():
            if number >= self.first_hand:
                score = _stored_hand_score(match, hand_tallies, before, pots)
                rows.append(
                    HandRow(
                        number,
                        self.seat_names[hand_tallies[0].hand.dealer_seat],
                        hand_tallies,
                        number == match.hand_count,
                        credited=score.credited,
                        held=score.held,
                        winner=self._deciding_winner(number),
                    )
                )
            before, pots = _left_by(hand_tallies)
        return rows

    @cached_property
    def latest(self) -> HandRow | None:
        """The latest hand's row: from its tallies and score when a save just stored them, else
        read."""
        if self._last_tallies and self._last_score is not None:
            dealer = self._last_tallies[0].hand.dealer_seat
            number = self.match.hand_count
            return HandRow(
                number,
                self.seat_names[dealer],
                self._last_tallies,
                True,
                winner=self._deciding_winner(number),
                credited=self._last_score.credited,
                held=self._last_score.held,
            )
        return self.hands[-1] if self.hands else None

    def _deciding_winner(self, number: int) -> int | None:
        """The winner's position if hand `number` decided the match (the last of a won one)."""
        match = self.match
        if match.status == Match.Status.WON and number == match.hand_count:
            return match.winner_position
        return None

    @property
    def any_reduced(self) -> bool:
        """A hand on the sheet counted fewer points than its cards were worth for some side."""
        return any(row.reduced for row in self.hands)

    @property
    def any_via_link(self) -> bool:
        """A hand on the sheet came through the match's scoring link."""
        return any(row.via_link for row in self.hands)

    @property
    def held_at(self) -> int | None:
        """Dominican: the total a side was held at by a hand on the sheet (None: no side was)."""
        return next((cell.total for row in self.hands for cell in row.cells if cell.held), None)

    @property
    def running_totals(self) -> list[list[int]]:
        """Start totals, then each side's total after every hand (for the chart)."""
        return [
            [side.start_total for side in self.sides],
            *([tally.total_after for tally in row.tallies] for row in self.hands),
        ]


def match_board(
    match: Match,
    *,
    latest: int | None = BOARD_HANDS,
    seats: Sequence[Seat] = (),
    last_tallies: Sequence[Tally] = (),
    last_score: rules.HandScore | None = None,
) -> Board:
    """The scoreboard of `match`, with the score sheet's `latest` hands (every hand with
    latest=None); `seats`, the latest hand's `last_tallies` and its `last_score`, when the
    caller has them (a save just stored and scored them)."""
    return Board(
        match, latest=latest, seats=seats, last_tallies=last_tallies, last_score=last_score
    )


def _stored_hand_score(
    match: Match, tallies: Sequence[Tally], before: Sequence[int], pots: tuple[int, int]
) -> rules.HandScore:
    """The engine's score of a stored hand from the totals and pots the hand before it left:
    what each side's total gained, and which the Dominican rules held (the outcome is not
    read: it depends on the match's tie and time, and is stored on the match)."""
    return rules.score_hand(match.rules, [t.as_rules_tally() for t in tallies], before, pots=pots)


def _left_by(tallies: Sequence[Tally]) -> tuple[list[int], tuple[int, int]]:
    """The totals and (Finnish) pots a stored hand left, from its tallies read with it."""
    hand = tallies[0].hand
    return [tally.total_after for tally in tallies], (hand.pot_cards, hand.pot_spades)


@dataclass(frozen=True)
class HandEntry:
    """Who put a hand's counts in and when, and who last changed them. A name is None when the
    account is gone (or was never known). For members' pages only: the shared page shows no
    account."""

    entered_by: str | None
    entered_at: datetime
    changed_by: str | None
    changed_at: datetime | None  # None: never changed
    revisions: int  # earlier versions kept (hand_history)
    via_link: bool = False  # entered or last changed through the scoring link


@dataclass(frozen=True)
class HandDetail(HandRow):
    entry: HandEntry


def _account_name(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


def _hands_with_accounts(match: Match) -> QuerySet[Hand]:
    return match.hands.select_related("entered_by", "changed_by").annotate(
        revision_count=Count("revisions")
    )


def hand_entry(hand: Hand) -> HandEntry:
    """Who entered and last changed `hand` (read with _hands_with_accounts, or counted here)."""
    revisions = getattr(hand, "revision_count", None)
    return HandEntry(
        entered_by=_account_name(hand.entered_by),
        entered_at=hand.created_at,
        changed_by=_account_name(hand.changed_by) if hand.changed_at else None,
        changed_at=hand.changed_at,
        revisions=hand.revisions.count() if revisions is None else revisions,
        via_link=hand.via_link,
    )


def hand_detail(match: Match, number: int) -> HandDetail:
    """One hand of the score sheet, with its tallies (for its breakdown) and who entered and
    changed it, or 404."""
    hand = get_object_or_404(_hands_with_accounts(match), number=number)
    seat = match.seats.select_related("player").get(seat=hand.dealer_seat)
    tallies = list(hand.tallies.select_related("hand").order_by("side__position"))
    if number == 1:
        before = list(match.sides.order_by("position").values_list("start_total", flat=True))
        pots = rules.NO_POTS
    else:
        earlier = Tally.objects.filter(hand__match=match, hand__number=number - 1)
        before, pots = _left_by(list(earlier.select_related("hand").order_by("side__position")))
    score = _stored_hand_score(match, tallies, before, pots)
    return HandDetail(
        hand.number,
        seat.player.name,
        tallies,
        hand.number == match.hand_count,
        hand_entry(hand),
        credited=score.credited,
        held=score.held,
    )


@dataclass(frozen=True)
class SideCounts:
    """One side's counts in one version of a hand, as entered."""

    name: str
    # Counts, or for a hand entered as who took most what they stand for (`quick_word`).
    cards: int | str
    spades: int | str
    taken: list[str]  # the special cards taken, with their suit symbols: "10♦ (big casino)", "A♠"
    sweeps: int


@dataclass(frozen=True)
class HandVersion:
    """The counts a hand had from `at` (entered or changed by `by`) until `replaced_at` (by
    `replaced_by`); the current counts have no replaced_at. Version 1 is as first entered."""

    number: int
    sides: list[SideCounts]
    by: str | None
    at: datetime
    replaced_by: str | None = None
    replaced_at: datetime | None = None

    @property
    def is_current(self) -> bool:
        return self.replaced_at is None

    @property
    def is_first(self) -> bool:
        return self.number == 1


@dataclass(frozen=True)
class HandHistory:
    number: int
    versions: list[HandVersion]  # newest first: the current counts, then every earlier version

    @property
    def earlier(self) -> int:
        return len(self.versions) - 1


def _special_cards(tally: rules.Tally) -> list[str]:
    taken = []
    if tally.big_casino:
        taken.append(gettext("10♦ (big casino)"))
    if tally.little_casino:
        taken.append(gettext("2♠ (little casino)"))
    taken.extend(ace.symbol for ace in rules.ACES if ace.held(tally))
    return taken


QUICK_WORDS = {"most": gettext_lazy("most"), "tie": gettext_lazy("tie"), "fewer": "–"}


def quick_word(kind: str, count: int) -> str:
    """A quick hand's cards or spades (RULES.md §7.1) as what they stand for: "most", "tie" or
    "–", never the stand-in number."""
    return str(QUICK_WORDS[rules.quick_share(kind, count)])


def _side_counts(
    names: Sequence[str], tallies: Sequence[rules.Tally], quick: bool = False
) -> list[SideCounts]:
    def shown(tally: rules.Tally, kind: str) -> int | str:
        count = getattr(tally, kind)
        return quick_word(kind, count) if quick else count

    return [
        SideCounts(
            name, shown(tally, "cards"), shown(tally, "spades"), _special_cards(tally), tally.sweeps
        )
        for name, tally in zip(names, tallies, strict=True)
    ]


def hand_history(match: Match, number: int) -> HandHistory:
    """Hand `number` of the match as it is and as it was before each change, newest first
    (404 when there is no such hand)."""
    hand = get_object_or_404(match.hands.select_related("entered_by", "changed_by"), number=number)
    side_names = lineup(match).names(player_name)
    revisions = list(hand.revisions.select_related("by", "replaced_by").order_by("pk"))
    current = HandVersion(
        number=len(revisions) + 1,
        sides=_side_counts(side_names, hand_tallies(hand), hand.quick),
        by=_account_name(hand.changed_by if hand.changed_at else hand.entered_by),
        at=hand.changed_at or hand.created_at,
    )
    earlier = [
        HandVersion(
            number=index,
            sides=_side_counts(
                side_names, [rules.Tally.make(**item) for item in revision.tallies], revision.quick
            ),
            by=_account_name(revision.by),
            at=revision.at,
            replaced_by=_account_name(revision.replaced_by),
            replaced_at=revision.replaced_at,
        )
        for index, revision in enumerate(revisions, start=1)
    ]
    return HandHistory(hand.number, [current, *reversed(earlier)])


@dataclass(frozen=True)
class HandClash:
    """Hand `number` typed on this screen while another screen saved it with other counts: the
    saved counts beside the typed ones, for the player to keep the typed ones as hand
    `next_number` (None: the match is over) or discard them. Nothing is stored meanwhile."""

    number: int
    next_number: int | None
    saved: list[SideCounts]
    mine: list[SideCounts]

    @property
    def sides(self) -> list[tuple[SideCounts, SideCounts]]:
        """Each side's saved counts and typed counts, side by side."""
        return list(zip(self.saved, self.mine, strict=False))

    def as_json(self) -> dict[str, Any]:
        """For the outbox's script (outbox.js shows them as this page does)."""
        return {
            "saved": [vars(side) for side in self.saved],
            "mine": [vars(side) for side in self.mine],
        }


def hand_clash(
    match: Match,
    number: int,
    next_number: int | None,
    tallies: Sequence[rules.Tally],
    quick: bool = False,
) -> HandClash:
    """Hand `number` as stored beside `tallies`, the counts typed for it elsewhere (`quick`: as
    who took most)."""
    side_names = lineup(match).names(player_name)
    hand = match.hands.filter(number=number).first()
    saved = _side_counts(side_names, hand_tallies(hand), hand.quick) if hand else []
    return HandClash(number, next_number, saved, _side_counts(side_names, tallies, quick))


def hand_score_preview(
    match: Match, tallies: Sequence[rules.Tally], number: int
) -> tuple[rules.HandScore | None, bool]:
    """Score `tallies` as hand `number` of the match, without saving.

    Returns that hand's score and whether a later hand would then come after the winning one.
    The next hand is scored alone from the stored totals and tie, as services records it.
    """
    if number == match.hand_count + 1 and match.is_open:
        before = list(match.sides.order_by("position").values_list("total", flat=True))
        tied = match.status == Match.Status.TIED
        pots = pots_before(match, number)
        time_up = match.last_hand is not None and number >= match.last_hand
        scored = rules.score_hand(
            match.rules, tallies, before, tied_before=tied, pots=pots, time_up=time_up
        )
        return scored, False
    stored = list(
        match.hands.order_by("number").prefetch_related(
            Prefetch("tallies", queryset=Tally.objects.order_by("side__position"))
        )
    )
    hands = [[t.as_rules_tally() for t in hand.tallies.all()] for hand in stored]
    if number > len(hands) + 1:
        # A form out of date (hands undone on another phone meanwhile): no such hand to score;
        # its save says what to do.
        return None, False
    if number <= len(hands):
        hands[number - 1] = list(tallies)
    else:
        hands.append(list(tallies))
    start = list(match.sides.order_by("position").values_list("start_total", flat=True))
    try:
        score = rules.score_match(match.rules, hands, start, last_hand=match.last_hand)
    except rules.MatchOverError:
        return None, True
    return score.hands[number - 1], False


def hand_for_match(match: Match, number: int) -> Hand:
    """Hand `number` of the match, with who entered and changed it (hand_entry), or 404."""
    return get_object_or_404(_hands_with_accounts(match), number=number)


def hand_tallies(hand: Hand) -> list[rules.Tally]:
    return [t.as_rules_tally() for t in hand.tallies.order_by("side__position")]


def player_list(circle: Circle) -> QuerySet[Player]:
    return Player.objects.filter(circle=circle)
