"""`manage.py bench_rules`: how many hands a second the scoring engine scores (`make bench-rules`).

The hands are real: a seeded shuffle of the 52 cards is dealt among the sides, so every hand is
valid. Each line times one kind of work over the whole pool again and again for `--seconds`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.engine import rules
from scoring.engine.rules import Rules, Status, Tally

DECK = tuple((rank, suit) for suit in "SCHD" for rank in range(1, 14))
GOAL = 100_000  # 2-side hands a second on one core
LONG_TARGET = 1_000_000_000
LONG_MATCH = 100  # hands per match when nobody can win


def deal_hand(rng: random.Random, sides: int) -> tuple[Tally, ...]:
    """A shuffled pack shared out among `sides`, plus a few sweeps within RULES.md §7.4."""
    piles: list[list[tuple[int, str]]] = [[] for _ in range(sides)]
    deck = list(DECK)
    rng.shuffle(deck)
    for card in deck:
        piles[rng.randrange(sides)].append(card)
    tallies = []
    budget = rules.MAX_SWEEPS
    for pile in piles:
        sweeps = min(rng.choice((0, 0, 0, 1, 1, 2, 3)), len(pile) // 2, budget)
        budget -= sweeps
        tallies.append(
            Tally.make(
                cards=len(pile),
                spades=sum(1 for _, suit in pile if suit == "S"),
                big_casino=(10, "D") in pile,
                little_casino=(2, "S") in pile,
                aces=[suit for rank, suit in pile if rank == 1],
                sweeps=sweeps,
            )
        )
    return tuple(tallies)


def chunks(hands: Sequence[tuple[Tally, ...]], size: int) -> list[Sequence[tuple[Tally, ...]]]:
    return [hands[start : start + size] for start in range(0, len(hands), size)]


def played_matches(
    match_rules: Rules, hands: Sequence[tuple[Tally, ...]]
) -> list[list[tuple[Tally, ...]]]:
    """Cut the pool into matches that each end with the hand that decides them."""
    matches: list[list[tuple[Tally, ...]]] = []
    current: list[tuple[Tally, ...]] = []
    totals = (0,) * len(hands[0])
    tied = False
    for tallies in hands:
        current.append(tallies)
        scored = rules.score_hand(match_rules, tallies, totals, tied_before=tied)
        totals, tied = scored.totals, scored.status is Status.TIED
        if scored.status is Status.WON:
            matches.append(current)
            current, totals, tied = [], (0,) * len(tallies), False
    return matches


def rate(work: Callable[[], int], seconds: float) -> float:
    """Hands a second: run `work` (which returns how many hands it scored) for `seconds`."""
    work()  # warm up
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


class Command(BaseCommand):
    help = "Time the scoring engine on random valid hands and print hands per second."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=4000, help="hands in each pool")
        parser.add_argument(
            "--seconds", type=float, default=1.0, help="seconds to time each measurement"
        )
        parser.add_argument("--seed", type=int, default=21, help="random seed for the deals")

    def handle(self, *args: Any, **options: Any) -> None:
        count: int = max(options["hands"], 1)
        seconds: float = options["seconds"]
        rng = random.Random(options["seed"])
        two = [deal_hand(rng, 2) for _ in range(count)]
        four = [deal_hand(rng, 4) for _ in range(count)]

        long_rules = Rules.make("casino", target=LONG_TARGET)
        long_two = chunks(two, LONG_MATCH)
        long_four = chunks(four, LONG_MATCH)
        typical = [
            (variant_rules, played_matches(variant_rules, two))
            for variant_rules in (
                Rules.make("casino"),
                Rules.make("royal"),
                Rules.make("dominican"),
            )
        ]

        def score_long(matches: list[Sequence[tuple[Tally, ...]]]) -> Callable[[], int]:
            hands = sum(len(match) for match in matches)

            def work() -> int:
                for match in matches:
                    rules.score_match(long_rules, match)
                return hands

            return work

        def score_typical() -> int:
            scored = 0
            for variant_rules, matches in typical:
                for match in matches:
                    rules.score_match(variant_rules, match)
                    scored += len(match)
            return scored

        def validate_and_score() -> int:
            for match in long_two:
                for tallies in match:
                    if rules.validate(tallies, 2):
                        raise AssertionError("a dealt hand did not validate")
                rules.score_match(long_rules, match)
            return len(two)

        typical_hands = sum(len(m) for _, ms in typical for m in ms)
        typical_matches = sum(len(ms) for _, ms in typical)
        long_label = f"long matches ({LONG_MATCH} hands, target {LONG_TARGET:,})"
        lines = [
            (f"2 sides, {long_label}", rate(score_long(long_two), seconds)),
            (
                f"2 sides, matches to 21 ({typical_matches} casino/royal/dominican, "
                f"{typical_hands / max(typical_matches, 1):.1f} hands each)",
                rate(score_typical, seconds),
            ),
            (f"4 sides, {long_label}", rate(score_long(long_four), seconds)),
            (f"2 sides, validate + score, {long_label}", rate(validate_and_score, seconds)),
        ]
        self.stdout.write(
            f"Scoring engine: {count} random valid hands per pool (seed {options['seed']}), "
            f"{seconds:g} s per measurement, one core"
        )
        width = max(len(label) for label, _ in lines)
        for label, per_second in lines:
            self.stdout.write(f"  {label:<{width}}  {per_second:>12,.0f} hands/s")
        slowest_two = min(per_second for label, per_second in lines[:2])
        verdict = "met" if slowest_two >= GOAL else "NOT met"
        self.stdout.write(
            f"Goal {GOAL:,} hands/s for 2-side hands: {verdict} (slowest {slowest_two:,.0f})"
        )
