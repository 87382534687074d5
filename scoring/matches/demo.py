"""Random but valid demo history (seed_demo, benchmarks, tests), stored as the services store it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from scoring.engine import rules
from scoring.matches import bulk, ratings, services, stats
from scoring.models import Circle, Match, Player

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo"]
SUITS = "SHDC"
DECK = [(rank, suit) for suit in SUITS for rank in range(1, 14)]
LAYOUTS = [("2", 2, 1)] * 12 + [("3", 3, 1)] * 3 + [("4", 4, 1)] * 2 + [("teams", 2, 2)] * 3
VARIANTS = ["casino"] * 5 + ["royal"] * 3 + ["dominican"] * 2
FINISHED_AFTER = timedelta(minutes=30)  # a won or abandoned match ends this long after it began


def random_hand(
    rng: random.Random, sides: int, variant: str = rules.Variant.CASINO
) -> list[rules.Tally]:
    """Deal a shuffled pack among the sides, as captures end up, plus a few sweeps; in Swedish
    Kasino one side with cards made the last capture, in Spade Casino the J♠ is dealt too."""
    deck = DECK[:]
    rng.shuffle(deck)
    bounds = [0, *_random_cuts(rng, sides), len(deck)]
    tallies = [
        _pile_tally(rng, deck[bounds[side] : bounds[side + 1]], variant) for side in range(sides)
    ]
    if variant == rules.Variant.SWEDISH:
        last = rng.choice([side for side, tally in enumerate(tallies) if tally.cards])
        tallies[last] = tallies[last]._replace(last_capture=True)
    # The pack has 48 plays at most and a sweep never follows a sweep.
    while sum(t.sweeps for t in tallies) > rules.MAX_SWEEPS:  # pragma: no cover - rare
        tallies = [t._replace(sweeps=max(t.sweeps - 1, 0)) for t in tallies]
    return tallies


def _random_cuts(rng: random.Random, sides: int) -> list[int]:
    """Where the pack is cut between the sides' piles (sorted, one fewer than the sides)."""
    if sides > 2:
        return sorted(rng.randint(8, 44) for _ in range(sides - 1))
    return [rng.randint(16, 36)]


def _pile_tally(rng: random.Random, pile: list[tuple[int, str]], variant: str) -> rules.Tally:
    """A side's tally of the cards it captured, with a few sweeps."""
    cards = len(pile)
    sweeps = min(rng.choice([0, 0, 0, 0, 1, 1, 2]), cards // 2)
    return rules.Tally.make(
        cards=cards,
        spades=sum(1 for _, suit in pile if suit == "S"),
        big_casino=(10, "D") in pile,
        little_casino=(2, "S") in pile,
        aces=[suit for rank, suit in pile if rank == 1],
        sweeps=sweeps,
        jack_of_spades=variant == rules.Variant.SPADE and (11, "S") in pile,
    )


@dataclass(frozen=True)
class DemoMatch:
    """A random match, played out in memory: who sits where, the hands, and how it ended."""

    variant: str
    sides: list[list[Player]]
    first_dealer_seat: int
    hands: list[list[rules.Tally]]
    abandoned: bool


def random_match(rng: random.Random, roster: list[Player], max_hands: int = 40) -> DemoMatch:
    """Pick players, rules and a dealer, and deal random hands until a side wins (scored by the
    engine as it goes); now and then the match is abandoned after a hand or two."""
    _, side_count, per_side = rng.choice(LAYOUTS)
    chosen = rng.sample(roster, side_count * per_side)
    variant = rng.choice(VARIANTS)
    sides = [chosen[position::side_count] for position in range(side_count)]
    first_dealer_seat = rng.randrange(side_count * per_side)
    abandon_after = rng.randint(1, 3) if rng.random() < 0.04 else None
    match_rules = rules.Rules.make(variant)
    totals: tuple[int, ...] = (0,) * side_count
    status = rules.Status.PLAYING
    hands = []
    for number in range(1, max_hands + 1):
        if status is rules.Status.WON or number == abandon_after:
            break
        tallies = random_hand(rng, side_count)
        scored = rules.score_hand(
            match_rules, tallies, totals, tied_before=status is rules.Status.TIED
        )
        totals, status = scored.totals, scored.status
        hands.append(tallies)
    return DemoMatch(variant, sides, first_dealer_seat, hands, status is not rules.Status.WON)


def play_match(
    rng: random.Random, circle: Circle, roster: list[Player], max_hands: int = 40
) -> Match:
    """A random match recorded the normal way: started, then hand by hand through services."""
    demo = random_match(rng, roster, max_hands)
    match = services.match_start(
        circle=circle,
        rules=rules.Rules.make(demo.variant),
        sides=demo.sides,
        first_dealer_seat=demo.first_dealer_seat,
    )
    for number, tallies in enumerate(demo.hands, start=1):
        services.hand_record(match=match, number=number, tallies=tallies)
    match.refresh_from_db()
    if demo.abandoned:
        match = services.match_abandon(match=match)
    return match


def seed(
    circle: Circle,
    matches: int,
    *,
    seed: int = 1,
    days: int = 730,
    now: datetime | None = None,
    through_services: bool = False,
) -> int:
    """Add `matches` random matches to `circle`, one every so often over the `days` days before
    `now`, and replay the circle's ratings in the order they finished.

    The matches are written in bulk (scoring/matches/bulk.py), as the services would store them;
    `through_services` records them hand by hand instead (slow; the bulk path is tested
    against it).
    """
    rng = random.Random(seed)
    roster = [services.player_get_or_create(circle=circle, name=name) for name in NAMES]
    start = (now or timezone.now()) - timedelta(days=days)
    step = timedelta(days=days) / max(matches, 1)
    if through_services:
        for index in range(matches):
            with transaction.atomic():
                match = play_match(rng, circle, roster)
                when = start + step * index
                Match.objects.filter(pk=match.pk).update(
                    created_at=when,
                    finished_at=when + FINISHED_AFTER if match.finished_at else None,
                )
                stats.player_summaries_refresh(match)
    else:

        def new_matches() -> Iterator[bulk.NewMatch]:
            for index in range(matches):
                demo = random_match(rng, roster)
                when = start + step * index
                yield bulk.NewMatch(
                    rules=rules.Rules.make(demo.variant),
                    sides=demo.sides,
                    hands=demo.hands,
                    first_dealer=demo.first_dealer_seat,
                    abandoned=demo.abandoned,
                    created_at=when,
                    finished_at=when + FINISHED_AFTER,
                )

        bulk.matches_create(circle, new_matches())
    ratings.recompute(circle=circle)
    return matches
