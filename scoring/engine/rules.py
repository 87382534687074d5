"""The Casino scoring engine: pure Python, no Django.

It implements docs/RULES.md for Casino, Royal Casino, Dominican Royal Casino, Swedish Kasino,
Finnish Kasino and Spade Casino. The app keeps
score of physical games, so the input of a hand is what each *side* (a player, or a partnership)
captured, a `Tally`, and the output is points, running totals, who has won and why, and what the
next hand looks like at the table (dealer, leader, deals, Dominican endgame conditions).

Results are immutable `NamedTuple`s: as cheap to build as tuples, which keeps the engine well above
100,000 scored hands a second (see `manage.py bench_rules`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, NamedTuple, TypeVar


def gettext_noop(message: str) -> str:
    """Mark a string for translation without translating it (read by `makemessages`)."""
    return message


class Variant(StrEnum):
    CASINO = "casino"
    ROYAL = "royal"
    DOMINICAN = "dominican"
    SWEDISH = "swedish"
    FINNISH = "finnish"
    SPADE = "spade"


class SweepRule(StrEnum):
    OFF = "off"
    COUNT = "count"
    CANCEL = "cancel"


class SeveralReach(StrEnum):
    HIGHEST = "highest"
    COUNT_OUT = "count-out"


class Scoring(StrEnum):
    CUMULATIVE = "cumulative"
    DIFFERENCE = "difference"


class TwentyNeeds(StrEnum):
    LITTLE_CASINO = "little-casino"
    MOST_SPADES = "most-spades"


class Ties(StrEnum):
    """Finnish Kasino: a tie for most cards or most spades goes into a pot (carry) or is lost."""

    CARRY = "carry"
    NONE = "none"


class SweepFreeze(StrEnum):
    """Finnish Kasino: sweeps score nothing once a side had 10 or more before the hand."""

    TEN = "10"
    OFF = "off"


class Status(StrEnum):
    PLAYING = "playing"
    WON = "won"
    TIED = "tied"


PACK = 52
SPADES = 13
MAX_SWEEPS = 24
DEFAULT_TARGET = 21
# Royal Casino's count-out order: the first side to reach the target while the hand is counted
# in this order wins, whatever the final totals.
COUNT_OUT_ORDER = (
    "cards",
    "spades",
    "big_casino",
    "little_casino",
    "S",
    "C",
    "H",
    "D",
    "sweeps",
    "last_capture",  # Swedish Kasino only (0 elsewhere): the last thing that happens in a hand
)
# The count-out of the other variants that count out, as steps of categories counted together
# (RULES.md §9): Finnish point cards first, then most cards and most spades (with their pots),
# then sweeps; Spade Casino everything pegged during play first, most cards last.
POINT_CARDS = ("aces", "big_casino", "little_casino")
PEGGED = ("spades", "jack_of_spades", "little_casino", "big_casino", "aces", "sweeps")
# Finnish Kasino: the points a tie for most cards / most spades puts into its pot.
FINNISH_CARDS, FINNISH_SPADES = 1, 2
FINNISH_FREEZE = 10
NO_POTS = (0, 0)
DEALS_PER_HAND = {2: 6, 3: 4, 4: 3}


@dataclass(frozen=True, slots=True)
class Rules:
    """A match's variant and options. Build it with `Rules.make` to get the variant's defaults."""

    variant: Variant
    target: int = DEFAULT_TARGET
    sweeps: SweepRule = SweepRule.COUNT
    several_reach: SeveralReach = SeveralReach.HIGHEST
    scoring: Scoring = Scoring.CUMULATIVE
    twenty_needs: TwentyNeeds = TwentyNeeds.LITTLE_CASINO
    ties: Ties = Ties.CARRY
    sweep_freeze: SweepFreeze = SweepFreeze.TEN

    @classmethod
    def make(
        cls,
        variant: Variant | str,
        *,
        target: int | None = None,
        sweeps: SweepRule | str | None = None,
        several_reach: SeveralReach | str | None = None,
        scoring: Scoring | str | None = None,
        twenty_needs: TwentyNeeds | str | None = None,
        ties: Ties | str | None = None,
        sweep_freeze: SweepFreeze | str | None = None,
    ) -> Rules:
        """Rules for `variant`, with every option left as None taking the variant's default.

        Raises ValueError for an unknown variant or option value, a target below 1, or sweeps
        other than cancel in Finnish Kasino.
        """
        variant = Variant(variant)
        defaults = variant_defaults(variant)
        rules = cls(
            variant=variant,
            target=defaults.target if target is None else int(target),
            sweeps=defaults.sweeps if sweeps is None else SweepRule(sweeps),
            several_reach=(
                defaults.several_reach if several_reach is None else SeveralReach(several_reach)
            ),
            scoring=defaults.scoring if scoring is None else Scoring(scoring),
            twenty_needs=defaults.twenty_needs
            if twenty_needs is None
            else TwentyNeeds(twenty_needs),
            ties=Ties.CARRY if ties is None else Ties(ties),
            sweep_freeze=SweepFreeze.TEN if sweep_freeze is None else SweepFreeze(sweep_freeze),
        )
        rules._check_options()
        return rules

    def _check_options(self) -> None:
        """Raise ValueError for the options no table plays with."""
        if self.target < 1:
            raise ValueError("target must be at least 1")
        if self.variant is Variant.FINNISH and self.sweeps is not SweepRule.CANCEL:
            raise ValueError("Finnish Kasino's sweeps always cancel")

    @property
    def clockwise(self) -> bool:
        """Casino and Royal Casino go clockwise; Dominican Royal Casino counter-clockwise."""
        return self.variant is not Variant.DOMINICAN

    @property
    def endgame_from(self) -> int | None:
        """The total from which Dominican near-target rules apply (target - 3), else None.

        Targets below 4 would put a side at 0 under the rules before it has played, so the
        near-target rules only apply from target 4 up.
        """
        if self.variant is Variant.DOMINICAN and self.target >= 4:
            return self.target - 3
        return None


TARGETS = {Variant.SWEDISH: 16, Variant.FINNISH: 16, Variant.SPADE: 61}
CANCELLING = {Variant.DOMINICAN, Variant.FINNISH}
COUNTING_OUT = {Variant.ROYAL, Variant.FINNISH, Variant.SPADE}


def variant_defaults(variant: Variant | str) -> Rules:
    """The options a variant is played with unless the table says otherwise (RULES.md §3, §9)."""
    variant = Variant(variant)
    return Rules(
        variant=variant,
        target=TARGETS.get(variant, DEFAULT_TARGET),
        sweeps=SweepRule.CANCEL if variant in CANCELLING else SweepRule.COUNT,
        several_reach=(SeveralReach.COUNT_OUT if variant in COUNTING_OUT else SeveralReach.HIGHEST),
    )


# --- the special cards -----------------------------------------------------------------------


class Card(NamedTuple):
    """A card that scores by itself, so a tally records who took it (RULES.md §2).

    The one place the app names these cards: the hand form, the deck checks, the outcome texts
    and the benchmarks all take their codes, symbols and names from here.
    """

    code: str  # "10D": what problems call it, and the hand form's field (card_10D)
    symbol: str  # "10♦", as printed on the card
    field: str  # the Tally field that records who took it ("aces" for the four aces)
    name: str  # "big casino (10♦)": its name in problems and form labels (to be translated)
    taken: str = ""  # "the big casino (10♦)": what a side took, in outcome texts ("": not said)
    suit: str = ""  # an ace's letter in Tally.aces

    @property
    def red(self) -> bool:
        """Hearts and diamonds are printed red."""
        return self.symbol[-1] in "♥♦"

    @property
    def spade(self) -> bool:
        return self.symbol[-1] == "♠"

    @property
    def category(self) -> str:
        """Its key in COUNT_OUT_ORDER and endgame conditions: the Tally field, or an ace's suit."""
        return self.suit or self.field

    def held(self, tally: Tally) -> bool:
        """Whether `tally` (or anything with a tally's fields) took this card."""
        if self.suit:
            return self.suit in tally.aces
        return bool(getattr(tally, self.field))


BIG_CASINO = Card(
    "10D",
    "10♦",
    "big_casino",
    gettext_noop("big casino (10♦)"),
    gettext_noop("the big casino (10♦)"),
)
LITTLE_CASINO = Card(
    "2S",
    "2♠",
    "little_casino",
    gettext_noop("little casino (2♠)"),
    gettext_noop("the little casino (2♠)"),
)
ACES = (
    Card("AS", "A♠", "aces", gettext_noop("ace of spades"), gettext_noop("the ace of spades"), "S"),
    Card("AC", "A♣", "aces", gettext_noop("ace of clubs"), gettext_noop("the ace of clubs"), "C"),
    Card("AH", "A♥", "aces", gettext_noop("ace of hearts"), gettext_noop("the ace of hearts"), "H"),
    Card(
        "AD",
        "A♦",
        "aces",
        gettext_noop("ace of diamonds"),
        gettext_noop("the ace of diamonds"),
        "D",
    ),
)
# Spade Casino only (in the other variants it is a plain spade).
JACK_OF_SPADES = Card("JS", "J♠", "jack_of_spades", gettext_noop("jack of spades (J♠)"))
# The six cards every variant records, in the order the hand form asks for them.
SPECIAL_CARDS = (BIG_CASINO, LITTLE_CASINO, *ACES)
# Every special card by its code.
CARDS = {card.code: card for card in (*SPECIAL_CARDS, JACK_OF_SPADES)}
ACE_SUITS = "".join(ace.suit for ace in ACES)  # "SCHD"


class Tally(NamedTuple):
    """What one side captured in one hand (partners' piles pooled).

    `aces` holds the suit letters of the aces captured, any of "SCHD".
    """

    cards: int
    spades: int
    big_casino: bool
    little_casino: bool
    aces: str
    sweeps: int
    # Swedish Kasino: this side made the hand's last capture. Spade Casino: it holds the J♠.
    last_capture: bool = False
    jack_of_spades: bool = False

    @classmethod
    def make(
        cls,
        *,
        cards: int,
        spades: int,
        big_casino: bool = False,
        little_casino: bool = False,
        aces: Iterable[str] = "",
        sweeps: int = 0,
        last_capture: bool = False,
        jack_of_spades: bool = False,
    ) -> Tally:
        """Build a tally with the ace letters upper-cased, de-duplicated and in S C H D order."""
        held = {letter.upper() for letter in aces}
        unknown = held - set(ACE_SUITS)
        if unknown:
            raise ValueError(f"unknown ace suit(s): {''.join(sorted(unknown))}")
        normalized = "".join(suit for suit in ACE_SUITS if suit in held)
        return cls(
            cards,
            spades,
            bool(big_casino),
            bool(little_casino),
            normalized,
            sweeps,
            bool(last_capture),
            bool(jack_of_spades),
        )


class Breakdown(NamedTuple):
    """Points one side earned in one hand, per category (sweeps after cancelling and blocking)."""

    cards: int = 0
    spades: int = 0
    big_casino: int = 0
    little_casino: int = 0
    aces: int = 0
    sweeps: int = 0
    last_capture: int = 0
    jack_of_spades: int = 0

    @property
    def points(self) -> int:
        return (
            self.cards
            + self.spades
            + self.big_casino
            + self.little_casino
            + self.aces
            + self.sweeps
            + self.last_capture
            + self.jack_of_spades
        )


class Outcome(NamedTuple):
    """Why the match ended (or is tied) after a hand.

    kind is one of (OUTCOME_KINDS; `outcomes` lists the (kind, category) pairs a game can give):
    - "reached": the only side to reach the target;
    - "highest": several reached it, this side had the highest total;
    - "count-out": several reached it, this side got there first counting in COUNT_OUT_ORDER
      (`category` says at which step; for Finnish and Spade Casino a step of several categories
      is named by "point_cards" or "pegged");
    - "same-step": counting out, several reached it at the same step (`category`, as for
      "count-out"), and this side had the highest total of them;
    - "condition": Dominican near-target rule met (`category` is what it had to take);
    - "conditions": several sides met their Dominican condition; this side's (`category`) comes
      first in COUNT_OUT_ORDER;
    - "tied": several sides share the top total at or past the target (side is None);
    - "time": an event rule, not a game rule (RULES.md, "Time in a club-night round"): time was
      called in a timed round, and after the hand in progress (or a later one) this side alone
      held the highest total without the game's own rules having ended the match in that hand.
    Swedish Kasino: "highest" with category "spades" when equal top totals were decided by the
    spades taken in that hand (also when they reached the target at the same count-out step).
    """

    kind: str
    side: int | None
    category: str | None = None
    total: int | None = None


# Every kind of Outcome (the words of the board have a sentence for each).
OUTCOME_KINDS = (
    "reached",
    "highest",
    "count-out",
    "same-step",
    "condition",
    "conditions",
    "tied",
    "time",
)


class HandScore(NamedTuple):
    breakdown: tuple[Breakdown, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    status: Status
    winner: int | None
    outcome: Outcome | None
    # Finnish Kasino: the points waiting in the most-cards and most-spades pots after the hand.
    pots: tuple[int, int] = NO_POTS
    # What each side's total gained: its points, or with difference scoring the margin (or
    # nothing), and for a side held at target - 1 by the Dominican rules (§6) only up to it.
    credited: tuple[int, ...] = ()
    # Dominican (§6): the sides whose total was held at target - 1 (points above it not counted).
    held: tuple[bool, ...] = ()


class Turn(NamedTuple):
    """Who is who at the table for one hand. Seats are numbered clockwise from 0."""

    hand_number: int
    dealer_seat: int
    leader_seat: int
    deals: int
    clockwise: bool


class MatchScore(NamedTuple):
    hands: tuple[HandScore, ...]
    totals: tuple[int, ...]
    status: Status
    winner: int | None
    outcome: Outcome | None
    # For the hand about to be played (None once the match is won):
    conditions: tuple[str | None, ...] | None
    pots: tuple[int, int] = NO_POTS


# --- scoring ---------------------------------------------------------------------------------


def _most(counts: Sequence[int]) -> int | None:
    """Index of the strict plurality, or None when the top count is tied."""
    top = max(counts)
    winner = None
    for index, count in enumerate(counts):
        if count == top:
            if winner is not None:
                return None
            winner = index
    return winner


def endgame_condition(rules: Rules, total_before: int) -> str | None:
    """The category a Dominican side must take to win this hand, or None if unrestricted.

    At target-3 a side needs most cards, at target-2 the big casino, at target-1 the little
    casino (or most spades with twenty_needs="most-spades"). RULES.md §6.
    """
    return _endgame_conditions(rules).get(rules.target - total_before)


def _endgame_conditions(rules: Rules) -> dict[int, str]:
    """The Dominican conditions by how many points short of the target they apply ({}: none)."""
    if rules.endgame_from is None:
        return {}
    twenty = "spades" if rules.twenty_needs is TwentyNeeds.MOST_SPADES else "little_casino"
    return {3: "cards", 2: "big_casino", 1: twenty}


def _net_sweeps(rules: Rules, tallies: Sequence[Tally], before: Sequence[int]) -> list[int]:
    """Each side's sweeps after the variant's rule: off, counted, or cancelled (§4); Finnish
    sweeps are void, and do not cancel, once any side had 10 or more before the hand (§9.2)."""
    sides = len(tallies)
    if rules.sweeps is SweepRule.OFF:
        return [0] * sides
    if (
        rules.variant is Variant.FINNISH
        and rules.sweep_freeze is SweepFreeze.TEN
        and max(before) >= FINNISH_FREEZE
    ):
        return [0] * sides
    sweeps = [t.sweeps for t in tallies]
    if rules.sweeps is SweepRule.CANCEL:
        least = min(sweeps)
        if least:
            sweeps = [count - least for count in sweeps]
    return sweeps


def _finnish_majorities(
    rules: Rules, tallies: Sequence[Tally], pots: tuple[int, int]
) -> tuple[list[int], list[int], tuple[int, int]]:
    """Finnish Kasino's most-cards and most-spades points per side, and the pots after the hand.

    An outright winner takes the category's points and its pot; a tie puts the points into the
    pot (with ties "carry") or loses them. A two-way tie for most spades among 3 or 4 sides gives
    each of the two 1 point and leaves the pot as it was (§9.2).
    """
    carry = rules.ties is Ties.CARRY
    cards, cards_pot = _finnish_cards(tallies, pots[0], carry)
    spades, spades_pot = _finnish_spades(tallies, pots[1], carry)
    return cards, spades, (cards_pot, spades_pot)


def _finnish_cards(tallies: Sequence[Tally], pot: int, carry: bool) -> tuple[list[int], int]:
    """Finnish most-cards points per side, and the cards pot after the hand."""
    cards = [0] * len(tallies)
    winner = _most([t.cards for t in tallies])
    if winner is not None:
        cards[winner], pot = FINNISH_CARDS + pot, 0
    elif carry:
        pot += FINNISH_CARDS
    return cards, pot


def _finnish_spades(tallies: Sequence[Tally], pot: int, carry: bool) -> tuple[list[int], int]:
    """Finnish most-spades points per side, and the spades pot after the hand."""
    sides = len(tallies)
    spades = [0] * sides
    counts = [t.spades for t in tallies]
    winner = _most(counts)
    top = [side for side, count in enumerate(counts) if count == max(counts)]
    if winner is not None:
        spades[winner], pot = FINNISH_SPADES + pot, 0
    elif sides >= 3 and len(top) == 2:
        for side in top:
            spades[side] = FINNISH_SPADES // 2
    elif carry:
        pot += FINNISH_SPADES
    return spades, pot


def _majorities(variant: Variant, tallies: Sequence[Tally]) -> tuple[list[int], list[int]]:
    """Most-cards and most-spades points per side in the variants without pots (Spade Casino:
    every spade scores, no point for most spades)."""
    sides = len(tallies)
    cards_winner = _most([t.cards for t in tallies])
    spades_winner = _most([t.spades for t in tallies])
    most_cards, most_spades = {
        Variant.SWEDISH: (1, 2),
        Variant.SPADE: (3, 0),
    }.get(variant, (3, 1))
    cards = [most_cards if side == cards_winner else 0 for side in range(sides)]
    if variant is Variant.SPADE:  # every spade scores; no point for most spades
        spades = [t.spades for t in tallies]
    else:
        spades = [most_spades if side == spades_winner else 0 for side in range(sides)]
    return cards, spades


def score_breakdown(
    rules: Rules,
    tallies: Sequence[Tally],
    before: Sequence[int],
    pots: tuple[int, int] = NO_POTS,
) -> tuple[tuple[Breakdown, ...], tuple[int, int]]:
    """Points per category for each side of one hand, given the totals (and, for Finnish Kasino,
    the pots) before the hand; and the pots after it."""
    variant = rules.variant
    sweeps = _sweep_points(rules, tallies, before)
    if variant is Variant.FINNISH:
        cards, spades, pots = _finnish_majorities(rules, tallies, pots)
    else:
        cards, spades = _majorities(variant, tallies)
        pots = NO_POTS
    result = [
        _side_breakdown(variant, tallies[index], cards[index], spades[index], sweeps[index])
        for index in range(len(tallies))
    ]
    return tuple(result), pots


def _sweep_points(rules: Rules, tallies: Sequence[Tally], before: Sequence[int]) -> list[int]:
    """The sweeps each side scores. Dominican: a side at target-3 or more scores none (its raw
    sweeps still cancelled the others')."""
    sweeps = _net_sweeps(rules, tallies, before)
    blocked_from = rules.endgame_from
    if blocked_from is None:
        return sweeps
    return [
        0 if count and before[side] >= blocked_from else count for side, count in enumerate(sweeps)
    ]


def _side_breakdown(
    variant: Variant, tally: Tally, cards: int, spades: int, sweeps: int
) -> Breakdown:
    """One side's points per category, from its majorities and sweeps and its own tally."""
    return Breakdown(
        cards,
        spades,
        2 if tally.big_casino else 0,
        1 if tally.little_casino else 0,
        len(tally.aces),
        sweeps,
        1 if variant is Variant.SWEDISH and tally.last_capture else 0,
        1 if variant is Variant.SPADE and tally.jack_of_spades else 0,
    )


def _condition_met(condition: str, breakdown: Breakdown) -> bool:
    return getattr(breakdown, condition) > 0


def _count_out_steps(variant: Variant) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The count-out as (step name, categories counted together) in order."""
    if variant is Variant.FINNISH:
        return (
            ("point_cards", POINT_CARDS),
            ("cards", ("cards",)),
            ("spades", ("spades",)),
            ("sweeps", ("sweeps",)),
        )
    if variant is Variant.SPADE:
        return (("pegged", PEGGED), ("cards", ("cards",)))
    return tuple((category, (category,)) for category in COUNT_OUT_ORDER)


def _count_out(
    rules: Rules,
    tallies: Sequence[Tally],
    breakdown: Sequence[Breakdown],
    before: Sequence[int],
    totals: Sequence[int],
    candidates: Sequence[int],
) -> Outcome:
    """Replay the hand onto `before`, step by step in the variant's count-out order: the first
    candidate at the target wins; several reaching it at the same step are told apart by their
    final totals."""
    running = list(before)
    for step, categories in _count_out_steps(rules.variant):
        _count_step(tallies, breakdown, categories, candidates, running)
        reached = [side for side in candidates if running[side] >= rules.target]
        if len(reached) == 1:
            return Outcome("count-out", reached[0], step, totals[reached[0]])
        if reached:
            return _reached_together(rules, tallies, totals, reached, step)
    return _highest(rules, tallies, totals, candidates)


def _count_step(
    tallies: Sequence[Tally],
    breakdown: Sequence[Breakdown],
    categories: Sequence[str],
    candidates: Sequence[int],
    running: list[int],
) -> None:
    """Add one count-out step's categories to the candidates' `running` totals."""
    for side in candidates:
        for category in categories:
            if category in ACE_SUITS:
                running[side] += 1 if category in tallies[side].aces else 0
            else:
                running[side] += getattr(breakdown[side], category)


def _reached_together(
    rules: Rules,
    tallies: Sequence[Tally],
    totals: Sequence[int],
    reached: Sequence[int],
    step: str,
) -> Outcome:
    """Several reached the target at the same step: the highest final total, else tied."""
    outcome = _highest(rules, tallies, totals, reached)
    if outcome.kind == "highest" and outcome.category is None:
        return Outcome("same-step", outcome.side, step, outcome.total)
    return outcome


def _highest(
    rules: Rules, tallies: Sequence[Tally], totals: Sequence[int], candidates: Sequence[int]
) -> Outcome:
    """The candidate alone on the highest total; in Swedish Kasino equal top totals go to the
    one of them that took more spades in the hand (§9.1); else tied."""
    top = max(totals[side] for side in candidates)
    leaders = [side for side in candidates if totals[side] == top]
    if len(leaders) == 1:
        return Outcome("highest", leaders[0], None, top)
    if rules.variant is Variant.SWEDISH:
        most = max(tallies[side].spades for side in leaders)
        spades_leaders = [side for side in leaders if tallies[side].spades == most]
        if len(spades_leaders) == 1:
            return Outcome("highest", spades_leaders[0], "spades", top)
    return Outcome("tied", None, None, top)


def score_hand(
    rules: Rules,
    tallies: Sequence[Tally],
    before: Sequence[int],
    *,
    tied_before: bool = False,
    pots: tuple[int, int] = NO_POTS,
    time_up: bool = False,
) -> HandScore:
    """Score one hand from the totals (and Finnish pots) before it. The tallies must be valid
    (see `validate`).

    `tied_before` says the previous hand ended tied: then the first hand after which one side
    alone holds the highest total decides (RULES.md §5), whatever the several-reach policy.
    `time_up` says time was called in a timed round and this is the hand in progress or a later
    one: unless the game's own rules won the match in this hand, the side alone on the highest
    total (as the rules leave the totals, a Dominican side held at target - 1 included) wins
    with outcome kind "time"; equal top totals keep the normal result (playing, or tied).
    """
    breakdown, pots = score_breakdown(rules, tallies, before, pots)
    points = tuple(b.points for b in breakdown)
    gains = _credited(rules, points)
    totals = [total + gain for total, gain in zip(before, gains, strict=True)]
    unheld = tuple(totals)
    outcome = _hand_outcome(rules, tallies, breakdown, before, totals, tied_before)
    if time_up:
        outcome = _time_outcome(outcome, totals)
    status, winner = _status_of(outcome)
    credited = tuple(after - total for after, total in zip(totals, before, strict=True))
    held = tuple(after != free for after, free in zip(totals, unheld, strict=True))
    return HandScore(
        breakdown, points, tuple(totals), status, winner, outcome, pots, credited, held
    )


def _hand_outcome(
    rules: Rules,
    tallies: Sequence[Tally],
    breakdown: Sequence[Breakdown],
    before: Sequence[int],
    totals: list[int],
    tied_before: bool,
) -> Outcome | None:
    """How the hand ends the match by the game's rules: a Dominican condition, else the target."""
    outcome: Outcome | None = None
    if rules.endgame_from is not None:
        outcome = _endgame_outcome(rules, breakdown, before, totals)
    if outcome is None:
        outcome = _target_outcome(rules, tallies, breakdown, before, totals, tied_before)
    return outcome


def _time_outcome(outcome: Outcome | None, totals: Sequence[int]) -> Outcome | None:
    """Time called: unless the rules won the match, the side alone on the highest total wins."""
    if outcome is not None and outcome.kind != "tied":
        return outcome
    leader = _most(totals)
    if leader is None:
        return outcome
    return Outcome("time", leader, None, totals[leader])


def _status_of(outcome: Outcome | None) -> tuple[Status, int | None]:
    """The match's status and winner after a hand with this outcome."""
    if outcome is None:
        return Status.PLAYING, None
    return (Status.TIED if outcome.kind == "tied" else Status.WON), outcome.side


def _credited(rules: Rules, points: tuple[int, ...]) -> tuple[int, ...]:
    """What each side adds to its total: its points, or with difference scoring (two sides)
    the margin to the side ahead and nothing to the other."""
    if rules.scoring is Scoring.DIFFERENCE and len(points) == 2:
        margin = points[0] - points[1]
        return (margin, 0) if margin > 0 else (0, -margin)
    return points


def _endgame_outcome(
    rules: Rules, breakdown: Sequence[Breakdown], before: Sequence[int], totals: list[int]
) -> Outcome | None:
    """Dominican near-target rules (RULES.md §6): a side that met its condition wins (the first
    condition in COUNT_OUT_ORDER if several did); a restricted side that missed its condition is
    held at target - 1 in `totals`, which this updates."""
    met: list[tuple[int, int]] = []
    for side, total in enumerate(before):
        condition = endgame_condition(rules, total)
        if condition is None:
            continue
        if _condition_met(condition, breakdown[side]):
            met.append((COUNT_OUT_ORDER.index(condition), side))
        elif totals[side] >= rules.target:
            totals[side] = rules.target - 1  # a restricted side that misses cannot win this hand
    if not met:
        return None
    category_rank, side = min(met)
    kind = "conditions" if len(met) > 1 else "condition"
    return Outcome(kind, side, COUNT_OUT_ORDER[category_rank], totals[side])


def _target_outcome(
    rules: Rules,
    tallies: Sequence[Tally],
    breakdown: Sequence[Breakdown],
    before: Sequence[int],
    totals: Sequence[int],
    tied_before: bool,
) -> Outcome | None:
    """Who reached the target after the hand: the only one, else the highest total or the
    count-out (the highest always after a tied hand), or None while nobody has."""
    reached = [side for side, total in enumerate(totals) if total >= rules.target]
    if len(reached) == 1:
        side = reached[0]
        return Outcome("reached", side, None, totals[side])
    if not reached:
        return None
    if tied_before or rules.several_reach is SeveralReach.HIGHEST:
        return _highest(rules, tallies, totals, reached)
    return _count_out(rules, tallies, breakdown, before, totals, reached)


def outcomes(rules: Rules) -> frozenset[tuple[str, str | None]]:
    """Every (kind, category) of an Outcome `score_hand` can give under `rules` (see Outcome),
    read from the same steps and conditions the scoring uses: what a page must have words for."""
    given: set[tuple[str, str | None]] = {
        ("reached", None),
        ("highest", None),  # the highest policy, and always after a tied hand
        ("tied", None),
        ("time", None),
    }
    if rules.variant is Variant.SWEDISH:
        given.add(("highest", "spades"))
    if rules.several_reach is SeveralReach.COUNT_OUT:
        for step, _categories in _count_out_steps(rules.variant):
            given |= {("count-out", step), ("same-step", step)}
    conditions = sorted(_endgame_conditions(rules).values(), key=COUNT_OUT_ORDER.index)
    given |= {("condition", condition) for condition in conditions}
    # Several met: the first in the count-out order wins, so never the last condition.
    given |= {("conditions", condition) for condition in conditions[:-1]}
    return frozenset(given)


class MatchOverError(ValueError):
    """A hand was given after the hand that decided the match."""

    def __init__(self, hand_index: int) -> None:
        super().__init__(f"hand {hand_index + 1} comes after the match was won")
        self.hand_index = hand_index


def score_match(
    rules: Rules,
    hands: Iterable[Sequence[Tally]],
    start_totals: Sequence[int] | None = None,
    *,
    sides: int | None = None,
    last_hand: int | None = None,
) -> MatchScore:
    """Score a whole match, hand by hand, from `start_totals` (zeros by default).

    The tallies must be valid (see `validate`). Raises MatchOverError for a hand after the
    deciding one. `sides` is needed only when there are no hands and no start totals.
    `last_hand`: in a timed round, the number (1-based) of the hand in progress when time was
    called; from that hand on each hand is scored with `time_up` (see `score_hand`).
    """
    if start_totals is not None:
        totals: tuple[int, ...] = tuple(start_totals)
    else:
        hands = list(hands)
        count = sides if sides is not None else (len(hands[0]) if hands else 2)
        totals = (0,) * count
    outcome = _start_tie(rules, totals)
    status = Status.PLAYING if outcome is None else Status.TIED
    winner = None
    scored = []
    pots = NO_POTS
    for index, tallies in enumerate(hands):
        if status is Status.WON:
            raise MatchOverError(index)
        hand = score_hand(
            rules,
            tallies,
            totals,
            tied_before=status is Status.TIED,
            pots=pots,
            time_up=last_hand is not None and index + 1 >= last_hand,
        )
        scored.append(hand)
        totals, status, winner, outcome = hand.totals, hand.status, hand.winner, hand.outcome
        pots = hand.pots
    conditions = _open_conditions(rules, status, totals)
    return MatchScore(tuple(scored), totals, status, winner, outcome, conditions, pots)


def _start_tie(rules: Rules, totals: tuple[int, ...]) -> Outcome | None:
    """Several sides share the top total at or past the target: the match starts tied (§5).
    (One side alone there has already won: callers refuse such start totals, see
    `start_leader`.)"""
    if totals and max(totals) >= rules.target and totals.count(max(totals)) > 1:
        return Outcome("tied", None, None, max(totals))
    return None


def _open_conditions(
    rules: Rules, status: Status, totals: tuple[int, ...]
) -> tuple[str | None, ...] | None:
    """Each side's Dominican condition for the next hand; None once the match is won."""
    if status is Status.WON:
        return None
    return tuple(endgame_condition(rules, total) for total in totals)


def time_stage(last_hand: int | None, hands_played: int) -> str | None:
    """Where an open match of a timed round stands (see `score_match`'s `last_hand`): "last"
    while the hand numbered `last_hand` is played, "more" for a hand after it (the top totals
    were equal), "ahead" for a hand before it (an ordinary hand: earlier hands undone, or a
    file read so); None when no time was called."""
    if last_hand is None:
        return None
    playing = hands_played + 1
    if playing == last_hand:
        return "last"
    return "ahead" if playing < last_hand else "more"


def start_leader(target: int, start_totals: Sequence[int]) -> int | None:
    """The side that has already won with these start totals, or None (RULES.md §5).

    That is a side alone on the top total, at or past the target: such start totals are refused.
    Several sides sharing that top start the match tied (see `score_match`).
    """
    if not start_totals:
        return None
    top = max(start_totals)
    if top < target or list(start_totals).count(top) > 1:
        return None
    return list(start_totals).index(top)


# --- the table: who sits where -------------------------------------------------------------------

P = TypeVar("P")

# How a partnership is named: "Ana & Cleo".
PARTNERS = " & "

# The tables a match may have, as (sides, players per side): 2, 3 or 4 players alone, or two
# teams of two.
TABLES = ((2, 1), (3, 1), (4, 1), (2, 2))

# What can be wrong with a table (`table_problem`), in words.
TABLE_PROBLEMS = {
    "players": gettext_noop("A match has 2, 3 or 4 players, or two teams of two."),
    "partners": gettext_noop("Partnerships are two teams of two."),
    "difference_sides": gettext_noop("Difference scoring needs exactly two sides."),
}


def side_name(players: Sequence[str]) -> str:
    """A side's name: the player, or "Ana & Cleo" for a partnership."""
    return PARTNERS.join(players)


def table_problem(side_sizes: Sequence[int], scoring: Scoring | str | None = None) -> str | None:
    """What is wrong with a table whose sides have these numbers of players (a key of
    TABLE_PROBLEMS), or None for a table the game allows; `scoring` the match's scoring, when
    known. The one check behind the match form, the match format, the services and the bulk
    writer."""
    sizes = set(side_sizes)
    if not 2 <= len(side_sizes) <= 4 or len(sizes) != 1 or not sizes <= {1, 2}:
        return "players"
    if (len(side_sizes), side_sizes[0]) not in TABLES:
        return "partners"
    if scoring is not None and Scoring(scoring) is Scoring.DIFFERENCE and len(side_sizes) != 2:
        return "difference_sides"
    return None


@dataclass(frozen=True)
class Lineup(Generic[P]):
    """Who sits where: each side's players (names, or any player object), in seat order.

    Seats alternate sides, so seat s belongs to side s % sides and partners sit opposite: with
    sides ((Ana, Cleo), (Ben, Dan)) Ana sits in seat 0, Ben in 1, Cleo in 2 and Dan in 3."""

    sides: tuple[tuple[P, ...], ...]

    @classmethod
    def of(cls, sides: Lineup[P] | Iterable[Iterable[P]]) -> Lineup[P]:
        if isinstance(sides, Lineup):
            return sides
        return cls(tuple(tuple(players) for players in sides))

    @classmethod
    def from_seats(cls, seats: Iterable[tuple[int, int, P]]) -> Lineup[P]:
        """From (seat, side position, player) triples, in any order."""
        by_side: dict[int, list[P]] = {}
        for _seat, side, player in sorted(seats, key=lambda seat: seat[0]):
            by_side.setdefault(side, []).append(player)
        return cls(tuple(tuple(by_side[side]) for side in sorted(by_side)))

    @property
    def seat_count(self) -> int:
        return sum(len(players) for players in self.sides)

    def seats(self) -> list[tuple[int, int, P]]:
        """(seat, side position, player) for every seat, in seat order."""
        count = len(self.sides)
        return sorted(
            (position + index * count, position, player)
            for position, players in enumerate(self.sides)
            for index, player in enumerate(players)
        )

    def names(self, name: Callable[[P], str] = str) -> list[str]:
        """Each side's name ("Ana & Cleo" for partners), a player's name given by `name`."""
        return [side_name([name(player) for player in players]) for players in self.sides]

    def problem(self, scoring: Scoring | None = None) -> str | None:
        """What is wrong with this table (`table_problem`), or None."""
        return table_problem([len(players) for players in self.sides], scoring)


def table_turn(rules: Rules, *, players: int, first_dealer: int, hand_index: int) -> Turn:
    """Dealer, leader and number of deals for hand `hand_index` (0-based). RULES.md §8.

    Seats are numbered clockwise. The player after the dealer, in the direction of play, leads
    every deal and deals the next hand.
    """
    if players not in DEALS_PER_HAND:
        raise ValueError("a table has 2, 3 or 4 players")
    step = 1 if rules.clockwise else -1
    dealer = (first_dealer + step * hand_index) % players
    return Turn(
        hand_index + 1, dealer, (dealer + step) % players, DEALS_PER_HAND[players], step > 0
    )


def seat_side(seat: int, sides: int) -> int:
    """The side a seat belongs to: seats alternate sides, so partners sit opposite each other."""
    return seat % sides


# --- validation ------------------------------------------------------------------------------

MESSAGES = {
    "cards_total": gettext_noop("cards add up to %(total)d, not 52"),
    "spades_total": gettext_noop("spades add up to %(total)d, not 13"),
    "cards_negative": gettext_noop("%(side)s: cards cannot be negative (%(cards)d)"),
    "spades_negative": gettext_noop("%(side)s: spades cannot be negative (%(spades)d)"),
    "spades_over_cards": gettext_noop("%(side)s: %(spades)d spades but only %(cards)d cards"),
    "card_nobody": gettext_noop("nobody holds the %(card)s"),
    "card_both": gettext_noop("both %(first)s and %(second)s hold the %(card)s"),
    "card_several": gettext_noop("%(names)s all hold the %(card)s"),
    "special_spades": gettext_noop(
        "%(side)s: holds %(cards)s but has only %(spades)d spades (needs at least %(needed)d)"
    ),
    "special_non_spades": gettext_noop(
        "%(side)s: holds %(cards)s but has only %(non_spades)d cards that are not spades "
        "(needs at least %(needed)d)"
    ),
    "sweeps_negative": gettext_noop("%(side)s: sweeps cannot be negative (%(sweeps)d)"),
    "sweeps_need_cards": gettext_noop("%(side)s: %(sweeps)d sweeps need at least %(needed)d cards"),
    "sweeps_total": gettext_noop("%(total)d sweeps in one hand; at most 24 are possible"),
    "tally_count": gettext_noop("%(count)d tallies for %(sides)d sides"),
    "after_win": gettext_noop("the match was already won before this hand"),
    "last_capture_count": gettext_noop(
        "%(count)d sides made the last capture; exactly one side makes it"
    ),
    "last_capture_no_cards": gettext_noop("%(side)s: made the last capture but has no cards"),
    "field_unused": gettext_noop("%(field)s is not recorded in this game"),
}

# The special cards a side's spades must hold, and those its other cards must (RULES.md §7).
SPADE_CARDS = tuple(code for code, card in CARDS.items() if card.spade)
NON_SPADE_CARDS = tuple(code for code, card in CARDS.items() if not card.spade)
# The tally fields only some variants record (RULES.md §9), and the variant that does.
VARIANT_FIELDS = {"last_capture": Variant.SWEDISH, "jack_of_spades": Variant.SPADE}


@dataclass(frozen=True, slots=True)
class Problem:
    """Something that keeps a hand (or a match) from adding up.

    The text is not stored: `code` picks a message from MESSAGES, and `describe` renders it with
    the side names in the reader's language. `side` is the side it is about, if any.
    """

    code: str
    params: Mapping[str, object] = field(default_factory=dict)
    side: int | None = None

    def describe(
        self,
        side_names: Sequence[str] | None = None,
        translate: Callable[[str], str] = gettext_noop,
    ) -> str:
        """The message in words, with sides named from `side_names` ("#1" without them)."""
        return describe_problem(self, side_names, translate)


def _side_label(side: int, side_names: Sequence[str] | None) -> str:
    if side_names and side < len(side_names):
        return side_names[side]
    return f"#{side + 1}"


def describe_problem(
    problem: Problem,
    side_names: Sequence[str] | None = None,
    translate: Callable[[str], str] = gettext_noop,
) -> str:
    """Render a problem's message, naming sides and cards (both run through `translate`)."""
    params = dict(problem.params)
    if problem.side is not None:
        params["side"] = _side_label(problem.side, side_names)
    if "card" in params:
        params["card"] = translate(CARDS[str(params["card"])].name)
    holders = params.pop("holders", None)
    if isinstance(holders, tuple):
        labels = [_side_label(side, side_names) for side in holders]
        params["first"], params["second"] = labels[0], labels[1]
        params["names"] = ", ".join(labels)
    return translate(MESSAGES[problem.code]) % params


def validate(
    tallies: Sequence[Tally], sides: int | None = None, variant: Variant | str | None = None
) -> list[Problem]:
    """Everything that keeps a hand from adding up against the known deck (RULES.md §7, §9).

    An empty list means the hand is possible. With `sides`, a wrong number of tallies is a
    problem too. With `variant`, the fields only some variants record are checked: Swedish
    Kasino's last capture (exactly one side, with cards), Spade Casino's J♠ (exactly one side),
    and neither marked in another variant.
    """
    if sides is not None and len(tallies) != sides:
        return [Problem("tally_count", {"count": len(tallies), "sides": sides})]
    variant = None if variant is None else Variant(variant)
    holders_of = _holders(tallies, variant)
    problems = _count_problems(tallies)
    problems += _variant_fields(tallies, variant)
    problems += _holder_problems(holders_of)
    for side, tally in enumerate(tallies):
        problems += _side_card_problems(side, tally, holders_of)
        problems += _side_sweep_problems(side, tally)
    sweeps_total = sum(max(t.sweeps, 0) for t in tallies)
    if sweeps_total > MAX_SWEEPS:
        problems.append(Problem("sweeps_total", {"total": sweeps_total}))
    return problems


def _count_problems(tallies: Sequence[Tally]) -> list[Problem]:
    """The pack's 52 cards and 13 spades, and each side's counts that cannot be."""
    problems: list[Problem] = []
    cards_total = sum(t.cards for t in tallies)
    if cards_total != PACK:
        problems.append(Problem("cards_total", {"total": cards_total}))
    spades_total = sum(t.spades for t in tallies)
    if spades_total != SPADES:
        problems.append(Problem("spades_total", {"total": spades_total}))
    for side, tally in enumerate(tallies):
        if tally.cards < 0:
            problems.append(Problem("cards_negative", {"cards": tally.cards}, side))
        if tally.spades < 0:
            problems.append(Problem("spades_negative", {"spades": tally.spades}, side))
        elif tally.spades > tally.cards >= 0:
            problems.append(
                Problem("spades_over_cards", {"spades": tally.spades, "cards": tally.cards}, side)
            )
    return problems


def _holders(tallies: Sequence[Tally], variant: Variant | None) -> dict[str, list[int]]:
    """Special card → the sides that say they took it (the J♠ only where the variant has it)."""
    # Field by field rather than through `Card.held`: this runs for every hand checked.
    holders_of = {
        BIG_CASINO.code: _sides_where(tallies, lambda t: t.big_casino),
        LITTLE_CASINO.code: _sides_where(tallies, lambda t: t.little_casino),
    }
    for ace in ACES:
        holders_of[ace.code] = [side for side, t in enumerate(tallies) if ace.suit in t.aces]
    if variant is Variant.SPADE:
        holders_of[JACK_OF_SPADES.code] = _sides_where(tallies, lambda t: t.jack_of_spades)
    return holders_of


def _sides_where(tallies: Sequence[Tally], test: Callable[[Tally], bool]) -> list[int]:
    """The sides whose tally passes `test`, in order."""
    return [side for side, t in enumerate(tallies) if test(t)]


def _holder_problems(holders_of: Mapping[str, Sequence[int]]) -> list[Problem]:
    """Each special card is taken by exactly one side."""
    problems = []
    for card, holders in holders_of.items():
        if not holders:
            problems.append(Problem("card_nobody", {"card": card}))
        elif len(holders) == 2:
            problems.append(Problem("card_both", {"card": card, "holders": tuple(holders)}))
        elif len(holders) > 2:
            problems.append(Problem("card_several", {"card": card, "holders": tuple(holders)}))
    return problems


def _side_card_problems(
    side: int, tally: Tally, holders_of: Mapping[str, Sequence[int]]
) -> list[Problem]:
    """A side's special cards fit in its spades and in its other cards."""
    return _special_spade_problems(side, tally, holders_of) + _special_non_spade_problems(
        side, tally, holders_of
    )


def _special_spade_problems(
    side: int, tally: Tally, holders_of: Mapping[str, Sequence[int]]
) -> list[Problem]:
    """The special spades a side says it took are more than its spades."""
    special_spades = [card for card in SPADE_CARDS if side in holders_of.get(card, ())]
    if tally.spades >= 0 and len(special_spades) > tally.spades:
        params = {
            "cards": _symbols(special_spades),
            "spades": tally.spades,
            "needed": len(special_spades),
        }
        return [Problem("special_spades", params, side)]
    return []


def _special_non_spade_problems(
    side: int, tally: Tally, holders_of: Mapping[str, Sequence[int]]
) -> list[Problem]:
    """The special cards other than spades a side says it took are more than its other cards."""
    special_others = [card for card in NON_SPADE_CARDS if side in holders_of[card]]
    non_spades = tally.cards - tally.spades
    fits = tally.cards < 0 or tally.spades < 0 or len(special_others) <= non_spades
    if special_others and not fits:
        params = {
            "cards": _symbols(special_others),
            "non_spades": max(non_spades, 0),
            "needed": len(special_others),
        }
        return [Problem("special_non_spades", params, side)]
    return []


def _side_sweep_problems(side: int, tally: Tally) -> list[Problem]:
    """A sweep takes at least two cards (the one played and one on the table)."""
    if tally.sweeps < 0:
        return [Problem("sweeps_negative", {"sweeps": tally.sweeps}, side)]
    if tally.cards >= 0 and tally.cards < 2 * tally.sweeps:
        params = {"sweeps": tally.sweeps, "needed": 2 * tally.sweeps}
        return [Problem("sweeps_need_cards", params, side)]
    return []


def _variant_fields(tallies: Sequence[Tally], variant: Variant | None) -> list[Problem]:
    """Problems with the fields only some variants record (nothing to check without a variant)."""
    if variant is None:
        return []
    problems = []
    for name, owner in VARIANT_FIELDS.items():
        if variant is not owner and any(getattr(t, name) for t in tallies):
            problems.append(Problem("field_unused", {"field": name}))
    if variant is Variant.SWEDISH:
        problems += _last_capture_problems(tallies)
    return problems


def _last_capture_problems(tallies: Sequence[Tally]) -> list[Problem]:
    """Swedish Kasino: exactly one side made the last capture, and it took cards."""
    problems = []
    last = [side for side, t in enumerate(tallies) if t.last_capture]
    if len(last) != 1:
        problems.append(Problem("last_capture_count", {"count": len(last)}))
    for side in last:
        if tallies[side].cards <= 0:
            problems.append(Problem("last_capture_no_cards", {}, side))
    return problems


def _symbols(cards: Sequence[str]) -> str:
    return ", ".join(CARDS[card].symbol for card in cards)


def hand_base_points(tallies: Sequence[Tally]) -> int:
    """Points a hand of Casino, Royal or Dominican Royal Casino is worth before sweeps: 11, less
    3 for tied cards and 1 for tied spades (the other variants: RULES.md §9)."""
    base = 11
    if _most([t.cards for t in tallies]) is None:
        base -= 3
    if _most([t.spades for t in tallies]) is None:
        base -= 1
    return base


# --- a match's setup: the new-match form's checks, and a hand form's counts ------------------
# The one copy of what the new-match form refuses (MatchForm.clean on the server, local.js on a
# phone without signal, both through setup_problems) and of how a hand form's counts make tallies
# (HandForm.clean, outbox.js: tallies_of).

MAX_TARGET = 999
MIN_DOMINICAN_TARGET = 4  # the near-target rules need 3 points of room (RULES.md §6)
MAX_START_TOTAL = 999


def layout_name(sides: int, per_side: int) -> str:
    """A table's layout as a match records it: "2", "3" or "4" players alone, or "teams"."""
    return "teams" if per_side == 2 else str(sides * per_side)


# The tables by layout: (sides, players per side).
LAYOUTS = {layout_name(sides, per_side): (sides, per_side) for sides, per_side in TABLES}

# What can be wrong with a match's setup (`setup_problems`), in words. Each problem names the
# new-match form's field it is said at (params["field"]).
SETUP_PROBLEMS = {
    "seat_empty": gettext_noop("Who sits here?"),
    "seat_taken": gettext_noop("%(name)s already has a seat."),
    "first_dealer": gettext_noop("Choose one of the %(count)d seats."),
    "target_other": gettext_noop("Enter the target score."),
    "too_high": gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    "too_low": gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    "whole": gettext_noop("Enter a whole number."),
    "finnish_sweeps": gettext_noop("In Finnish Kasino opposing sweeps always cancel."),
    "difference_sides": TABLE_PROBLEMS["difference_sides"],
    "dominican_target": gettext_noop(
        "Dominican Royal Casino is played to at least %(target)d points."
    ),
    "start_leader": gettext_noop(
        "This side alone is at or past the target (%(target)d): that game is already won. A "
        "top total shared with another side starts the match tied."
    ),
}

# A number field's value: an int, None (blank), or text as typed (a phone's form).
Posted = int | str | None
_WHOLE = re.compile(r"[+-]?[0-9]+")
# The spaces a number typed may have around it: JavaScript's String.prototype.trim's.
_TRIM = (
    "\t\n\v\f\r \xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _whole(
    value: Posted, low: int, high: int, field_name: str, side: int | None = None
) -> tuple[int | None, list[Problem]]:
    """A number field's value, read as the form's integer field reads it: None (blank), or a
    whole number in [low, high]; anything else is refused, and read as blank."""
    if isinstance(value, str):
        value = _typed_number(value)
        if isinstance(value, str):
            return None, [Problem("whole", {"field": field_name}, side)]
    if value is None:
        return None, []
    if value < low:
        return None, [Problem("too_low", {"limit_value": low, "field": field_name}, side)]
    if value > high:
        return None, [Problem("too_high", {"limit_value": high, "field": field_name}, side)]
    return value, []


def _typed_number(text: str) -> int | str | None:
    """Text typed in a number field: None when blank (spaces around it do not count), the whole
    number it spells (a sign, digits), or the text itself when it spells none."""
    text = text.strip(_TRIM)
    if not text:
        return None
    if not _WHOLE.fullmatch(text):
        return text
    digits = text.lstrip("+-").lstrip("0")
    number = int(digits or "0") if len(digits) <= 9 else 10**9  # longer: out of every range
    return -number if text[0] == "-" else number


def option_problems(
    variant: Variant | str,
    target: Posted,
    options: Mapping[str, object],
    table: tuple[int, int],
) -> list[Problem]:
    """What is wrong with a game's target and options at a table of (sides, players per side).

    `target` is the one asked for: None for the game's usual one, else a number (an int, or
    text as typed), "" when a number was asked for and not given. `options` are Rules.make's
    (blank or missing: the game's usual). Finnish Kasino's sweeps always cancel; difference
    scoring needs two sides.
    """
    problems = _target_problems(target)
    if Variant(variant) is Variant.FINNISH and options.get("sweeps") not in ("", None, "cancel"):
        problems.append(Problem("finnish_sweeps", {"field": "sweeps"}))
    sides, per_side = table
    difference = options.get("scoring") == Scoring.DIFFERENCE
    if difference and table_problem([per_side] * sides, Scoring.DIFFERENCE) == "difference_sides":
        problems.append(Problem("difference_sides", {"field": "scoring"}))
    return problems


def _target_problems(target: Posted) -> list[Problem]:
    if target is None:
        return []
    value, problems = _whole(target, 1, MAX_TARGET, "target_other")
    if value is None:  # as the form says it of a bad number too
        problems.append(Problem("target_other", {"field": "target_other"}))
    return problems


def _setup_target(variant: Variant | str, target: Posted) -> int:
    """The target a match is played to: the one asked for when it is a valid number, else the
    game's usual one."""
    value = None if target is None else _whole(target, 1, MAX_TARGET, "target_other")[0]
    return variant_defaults(variant).target if value is None else value


def dominican_problems(variant: Variant | str, target: int) -> list[Problem]:
    """Dominican Royal Casino's least target (its near-target rules need room), for the target
    the match is played to."""
    if Variant(variant) is Variant.DOMINICAN and target < MIN_DOMINICAN_TARGET:
        return [
            Problem("dominican_target", {"target": MIN_DOMINICAN_TARGET, "field": "target_other"})
        ]
    return []


def setup_problems(
    variant: Variant | str,
    layout: str,
    seats: Sequence[str],
    *,
    first_dealer: int | None = None,
    target: Posted = None,
    options: Mapping[str, object] | None = None,
    start_totals: Sequence[Posted] = (),
) -> list[Problem]:
    """Everything that keeps a match from starting as set up, in the order the form says it.

    `layout` is a key of LAYOUTS (ValueError otherwise); `seats` the names typed in the seats
    (trimmed; those past the table's are not read); `first_dealer` a seat or None (not given);
    `target` and `options` as `option_problems` takes them; `start_totals` each side's (an int,
    text as typed, or None for blank: 0). Everyone seated once (names compared case-folded), a
    first dealer at the table, the target and options, and start totals that leave the match
    to be played (`start_leader`).
    """
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ValueError(f"{layout!r} is not a layout")
    sides, per_side = LAYOUTS[layout]
    seat_count = sides * per_side
    problems = _seat_problems(seats, seat_count)
    if first_dealer is not None and not 0 <= first_dealer < seat_count:
        problems.append(Problem("first_dealer", {"count": seat_count, "field": "first_dealer"}))
    problems += option_problems(variant, target, options or {}, (sides, per_side))
    aim = _setup_target(variant, target)
    problems += dominican_problems(variant, aim)
    return problems + _start_problems(aim, start_totals, sides)


def _seat_problems(seats: Sequence[str], seat_count: int) -> list[Problem]:
    """Everyone seated once: a name in every seat, no name twice (case-folded)."""
    problems = []
    seen: set[str] = set()
    for seat in range(seat_count):
        name = seats[seat] if seat < len(seats) else ""
        if not name:
            problems.append(Problem("seat_empty", {"field": f"seat_{seat}"}))
        elif name.casefold() in seen:
            problems.append(Problem("seat_taken", {"name": name, "field": f"seat_{seat}"}))
        seen.add(name.casefold())
    return problems


def _start_problems(aim: int, start_totals: Sequence[Posted], sides: int) -> list[Problem]:
    """Start totals in range, and no side alone at or past the target (`start_leader`)."""
    problems = []
    totals = []
    for side in range(sides):
        posted = start_totals[side] if side < len(start_totals) else None
        total, refused = _whole(posted, 0, MAX_START_TOTAL, f"start_{side}", side)
        problems += refused
        totals.append(total or 0)
    leader = start_leader(aim, totals)
    if leader is not None:
        problems.append(
            Problem("start_leader", {"target": aim, "field": f"start_{leader}"}, leader)
        )
    return problems


def tallies_of(posted: Mapping[str, object], sides: int, variant: Variant | str) -> list[Tally]:
    """The tallies a hand form's counts make (RULES.md §7): `posted` maps its fields to numbers
    (None, "" or missing: blank): cards_<side>, spades_<side>, sweeps_<side>, card_<code> (the
    side that took a special card) and Swedish Kasino's last_capture.

    The last side's cards and spades left blank are what the deck leaves (52 and 13 less the
    others'), another side's blank counts are 0, and blank sweeps 0; a special card given to no
    one goes to the last side (the J♠ only in Spade Casino, the one game that records it).

    Quick entry (mode="quick", where `quick_entry` allows it): no counts but most_cards (a side
    or TIE) and most_spades (a side), each left blank the last side's; the counts are
    `quick_counts`.
    """
    if posted.get("mode") == QUICK and quick_entry(variant, sides):
        most_cards, most_spades = (_posted(posted, f"most_{kind}") for kind in ("cards", "spades"))
        cards, spades = quick_counts(
            sides - 1 if most_cards is None else most_cards,
            sides - 1 if most_spades is None else most_spades,
            sweeps=[_posted(posted, f"sweeps_{side}") or 0 for side in range(sides)],
        )
    else:
        cards = _side_counts(posted, "cards", PACK, sides)
        spades = _side_counts(posted, "spades", SPADES, sides)
    holder = {code: _posted(posted, f"card_{code}") for code in CARDS}
    holder = {code: sides - 1 if side is None else side for code, side in holder.items()}
    jack = holder[JACK_OF_SPADES.code] if Variant(variant) is Variant.SPADE else None
    last_capture = _posted(posted, "last_capture")
    return [
        Tally.make(
            cards=cards[side],
            spades=spades[side],
            big_casino=holder[BIG_CASINO.code] == side,
            little_casino=holder[LITTLE_CASINO.code] == side,
            aces=[ace.suit for ace in ACES if holder[ace.code] == side],
            sweeps=_posted(posted, f"sweeps_{side}") or 0,
            last_capture=last_capture == side,
            jack_of_spades=jack == side,
        )
        for side in range(sides)
    ]


# --- quick entry: who took most, not how many -------------------------------------------------
# A table that does not count its piles taps who took most cards (or that they tied) and who
# took most spades. The hand is stored with counts that stand for just that, marked quick, and
# shown as "most", never as numbers. Two sides only (with three or four, who came second decides
# Finnish spades and Swedish ties), and not Spade Casino, where every spade scores.

QUICK = "quick"  # a hand form's mode: who took most
TIE = -1  # most_cards: the two sides took 26 cards each


def quick_entry(variant: Variant | str, sides: int) -> bool:
    """Whether a hand of this game and table may be entered as who took most."""
    return sides == 2 and Variant(variant) is not Variant.SPADE


def quick_counts(
    most_cards: int, most_spades: int, *, sweeps: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Two sides' cards and spades that say only who took most: 27 cards to 25 (26 each for a
    TIE, or twice the top side's sweeps where 27 would not hold them) and 7 spades to 6."""
    if most_cards == TIE:
        cards = [PACK // 2, PACK // 2]
    else:
        top = max(PACK // 2 + 1, 2 * sweeps[most_cards])
        cards = [top if side == most_cards else PACK - top for side in range(2)]
    spades = [SPADES // 2 + (side == most_spades) for side in range(2)]
    return cards, spades


def most_taps(tallies: Sequence[Tally]) -> tuple[int, int]:
    """Who took most cards (TIE when tied) and most spades (TIE too, with three or four sides):
    what quick entry taps for `tallies`, and what a quick hand shows."""
    cards, spades = (_most([getattr(t, kind) for t in tallies]) for kind in ("cards", "spades"))
    return (TIE if cards is None else cards), (TIE if spades is None else spades)


def quick_share(kind: str, count: int) -> str:
    """What one of two sides' cards (`kind` "cards") or spades count says in a quick hand:
    "most", "tie" or "fewer" (the counts of two sides make the whole pack, so one side's tells)."""
    whole = PACK if kind == "cards" else SPADES
    return "most" if 2 * count > whole else "tie" if 2 * count == whole else "fewer"


def _posted(posted: Mapping[str, object], name: str) -> int | None:
    value = posted.get(name)
    return None if value is None or value == "" else value  # type: ignore[return-value]


def _side_counts(posted: Mapping[str, object], kind: str, whole: int, sides: int) -> list[int]:
    """Each side's cards (or spades): 0 for a blank, the last side's blank what is left of
    `whole`."""
    counts = [_posted(posted, f"{kind}_{side}") or 0 for side in range(sides - 1)]
    last = _posted(posted, f"{kind}_{sides - 1}")
    return [*counts, whole - sum(counts) if last is None else last]


# --- a table played on paper -----------------------------------------------------------------
# A match whose final result (each side's total and the winner) was entered from a score sheet
# instead of its hands: it counts as won (standings, ratings, wins and losses) and has no hands,
# so no statistic of hands counts it.

PAPER = "paper"  # its Outcome's kind
MAX_PAPER_TOTAL = MAX_TARGET + MAX_START_TOTAL

PAPER_PROBLEMS = {
    "sides": gettext_noop("Give one total for each side."),
    "range": gettext_noop("Each total is a whole number from the side's start total to %(most)d."),
    "winner": gettext_noop("Choose which side won."),
    "behind": gettext_noop(
        "The winner has fewer points than another side and has not reached the target (%(target)d)."
    ),
}


class Paper(NamedTuple):
    """A result from paper: each side's final total, and the winning side's index."""

    totals: tuple[int, ...]
    winner: int


class PaperError(ValueError):
    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem  # a key of PAPER_PROBLEMS


def paper_problem(match_rules: Rules, paper: Paper, start_totals: Sequence[int]) -> str | None:
    """What is wrong with a result from paper (a key of PAPER_PROBLEMS), or None. Without the
    hands little can be checked; what can: a total for each side, none below its start total,
    and a winner who reached the target or is at the top (a round whose time was called)."""
    totals = paper.totals
    if len(totals) != len(start_totals):
        return "sides"
    pairs = zip(totals, start_totals, strict=True)
    if any(not start <= total <= MAX_PAPER_TOTAL for total, start in pairs):
        return "range"
    if not 0 <= paper.winner < len(totals):
        return "winner"
    won = totals[paper.winner]
    if won < match_rules.target and won < max(totals):
        return "behind"
    return None


def paper_score(match_rules: Rules, paper: Paper, start_totals: Sequence[int]) -> MatchScore:
    """The score of a match played on paper: won by `paper.winner`, no hands; PaperError for a
    result `paper_problem` refuses."""
    problem = paper_problem(match_rules, paper, start_totals)
    if problem is not None:
        raise PaperError(problem)
    winner = paper.winner
    return MatchScore(
        hands=(),
        totals=tuple(paper.totals),
        status=Status.WON,
        winner=winner,
        outcome=Outcome(PAPER, winner, None, paper.totals[winner]),
        conditions=None,
    )
