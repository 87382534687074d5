"""The event rule "time" in the engine (scoring/engine/rules.py): `score_hand(..., time_up=True)` and
`score_match(..., last_hand=k)`. Pure: no database.

In a timed club-night round, when time is called the hand in progress (number k = hands recorded
+ 1) is played, and after it, and after every later hand, the side alone on the highest total wins
with outcome kind "time" unless the game's own rules ended the match in that hand (docs/RULES.md,
"Time in a club-night round").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from helpers import examples
from helpers import tally as side
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_js import deal, make, random_options

from scoring.engine import rules
from scoring.engine.rules import Lineup, MatchOverError, Outcome, Rules, Status, Tally


def hand(*tallies: Tally) -> tuple[Tally, ...]:
    assert rules.validate(tallies, len(tallies)) == [], tallies
    return tallies


CASINO = Rules.make("casino")
# Ana 8 (cards 3, spades 1, big casino 2, A♠ A♥), Ben 3 (little casino 1, A♣ A♦).
PLAIN = hand(side(29, 8, big=True, aces="SH"), side(23, 5, little=True, aces="CD"))
# Ben's turn: Ana 3, Ben 8.
BENS = tuple(reversed(PLAIN))
# Cards 26-26 score nobody: Ana 4 (spades 1, little casino 1, A♠ A♣), Ben 4 (big casino, A♥ A♦).
LEVEL = hand(side(26, 7, little=True, aces="SC"), side(26, 6, big=True, aces="HD"))


def time_win(side_: int, total: int) -> Outcome:
    return Outcome("time", side_, None, total)


# --- time called before hand k: the leader after hand k wins -------------------------------------


def test_the_side_ahead_after_the_hand_in_progress_wins_on_time() -> None:
    # Two hands recorded when time is called: hand 3 is the last.
    score = rules.score_match(CASINO, [PLAIN, BENS, PLAIN], last_hand=3)
    assert [h.status for h in score.hands] == [Status.PLAYING, Status.PLAYING, Status.WON]
    assert score.totals == (19, 14)
    assert (score.status, score.winner) == (Status.WON, 0)
    assert score.outcome == time_win(0, 19)
    assert score.hands[-1].outcome == time_win(0, 19)
    assert score.conditions is None


def test_time_called_before_the_first_hand() -> None:
    score = rules.score_match(CASINO, [BENS], last_hand=1)
    assert (score.status, score.winner, score.outcome) == (Status.WON, 1, time_win(1, 8))


def test_hands_before_the_last_hand_are_scored_as_without_time() -> None:
    timed = rules.score_match(CASINO, [PLAIN, BENS], last_hand=3)
    assert timed == rules.score_match(CASINO, [PLAIN, BENS])
    assert timed.status is Status.PLAYING


def test_a_last_hand_past_the_hands_played_changes_nothing_yet() -> None:
    assert rules.score_match(CASINO, [PLAIN], last_hand=5) == rules.score_match(CASINO, [PLAIN])


def test_score_hand_time_up_gives_the_win_to_the_leader() -> None:
    result = rules.score_hand(CASINO, PLAIN, (2, 7), time_up=True)
    assert result.totals == (10, 10)
    assert (result.status, result.outcome) == (Status.PLAYING, None)
    result = rules.score_hand(CASINO, PLAIN, (3, 7), time_up=True)
    assert (result.status, result.winner, result.outcome) == (Status.WON, 0, time_win(0, 11))
    # Without time_up the same hand keeps playing.
    assert rules.score_hand(CASINO, PLAIN, (3, 7)).status is Status.PLAYING


# --- equal top totals: one more hand, and again --------------------------------------------------


def test_level_after_the_last_hand_plays_on_and_the_next_hand_decides() -> None:
    score = rules.score_match(CASINO, [LEVEL, LEVEL, BENS], last_hand=1)
    assert [h.totals for h in score.hands] == [(4, 4), (8, 8), (11, 16)]
    assert [h.status for h in score.hands] == [Status.PLAYING, Status.PLAYING, Status.WON]
    assert score.outcome == time_win(1, 16)


def test_a_hand_after_a_win_on_time_is_refused() -> None:
    with pytest.raises(MatchOverError) as error:
        rules.score_match(CASINO, [PLAIN, PLAIN, LEVEL], last_hand=2)
    assert error.value.hand_index == 2


def test_level_at_the_target_stays_tied_and_the_next_hand_decides() -> None:
    # Start 17-17: 4-4 takes both to 21, a tie by the game's rules; time does not break it.
    score = rules.score_match(CASINO, [LEVEL], [17, 17], last_hand=1)
    assert (score.status, score.outcome) == (Status.TIED, Outcome("tied", None, None, 21))
    score = rules.score_match(CASINO, [LEVEL, PLAIN], [17, 17], last_hand=1)
    # Both are past the target after hand 2: the game's own rule (the highest) decides.
    assert score.outcome == Outcome("highest", 0, None, 29)


# --- the game's own result comes first -------------------------------------------------------


def test_a_hand_that_reaches_the_target_keeps_its_own_outcome() -> None:
    score = rules.score_match(CASINO, [PLAIN], [14, 0], last_hand=1)
    assert score.outcome == Outcome("reached", 0, None, 22)
    # The only side to reach it wins, though time is up: not the "time" kind.
    score = rules.score_match(CASINO, [BENS], [0, 13], last_hand=1)
    assert score.outcome == Outcome("reached", 1, None, 21)


def test_a_royal_count_out_in_the_last_hand_keeps_its_outcome() -> None:
    royal = Rules.make("royal")
    got = rules.score_match(royal, [BENS], [20, 18], last_hand=1)
    expected = rules.score_match(royal, [BENS], [20, 18])
    assert got == expected
    assert got.outcome is not None and got.outcome.kind == "count-out"


def test_a_dominican_condition_met_keeps_its_outcome() -> None:
    dominican = Rules.make("dominican")
    # Ana at 18 takes most cards: she wins by the near-target rule.
    score = rules.score_match(dominican, [PLAIN], [18, 0], last_hand=1)
    assert score.outcome == Outcome("condition", 0, "cards", 26)


def test_a_dominican_total_held_at_20_counts_as_20() -> None:
    dominican = Rules.make("dominican")
    # Ana at 20 needs the little casino and misses it: held at 20. Ben at 19 needs the big casino
    # and misses it: his 22 is held at 20 too. Level at 20: play on.
    level = rules.score_hand(dominican, PLAIN, (20, 19), time_up=True)
    assert level.totals == (20, 20)
    assert (level.status, level.outcome) == (Status.PLAYING, None)
    # Ana held at 20, Ben at 13: Ana is ahead, and wins on time with 20.
    ahead = rules.score_hand(dominican, PLAIN, (20, 10), time_up=True)
    assert ahead.totals == (20, 13)
    assert ahead.outcome == time_win(0, 20)


def test_swedish_level_totals_below_the_target_are_not_split_by_spades() -> None:
    swedish = Rules.make("swedish")
    tallies = hand(side(26, 8, big=True, aces="SH", last=True), side(26, 5, little=True, aces="CD"))
    before = rules.score_hand(swedish, tallies, (0, 0)).totals
    start = (0, before[0] - before[1])  # level after the hand
    result = rules.score_hand(swedish, tallies, start, time_up=True)
    assert result.totals[0] == result.totals[1]
    assert result.status is Status.PLAYING


# --- Finnish pots, three and four sides, teams, difference scoring ----------------------------


def test_finnish_time_win_keeps_the_pots() -> None:
    finnish = Rules.make("finnish")
    # Most cards 26-26: its point goes into the pot. Ana 6, Ben 3.
    tie = hand(side(26, 7, big=True, aces="SC"), side(26, 6, little=True, aces="HD"))
    score = rules.score_match(finnish, [tie], last_hand=1)
    assert score.hands[0].pots == (1, 0) == score.pots
    assert score.totals == (6, 3)
    assert score.outcome == time_win(0, 6)


def test_finnish_level_plays_on_with_the_pot() -> None:
    finnish = Rules.make("finnish")
    tie = hand(side(26, 7, big=True, aces="SC"), side(26, 6, little=True, aces="HD"))
    # From 0-3 the 6-3 hand leaves them level at 6: play on, the pot waits for the next hand.
    score = rules.score_match(finnish, [tie], [0, 3], last_hand=1)
    assert (score.totals, score.status, score.pots) == ((6, 6), Status.PLAYING, (1, 0))
    # Ana: most cards with the pot, 2. Ben: most spades 2, both casinos 3, four aces 4.
    ben = hand(side(30, 4), side(22, 9, big=True, little=True, aces="SCHD"))
    score = rules.score_match(finnish, [tie, ben], [0, 3], last_hand=1)
    assert score.hands[1].breakdown[0].cards == 2
    assert (score.totals, score.pots) == ((8, 15), (0, 0))
    assert score.outcome == time_win(1, 15)


# Three players. Cards 20-20-12 tie at the top: Ana 2 (A♠ A♣), Ben 2 (A♥ A♦), Cy 4 (most spades,
# both casinos).
THREE_LEVEL = hand(
    side(20, 3, aces="SC"), side(20, 3, aces="HD"), side(12, 7, big=True, little=True)
)
# Ana 8 (most cards, most spades, big casino, A♠ A♣), Ben 2 (little casino, A♥), Cy 1 (A♦).
THREE_ANA = hand(
    side(18, 5, big=True, aces="SC"), side(17, 4, little=True, aces="H"), side(17, 4, aces="D")
)


def test_three_players_two_level_at_the_top_play_on() -> None:
    score = rules.score_match(CASINO, [THREE_LEVEL], [5, 5, 0], last_hand=1)
    assert score.totals == (7, 7, 4)
    assert score.status is Status.PLAYING
    score = rules.score_match(CASINO, [THREE_LEVEL, THREE_ANA], [5, 5, 0], last_hand=1)
    assert score.totals == (15, 9, 5)
    assert score.outcome == time_win(0, 15)


def test_three_players_the_third_ahead_wins_though_the_others_tie() -> None:
    score = rules.score_match(CASINO, [THREE_LEVEL], [0, 0, 5], last_hand=1)
    assert score.totals == (2, 2, 9)
    assert score.outcome == time_win(2, 9)


def test_four_players_on_time() -> None:
    four = hand(
        side(16, 4, big=True, aces="SC"),
        side(12, 3, little=True, aces="H"),
        side(12, 3, aces="D"),
        side(12, 3),
    )
    score = rules.score_match(CASINO, [four], [0, 7, 0, 0], last_hand=1)
    # Ana 8 (cards 3, spades 1, big casino 2, two aces): 8 to Ben's 9.
    assert score.totals == (8, 9, 1, 0)
    assert score.outcome == time_win(1, 9)


def test_teams_a_partnership_wins_on_time_as_one_side() -> None:
    lineup = Lineup.of([["Ana", "Cleo"], ["Ben", "Dan"]])
    score = rules.score_match(CASINO, [PLAIN, BENS, BENS], sides=2, last_hand=3)
    assert score.totals == (14, 19)
    assert score.winner == 1
    assert lineup.names()[score.winner] == "Ben & Dan"
    assert score.outcome == time_win(1, 19)


def test_difference_scoring_on_time() -> None:
    difference = Rules.make("casino", scoring="difference")
    # Ana 8 to Ben's 3: Ana is credited the margin, 5.
    score = rules.score_match(difference, [PLAIN], last_hand=1)
    assert score.totals == (5, 0)
    assert score.outcome == time_win(0, 5)
    # Equal points credit nobody: level at 0, play on; Ben's hand then decides.
    score = rules.score_match(difference, [LEVEL], last_hand=1)
    assert (score.totals, score.status) == ((0, 0), Status.PLAYING)
    score = rules.score_match(difference, [LEVEL, BENS], last_hand=1)
    assert score.outcome == time_win(1, 5)


# --- property tests: every variant, every option, random valid matches ----------------------


def random_match(seed: int) -> tuple[Rules, list[tuple[Tally, ...]], list[int] | None]:
    """Valid rules, 2 to 4 sides, maybe start totals, and up to 12 dealt hands (test_engine_js's
    generators: every variant and option)."""
    rng = random.Random(seed)
    while True:
        variant, options = random_options(rng)
        try:
            match_rules = Rules.make(variant, **options)
        except ValueError:
            continue
        break
    sides = rng.choice((2, 2, 3, 4))
    if match_rules.scoring is rules.Scoring.DIFFERENCE and rng.random() < 0.5:
        sides = 2
    hands = [make(deal(rng, variant, sides)) for _ in range(rng.randint(0, 12))]
    start = None
    if rng.random() < 0.3:
        start = [rng.randint(0, max(match_rules.target - 1, 0)) for _ in range(sides)]
    return match_rules, hands, start


def played(
    match_rules: Rules,
    hands: Sequence[tuple[Tally, ...]],
    start: Sequence[int] | None,
    last_hand: int | None = None,
) -> list[tuple[Tally, ...]]:
    """The hands up to the one that decides the match (none is played after it)."""
    kept = []
    for tallies in hands:
        kept.append(tallies)
        score = rules.score_match(match_rules, kept, start, last_hand=last_hand)
        if score.status is Status.WON:
            break
    return kept


PROPERTY_SETTINGS = settings(max_examples=examples(300))


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32))
def test_no_last_hand_changes_nothing(seed: int) -> None:
    match_rules, hands, start = random_match(seed)
    hands = played(match_rules, hands, start)
    sides = len(hands[0]) if hands else 2
    assert rules.score_match(match_rules, hands, start, sides=sides, last_hand=None) == (
        rules.score_match(match_rules, hands, start, sides=sides)
    )


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32), last_hand=st.integers(1, 13))
def test_from_the_last_hand_the_side_alone_ahead_wins(seed: int, last_hand: int) -> None:
    """Before hand `last_hand` nothing changes; from it on each hand is the game's own result
    when that won the match, else a win on time for the side alone on the top total, else the
    game's own result (playing or tied) with the top total shared."""
    match_rules, hands, start = random_match(seed)
    hands = played(match_rules, hands, start, last_hand)
    timed = rules.score_match(match_rules, hands, start, last_hand=last_hand)
    sides = len(hands[0]) if hands else 2
    totals = tuple(start) if start is not None else (0,) * sides
    tied, pots = False, rules.NO_POTS
    for number, (tallies, got) in enumerate(zip(hands, timed.hands, strict=True), start=1):
        own = rules.score_hand(match_rules, tallies, totals, tied_before=tied, pots=pots)
        top = max(own.totals)
        alone = own.totals.count(top) == 1
        if number < last_hand or own.status is Status.WON or not alone:
            assert got == own
        else:
            leader = own.totals.index(top)
            assert got == own._replace(
                status=Status.WON, winner=leader, outcome=Outcome("time", leader, None, top)
            )
        assert (
            rules.score_hand(
                match_rules,
                tallies,
                totals,
                tied_before=tied,
                pots=pots,
                time_up=number >= last_hand,
            )
            == got
        )
        totals, tied, pots = got.totals, got.status is Status.TIED, got.pots
    if timed.status is not Status.WON and hands and len(hands) >= last_hand:
        assert timed.totals.count(max(timed.totals)) > 1  # level at the top: one more hand
    if timed.status is Status.WON and len(hands) < 12:
        extra = make(deal(random.Random(seed), match_rules.variant, sides))
        with pytest.raises(MatchOverError) as error:
            rules.score_match(match_rules, [*hands, extra], start, last_hand=last_hand)
        assert error.value.hand_index == len(hands)
