"""Tests for the Nordic and spade variants of the scoring engine (RULES.md §9).

Swedish Kasino (`swedish`), Finnish Kasino (`finnish`) and Spade Casino (`spade`). Every expected
value is worked out by hand in the comment or name beside it; the hands are checked by an
independent oracle (`deal`) that hands out the 52 real cards, J♠ included, not by
`rules.validate`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from helpers import examples, tally
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine import rules
from scoring.engine.rules import Breakdown, Outcome, Rules, Status, Tally

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = tuple(rank + suit for suit in "SCHD" for rank in RANKS)
SPADE_CARDS = tuple(card for card in DECK if card.endswith("S"))
OTHER_CARDS = tuple(card for card in DECK if not card.endswith("S"))
SPECIAL_CARDS = ("10D", "2S", "AS", "AC", "AH", "AD", "JS")

SWEDISH = Rules.make("swedish")
FINNISH = Rules.make("finnish")
SPADE = Rules.make("spade")


# --- an independent oracle: hand out the real cards ---------------------------------------------


def deal(tallies: Sequence[Tally]) -> list[list[str]] | None:
    """Hand out the 52 cards so each side gets its tally (J♠ to whoever claims it), or None."""
    holds = {
        "10D": [t.big_casino for t in tallies],
        "2S": [t.little_casino for t in tallies],
        "JS": [t.jack_of_spades for t in tallies],
    }
    for suit in "SCHD":
        holds["A" + suit] = [suit in t.aces for t in tallies]
    piles: list[list[str]] = [[] for _ in tallies]
    for card in SPECIAL_CARDS:
        holders = [i for i, held in enumerate(holds[card]) if held]
        if card == "JS" and not holders:
            continue  # nobody records the J♠: it is a plain spade
        if len(holders) != 1:
            return None
        piles[holders[0]].append(card)
    dealt = {card for pile in piles for card in pile}
    plain_spades = [c for c in SPADE_CARDS if c not in dealt]
    plain_others = [c for c in OTHER_CARDS if c not in dealt]
    for pile, t in zip(piles, tallies, strict=True):
        spades_held = sum(card.endswith("S") for card in pile)
        need_spades = t.spades - spades_held
        need_others = t.cards - t.spades - (len(pile) - spades_held)
        if not 0 <= need_spades <= len(plain_spades) or not 0 <= need_others <= len(plain_others):
            return None
        pile += [plain_spades.pop() for _ in range(need_spades)]
        pile += [plain_others.pop() for _ in range(need_others)]
    if plain_spades or plain_others:
        return None
    if not all(t.sweeps >= 0 and t.cards >= 2 * t.sweeps for t in tallies):
        return None
    if sum(t.sweeps for t in tallies) > 24:
        return None
    return piles


def hand(*tallies: Tally) -> tuple[Tally, ...]:
    assert deal(tallies) is not None, f"test data is not a possible hand: {tallies}"
    return tallies


def score(
    match_rules: Rules,
    tallies: Sequence[Tally],
    before: Sequence[int] | None = None,
    pots: tuple[int, int] = (0, 0),
) -> rules.HandScore:
    before = (0,) * len(tallies) if before is None else before
    return rules.score_hand(match_rules, tallies, before, pots=pots)


def codes(tallies: Sequence[Tally], variant: str) -> list[tuple[str, int | None]]:
    return [(p.code, p.side) for p in rules.validate(tallies, len(tallies), variant)]


# ================================================================================================
# §9.1 Swedish Kasino
# ================================================================================================

# A: most cards 1, most spades (8) 2, 10♦ 2, 2♠ 1, A♠ A♥ 2, last capture 1, 2 sweeps = 11.
# B: A♣ A♦ 2, 1 sweep = 3. The hand: 11 + 3 sweeps = 14.
SWEDISH_PLAIN = hand(
    tally(30, 8, big=True, little=True, aces="SH", sweeps=2, last=True),
    tally(22, 5, aces="CD", sweeps=1),
)


def test_swedish_defaults_target_16_sweeps_count_highest() -> None:
    assert SWEDISH.target == 16
    assert SWEDISH.sweeps is rules.SweepRule.COUNT
    assert SWEDISH.several_reach is rules.SeveralReach.HIGHEST


def test_swedish_points_per_category() -> None:
    result = score(SWEDISH, SWEDISH_PLAIN)
    assert result.breakdown == (
        Breakdown(
            cards=1, spades=2, big_casino=2, little_casino=1, aces=2, sweeps=2, last_capture=1
        ),
        Breakdown(aces=2, sweeps=1),
    )
    assert result.points == (11, 3)
    assert sum(result.points) == 11 + 3
    assert result.totals == (11, 3)
    assert result.pots == (0, 0)


def test_swedish_one_side_takes_all_11() -> None:
    # 1 + 2 + 2 + 1 + 4 aces + last 1 = 11; B nothing.
    tallies = hand(tally(30, 9, big=True, little=True, aces="SCHD", last=True), tally(22, 4))
    assert score(SWEDISH, tallies).points == (11, 0)


def test_swedish_last_capture_scores_1_for_whoever_made_it() -> None:
    # Same as SWEDISH_PLAIN but B took the last cards: A 11 - 1 = 10, B 3 + 1 = 4.
    tallies = hand(
        tally(30, 8, big=True, little=True, aces="SH", sweeps=2),
        tally(22, 5, aces="CD", sweeps=1, last=True),
    )
    result = score(SWEDISH, tallies)
    assert [b.last_capture for b in result.breakdown] == [0, 1]
    assert result.points == (10, 4)


def test_swedish_cards_tie_scores_nobody_and_nothing_carries() -> None:
    # 26-26. A: spades 2 + 10♦ 2 + A♠ 1 + last 1 = 6; B: 2♠ 1 + A♣ A♥ A♦ 3 = 4. Worth 10.
    tied = hand(tally(26, 7, big=True, aces="S", last=True), tally(26, 6, little=True, aces="CHD"))
    # Next hand A takes 27 cards: 1 point for cards, not 2. A: 1 + 2 + 2 + 1 = 6 -> 12;
    # B: 2♠ 1 + 3 aces + last 1 = 5 -> 9.
    outright = hand(
        tally(27, 7, big=True, aces="S"), tally(25, 6, little=True, aces="CHD", last=True)
    )
    result = score(SWEDISH, tied)
    assert [b.cards for b in result.breakdown] == [0, 0]
    assert result.points == (6, 4)
    assert result.pots == (0, 0)
    match = rules.score_match(SWEDISH, [tied, outright])
    assert match.hands[1].breakdown[0].cards == 1
    assert match.hands[1].points == (6, 5)
    assert match.totals == (12, 9)
    assert match.pots == (0, 0)


def test_swedish_spades_tie_with_three_sides_scores_nobody_worth_9() -> None:
    # Cards 20-18-14: A 1. Spades 5-5-3 tie: nobody. A: 1 + 10♦ 2 + A♠ 1 = 4;
    # B: 2♠ 1 + A♥ A♦ 2 + last 1 = 4; C: A♣ 1. 11 - 2 = 9.
    tallies = hand(
        tally(20, 5, big=True, aces="S"),
        tally(18, 5, little=True, aces="HD", last=True),
        tally(14, 3, aces="C"),
    )
    result = score(SWEDISH, tallies)
    assert [b.spades for b in result.breakdown] == [0, 0, 0]
    assert result.points == (4, 4, 1)


def test_swedish_sweeps_cancel_option() -> None:
    cancel = Rules.make("swedish", sweeps="cancel")
    # 2 v 1 nets to 1 v 0: A 11 - 2 + 1 = 10, B 3 - 1 = 2.
    result = score(cancel, SWEDISH_PLAIN)
    assert [b.sweeps for b in result.breakdown] == [1, 0]
    assert result.points == (10, 2)
    # Three sides 3, 1, 2 -> 2, 0, 1.
    tallies = hand(
        tally(20, 5, big=True, aces="S", sweeps=3),
        tally(18, 5, little=True, aces="HD", sweeps=1, last=True),
        tally(14, 3, aces="C", sweeps=2),
    )
    assert [b.sweeps for b in score(cancel, tallies).breakdown] == [2, 0, 1]
    # Counted (the default) they do not cancel.
    assert [b.sweeps for b in score(SWEDISH, tallies).breakdown] == [3, 1, 2]


# A: cards 1 + 10♦ 2 + A♠ A♥ 2 + last 1 = 6 (5 spades); B: spades 2 + 2♠ 1 + A♣ A♦ 2 = 5 (8 spades).
SWEDISH_SIX_FIVE = hand(
    tally(30, 5, big=True, aces="SH", last=True), tally(22, 8, little=True, aces="CD")
)


def test_swedish_one_side_reaching_16_wins() -> None:
    # 10 + 6 = 16, 3 + 5 = 8.
    result = score(SWEDISH, SWEDISH_SIX_FIVE, (10, 3))
    assert result.totals == (16, 8)
    assert result.outcome == Outcome("reached", 0, None, 16)


def test_swedish_several_reach_higher_total_wins() -> None:
    # 15 + 6 = 21, 12 + 5 = 17: A is higher.
    result = score(SWEDISH, SWEDISH_SIX_FIVE, (15, 12))
    assert result.totals == (21, 17)
    assert result.outcome == Outcome("highest", 0, None, 21)


def test_swedish_equal_top_totals_go_to_more_spades_in_the_hand() -> None:
    # 11 + 6 = 17, 12 + 5 = 17: equal; B took 8 spades to A's 5, so B wins.
    result = score(SWEDISH, SWEDISH_SIX_FIVE, (11, 12))
    assert result.totals == (17, 17)
    assert result.status is Status.WON
    assert result.winner == 1
    assert result.outcome == Outcome("highest", 1, "spades", 17)


def test_swedish_equal_totals_and_equal_spades_with_three_sides_is_tied() -> None:
    # Points 4, 4, 1 (see the three-side spades tie): 12 + 4 = 16, 12 + 4 = 16, 3 + 1 = 4.
    # A and B both took 5 spades: another hand.
    tallies = hand(
        tally(20, 5, big=True, aces="S"),
        tally(18, 5, little=True, aces="HD", last=True),
        tally(14, 3, aces="C"),
    )
    result = score(SWEDISH, tallies, (12, 12, 3))
    assert result.totals == (16, 16, 4)
    assert result.status is Status.TIED
    assert result.winner is None
    assert result.outcome == Outcome("tied", None, None, 16)


def test_swedish_spades_decide_only_among_the_sides_on_the_top_total() -> None:
    # Three sides: A 20 cards 4 spades, B 18 cards 5, C 14 cards 4. Cards A 1; spades B 2.
    # A: 1 + 10♦ 2 + A♠ 1 = 4 -> 12 + 4 = 16; B: 2 + 2♠ 1 + A♥ 1 + last 1 = 5 -> 11 + 5 = 16;
    # C: A♣ A♦ 2 -> 14 + 2 = 16. All equal; spades 4, 5, 4 -> B.
    tallies = hand(
        tally(20, 4, big=True, aces="S"),
        tally(18, 5, little=True, aces="H", last=True),
        tally(14, 4, aces="CD"),
    )
    result = score(SWEDISH, tallies, (12, 11, 14))
    assert result.totals == (16, 16, 16)
    assert result.outcome == Outcome("highest", 1, "spades", 16)


def test_swedish_validate_accepts_one_last_capturer() -> None:
    assert codes(SWEDISH_PLAIN, "swedish") == []


def test_swedish_validate_refuses_no_last_capturer() -> None:
    tallies = (tally(30, 8, big=True, little=True, aces="SH"), tally(22, 5, aces="CD"))
    assert codes(tallies, "swedish") == [("last_capture_count", None)]
    (problem,) = rules.validate(tallies, 2, "swedish")
    assert problem.params == {"count": 0}


def test_swedish_validate_refuses_two_last_capturers() -> None:
    tallies = (
        tally(30, 8, big=True, little=True, aces="SH", last=True),
        tally(22, 5, aces="CD", last=True),
    )
    (problem,) = rules.validate(tallies, 2, "swedish")
    assert (problem.code, problem.params) == ("last_capture_count", {"count": 2})


def test_swedish_validate_refuses_last_capturer_without_cards() -> None:
    tallies = (tally(52, 13, big=True, little=True, aces="SCHD"), tally(0, 0, last=True))
    assert codes(tallies, "swedish") == [("last_capture_no_cards", 1)]


def test_swedish_count_out_counts_the_last_capture_after_the_sweeps() -> None:
    """RULES.md §9.1: the last capture is the last thing that happens in a hand. From 10-10, A
    (most cards 1, four aces, 5 sweeps) reaches 16 at the sweeps; B (most spades 2, 10♦ 2, 2♠ 1,
    last capture 1) would reach 16 at the last capture, which now comes after."""
    count_out = Rules.make("swedish", several_reach="count-out")
    tallies = hand(
        tally(31, 5, aces="SCHD", sweeps=5),
        tally(21, 8, big=True, little=True, last=True),
    )
    result = score(count_out, tallies, (10, 10))
    assert result.totals == (20, 16)
    assert result.outcome == Outcome("count-out", 0, "sweeps", 20)


@pytest.mark.parametrize(
    ("variant", "field"),
    [(v, "last_capture") for v in ("casino", "royal", "dominican", "finnish", "spade")]
    + [(v, "jack_of_spades") for v in ("casino", "royal", "dominican", "swedish", "finnish")],
)
def test_a_false_variant_field_in_another_variant_is_accepted(variant: str, field: str) -> None:
    """Only a true value is refused: a phone or a file that writes `false` for a field the game
    does not record is as good as one that leaves it out."""
    from scoring.engine import matchdoc

    tallies = [
        {"cards": 30, "spades": 8, "big_casino": True, "little_casino": True, "aces": "SH"},
        {"cards": 22, "spades": 5, "aces": "CD"},
    ]
    if variant == "swedish":
        tallies[0]["last_capture"] = True
    if variant == "spade":
        tallies[0]["jack_of_spades"] = True
    for doc_tally in tallies:
        doc_tally.setdefault(field, False)
    document = {
        "format": matchdoc.FORMAT,
        "rules": {"variant": variant},
        "sides": [{"players": ["A"]}, {"players": ["B"]}],
        "hands": [{"tallies": tallies}],
    }
    assert len(matchdoc.read_match(document).hands) == 1


@pytest.mark.parametrize("variant", ["casino", "royal", "dominican", "finnish", "spade"])
def test_last_capture_marked_in_another_variant_is_refused(variant: str) -> None:
    tallies = list(SWEDISH_PLAIN)
    if variant == "spade":  # Spade Casino also needs its J♠ holder
        tallies[0] = tallies[0]._replace(jack_of_spades=True)
    problems = rules.validate(tallies, 2, variant)
    assert [(p.code, p.params) for p in problems] == [("field_unused", {"field": "last_capture"})]


def test_jack_of_spades_marked_in_swedish_is_refused() -> None:
    tallies = (SWEDISH_PLAIN[0]._replace(jack_of_spades=True), SWEDISH_PLAIN[1])
    problems = rules.validate(tallies, 2, "swedish")
    assert [(p.code, p.params) for p in problems] == [("field_unused", {"field": "jack_of_spades"})]


# ================================================================================================
# §9.2 Finnish Kasino
# ================================================================================================

# A: most cards 1 + most spades 2 + 10♦ 2 + 2♠ 1 + A♠ A♥ 2 = 8; B: A♣ A♦ 2. Worth 10.
FINNISH_PLAIN = hand(tally(30, 8, big=True, little=True, aces="SH"), tally(22, 5, aces="CD"))
# Cards 26-26 tie: A spades 2 + 10♦ 2 + A♠ 1 = 5; B 2♠ 1 + 3 aces = 4. Worth 9, 1 to the pot.
FINNISH_CARDS_TIE = hand(tally(26, 7, big=True, aces="S"), tally(26, 6, little=True, aces="CHD"))
# 4 players, cards 14-13-13-12 (A 1), spades 4-4-4-1 three-way tie (2 to the pot):
# A 1 + 10♦ 2 + A♠ 1 = 4; B 2♠ 1 + A♣ 1 = 2; C A♥ 1; D A♦ 1. Worth 8.
FINNISH_THREE_WAY = hand(
    tally(14, 4, big=True, aces="S"),
    tally(13, 4, little=True, aces="C"),
    tally(13, 4, aces="H"),
    tally(12, 1, aces="D"),
)
# 3 players, cards 20-18-14 (A 1), spades 5-5-3 two-way tie between A and B (1 each):
# A 1 + 1 + 10♦ 2 + A♠ 1 = 5; B 1 + 2♠ 1 + A♥ A♦ 2 = 4; C A♣ 1. Worth 10.
FINNISH_SPLIT = hand(
    tally(20, 5, big=True, aces="S"), tally(18, 5, little=True, aces="HD"), tally(14, 3, aces="C")
)


def test_finnish_defaults() -> None:
    assert FINNISH.target == 16
    assert FINNISH.sweeps is rules.SweepRule.CANCEL
    assert FINNISH.several_reach is rules.SeveralReach.COUNT_OUT
    assert FINNISH.ties is rules.Ties.CARRY
    assert FINNISH.sweep_freeze is rules.SweepFreeze.TEN


def test_finnish_hand_is_worth_10() -> None:
    result = score(FINNISH, FINNISH_PLAIN)
    assert result.breakdown == (
        Breakdown(cards=1, spades=2, big_casino=2, little_casino=1, aces=2),
        Breakdown(aces=2),
    )
    assert result.points == (8, 2)
    assert result.pots == (0, 0)


def test_finnish_last_capture_scores_nothing() -> None:
    tallies = (FINNISH_PLAIN[0]._replace(last_capture=True), FINNISH_PLAIN[1])
    result = score(FINNISH, tallies)
    assert [b.last_capture for b in result.breakdown] == [0, 0]
    assert result.points == (8, 2)


def test_finnish_aces_score_1_each_so_four_aces_are_4() -> None:
    # A: cards 1 + spades 2 + 4 aces = 7; B: 10♦ 2 + 2♠ 1 = 3.
    tallies = hand(tally(30, 8, aces="SCHD"), tally(22, 5, big=True, little=True))
    result = score(FINNISH, tallies)
    assert [b.aces for b in result.breakdown] == [4, 0]
    assert result.points == (7, 3)


def test_finnish_cards_pot_carried_over_two_hands() -> None:
    # Hand 1 tie: (5, 4), pot 1. Hand 2 tie again: (10, 8), pot 2.
    match = rules.score_match(FINNISH, [FINNISH_CARDS_TIE, FINNISH_CARDS_TIE])
    assert [h.pots for h in match.hands] == [(1, 0), (2, 0)]
    assert [h.points for h in match.hands] == [(5, 4), (5, 4)]
    assert match.totals == (10, 8)
    assert match.pots == (2, 0)
    assert match.status is Status.PLAYING
    # Hand 3: A 27 cards: cards 1 + pot 2 = 3, A♠ 1 -> 4, 10 + 4 = 14.
    # B: spades 2 + 10♦ 2 + 2♠ 1 + 3 aces = 8, 8 + 8 = 16: reaches the target.
    outright = hand(tally(27, 6, aces="S"), tally(25, 7, big=True, little=True, aces="CHD"))
    match = rules.score_match(FINNISH, [FINNISH_CARDS_TIE, FINNISH_CARDS_TIE, outright])
    last = match.hands[-1]
    assert last.breakdown[0].cards == 1 + 2
    assert last.points == (4, 8)
    assert last.pots == (0, 0)
    assert match.totals == (14, 16)
    assert match.outcome == Outcome("reached", 1, None, 16)
    assert match.pots == (0, 0)


def test_finnish_cards_pot_is_taken_with_score_hand_too() -> None:
    # Pots (2, 0) in; A wins 30 cards: 1 + 2 = 3 for cards, pot empties.
    result = score(FINNISH, FINNISH_PLAIN, pots=(2, 0))
    assert result.breakdown[0].cards == 3
    assert result.points == (10, 2)
    assert result.pots == (0, 0)


def test_finnish_spades_pot_2_then_4_then_winner_takes_6() -> None:
    # Hand 1 three-way spades tie: (4, 2, 1, 1), spades pot 2.
    # Hand 2 the same: (8, 4, 2, 2), pot 4.
    # Hand 3 A takes 5 spades outright: cards 1 + spades 2 + pot 4 = 6 + 10♦ 2 + A♠ 1 = 10
    # -> 18 (B 2 -> 6, C 1 -> 3, D 1 -> 3); A reaches 16 alone.
    outright = hand(
        tally(14, 5, big=True, aces="S"),
        tally(13, 4, little=True, aces="C"),
        tally(13, 3, aces="H"),
        tally(12, 1, aces="D"),
    )
    match = rules.score_match(FINNISH, [FINNISH_THREE_WAY, FINNISH_THREE_WAY, outright])
    assert [h.pots for h in match.hands] == [(0, 2), (0, 4), (0, 0)]
    assert [h.points for h in match.hands] == [(4, 2, 1, 1), (4, 2, 1, 1), (10, 2, 1, 1)]
    assert match.hands[-1].breakdown[0].spades == 6
    assert match.totals == (18, 6, 3, 3)
    assert match.winner == 0


def test_finnish_three_player_two_way_spades_tie_is_split_1_each() -> None:
    result = score(FINNISH, FINNISH_SPLIT)
    assert [b.spades for b in result.breakdown] == [1, 1, 0]
    assert result.points == (5, 4, 1)
    assert result.pots == (0, 0)


def test_finnish_split_leaves_an_existing_spades_pot_as_it_was() -> None:
    # Spades pot 4 stays 4; cards pot 1 goes to A (20 cards): cards 1 + 1 = 2, A 5 + 1 = 6.
    result = score(FINNISH, FINNISH_SPLIT, pots=(1, 4))
    assert [b.spades for b in result.breakdown] == [1, 1, 0]
    assert [b.cards for b in result.breakdown] == [2, 0, 0]
    assert result.points == (6, 4, 1)
    assert result.pots == (0, 4)


def test_finnish_four_player_two_way_spades_tie_is_split() -> None:
    # Spades 5-5-2-1: A and B 1 each. A: cards 1 + 1 + 10♦ 2 + A♠ 1 = 5; B 1 + 2♠ 1 + A♣ 1 = 3;
    # C A♥ 1; D A♦ 1. Worth 10.
    tallies = hand(
        tally(14, 5, big=True, aces="S"),
        tally(13, 5, little=True, aces="C"),
        tally(13, 2, aces="H"),
        tally(12, 1, aces="D"),
    )
    result = score(FINNISH, tallies, pots=(0, 2))
    assert result.points == (5, 3, 1, 1)
    assert result.pots == (0, 2)


def test_finnish_four_player_three_way_spades_tie_goes_to_the_pot() -> None:
    result = score(FINNISH, FINNISH_THREE_WAY)
    assert [b.spades for b in result.breakdown] == [0, 0, 0, 0]
    assert result.points == (4, 2, 1, 1)
    assert result.pots == (0, 2)


def test_finnish_ties_none_nothing_carries_but_the_split_still_applies() -> None:
    none = Rules.make("finnish", ties="none")
    cards_tie = score(none, FINNISH_CARDS_TIE)
    assert cards_tie.points == (5, 4)  # 10 - 1
    assert cards_tie.pots == (0, 0)
    three_way = score(none, FINNISH_THREE_WAY)
    assert three_way.points == (4, 2, 1, 1)  # 10 - 2
    assert three_way.pots == (0, 0)
    split = score(none, FINNISH_SPLIT)
    assert [b.spades for b in split.breakdown] == [1, 1, 0]
    assert split.points == (5, 4, 1)
    match = rules.score_match(none, [FINNISH_CARDS_TIE, FINNISH_CARDS_TIE, FINNISH_PLAIN])
    assert match.hands[-1].breakdown[0].cards == 1  # no pot to take
    assert match.totals == (5 + 5 + 8, 4 + 4 + 2)


@pytest.mark.parametrize("sweeps", ["count", "off"])
def test_finnish_sweeps_always_cancel(sweeps: str) -> None:
    with pytest.raises(ValueError):
        Rules.make("finnish", sweeps=sweeps)
    assert Rules.make("finnish", sweeps="cancel").sweeps is rules.SweepRule.CANCEL


def test_finnish_sweeps_cancel() -> None:
    # 3 v 1 -> 2 v 0: A 8 + 2 = 10, B 2. Worth 10 + 2.
    tallies = hand(
        tally(30, 8, big=True, little=True, aces="SH", sweeps=3), tally(22, 5, aces="CD", sweeps=1)
    )
    result = score(FINNISH, tallies, (9, 0))
    assert [b.sweeps for b in result.breakdown] == [2, 0]
    assert result.points == (10, 2)


def test_finnish_sweeps_freeze_once_any_side_had_10() -> None:
    # B had 10 before the hand: every sweep scores 0 and cancels nothing.
    tallies = hand(
        tally(30, 8, big=True, little=True, aces="SH", sweeps=3), tally(22, 5, aces="CD", sweeps=1)
    )
    result = score(FINNISH, tallies, (0, 10))
    assert [b.sweeps for b in result.breakdown] == [0, 0]
    assert result.points == (8, 2)
    # A side without sweeps at 10 freezes the other side's sweeps too.
    only_b = hand(tally(30, 8, big=True, little=True, aces="SH"), tally(22, 5, aces="CD", sweeps=2))
    assert [b.sweeps for b in score(FINNISH, only_b, (10, 3)).breakdown] == [0, 0]
    # At 9 they still count: 2 v 0.
    assert [b.sweeps for b in score(FINNISH, only_b, (9, 3)).breakdown] == [0, 2]


def test_finnish_sweep_freeze_off_keeps_them() -> None:
    off = Rules.make("finnish", sweep_freeze="off")
    tallies = hand(
        tally(30, 8, big=True, little=True, aces="SH", sweeps=3), tally(22, 5, aces="CD", sweeps=1)
    )
    result = score(off, tallies, (0, 12))
    assert [b.sweeps for b in result.breakdown] == [2, 0]
    assert result.totals == (10, 14)


# Count-out hand: A 30 cards, 5 spades, A♠: point cards 1, cards 1 (+ pot), spades 0.
# B 22 cards, 8 spades, 10♦, 2♠, A♣ A♥ A♦: point cards 2 + 1 + 3 = 6, spades 2 (+ pot).
FINNISH_COUNT_OUT = hand(tally(30, 5, aces="S"), tally(22, 8, big=True, little=True, aces="CHD"))


def test_finnish_count_out_cards_with_its_pot_before_spades() -> None:
    # Before (13, 9), pots (2, 4). A: 13 + 1 = 14 after point cards, + 1 + 2 = 17 at "cards".
    # B: 9 + 6 = 15 after point cards, nothing for cards, + 2 + 4 = 21 at "spades".
    # A got there first though B ends higher.
    result = score(FINNISH, FINNISH_COUNT_OUT, (13, 9), pots=(2, 4))
    assert result.totals == (17, 21)
    assert result.outcome == Outcome("count-out", 0, "cards", 17)
    assert result.pots == (0, 0)


def test_finnish_count_out_point_cards_first() -> None:
    # Before (14, 10). A: 22 cards, 5 spades, 10♦: point cards 2 -> 16 at "point_cards".
    # B: 30 cards, 8 spades, 2♠ and four aces: point cards 5 -> 15, cards 1 -> 16,
    # spades 2 -> 18. A wins with 16 though B ends on 18.
    tallies = hand(tally(22, 5, big=True), tally(30, 8, little=True, aces="SCHD"))
    result = score(FINNISH, tallies, (14, 10))
    assert result.totals == (16, 18)
    assert result.outcome == Outcome("count-out", 0, "point_cards", 16)
    highest = Rules.make("finnish", several_reach="highest")
    assert score(highest, tallies, (14, 10)).outcome == Outcome("highest", 1, None, 18)


def test_finnish_count_out_sweeps_come_last() -> None:
    # Three players, before (9, 9, 0) so sweeps count. Raw sweeps 1, 6, 1 -> 0, 5, 0.
    # A 20 cards, 6 spades, 10♦ 2♠ A♠: point cards 4 -> 13, cards 1 -> 14, spades 2 -> 16.
    # B 18 cards, 4 spades, A♣ A♥ A♦: point cards 3 -> 12, sweeps 5 -> 17.
    # C nothing. Worth 10 + 5. A reaches 16 at "spades", before B's sweeps.
    tallies = hand(
        tally(20, 6, big=True, little=True, aces="S", sweeps=1),
        tally(18, 4, aces="CHD", sweeps=6),
        tally(14, 3, sweeps=1),
    )
    result = score(FINNISH, tallies, (9, 9, 0))
    assert result.points == (7, 8, 0)
    assert result.totals == (16, 17, 0)
    assert result.outcome == Outcome("count-out", 0, "spades", 16)


def test_finnish_two_sides_crossing_at_the_same_step_higher_final_total_wins() -> None:
    # Before (15, 14), no pots. A: point cards 1 -> 16; B: point cards 6 -> 20. Both at
    # "point_cards": finals A 16 + 1 = 17, B 20 + 2 = 22: B.
    result = score(FINNISH, FINNISH_COUNT_OUT, (15, 14))
    assert result.totals == (17, 22)
    assert result.outcome == Outcome("same-step", 1, "point_cards", 22)


def test_finnish_two_sides_crossing_at_the_same_step_with_equal_totals_is_tied() -> None:
    # A 30 cards, 7 spades, 10♦ A♠: point cards 3, cards 1, spades 2 = 6.
    # B 22 cards, 6 spades, 2♠ A♣ A♥ A♦: point cards 4.
    # Before (13, 15): A 16 and B 19 after point cards; finals 19 and 19: another hand.
    tallies = hand(tally(30, 7, big=True, aces="S"), tally(22, 6, little=True, aces="CHD"))
    result = score(FINNISH, tallies, (13, 15))
    assert result.totals == (19, 19)
    assert result.status is Status.TIED
    assert result.outcome == Outcome("tied", None, None, 19)


def test_finnish_pot_open_at_the_end_is_left_in_the_match() -> None:
    # Start (12, 10): a cards tie, A 12 + 5 = 17 wins, B 10 + 4 = 14; the cards pot holds 1.
    match = rules.score_match(FINNISH, [FINNISH_CARDS_TIE], (12, 10))
    assert match.status is Status.WON
    assert match.outcome == Outcome("reached", 0, None, 17)
    assert match.totals == (17, 14)
    assert match.pots == (1, 0)


def test_finnish_score_match_without_hands_has_empty_pots() -> None:
    assert rules.score_match(FINNISH, [], sides=3).pots == (0, 0)


# ================================================================================================
# §9.3 Spade Casino
# ================================================================================================

# A: cards 3 + 9 spades + J♠ 1 + 2♠ 1 + 10♦ 2 + A♠ A♥ 2 = 18; B: 4 spades + A♣ A♦ 2 = 6. 24.
SPADE_PLAIN = hand(
    tally(30, 9, big=True, little=True, aces="SH", jack=True), tally(22, 4, aces="CD")
)


def test_spade_defaults() -> None:
    assert SPADE.target == 61
    assert SPADE.sweeps is rules.SweepRule.COUNT
    assert SPADE.several_reach is rules.SeveralReach.COUNT_OUT


def test_spade_hand_is_worth_24() -> None:
    result = score(SPADE, SPADE_PLAIN)
    assert result.breakdown == (
        Breakdown(
            cards=3, spades=9, big_casino=2, little_casino=1, aces=2, sweeps=0, jack_of_spades=1
        ),
        Breakdown(spades=4, aces=2),
    )
    assert result.points == (18, 6)
    assert result.pots == (0, 0)


def test_spade_cards_tie_leaves_21() -> None:
    # 26-26. A: 7 spades + J♠ 1 + 2♠ 1 + 10♦ 2 + A♠ 1 = 12; B: 6 spades + 3 aces = 9.
    tallies = hand(
        tally(26, 7, big=True, little=True, aces="S", jack=True), tally(26, 6, aces="CHD")
    )
    result = score(SPADE, tallies)
    assert [b.cards for b in result.breakdown] == [0, 0]
    assert result.points == (12, 9)


def test_spade_ace_two_and_jack_of_spades_are_worth_2_each() -> None:
    # A holds just A♠, 2♠, J♠: 3 spades + A♠ 1 + 2♠ 1 + J♠ 1 = 6 = 3 x 2.
    # B: cards 3 + 10 spades + 10♦ 2 + A♣ A♥ A♦ 3 = 18.
    tallies = hand(
        tally(3, 3, little=True, aces="S", jack=True), tally(49, 10, big=True, aces="CHD")
    )
    assert score(SPADE, tallies).points == (6, 18)


def test_spade_no_point_for_most_spades() -> None:
    # A takes 10 spades: 10 points for them, no extra point for most spades.
    # A: cards 3 + 10 + 10♦ 2 = 15; B: 3 spades + J♠ 1 + 2♠ 1 + 4 aces = 9. 24.
    tallies = hand(tally(30, 10, big=True), tally(22, 3, little=True, aces="SCHD", jack=True))
    result = score(SPADE, tallies)
    assert [b.spades for b in result.breakdown] == [10, 3]
    assert result.points == (15, 9)


def test_spade_three_sides_cards_tie() -> None:
    # Cards 20-20-12 tie. A: 5 spades + 2♠ 1 + J♠ 1 + 10♦ 2 = 9; B: 5 spades + A♠ A♥ 2 = 7;
    # C: 3 spades + A♣ A♦ 2 = 5. 21.
    tallies = hand(
        tally(20, 5, big=True, little=True, jack=True),
        tally(20, 5, aces="SH"),
        tally(12, 3, aces="CD"),
    )
    assert score(SPADE, tallies).points == (9, 7, 5)


def test_spade_sweeps_count_off_cancel() -> None:
    tallies = (SPADE_PLAIN[0]._replace(sweeps=2), SPADE_PLAIN[1]._replace(sweeps=1))
    hand(*tallies)
    counted = score(SPADE, tallies)
    assert [b.sweeps for b in counted.breakdown] == [2, 1]
    assert counted.points == (20, 7)  # 24 + 3
    off = score(Rules.make("spade", sweeps="off"), tallies)
    assert off.points == (18, 6)  # 24
    cancel = score(Rules.make("spade", sweeps="cancel"), tallies)
    assert [b.sweeps for b in cancel.breakdown] == [1, 0]
    assert cancel.points == (19, 6)  # 24 + 1


# A: pegged 9 spades + J♠ 1 + 2♠ 1 + A♠ 1 = 12, no cards. B: pegged 4 spades + 10♦ 2 + A♣ A♥ A♦ 3
# = 9, then most cards 3 = 12.
SPADE_COUNT_OUT = hand(
    tally(22, 9, little=True, aces="S", jack=True), tally(30, 4, big=True, aces="CHD")
)


def test_spade_count_out_lower_final_total_wins() -> None:
    # Before (49, 50). A pegs to 61; B pegs to 59 and passes 61 only with most cards: 62.
    result = score(SPADE, SPADE_COUNT_OUT, (49, 50))
    assert result.points == (12, 12)
    assert result.totals == (61, 62)
    assert result.outcome == Outcome("count-out", 0, "pegged", 61)
    assert result.winner == 0


def test_spade_highest_option_gives_it_to_the_higher_total() -> None:
    highest = Rules.make("spade", several_reach="highest")
    assert score(highest, SPADE_COUNT_OUT, (49, 50)).outcome == Outcome("highest", 1, None, 62)


def test_spade_several_reach_in_the_pegged_step_higher_final_total_wins() -> None:
    # Before (50, 55): A pegs to 62; B pegs to 64, then 67 with cards. B.
    result = score(SPADE, SPADE_COUNT_OUT, (50, 55))
    assert result.totals == (62, 67)
    assert result.outcome == Outcome("same-step", 1, "pegged", 67)


def test_spade_several_reach_in_the_pegged_step_with_equal_totals_is_tied() -> None:
    # Before (55, 55): A 67; B 64 pegged, 67 final. Another hand.
    result = score(SPADE, SPADE_COUNT_OUT, (55, 55))
    assert result.totals == (67, 67)
    assert result.status is Status.TIED
    assert result.outcome == Outcome("tied", None, None, 67)


def test_spade_validate_accepts_one_jack_holder() -> None:
    assert codes(SPADE_PLAIN, "spade") == []


def test_spade_validate_refuses_no_jack_holder() -> None:
    tallies = (SPADE_PLAIN[0]._replace(jack_of_spades=False), SPADE_PLAIN[1])
    problems = rules.validate(tallies, 2, "spade")
    assert [(p.code, p.params) for p in problems] == [("card_nobody", {"card": "JS"})]
    assert "J♠" in problems[0].describe()


def test_spade_validate_refuses_two_jack_holders() -> None:
    tallies = (SPADE_PLAIN[0], SPADE_PLAIN[1]._replace(jack_of_spades=True))
    assert codes(tallies, "spade") == [("card_both", None)]


def test_spade_validate_needs_a_spade_for_each_of_two_ace_and_jack() -> None:
    # 2♠, A♠ and J♠ but only 2 spades: refused, 3 needed.
    tallies = (
        tally(30, 2, little=True, aces="S", jack=True),
        tally(22, 11, big=True, aces="CHD"),
    )
    assert deal(tallies) is None
    (problem,) = rules.validate(tallies, 2, "spade")
    assert (problem.code, problem.side) == ("special_spades", 0)
    assert problem.params["needed"] == 3
    assert problem.params["spades"] == 2
    # With 3 spades it adds up.
    ok = hand(tally(30, 3, little=True, aces="S", jack=True), tally(22, 10, big=True, aces="CHD"))
    assert codes(ok, "spade") == []


def test_jack_of_spades_marked_in_casino_is_refused() -> None:
    tallies = (SPADE_PLAIN[0], SPADE_PLAIN[1])
    problems = rules.validate(tallies, 2, "casino")
    assert [(p.code, p.params) for p in problems] == [("field_unused", {"field": "jack_of_spades"})]


def test_spade_jack_only_checked_when_the_variant_is_spade() -> None:
    # In other variants the J♠ is a plain spade: 2 spades with 2♠ and A♠ are enough.
    tallies = (tally(30, 2, little=True, aces="S"), tally(22, 11, big=True, aces="CHD"))
    assert codes(tallies, "casino") == []


@pytest.mark.parametrize("variant", ["casino", "royal", "dominican"])
def test_old_variants_score_as_before_with_the_new_breakdown_keys_at_0(variant: str) -> None:
    # A: cards 3 + spades 1 + 10♦ 2 + A♠ A♥ 2 = 8; B: 2♠ 1 + A♣ A♦ 2 = 3. Target 21, no pots.
    tallies = hand(tally(29, 8, big=True, aces="SH"), tally(23, 5, little=True, aces="CD"))
    match_rules = Rules.make(variant)
    assert match_rules.target == 21
    result = score(match_rules, tallies)
    assert result.points == (8, 3)
    assert [(b.last_capture, b.jack_of_spades) for b in result.breakdown] == [(0, 0), (0, 0)]
    assert result.pots == (0, 0)


# ================================================================================================
# Properties
# ================================================================================================

CARD_SPLITS = {
    2: [(26, 26), (27, 25)],
    3: [(20, 20, 12), (18, 17, 17), (17, 17, 18)],
    4: [(13, 13, 13, 13), (14, 14, 12, 12), (15, 15, 15, 7), (14, 13, 13, 12)],
}
SPADE_SPLITS = {
    2: [(7, 6), (13, 0)],
    3: [(5, 5, 3), (6, 6, 1), (4, 4, 5)],
    4: [(4, 4, 4, 1), (5, 5, 2, 1), (6, 6, 1, 0), (4, 4, 3, 2), (3, 3, 3, 4)],
}


@st.composite
def split(draw: st.DrawFn, total: int, count: int, patterns: dict) -> list[int]:
    """`total` split into `count` parts: often a pattern with ties at the top, else random cuts."""
    if draw(st.integers(0, 2)) == 0:
        cuts = sorted(draw(st.lists(st.integers(0, total), min_size=count - 1, max_size=count - 1)))
        bounds = [0, *cuts, total]
        return [bounds[i + 1] - bounds[i] for i in range(count)]
    return list(draw(st.permutations(draw(st.sampled_from(patterns[count])))))


@st.composite
def dealt_hands(draw: st.DrawFn, sides: int | None = None) -> tuple[Tally, ...]:
    """Deal the real 52 cards: a split of the cards and of the spades (ties likely), the cards
    themselves shuffled, sweeps within the limits, one last capturer, and the J♠ marked."""
    count = sides if sides is not None else draw(st.integers(2, 4))
    cards = draw(split(52, count, CARD_SPLITS))
    spades = draw(split(13, count, SPADE_SPLITS))
    assume(all(s <= c for s, c in zip(spades, cards, strict=True)))
    spade_order = draw(st.permutations(SPADE_CARDS))
    other_order = draw(st.permutations(OTHER_CARDS))
    piles = []
    for c, s in zip(cards, spades, strict=True):
        piles.append(spade_order[:s] + other_order[: c - s])
        spade_order, other_order = spade_order[s:], other_order[c - s :]
    last = draw(st.sampled_from([i for i, pile in enumerate(piles) if pile]))
    budget = 24
    tallies = []
    for index, pile in enumerate(piles):
        sweeps = draw(st.integers(0, min(len(pile) // 2, budget)))
        budget -= sweeps
        tallies.append(
            Tally.make(
                cards=len(pile),
                spades=sum(card.endswith("S") for card in pile),
                big_casino="10D" in pile,
                little_casino="2S" in pile,
                aces=[card[1] for card in pile if card.startswith("A")],
                sweeps=sweeps,
                last_capture=index == last,
                jack_of_spades="JS" in pile,
            )
        )
    return tuple(tallies)


def for_variant(tallies: Sequence[Tally], variant: str) -> tuple[Tally, ...]:
    """Keep only the fields the variant records."""
    return tuple(
        t._replace(
            last_capture=t.last_capture and variant == "swedish",
            jack_of_spades=t.jack_of_spades and variant == "spade",
        )
        for t in tallies
    )


def tied(counts: Sequence[int]) -> bool:
    return counts.count(max(counts)) > 1


def spades_split(tallies: Sequence[Tally]) -> bool:
    """Finnish: exactly two of 3 or 4 sides tie for most spades (1 point each)."""
    counts = [t.spades for t in tallies]
    return len(counts) >= 3 and counts.count(max(counts)) == 2


def net_sweeps(match_rules: Rules, tallies: Sequence[Tally], before: Sequence[int]) -> list[int]:
    raw = [t.sweeps for t in tallies]
    if match_rules.sweeps == "off":
        return [0] * len(raw)
    if match_rules.variant == "finnish" and match_rules.sweep_freeze == "10" and max(before) >= 10:
        return [0] * len(raw)
    if match_rules.sweeps == "cancel":
        return [count - min(raw) for count in raw]
    return raw


PROPERTY_SETTINGS = settings(max_examples=examples(200))


@st.composite
def variant_rules(draw: st.DrawFn) -> Rules:
    variant = draw(st.sampled_from(["swedish", "finnish", "spade"]))
    if variant == "finnish":
        return Rules.make(
            variant,
            ties=draw(st.sampled_from(["carry", "none"])),
            sweep_freeze=draw(st.sampled_from(["10", "off"])),
            several_reach=draw(st.sampled_from([None, "highest"])),
        )
    return Rules.make(
        variant,
        sweeps=draw(st.sampled_from([None, "off", "count", "cancel"])),
        several_reach=draw(st.sampled_from([None, "highest", "count-out"])),
    )


@PROPERTY_SETTINGS
@given(data=st.data())
def test_property_dealt_hands_validate(data: st.DataObject) -> None:
    match_rules = data.draw(variant_rules())
    tallies = for_variant(data.draw(dealt_hands()), match_rules.variant)
    assert deal(tallies) is not None
    assert rules.validate(tallies, len(tallies), match_rules.variant) == []


@PROPERTY_SETTINGS
@given(data=st.data())
def test_property_hand_points_add_up(data: st.DataObject) -> None:
    """Swedish: 11 - 1 [cards tie] - 2 [spades tie] + net sweeps.
    Spade: 24 - 3 [cards tie] + net sweeps.
    Finnish: 10 + net sweeps (after the freeze), with most cards giving 1 + cards pot to an
    outright winner and 0 on a tie (its 1 goes to the pot, or is lost), and most spades giving
    2 + spades pot to an outright winner, 2 (1 + 1) on a two-way tie among 3-4 sides, and 0 on
    any other tie: so 10 + pots released - points newly potted (or lost) + net sweeps."""
    match_rules = data.draw(variant_rules())
    tallies = for_variant(data.draw(dealt_hands()), match_rules.variant)
    sides = len(tallies)
    target = match_rules.target
    before = data.draw(st.lists(st.integers(0, target - 1), min_size=sides, max_size=sides))
    pots = (0, 0)
    if match_rules.variant == "finnish":
        pots = (data.draw(st.integers(0, 5)), 2 * data.draw(st.integers(0, 4)))
    result = rules.score_hand(match_rules, tallies, before, pots=pots)
    sweeps = net_sweeps(match_rules, tallies, before)
    cards_tied = tied([t.cards for t in tallies])
    spades_tied = tied([t.spades for t in tallies])
    if match_rules.variant == "swedish":
        expected = 11 - 1 * cards_tied - 2 * spades_tied + sum(sweeps)
        assert [b.last_capture for b in result.breakdown] == [int(t.last_capture) for t in tallies]
    elif match_rules.variant == "spade":
        expected = 24 - 3 * cards_tied + sum(sweeps)
        assert [b.spades for b in result.breakdown] == [t.spades for t in tallies]
        assert [b.jack_of_spades for b in result.breakdown] == [
            int(t.jack_of_spades) for t in tallies
        ]
    else:
        cards_part = -1 if cards_tied else pots[0]
        if not spades_tied:
            spades_part = pots[1]
        elif spades_split(tallies):
            spades_part = 0
        else:
            spades_part = -2
        expected = 10 + cards_part + spades_part + sum(sweeps)
    assert sum(result.points) == expected
    assert [b.sweeps for b in result.breakdown] == sweeps
    assert [b.aces for b in result.breakdown] == [len(t.aces) for t in tallies]
    assert [b.big_casino for b in result.breakdown] == [2 * t.big_casino for t in tallies]
    assert [b.little_casino for b in result.breakdown] == [int(t.little_casino) for t in tallies]
    assert list(result.points) == [b.points for b in result.breakdown]
    assert list(result.totals) == [b + p for b, p in zip(before, result.points, strict=True)]
    if match_rules.variant != "finnish":
        assert result.pots == (0, 0)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(data=st.data())
def test_property_finnish_pots(data: st.DataObject) -> None:
    """A pot never goes negative; it empties when its category is won outright (the winner
    taking value + pot); on a tie it grows by the category value (carry) or stays (none),
    except that a two-way spades tie among 3-4 sides leaves it as it was."""
    sides = data.draw(st.integers(2, 4))
    ties = data.draw(st.sampled_from(["carry", "none"]))
    match_rules = Rules.make("finnish", ties=ties)
    pots = (data.draw(st.integers(0, 3)), 2 * data.draw(st.integers(0, 3)))
    for _ in range(data.draw(st.integers(1, 6))):
        tallies = for_variant(data.draw(dealt_hands(sides)), "finnish")
        result = rules.score_hand(match_rules, tallies, (0,) * sides, pots=pots)
        cards_pot, spades_pot = result.pots
        assert cards_pot >= 0 and spades_pot >= 0
        cards = [t.cards for t in tallies]
        spades = [t.spades for t in tallies]
        if tied(cards):
            assert cards_pot == pots[0] + (1 if ties == "carry" else 0)
            assert all(b.cards == 0 for b in result.breakdown)
        else:
            assert cards_pot == 0
            assert result.breakdown[cards.index(max(cards))].cards == 1 + pots[0]
        if not tied(spades):
            assert spades_pot == 0
            assert result.breakdown[spades.index(max(spades))].spades == 2 + pots[1]
        elif spades_split(tallies):
            assert spades_pot == pots[1]
            assert sorted(b.spades for b in result.breakdown) == [0] * (sides - 2) + [1, 1]
        else:
            assert spades_pot == pots[1] + (2 if ties == "carry" else 0)
            assert all(b.spades == 0 for b in result.breakdown)
        pots = result.pots


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(data=st.data())
def test_property_finnish_score_match_is_score_hand_one_by_one(data: st.DataObject) -> None:
    sides = data.draw(st.integers(2, 4))
    match_rules = Rules.make(
        "finnish",
        ties=data.draw(st.sampled_from(["carry", "none"])),
        sweep_freeze=data.draw(st.sampled_from(["10", "off"])),
        several_reach=data.draw(st.sampled_from(["count-out", "highest"])),
    )
    hands = [
        for_variant(tallies, "finnish")
        for tallies in data.draw(st.lists(dealt_hands(sides), min_size=1, max_size=8))
    ]
    start = data.draw(st.lists(st.integers(0, 15), min_size=sides, max_size=sides))
    totals, pots, tied_before = tuple(start), (0, 0), False
    expected = []
    for tallies in hands:
        result = rules.score_hand(match_rules, tallies, totals, tied_before=tied_before, pots=pots)
        expected.append(result)
        totals, pots = result.totals, result.pots
        tied_before = result.status is Status.TIED
        if result.status is Status.WON:
            break
    match = rules.score_match(match_rules, hands[: len(expected)], start)
    assert list(match.hands) == expected
    assert match.totals == totals
    assert match.pots == pots
    assert match.status is expected[-1].status
    assert match.winner == expected[-1].winner
    assert match.outcome == expected[-1].outcome


def variant_fields_fit(tallies: Sequence[Tally], variant: str) -> bool:
    """RULES.md §9: the last capture is marked on exactly one side with cards (Swedish only), the
    J♠ on exactly one side (Spade Casino only)."""
    last = [t for t in tallies if t.last_capture]
    jacks = [t for t in tallies if t.jack_of_spades]
    if variant == "swedish":
        return len(last) == 1 and last[0].cards > 0 and not jacks
    if variant == "spade":
        return len(jacks) == 1 and not last
    return not last and not jacks


@settings(max_examples=examples(300))
@given(data=st.data())
def test_property_validate_accepts_exactly_the_possible_hands(data: st.DataObject) -> None:
    variant = data.draw(st.sampled_from(["swedish", "finnish", "spade", "casino"]))
    tallies = list(for_variant(data.draw(dealt_hands()), variant))
    for _ in range(data.draw(st.integers(0, 3))):
        who = data.draw(st.integers(0, len(tallies) - 1))
        other = data.draw(st.integers(0, len(tallies) - 1))
        change = data.draw(st.sampled_from(["last", "jack", "move_spade", "empty"]))
        t = tallies[who]
        if change == "last":
            tallies[who] = t._replace(last_capture=not t.last_capture)
        elif change == "jack":
            tallies[who] = t._replace(jack_of_spades=not t.jack_of_spades)
        elif change == "move_spade" and who != other:
            amount = data.draw(st.integers(1, 3))
            tallies[who] = t._replace(cards=t.cards - amount, spades=t.spades - amount)
            o = tallies[other]
            tallies[other] = o._replace(cards=o.cards + amount, spades=o.spades + amount)
        elif change == "empty" and who != other:  # hand every card of `who` to `other`
            o = tallies[other]
            tallies[other] = o._replace(cards=o.cards + t.cards, spades=o.spades + t.spades)
            tallies[who] = t._replace(cards=0, spades=0, sweeps=0)
            if t.big_casino or t.little_casino or t.aces or t.jack_of_spades:
                continue  # the special cards stay claimed by `who`: impossible, which is fine
    problems = rules.validate(tallies, len(tallies), variant)
    fits = deal(tallies) is not None and variant_fields_fit(tallies, variant)
    assert (problems == []) == fits, (tallies, problems)
