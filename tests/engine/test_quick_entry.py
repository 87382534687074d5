"""Quick entry: a two-sided hand entered as who took most cards and spades scores exactly as the
hand counted card by card, in every game that allows it, hand after hand of a whole match."""

from __future__ import annotations

import random

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import rules
from scoring.engine.rules import Tally, Variant

QUICK_GAMES = [variant for variant in Variant if rules.quick_entry(variant, 2)]


def counted_hand(rng: random.Random, variant: Variant) -> tuple[Tally, Tally]:
    """A possible two-sided hand: the pack split, the special cards among the piles, sweeps."""
    cards = rng.choice((26, rng.randint(0, 52)))
    spades = rng.randint(max(0, 13 - (52 - cards)), min(13, cards))
    piles = [(cards, spades), (52 - cards, 13 - spades)]
    spade_slots = [side for side, (_c, s) in enumerate(piles) for _ in range(s)]
    other_slots = [side for side, (c, s) in enumerate(piles) for _ in range(c - s)]
    holder = dict(zip(("2S", "AS"), rng.sample(spade_slots, 2), strict=True))
    holder.update(zip(("10D", "AC", "AH", "AD"), rng.sample(other_slots, 4), strict=True))
    last = rng.choice([side for side, (c, _s) in enumerate(piles) if c])
    budget = rules.MAX_SWEEPS
    hand = []
    for side, (c, s) in enumerate(piles):
        sweeps = min(rng.choice((0, 0, 1, 2, 5, 12)), c // 2, budget)
        budget -= sweeps
        hand.append(
            Tally.make(
                cards=c,
                spades=s,
                big_casino=holder["10D"] == side,
                little_casino=holder["2S"] == side,
                aces=[code[1] for code in ("AS", "AC", "AH", "AD") if holder[code] == side],
                sweeps=sweeps,
                last_capture=variant is Variant.SWEDISH and side == last,
            )
        )
    return hand[0], hand[1]


def tapped(hand: tuple[Tally, Tally], variant: Variant) -> dict[str, object]:
    """What quick entry posts for `hand`: who took most, the special cards, the sweeps."""
    most_cards, most_spades = rules.most_taps(hand)
    posted: dict[str, object] = {
        "mode": rules.QUICK,
        "most_cards": most_cards,
        "most_spades": most_spades,
    }
    for side, tally in enumerate(hand):
        posted[f"sweeps_{side}"] = tally.sweeps
        for card in rules.CARDS.values():
            if card.held(tally):
                posted[f"card_{card.code}"] = side
        if tally.last_capture:
            posted["last_capture"] = side
    return posted


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(QUICK_GAMES))
def test_a_match_entered_quickly_scores_as_counted(seed: int, variant: Variant) -> None:
    rng = random.Random(seed)
    game = rules.variant_defaults(variant)
    counted: list[tuple[Tally, Tally]] = []
    quick: list[list[Tally]] = []
    while len(counted) < 40:
        hand = counted_hand(rng, variant)
        entered = rules.tallies_of(tapped(hand, variant), 2, variant)
        assert rules.validate(entered, 2, variant) == [], (hand, entered)
        try:
            score = rules.score_match(game, [*counted, hand])
        except rules.MatchOverError:
            break
        counted.append(hand)
        quick.append(entered)
        assert rules.score_match(game, quick) == score
        if score.status is not rules.Status.PLAYING:
            break


def test_quick_counts_say_only_who_took_most() -> None:
    assert rules.quick_counts(0, 1, sweeps=[0, 0]) == ([27, 25], [6, 7])
    assert rules.quick_counts(rules.TIE, 0, sweeps=[3, 3]) == ([26, 26], [7, 6])
    # Fourteen sweeps need 28 cards: the top side holds them.
    assert rules.quick_counts(1, 1, sweeps=[2, 14]) == ([24, 28], [6, 7])


def test_blank_taps_go_to_the_last_side_and_counts_are_ignored() -> None:
    posted = {"mode": "quick", "cards_0": 40, "spades_0": 13, "card_10D": 0}
    tallies = rules.tallies_of(posted, 2, Variant.CASINO)
    assert [(t.cards, t.spades) for t in tallies] == [(25, 6), (27, 7)]
    assert tallies[0].big_casino and not tallies[1].big_casino


@pytest.mark.parametrize(
    ("variant", "sides"), [(Variant.SPADE, 2), (Variant.CASINO, 3), (Variant.FINNISH, 4)]
)
def test_quick_entry_is_refused_where_counts_decide(variant: Variant, sides: int) -> None:
    assert not rules.quick_entry(variant, sides)
    # Posted anyway, the counts are read as typed (and checked against the deck).
    tallies = rules.tallies_of({"mode": "quick", "most_cards": 0}, sides, variant)
    assert sum(t.cards for t in tallies) == 52 and tallies[0].cards == 0


def test_a_tie_holding_fourteen_sweeps_cannot_be() -> None:
    posted = {"mode": "quick", "most_cards": rules.TIE, "sweeps_0": 14}
    problems = rules.validate(rules.tallies_of(posted, 2, Variant.CASINO), 2, Variant.CASINO)
    assert [p.code for p in problems] == ["sweeps_need_cards"]
