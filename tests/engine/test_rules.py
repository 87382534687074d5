"""Tests for the scoring engine (scoring/engine/rules.py) against docs/RULES.md.

Expected values are worked out by hand from the rules; the hands used are checked by an
independent oracle (`deal`) that hands out the 52 real cards, not by `rules.validate`.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence

import pytest
from django.core.management import call_command
from helpers import examples
from helpers import tally as side
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import rules
from scoring.engine.rules import Breakdown, Outcome, Problem, Rules, Status, Tally

NAMES = ("Ana", "Ben", "Cy", "Dee")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = tuple(rank + suit for suit in "SCHD" for rank in RANKS)
SPECIAL_CARDS = ("10D", "2S", "AS", "AC", "AH", "AD")


# --- an independent oracle: hand out the real cards ---------------------------------------------


def tally_of(pile: Sequence[str], sweeps: int = 0) -> Tally:
    """Count a pile of real cards the way a player would fill in the form."""
    return Tally(
        cards=len(pile),
        spades=sum(card.endswith("S") for card in pile),
        big_casino="10D" in pile,
        little_casino="2S" in pile,
        aces="".join(suit for suit in "SCHD" if "A" + suit in pile),
        sweeps=sweeps,
    )


def deal(tallies: Sequence[Tally]) -> list[list[str]] | None:
    """Hand out the 52 cards so each side gets exactly its tally, or None if that is impossible.

    Special cards go to the side that claims them; the plain spades and plain other cards are
    interchangeable, so filling the piles from those two pools decides possibility exactly.
    """
    claims: dict[str, list[int]] = {card: [] for card in SPECIAL_CARDS}
    for position, tally in enumerate(tallies):
        if tally.big_casino:
            claims["10D"].append(position)
        if tally.little_casino:
            claims["2S"].append(position)
        for suit in tally.aces:
            claims["A" + suit].append(position)
    piles: list[list[str]] = [[] for _ in tallies]
    for card, holders in claims.items():
        if len(holders) != 1:
            return None  # a card is dealt exactly once, and whoever holds it says so
        piles[holders[0]].append(card)
    plain_spades = [c for c in DECK if c.endswith("S") and c not in SPECIAL_CARDS]
    plain_others = [c for c in DECK if not c.endswith("S") and c not in SPECIAL_CARDS]
    for position, tally in enumerate(tallies):
        spades_held = sum(card.endswith("S") for card in piles[position])
        need_spades = tally.spades - spades_held
        need_others = tally.cards - tally.spades - (len(piles[position]) - spades_held)
        if not 0 <= need_spades <= len(plain_spades) or not 0 <= need_others <= len(plain_others):
            return None
        for _ in range(need_spades):
            piles[position].append(plain_spades.pop())
        for _ in range(need_others):
            piles[position].append(plain_others.pop())
    if plain_spades or plain_others:
        return None
    return piles


def sweeps_possible(tallies: Sequence[Tally]) -> bool:
    """RULES.md §7.4: a sweep takes 2+ cards, and at most 24 in a hand (never two in a row)."""
    return all(t.sweeps >= 0 and t.cards >= 2 * t.sweeps for t in tallies) and (
        sum(t.sweeps for t in tallies) <= 24
    )


def possible(tallies: Sequence[Tally]) -> bool:
    piles = deal(tallies)
    if piles is None:
        return False
    # The oracle's own check: recounting the dealt piles gives back the tallies.
    assert [tally_of(pile, t.sweeps) for pile, t in zip(piles, tallies, strict=True)] == list(
        tallies
    )
    assert sorted(card for pile in piles for card in pile) == sorted(DECK)
    return sweeps_possible(tallies)


def hand(*tallies: Tally) -> tuple[Tally, ...]:
    assert possible(tallies), f"test data is not a possible hand: {tallies}"
    return tallies


def versus(
    cards: int,
    spades: int,
    *,
    big: bool = False,
    little: bool = False,
    aces: str = "",
    sweeps: tuple[int, int] = (0, 0),
) -> tuple[Tally, Tally]:
    """A 2-side hand: side 0 as given, side 1 holds the rest of the pack."""
    first = side(cards, spades, big=big, little=little, aces=aces, sweeps=sweeps[0])
    rest = "".join(suit for suit in "SCHD" if suit not in first.aces)
    second = side(
        52 - cards, 13 - spades, big=not big, little=not little, aces=rest, sweeps=sweeps[1]
    )
    return hand(first, second)  # type: ignore[return-value]


def score(
    match_rules: Rules, tallies: Sequence[Tally], before: Sequence[int] | None = None
) -> rules.HandScore:
    before = (0,) * len(tallies) if before is None else before
    return rules.score_hand(match_rules, tallies, before)


CASINO = Rules.make("casino")
COUNT_OUT = Rules.make("casino", several_reach="count-out")
ROYAL = Rules.make("royal")
DOMINICAN = Rules.make("dominican")
DOMINICAN_SPADES = Rules.make("dominican", twenty_needs="most-spades")

# A: most cards 3, most spades 1, big casino 2, A♠ A♥ 2 = 8; B: little casino 1, A♣ A♦ 2 = 3.
PLAIN = versus(29, 8, big=True, aces="SH")
# Cards 26-26 score nobody. A: spades 1, little 1, A♠ A♣ 2 = 4; B: big 2, A♥ A♦ 2 = 4.
CARDS_TIED = versus(26, 7, little=True, aces="SC")


# --- §2 points ----------------------------------------------------------------------------------


def test_plain_hand_is_worth_11() -> None:
    result = score(CASINO, PLAIN)
    assert result.breakdown == (Breakdown(3, 1, 2, 0, 2, 0), Breakdown(0, 0, 0, 1, 2, 0))
    assert result.points == (8, 3)
    assert result.totals == (8, 3)
    assert result.status is Status.PLAYING
    assert result.winner is None


def test_most_cards_with_two_sides_needs_27() -> None:
    assert score(CASINO, versus(27, 0)).breakdown[0].cards == 3
    assert score(CASINO, versus(25, 0)).breakdown[1].cards == 3


def test_cards_tied_scores_nobody() -> None:
    result = score(CASINO, CARDS_TIED)
    assert [b.cards for b in result.breakdown] == [0, 0]
    assert result.points == (4, 4)
    assert sum(result.points) == 8


def test_most_spades_scores_1() -> None:
    result = score(CASINO, versus(20, 7))
    assert [b.spades for b in result.breakdown] == [1, 0]


def test_big_casino_scores_2_and_little_casino_1() -> None:
    result = score(CASINO, versus(26, 6, big=True))
    assert [b.big_casino for b in result.breakdown] == [2, 0]
    assert [b.little_casino for b in result.breakdown] == [0, 1]


def test_each_ace_scores_1() -> None:
    result = score(CASINO, versus(26, 6, aces="SCH"))
    assert [b.aces for b in result.breakdown] == [3, 1]


def test_cards_plurality_wins_with_three_sides() -> None:
    # 20 v 18 v 14: a plurality is enough. Spades 5-5-3 tie for the top: nobody.
    tallies = hand(
        side(20, 5, big=True, aces="S"), side(18, 5, little=True, aces="HD"), side(14, 3, aces="C")
    )
    result = score(CASINO, tallies, (4, 7, 2))
    assert [b.cards for b in result.breakdown] == [3, 0, 0]
    assert [b.spades for b in result.breakdown] == [0, 0, 0]
    assert result.points == (6, 3, 1)
    assert result.totals == (10, 10, 3)


def test_spades_tied_with_three_sides_scores_nobody_and_hand_is_worth_10() -> None:
    tallies = hand(
        side(20, 5, big=True, aces="S"), side(18, 5, little=True), side(14, 3, aces="CHD")
    )
    result = score(CASINO, tallies)
    assert sum(result.points) == 10
    assert rules.hand_base_points(tallies) == 10


def test_cards_tied_at_the_top_with_three_sides_scores_nobody() -> None:
    # 20-20-12 with spades 6-4-3: cards to nobody, spades to A. Worth 8.
    tallies = hand(
        side(20, 6, big=True, aces="S"), side(20, 4, little=True, aces="HD"), side(12, 3, aces="C")
    )
    result = score(CASINO, tallies)
    assert [b.cards for b in result.breakdown] == [0, 0, 0]
    assert result.points == (4, 3, 1)
    assert rules.hand_base_points(tallies) == 8


def test_cards_and_spades_both_tied_leaves_7() -> None:
    tallies = hand(
        side(20, 5, big=True, aces="S"), side(20, 5, little=True, aces="HD"), side(12, 3, aces="C")
    )
    result = score(CASINO, tallies)
    assert result.points == (3, 3, 1)
    assert rules.hand_base_points(tallies) == 7


def test_a_tie_below_the_top_does_not_matter() -> None:
    # 20 v 16 v 16 cards and 5 v 4 v 4 spades: A has both pluralities.
    tallies = hand(
        side(20, 5, big=True), side(16, 4, little=True, aces="SC"), side(16, 4, aces="HD")
    )
    result = score(CASINO, tallies)
    assert result.points == (6, 3, 2)
    assert rules.hand_base_points(tallies) == 11


def test_four_individual_players() -> None:
    tallies = hand(
        side(14, 4, big=True, aces="S"),
        side(13, 3, little=True, aces="C"),
        side(13, 3, aces="H"),
        side(12, 3, aces="D"),
    )
    result = score(CASINO, tallies, (1, 2, 3, 4))
    assert result.points == (7, 2, 1, 1)
    assert result.totals == (8, 4, 4, 5)


def test_four_players_all_on_13_cards_and_spades_tied_at_4() -> None:
    tallies = hand(
        side(13, 4, big=True, aces="S"),
        side(13, 4, little=True, aces="C"),
        side(13, 3, aces="H"),
        side(13, 2, aces="D"),
    )
    result = score(CASINO, tallies)
    assert result.points == (3, 2, 1, 1)
    assert rules.hand_base_points(tallies) == 7


def test_partnership_pools_partners_into_one_side() -> None:
    # N 15 + S 13 = 28 cards, 4 + 3 = 7 spades, big casino and A♠ and a sweep: 3+1+2+1+1 = 8.
    north, south = side(15, 4, aces="S"), side(13, 3, big=True, sweeps=1)
    team = side(
        north.cards + south.cards,
        north.spades + south.spades,
        big=north.big_casino or south.big_casino,
        aces=north.aces + south.aces,
        sweeps=north.sweeps + south.sweeps,
    )
    other = side(24, 6, little=True, aces="CHD")
    result = score(CASINO, hand(team, other), (10, 12))
    assert result.points == (8, 4)
    assert result.totals == (18, 16)


# --- §4 sweeps ----------------------------------------------------------------------------------


def test_sweeps_count_score_1_each() -> None:
    result = score(CASINO, versus(30, 9, big=True, little=True, aces="S", sweeps=(2, 1)))
    assert [b.sweeps for b in result.breakdown] == [2, 1]
    assert result.points == (10, 4)


def test_sweeps_off_score_nothing() -> None:
    match_rules = Rules.make("casino", sweeps="off")
    result = score(match_rules, versus(30, 9, big=True, little=True, aces="S", sweeps=(2, 1)))
    assert [b.sweeps for b in result.breakdown] == [0, 0]
    assert result.points == (8, 3)


def test_sweeps_cancel_nets_two_sides() -> None:
    # 3 v 1 nets to 2 v 0. A: cards 3 + A♥ 1 + 2 = 6. B: 1 + 2 + 1 + 3 = 7.
    result = score(DOMINICAN, versus(30, 5, aces="H", sweeps=(3, 1)), (5, 8))
    assert [b.sweeps for b in result.breakdown] == [2, 0]
    assert result.totals == (11, 15)


def test_sweeps_cancel_nets_against_smallest_count_with_three_sides() -> None:
    match_rules = Rules.make("casino", sweeps="cancel")
    tallies = hand(
        side(20, 5, big=True, aces="S", sweeps=3),
        side(18, 5, little=True, aces="HD", sweeps=1),
        side(14, 3, aces="C", sweeps=2),
    )
    assert [b.sweeps for b in score(match_rules, tallies).breakdown] == [2, 0, 1]


def test_sweeps_cancel_with_a_side_without_sweeps_cancels_nothing() -> None:
    match_rules = Rules.make("casino", sweeps="cancel")
    tallies = hand(
        side(20, 5, big=True, aces="S", sweeps=3),
        side(18, 5, little=True, aces="HD"),
        side(14, 3, aces="C", sweeps=2),
    )
    assert [b.sweeps for b in score(match_rules, tallies).breakdown] == [3, 0, 2]


def test_sweeps_count_with_three_sides_do_not_cancel() -> None:
    tallies = hand(
        side(20, 5, big=True, aces="S", sweeps=3),
        side(18, 5, little=True, aces="HD", sweeps=1),
        side(14, 3, aces="C", sweeps=2),
    )
    assert [b.sweeps for b in score(CASINO, tallies).breakdown] == [3, 1, 2]


def test_dominican_side_at_18_scores_no_sweeps_but_its_sweeps_still_cancel() -> None:
    # A (18) 1 v B 3: B nets 2. A: A♦ 1 -> 19. B: 3 + 1 + 2 + 1 + 3 + 2 sweeps = 12 -> 22, wins.
    result = score(DOMINICAN, versus(24, 4, aces="D", sweeps=(1, 3)), (18, 10))
    assert [b.sweeps for b in result.breakdown] == [0, 2]
    assert result.totals == (19, 22)
    assert result.winner == 1


def test_dominican_blocked_side_cancels_first_then_its_net_is_zeroed() -> None:
    # 3 v 1 nets to 2 v 0, then A (18+) loses its 2.
    result = score(DOMINICAN, versus(24, 4, aces="D", sweeps=(3, 1)), (18, 10))
    assert [b.sweeps for b in result.breakdown] == [0, 0]
    assert result.points == (1, 10)


def test_dominican_side_at_17_scores_its_net_sweeps() -> None:
    result = score(DOMINICAN, versus(24, 4, aces="D", sweeps=(3, 1)), (17, 10))
    assert [b.sweeps for b in result.breakdown] == [2, 0]
    assert result.totals == (20, 20)


def test_dominican_blocking_also_applies_with_sweeps_counted() -> None:
    """RULES.md §4 says "In Dominican, a side at 18+ scores no sweep points", whatever the option."""
    match_rules = Rules.make("dominican", sweeps="count")
    result = score(match_rules, versus(24, 4, aces="D", sweeps=(1, 3)), (18, 10))
    assert [b.sweeps for b in result.breakdown] == [0, 3]


def test_sweeps_cancel_in_casino_has_no_near_target_blocking() -> None:
    match_rules = Rules.make("casino", sweeps="cancel")
    result = score(match_rules, versus(30, 5, aces="H", sweeps=(3, 1)), (18, 0))
    assert [b.sweeps for b in result.breakdown] == [2, 0]
    assert result.totals == (24, 7)
    assert result.winner == 0


def test_dominican_sweep_blocking_follows_target_11() -> None:
    match_rules = Rules.make("dominican", target=11)
    result = score(match_rules, versus(24, 4, aces="D", sweeps=(3, 1)), (8, 0))
    assert [b.sweeps for b in result.breakdown] == [0, 0]
    result = score(match_rules, versus(24, 4, aces="D", sweeps=(3, 1)), (7, 0))
    assert [b.sweeps for b in result.breakdown] == [2, 0]


# --- §3 variants and options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "sweeps", "several_reach", "clockwise"),
    [
        ("casino", "count", "highest", True),
        ("royal", "count", "count-out", True),
        ("dominican", "cancel", "highest", False),
    ],
)
def test_variant_defaults(variant: str, sweeps: str, several_reach: str, clockwise: bool) -> None:
    match_rules = Rules.make(variant)
    assert match_rules.target == 21
    assert match_rules.sweeps == sweeps
    assert match_rules.several_reach == several_reach
    assert match_rules.scoring == "cumulative"
    assert match_rules.twenty_needs == "little-casino"
    assert match_rules.clockwise is clockwise


def test_options_override_variant_defaults() -> None:
    match_rules = Rules.make(
        "royal", target=11, sweeps="off", several_reach="highest", scoring="difference"
    )
    assert (match_rules.target, match_rules.sweeps, match_rules.several_reach) == (
        11,
        rules.SweepRule.OFF,
        rules.SeveralReach.HIGHEST,
    )
    assert match_rules.scoring is rules.Scoring.DIFFERENCE


@pytest.mark.parametrize(
    "bad",
    [
        {"variant": "poker"},
        {"variant": "casino", "sweeps": "sometimes"},
        {"variant": "casino", "several_reach": "first"},
        {"variant": "casino", "scoring": "golf"},
        {"variant": "dominican", "twenty_needs": "luck"},
        {"variant": "casino", "target": 0},
    ],
)
def test_rules_make_refuses_unknown_values(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Rules.make(**bad)  # type: ignore[arg-type]


def test_tally_make_normalizes_aces() -> None:
    assert side(10, 2, aces="dhsd").aces == "SHD"
    with pytest.raises(ValueError, match="X"):
        side(10, 2, aces="SX")


# --- §5 winning ---------------------------------------------------------------------------------


def test_reaching_the_target_exactly_wins() -> None:
    # A: spades 1 -> 21. B: 3 + 2 + 1 + 4 = 10 -> 15.
    result = score(CASINO, versus(20, 7), (20, 5))
    assert result.totals == (21, 15)
    assert result.status is Status.WON
    assert result.winner == 0
    assert result.outcome == Outcome("reached", 0, None, 21)


def test_one_short_of_the_target_keeps_playing() -> None:
    result = score(CASINO, versus(20, 7), (19, 5))
    assert result.totals == (20, 15)
    assert result.status is Status.PLAYING
    assert result.outcome is None


def test_only_side_to_reach_wins_even_with_fewer_points() -> None:
    result = score(CASINO, versus(20, 7), (20, 0))
    assert result.points == (1, 10)
    assert result.winner == 0


def test_highest_total_wins_when_both_reach() -> None:
    # A: 3 + 2 = 5 -> 23. B: 1 + 2 + 1 + 2 = 6 -> 25.
    result = score(CASINO, versus(27, 5, aces="HD"), (18, 19))
    assert result.totals == (23, 25)
    assert result.winner == 1
    assert result.outcome == Outcome("highest", 1, None, 25)


def test_highest_with_equal_top_totals_is_a_tie() -> None:
    # A: little 1 + A♥ A♦ 2 = 3 -> 22. B: spades 1 + big 2 + A♠ A♣ 2 = 5 -> 22.
    result = score(CASINO, versus(26, 6, little=True, aces="HD"), (19, 17))
    assert result.totals == (22, 22)
    assert result.status is Status.TIED
    assert result.winner is None
    assert result.outcome == Outcome("tied", None, None, 22)


def test_tied_hand_then_first_hand_with_single_leader_wins() -> None:
    tie = versus(26, 6, little=True, aces="HD")  # 3 v 5: 22-22 from 19-17
    again = CARDS_TIED  # 4 v 4: 26-26, still tied
    decider = versus(27, 5, aces="HD")  # 5 v 6: 31 v 32
    result = rules.score_match(CASINO, [tie, again, decider], (19, 17))
    assert [h.totals for h in result.hands] == [(22, 22), (26, 26), (31, 32)]
    assert [h.status for h in result.hands] == [Status.TIED, Status.TIED, Status.WON]
    assert result.winner == 1
    assert result.outcome == Outcome("highest", 1, None, 32)


def test_three_sides_tie_among_two_leaders_with_third_below_target() -> None:
    tallies = hand(
        side(20, 5, big=True, aces="S"), side(18, 5, little=True, aces="HD"), side(14, 3, aces="C")
    )
    # points 6, 3, 1 from 16, 19, 0: 22, 22, 1.
    result = score(CASINO, tallies, (16, 19, 0))
    assert result.totals == (22, 22, 1)
    assert result.status is Status.TIED


def test_three_sides_highest_among_those_who_reach() -> None:
    tallies = hand(
        side(20, 5, big=True, aces="S"), side(18, 5, little=True, aces="HD"), side(14, 3, aces="C")
    )
    result = score(CASINO, tallies, (16, 20, 20))
    assert result.totals == (22, 23, 21)
    assert result.winner == 1
    assert result.outcome is not None and result.outcome.kind == "highest"


def test_count_out_first_to_reach_wins_even_if_lower() -> None:
    # Same hand as the highest test: A reaches 21 on cards first, though B ends 25 v 23.
    result = score(COUNT_OUT, versus(27, 5, aces="HD"), (18, 19))
    assert result.totals == (23, 25)
    assert result.winner == 0
    assert result.outcome == Outcome("count-out", 0, "cards", 23)


def test_royal_counts_out_by_default() -> None:
    result = score(ROYAL, versus(27, 5, aces="HD"), (18, 19))
    assert result.winner == 0


def test_count_out_spades_come_before_big_casino() -> None:
    # A (20) reaches on spades; B (19) would reach on big casino and ends 26 v 21.
    result = score(COUNT_OUT, versus(26, 7), (20, 19))
    assert result.totals == (21, 26)
    assert result.outcome == Outcome("count-out", 0, "spades", 21)


def test_count_out_big_casino_comes_before_little_casino() -> None:
    # A 19 + spades 1 + big 2 reaches at big casino; B 20 + little would reach next.
    result = score(COUNT_OUT, versus(26, 7, big=True), (19, 20))
    assert result.totals == (22, 25)
    assert result.outcome == Outcome("count-out", 0, "big_casino", 22)


@pytest.mark.parametrize(
    ("tallies", "before", "winner", "category", "totals"),
    [
        # A 16: spades 17, big 19, little 20, A♠ 21, before B (20) can take A♣.
        (versus(26, 8, big=True, little=True, aces="SHD"), (16, 20), 0, "S", (23, 21)),
        # A 15 only reaches 20 on A♠; B (20) takes A♣ before A's A♥, though A ends 22 v 21.
        (versus(26, 8, big=True, little=True, aces="SHD"), (15, 20), 1, "C", (22, 21)),
        # A 19: spades 20, A♥ 21. B 15: big 17, little 18, A♠ 19, A♣ 20, A♦ would make 21.
        (versus(26, 7, aces="H"), (19, 15), 0, "H", (21, 21)),
    ],
    ids=["spades-before-clubs", "clubs-before-hearts", "hearts-before-diamonds"],
)
def test_count_out_aces_count_in_order_spades_clubs_hearts_diamonds(
    tallies: tuple[Tally, ...],
    before: tuple[int, int],
    winner: int,
    category: str,
    totals: tuple[int, int],
) -> None:
    result = score(COUNT_OUT, tallies, before)
    assert result.totals == totals
    assert result.outcome == Outcome("count-out", winner, category, totals[winner])


# A: cards 3, little 1, four aces 4, sweeps 2 = 10; B: spades 1, big 2, sweeps = 3 + its sweeps.
SWEEP_FINISH_A = side(30, 6, little=True, aces="SCHD", sweeps=2)


def test_count_out_sweeps_added_together_fall_back_to_highest() -> None:
    # From 12 v 17 neither reaches before sweeps (20 v 20); then 22 v 23: the higher wins.
    tallies = hand(SWEEP_FINISH_A, side(22, 7, big=True, sweeps=3))
    result = score(COUNT_OUT, tallies, (12, 17))
    assert result.totals == (22, 23)
    # Both reached 21 at the sweeps step: the outcome says so.
    assert result.outcome == Outcome("same-step", 1, "sweeps", 23)


def test_count_out_sweeps_reaching_equal_totals_is_a_tie() -> None:
    tallies = hand(SWEEP_FINISH_A, side(22, 7, big=True, sweeps=2))
    result = score(COUNT_OUT, tallies, (12, 17))
    assert result.totals == (22, 22)
    assert result.status is Status.TIED


def test_after_a_tie_count_out_gives_way_to_highest_total() -> None:
    tie = hand(SWEEP_FINISH_A, side(22, 7, big=True, sweeps=2))  # 22-22
    # A: cards 3 -> 25 (count-out would stop here); B: 1 + 2 + 1 + 4 = 8 -> 30.
    decider = versus(27, 5)
    result = rules.score_match(COUNT_OUT, [tie, decider], (12, 17))
    assert result.totals == (25, 30)
    assert result.winner == 1
    assert result.outcome == Outcome("highest", 1, None, 30)


def test_hand_after_win_raises_match_over_error() -> None:
    won = versus(20, 7)  # 20 -> 21
    with pytest.raises(rules.MatchOverError, match="hand 2 comes after") as error:
        rules.score_match(CASINO, [won, PLAIN], (20, 0))
    assert error.value.hand_index == 1


def test_tied_match_takes_another_hand() -> None:
    result = rules.score_match(CASINO, [versus(26, 6, little=True, aces="HD"), PLAIN], (19, 17))
    assert result.totals == (30, 25)
    assert result.winner == 0


# --- targets, start totals, difference scoring ----------------------------------------------------


def test_target_11_is_reached_at_11() -> None:
    match_rules = Rules.make("casino", target=11)
    result = score(match_rules, versus(20, 7), (10, 0))
    assert result.totals == (11, 10)
    assert result.winner == 0


def test_target_22_over_21_needs_22() -> None:
    match_rules = Rules.make("casino", target=22)
    result = rules.score_match(match_rules, [versus(20, 7)], (20, 0))
    assert result.totals == (21, 10)
    assert result.status is Status.PLAYING
    result = rules.score_match(match_rules, [versus(20, 7), versus(20, 7)], (20, 0))
    assert result.totals == (22, 20)
    assert result.winner == 0


def test_start_totals_carry_into_the_match() -> None:
    result = rules.score_match(CASINO, [PLAIN, CARDS_TIED], (5, 9))
    assert [h.totals for h in result.hands] == [(13, 12), (17, 16)]
    assert result.totals == (17, 16)


def test_match_without_start_totals_starts_at_zero() -> None:
    assert rules.score_match(CASINO, [PLAIN]).totals == (8, 3)
    empty = rules.score_match(CASINO, [], sides=3)
    assert empty.totals == (0, 0, 0)
    assert empty.status is Status.PLAYING
    assert empty.conditions == (None, None, None)


def test_difference_scoring_credits_only_the_margin() -> None:
    match_rules = Rules.make("casino", scoring="difference")
    result = score(match_rules, PLAIN, (4, 6))
    assert result.points == (8, 3)
    assert result.totals == (9, 6)


def test_difference_scoring_credits_the_side_with_more_points() -> None:
    match_rules = Rules.make("casino", scoring="difference")
    # A: little 1 + A♣ A♦ 2 = 3; B: 3 + 1 + 2 + 2 = 8.
    result = score(match_rules, versus(23, 5, little=True, aces="CD"), (4, 6))
    assert result.totals == (4, 11)


def test_difference_scoring_equal_points_credit_nobody() -> None:
    match_rules = Rules.make("casino", scoring="difference")
    result = score(match_rules, CARDS_TIED, (4, 6))
    assert result.totals == (4, 6)


def test_difference_scoring_11_point_game() -> None:
    match_rules = Rules.make("casino", target=11, scoring="difference")
    result = rules.score_match(match_rules, [PLAIN, PLAIN])
    assert [h.totals for h in result.hands] == [(5, 0), (10, 0)]
    assert result.status is Status.PLAYING
    result = rules.score_match(match_rules, [PLAIN, PLAIN, PLAIN])
    assert result.totals == (15, 0)
    assert result.winner == 0


def test_difference_scoring_only_applies_with_two_sides() -> None:
    match_rules = Rules.make("casino", scoring="difference")
    tallies = hand(
        side(20, 5, big=True, aces="S"), side(18, 5, little=True, aces="HD"), side(14, 3, aces="C")
    )
    assert score(match_rules, tallies).totals == (6, 3, 1)


# --- §6 Dominican near-target rules ---------------------------------------------------------------


def test_dominican_side_at_18_taking_most_cards_wins_automatically() -> None:
    # A: cards 3 + A♦ = 4 -> 22. B: 1 + 2 + 1 + 3 = 7 -> 23, higher, but A met its condition.
    result = score(DOMINICAN, versus(28, 4, aces="D"), (18, 16))
    assert result.totals == (22, 23)
    assert result.winner == 0
    assert result.outcome == Outcome("condition", 0, "cards", 22)


def test_dominican_side_at_18_missing_most_cards_is_capped_at_20() -> None:
    # A: spades 1 + big 2 + little 1 + 3 aces = 7 would make 25; held at 20. B: 3 + 1 -> 9.
    result = score(DOMINICAN, versus(25, 9, big=True, little=True, aces="SCH"), (18, 5))
    assert result.points == (7, 4)
    assert result.totals == (20, 9)
    assert result.status is Status.PLAYING
    assert rules.score_match(
        DOMINICAN, [versus(25, 9, big=True, little=True, aces="SCH")], (18, 5)
    ).conditions == ("little_casino", None)


def test_dominican_side_at_19_missing_big_casino_is_capped_at_20() -> None:
    # A: 3 + 1 + 1 + 2 = 7 would make 26; held at 20. B: big 2 + 2 aces -> 16.
    result = score(DOMINICAN, versus(30, 8, little=True, aces="SC"), (19, 12))
    assert result.breakdown[0] == Breakdown(3, 1, 0, 1, 2, 0)
    assert result.totals == (20, 16)
    assert result.status is Status.PLAYING


def test_dominican_side_at_19_taking_big_casino_wins() -> None:
    # A: big 2 -> 21. B: 3 + 1 + 1 + 4 = 9 -> 25.
    result = score(DOMINICAN, versus(20, 3, big=True), (19, 16))
    assert result.totals == (21, 25)
    assert result.outcome == Outcome("condition", 0, "big_casino", 21)


def test_dominican_side_at_20_taking_little_casino_wins() -> None:
    # A: little 1 -> 21. B: 3 + 1 + 2 + 4 = 10 -> 24.
    result = score(DOMINICAN, versus(22, 5, little=True), (20, 14))
    assert result.totals == (21, 24)
    assert result.outcome == Outcome("condition", 0, "little_casino", 21)


def test_dominican_side_at_20_with_most_spades_option_misses_with_little_casino_only() -> None:
    # Same hand: B has most spades, so A is held at 20 and B wins on 24.
    result = score(DOMINICAN_SPADES, versus(22, 5, little=True), (20, 14))
    assert result.totals == (20, 24)
    assert result.outcome == Outcome("reached", 1, None, 24)


def test_dominican_side_at_20_with_most_spades_option_wins_with_most_spades() -> None:
    # A: spades 1 -> 21. B: 3 + 2 + 1 + 4 = 10 -> 24.
    result = score(DOMINICAN_SPADES, versus(22, 8), (20, 14))
    assert result.totals == (21, 24)
    assert result.outcome == Outcome("condition", 0, "spades", 21)


def test_dominican_two_restricted_sides_first_category_in_count_out_order_wins() -> None:
    # A (18) takes most cards -> 21; B (19) takes big casino: 1 + 2 + 1 + 4 = 8 -> 27.
    result = score(DOMINICAN, versus(27, 4), (18, 19))
    assert result.totals == (21, 27)
    # Both met their condition: the outcome says several did.
    assert result.outcome == Outcome("conditions", 0, "cards", 21)


def test_dominican_side_below_18_wins_normally() -> None:
    # A 17: 3 + 1 + 2 = 6 -> 23.
    result = score(DOMINICAN, versus(28, 7, big=True), (17, 10))
    assert result.totals == (23, 15)
    assert result.outcome == Outcome("reached", 0, None, 23)


def test_dominican_capped_side_loses_to_a_side_that_reaches() -> None:
    # A (19) misses the big casino: 26 held at 20. B 17 + 4 = 21 wins.
    result = score(DOMINICAN, versus(30, 8, little=True, aces="SC"), (19, 17))
    assert result.totals == (20, 21)
    assert result.outcome == Outcome("reached", 1, None, 21)


def test_dominican_near_target_rules_follow_target_11() -> None:
    match_rules = Rules.make("dominican", target=11)
    result = score(match_rules, versus(25, 9, big=True, little=True, aces="SCH"), (8, 3))
    assert result.totals == (10, 7)
    result = score(match_rules, versus(28, 4, aces="D"), (8, 3))
    assert result.outcome == Outcome("condition", 0, "cards", 12)


@pytest.mark.parametrize(
    ("variant", "target", "twenty_needs", "before", "expected"),
    [
        ("dominican", 21, "little-casino", 0, None),
        ("dominican", 21, "little-casino", 17, None),
        ("dominican", 21, "little-casino", 18, "cards"),
        ("dominican", 21, "little-casino", 19, "big_casino"),
        ("dominican", 21, "little-casino", 20, "little_casino"),
        ("dominican", 21, "most-spades", 20, "spades"),
        ("dominican", 21, "little-casino", 21, None),
        ("dominican", 21, "little-casino", 25, None),
        ("dominican", 11, "little-casino", 7, None),
        ("dominican", 11, "little-casino", 8, "cards"),
        ("dominican", 11, "little-casino", 9, "big_casino"),
        ("dominican", 11, "most-spades", 10, "spades"),
        ("dominican", 22, "little-casino", 18, None),
        ("dominican", 22, "little-casino", 19, "cards"),
        ("dominican", 22, "little-casino", 21, "little_casino"),
        ("dominican", 4, "little-casino", 1, "cards"),
        ("dominican", 3, "little-casino", 0, None),
        ("dominican", 3, "little-casino", 2, None),
        ("casino", 21, "little-casino", 18, None),
        ("casino", 21, "little-casino", 20, None),
        ("royal", 21, "most-spades", 19, None),
    ],
)
def test_endgame_condition(
    variant: str, target: int, twenty_needs: str, before: int, expected: str | None
) -> None:
    match_rules = Rules.make(variant, target=target, twenty_needs=twenty_needs)
    assert rules.endgame_condition(match_rules, before) == expected


def test_match_conditions_are_for_the_next_hand() -> None:
    result = rules.score_match(DOMINICAN, [], (18, 19))
    assert result.conditions == ("cards", "big_casino")
    won = rules.score_match(DOMINICAN, [versus(28, 4, aces="D")], (18, 16))
    assert won.conditions is None


# --- §8 around the table ------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_deals_per_hand(players: int, deals: int) -> None:
    turn = rules.table_turn(CASINO, players=players, first_dealer=0, hand_index=0)
    assert turn.deals == deals
    # 4 cards each per deal, plus 4 on the table once: the whole pack.
    assert deals * 4 * players + 4 == 52


def test_two_players_alternate_dealing() -> None:
    turns = [rules.table_turn(CASINO, players=2, first_dealer=1, hand_index=i) for i in range(3)]
    assert [(t.dealer_seat, t.leader_seat) for t in turns] == [(1, 0), (0, 1), (1, 0)]
    assert [t.hand_number for t in turns] == [1, 2, 3]


def test_three_players_clockwise() -> None:
    turns = [rules.table_turn(ROYAL, players=3, first_dealer=0, hand_index=i) for i in range(4)]
    assert [(t.dealer_seat, t.leader_seat) for t in turns] == [(0, 1), (1, 2), (2, 0), (0, 1)]
    assert all(t.clockwise for t in turns)


def test_four_players_dominican_counter_clockwise() -> None:
    turns = [rules.table_turn(DOMINICAN, players=4, first_dealer=0, hand_index=i) for i in range(5)]
    assert [(t.dealer_seat, t.leader_seat) for t in turns] == [
        (0, 3),
        (3, 2),
        (2, 1),
        (1, 0),
        (0, 3),
    ]
    assert not any(t.clockwise for t in turns)


@pytest.mark.parametrize("match_rules", [CASINO, ROYAL, DOMINICAN], ids=str)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_next_hand_is_dealt_by_this_hands_leader(match_rules: Rules, players: int) -> None:
    for first_dealer in range(players):
        for index in range(2 * players):
            turn = rules.table_turn(
                match_rules, players=players, first_dealer=first_dealer, hand_index=index
            )
            following = rules.table_turn(
                match_rules, players=players, first_dealer=first_dealer, hand_index=index + 1
            )
            assert following.dealer_seat == turn.leader_seat


@pytest.mark.parametrize("players", [1, 5])
def test_table_turn_refuses_other_table_sizes(players: int) -> None:
    with pytest.raises(ValueError):
        rules.table_turn(CASINO, players=players, first_dealer=0, hand_index=0)


def test_seat_side_partners_sit_opposite() -> None:
    assert [rules.seat_side(seat, 2) for seat in range(4)] == [0, 1, 0, 1]


def test_seat_side_individual_players() -> None:
    assert [rules.seat_side(seat, 3) for seat in range(3)] == [0, 1, 2]
    assert [rules.seat_side(seat, 4) for seat in range(4)] == [0, 1, 2, 3]
    assert [rules.seat_side(seat, 2) for seat in range(2)] == [0, 1]


# --- §7 validation ------------------------------------------------------------------------------


def problems_of(*tallies: Tally, sides: int | None = None) -> list[tuple[str, int | None, str]]:
    return [
        (p.code, p.side, p.describe(NAMES[: len(tallies)])) for p in rules.validate(tallies, sides)
    ]


def test_valid_hands_have_no_problems() -> None:
    assert rules.validate(PLAIN) == []
    everything = side(52, 13, big=True, little=True, aces="SCHD", sweeps=24)
    assert rules.validate((everything, side(0, 0))) == []


def test_cards_must_add_up_to_52() -> None:
    tallies = (side(25, 6, big=True, aces="SC"), side(25, 7, little=True, aces="HD"))
    assert problems_of(*tallies) == [("cards_total", None, "cards add up to 50, not 52")]


def test_spades_must_add_up_to_13() -> None:
    tallies = (side(26, 6, big=True, aces="SC"), side(26, 6, little=True, aces="HD"))
    assert problems_of(*tallies) == [("spades_total", None, "spades add up to 12, not 13")]


def test_cards_cannot_be_negative() -> None:
    tallies = (side(-1, 0), side(53, 13, big=True, little=True, aces="SCHD"))
    assert problems_of(*tallies) == [("cards_negative", 0, "Ana: cards cannot be negative (-1)")]


def test_spades_cannot_be_negative() -> None:
    tallies = (side(10, -1), side(42, 14, big=True, little=True, aces="SCHD"))
    assert problems_of(*tallies) == [("spades_negative", 0, "Ana: spades cannot be negative (-1)")]


def test_spades_cannot_exceed_cards() -> None:
    tallies = (side(5, 6), side(47, 7, big=True, little=True, aces="SCHD"))
    assert problems_of(*tallies) == [("spades_over_cards", 0, "Ana: 6 spades but only 5 cards")]


def test_spades_over_cards_with_no_special_card_is_one_problem() -> None:
    """Regression: this also gave "holds  but has only 0 cards ... (needs at least 0)"."""
    tallies = (side(5, 6), side(47, 7, big=True, little=True, aces="SCHD"))
    assert [p.code for p in rules.validate(tallies)] == ["spades_over_cards"]


def test_spades_over_cards_with_the_big_casino_also_names_the_shortfall() -> None:
    tallies = (side(5, 6, big=True), side(47, 7, little=True, aces="SCHD"))
    assert problems_of(*tallies) == [
        ("spades_over_cards", 0, "Ana: 6 spades but only 5 cards"),
        (
            "special_non_spades",
            0,
            "Ana: holds 10♦ but has only 0 cards that are not spades (needs at least 1)",
        ),
    ]


def test_nobody_holds_the_big_casino() -> None:
    tallies = (side(26, 7, little=True, aces="SC"), side(26, 6, aces="HD"))
    assert problems_of(*tallies) == [("card_nobody", None, "nobody holds the big casino (10♦)")]


def test_both_hold_the_big_casino() -> None:
    tallies = (side(26, 7, big=True, little=True, aces="SC"), side(26, 6, big=True, aces="HD"))
    assert problems_of(*tallies) == [
        ("card_both", None, "both Ana and Ben hold the big casino (10♦)")
    ]


def test_three_sides_hold_the_ace_of_hearts() -> None:
    tallies = (
        side(20, 5, big=True, aces="SH"),
        side(18, 5, little=True, aces="HD"),
        side(14, 3, aces="CH"),
    )
    assert problems_of(*tallies) == [
        ("card_several", None, "Ana, Ben, Cy all hold the ace of hearts")
    ]


def test_ace_held_twice_and_another_missing() -> None:
    tallies = (side(26, 6, big=True, aces="SH"), side(26, 7, little=True, aces="CH"))
    assert problems_of(*tallies) == [
        ("card_both", None, "both Ana and Ben hold the ace of hearts"),
        ("card_nobody", None, "nobody holds the ace of diamonds"),
    ]


def test_little_casino_and_ace_of_spades_need_two_spades() -> None:
    tallies = (side(26, 1, little=True, aces="S"), side(26, 12, big=True, aces="CHD"))
    assert problems_of(*tallies) == [
        (
            "special_spades",
            0,
            "Ana: holds 2♠, A♠ but has only 1 spades (needs at least 2)",
        )
    ]


def test_big_casino_and_red_aces_need_non_spades() -> None:
    tallies = (side(4, 2, big=True, aces="CHD"), side(48, 11, little=True, aces="S"))
    assert problems_of(*tallies) == [
        (
            "special_non_spades",
            0,
            "Ana: holds 10♦, A♣, A♥, A♦ but has only 2 cards that are not spades "
            "(needs at least 4)",
        )
    ]


def test_sweeps_cannot_be_negative() -> None:
    tallies = (side(29, 8, big=True, aces="SH", sweeps=-1), side(23, 5, little=True, aces="CD"))
    assert problems_of(*tallies) == [("sweeps_negative", 0, "Ana: sweeps cannot be negative (-1)")]


def test_each_sweep_needs_two_cards() -> None:
    ok = (side(46, 10, big=True, aces="SH"), side(6, 3, little=True, aces="CD", sweeps=3))
    assert rules.validate(ok) == []
    tallies = (side(47, 10, big=True, aces="SH"), side(5, 3, little=True, aces="CD", sweeps=3))
    assert problems_of(*tallies) == [
        ("sweeps_need_cards", 1, "Ben: 3 sweeps need at least 6 cards")
    ]


def test_at_most_24_sweeps_in_a_hand() -> None:
    ok = (
        side(26, 7, big=True, aces="SC", sweeps=12),
        side(26, 6, little=True, aces="HD", sweeps=12),
    )
    assert rules.validate(ok) == []
    tallies = (
        side(26, 7, big=True, aces="SC", sweeps=13),
        side(26, 6, little=True, aces="HD", sweeps=12),
    )
    assert problems_of(*tallies) == [
        ("sweeps_total", None, "25 sweeps in one hand; at most 24 are possible")
    ]


def test_wrong_number_of_tallies() -> None:
    assert problems_of(*PLAIN, sides=3) == [("tally_count", None, "2 tallies for 3 sides")]


def test_sweeps_entered_with_sweeps_off_are_still_checked() -> None:
    tallies = (side(47, 10, big=True, aces="SH"), side(5, 3, little=True, aces="CD", sweeps=3))
    assert [p.code for p in rules.validate(tallies)] == ["sweeps_need_cards"]


def test_problem_without_side_names_numbers_the_sides() -> None:
    (problem,) = rules.validate((side(5, 6), side(47, 7, big=True, little=True, aces="SCHD")))
    assert problem.describe() == "#1: 6 spades but only 5 cards"


def test_problem_text_is_translated() -> None:
    french = {
        "both %(first)s and %(second)s hold the %(card)s": "%(first)s et %(second)s ont le %(card)s",
        "big casino (10♦)": "grand casino (10♦)",
    }
    problem = Problem("card_both", {"card": "10D", "holders": (0, 1)})
    assert problem.describe(["Ana", "Ben"], lambda text: french.get(text, text)) == (
        "Ana et Ben ont le grand casino (10♦)"
    )


# --- property tests -----------------------------------------------------------------------------


@st.composite
def dealt_hands(draw: st.DrawFn, sides: st.SearchStrategy[int] | None = None) -> tuple[Tally, ...]:
    """Shuffle the pack, cut it into one pile per side, and add sweeps within the limits."""
    count = draw(sides if sides is not None else st.integers(2, 4))
    order = draw(st.permutations(DECK))
    if draw(st.integers(0, 3)) == 0:
        size, extra = divmod(52, count)  # even piles make ties at the top likely
        sizes = [size + (1 if i < extra else 0) for i in range(count)]
    else:
        cuts = sorted(draw(st.lists(st.integers(0, 52), min_size=count - 1, max_size=count - 1)))
        bounds = [0, *cuts, 52]
        sizes = [bounds[i + 1] - bounds[i] for i in range(count)]
    piles, start = [], 0
    for size in sizes:
        piles.append(order[start : start + size])
        start += size
    budget = 24
    tallies = []
    for pile in piles:
        sweeps = draw(st.integers(0, min(len(pile) // 2, budget)))
        budget -= sweeps
        tallies.append(tally_of(pile, sweeps))
    return tuple(tallies)


@st.composite
def match_rules_for(draw: st.DrawFn, sides: int) -> Rules:
    variant = draw(st.sampled_from(["casino", "royal", "dominican"]))
    scoring = "difference" if sides == 2 and draw(st.integers(0, 4)) == 0 else "cumulative"
    return Rules.make(
        variant,
        target=draw(st.sampled_from([21, 21, 11, 22, 4, 3, 1, 30])),
        sweeps=draw(st.sampled_from([None, "off", "count", "cancel"])),
        several_reach=draw(st.sampled_from([None, "highest", "count-out"])),
        scoring=scoring,
        twenty_needs=draw(st.sampled_from(["little-casino", "most-spades"])),
    )


def top_is_tied(counts: Sequence[int]) -> bool:
    return counts.count(max(counts)) > 1


def expected_sweep_points(
    match_rules: Rules, tallies: Sequence[Tally], before: Sequence[int]
) -> list[int]:
    raw = [t.sweeps for t in tallies]
    if match_rules.sweeps == "off":
        return [0] * len(raw)
    if match_rules.sweeps == "cancel":
        raw = [count - min(raw) for count in raw]
    if match_rules.variant == "dominican" and match_rules.target >= 4:
        raw = [
            0 if total >= match_rules.target - 3 else count
            for count, total in zip(raw, before, strict=True)
        ]
    return raw


PROPERTY_SETTINGS = settings(max_examples=examples(250))


@PROPERTY_SETTINGS
@given(data=st.data())
def test_dealt_hands_always_validate(data: st.DataObject) -> None:
    tallies = data.draw(dealt_hands())
    assert rules.validate(tallies, len(tallies)) == []
    assert possible(tallies)


@PROPERTY_SETTINGS
@given(data=st.data())
def test_hand_points_are_11_less_ties_plus_sweeps(data: st.DataObject) -> None:
    tallies = data.draw(dealt_hands())
    match_rules = data.draw(match_rules_for(len(tallies)))
    before = data.draw(
        st.lists(
            st.integers(0, max(match_rules.target - 1, 0)),
            min_size=len(tallies),
            max_size=len(tallies),
        )
    )
    result = rules.score_hand(match_rules, tallies, before)
    sweep_points = expected_sweep_points(match_rules, tallies, before)
    base = (
        11 - 3 * top_is_tied([t.cards for t in tallies]) - top_is_tied([t.spades for t in tallies])
    )
    assert sum(result.points) == base + sum(sweep_points)
    assert [b.sweeps for b in result.breakdown] == sweep_points
    assert [b.aces for b in result.breakdown] == [len(t.aces) for t in tallies]
    assert [b.big_casino for b in result.breakdown] == [2 * t.big_casino for t in tallies]
    assert [b.little_casino for b in result.breakdown] == [int(t.little_casino) for t in tallies]
    assert list(result.points) == [b.points for b in result.breakdown]
    assert rules.hand_base_points(tallies) == base


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(data=st.data())
def test_match_totals_never_decrease_and_scoring_never_raises(data: st.DataObject) -> None:
    sides = data.draw(st.integers(2, 4))
    match_rules = data.draw(match_rules_for(sides))
    target = match_rules.target
    hands = data.draw(st.lists(dealt_hands(st.just(sides)), min_size=1, max_size=12))
    start = data.draw(st.lists(st.integers(0, target - 1), min_size=sides, max_size=sides))
    dominican = match_rules.endgame_from is not None
    difference = match_rules.scoring == "difference"

    previous = tuple(start)
    decided = None
    for index in range(len(hands)):
        result = rules.score_match(match_rules, hands[: index + 1], start)
        last = result.hands[-1]
        credited = list(last.points)
        if difference:
            margin = last.points[0] - last.points[1]
            credited = [max(margin, 0), max(-margin, 0)]
        for i in range(sides):
            plain = previous[i] + credited[i]
            restricted = dominican and target - 3 <= previous[i] < target
            capped = restricted and plain >= target and last.totals[i] == target - 1
            assert last.totals[i] == plain or capped
            assert last.totals[i] >= previous[i]
        if result.status is Status.WON:
            assert result.winner is not None and result.conditions is None
            if not (dominican and difference):
                assert result.totals[result.winner] >= target
            decided = index
            break
        if result.status is Status.TIED:
            top = max(result.totals)
            assert top >= target and result.totals.count(top) > 1
        else:
            assert max(result.totals) < target
            assert result.conditions == tuple(
                rules.endgame_condition(match_rules, total) for total in result.totals
            )
        previous = result.totals
    if decided is not None and decided + 1 < len(hands):
        with pytest.raises(rules.MatchOverError) as error:
            rules.score_match(match_rules, hands, start)
        assert error.value.hand_index == decided + 1


@st.composite
def perturbed_hands(draw: st.DrawFn) -> tuple[Tally, ...]:
    """A dealt hand with 1 to 3 entries changed: about half of them become impossible."""
    tallies = [t._asdict() for t in draw(dealt_hands())]
    for _ in range(draw(st.integers(1, 3))):
        who = draw(st.integers(0, len(tallies) - 1))
        other = draw(st.integers(0, len(tallies) - 1))
        tally = tallies[who]
        change = draw(
            st.sampled_from(
                ["cards", "spades", "sweeps", "big", "little", "ace", "move", "move_spade", "give"]
            )
        )
        if change in ("cards", "spades"):
            tally[change] += draw(st.integers(-3, 3))
        elif change == "sweeps":
            tally["sweeps"] = draw(st.integers(-1, 27))
        elif change == "big":
            tally["big_casino"] = not tally["big_casino"]
        elif change == "little":
            tally["little_casino"] = not tally["little_casino"]
        elif change == "ace":
            suit = draw(st.sampled_from("SCHD"))
            aces = set(tally["aces"]) ^ {suit}
            tally["aces"] = "".join(s for s in "SCHD" if s in aces)
        elif change in ("move", "move_spade"):
            # Totals still add up; whether the piles can hold what they claim may not.
            amount = draw(st.integers(1, 4))
            tally["cards"] -= amount
            tallies[other]["cards"] += amount
            if change == "move_spade":
                tally["spades"] -= amount
                tallies[other]["spades"] += amount
        else:
            card = draw(st.sampled_from(["big_casino", "little_casino", "S", "C", "H", "D"]))
            for entry in tallies:  # hand a special card to another side
                if card in entry:
                    entry[card] = False
                else:
                    entry["aces"] = entry["aces"].replace(card, "")
            if card in tallies[other]:
                tallies[other][card] = True
            else:
                tallies[other]["aces"] = "".join(
                    s for s in "SCHD" if s in tallies[other]["aces"] or s == card
                )
    return tuple(Tally(**entry) for entry in tallies)


@settings(max_examples=examples(300))
@given(tallies=perturbed_hands())
def test_validate_accepts_exactly_the_hands_that_add_up(tallies: tuple[Tally, ...]) -> None:
    problems = rules.validate(tallies, len(tallies))
    assert (problems == []) == possible(tallies), problems
    for problem in problems:
        assert problem.side is None or 0 <= problem.side < len(tallies)
        text = problem.describe(NAMES)
        assert text and "holds  " not in text
        assert problem.describe()
        if "needed" in problem.params:  # a shortfall names what is held and what is needed
            assert int(problem.params["needed"]) > 0  # type: ignore[call-overload]


# --- the benchmark (manage.py bench_rules) ------------------------------------------------------


def test_bench_deals_only_possible_hands() -> None:
    from scoring.management.commands.bench_rules import deal_hand

    rng = random.Random(7)
    for sides in (2, 3, 4):
        for _ in range(50):
            assert possible(deal_hand(rng, sides))


def test_bench_rules_command_prints_hands_per_second() -> None:
    out = io.StringIO()
    call_command("bench_rules", hands=200, seconds=0.01, stdout=out)
    rates = re.findall(r"  ([\d,]+) hands/s$", out.getvalue(), re.MULTILINE)
    assert len(rates) == 4
    assert all(int(rate.replace(",", "")) > 0 for rate in rates)
    assert "Goal 100,000 hands/s for 2-side hands" in out.getvalue()


@pytest.mark.parametrize(
    ("sizes", "scoring", "problem"),
    [
        ([1, 1], None, None),
        ([1, 1, 1, 1], None, None),
        ([2, 2], rules.Scoring.DIFFERENCE, None),
        ([1], None, "players"),
        ([1, 1, 1, 1, 1], None, "players"),
        ([1, 2], None, "players"),
        ([3, 3], None, "players"),
        ([2, 2, 2], None, "partners"),
        ([1, 1, 1], rules.Scoring.DIFFERENCE, "difference_sides"),
        ([1, 1, 1], "difference", "difference_sides"),  # the value as a form or a file has it
    ],
)
def test_table_problem_is_the_one_check_of_a_table(
    sizes: list[int], scoring: rules.Scoring | str | None, problem: str | None
) -> None:
    assert rules.table_problem(sizes, scoring) == problem
    if problem is not None:
        assert problem in rules.TABLE_PROBLEMS


def test_a_lineup_seats_partners_opposite_and_names_them() -> None:
    lineup = rules.Lineup.of([["Ana", "Cleo"], ["Ben", "Dan"]])
    assert lineup.seats() == [(0, 0, "Ana"), (1, 1, "Ben"), (2, 0, "Cleo"), (3, 1, "Dan")]
    assert lineup.names() == ["Ana & Cleo", "Ben & Dan"]
    assert rules.Lineup.from_seats(reversed(lineup.seats())) == lineup
    assert lineup.seat_count == 4 and lineup.problem() is None
