"""Random but valid demo history, played through the real services (seed_demo, benchmarks, tests)."""

from __future__ import annotations

import random
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from scoring import rules, services
from scoring.models import Match, Player

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo"]
SUITS = "SHDC"
DECK = [(rank, suit) for suit in SUITS for rank in range(1, 14)]
LAYOUTS = [("2", 2, 1)] * 12 + [("3", 3, 1)] * 3 + [("4", 4, 1)] * 2 + [("teams", 2, 2)] * 3
VARIANTS = ["casino"] * 5 + ["royal"] * 3 + ["dominican"] * 2


def random_hand(rng: random.Random, sides: int) -> list[rules.Tally]:
    """Deal a shuffled pack among the sides, as captures end up, plus a few sweeps."""
    deck = DECK[:]
    rng.shuffle(deck)
    cuts = (
        sorted(rng.randint(8, 44) for _ in range(sides - 1)) if sides > 2 else [rng.randint(16, 36)]
    )
    bounds = [0, *cuts, len(deck)]
    tallies = []
    for side in range(sides):
        pile = deck[bounds[side] : bounds[side + 1]]
        cards = len(pile)
        sweeps = min(rng.choice([0, 0, 0, 0, 1, 1, 2]), cards // 2)
        tallies.append(
            rules.Tally.make(
                cards=cards,
                spades=sum(1 for _, suit in pile if suit == "S"),
                big_casino=(10, "D") in pile,
                little_casino=(2, "S") in pile,
                aces=[suit for rank, suit in pile if rank == 1],
                sweeps=sweeps,
            )
        )
    # The pack has 48 plays at most and a sweep never follows a sweep.
    while sum(t.sweeps for t in tallies) > rules.MAX_SWEEPS:  # pragma: no cover - rare
        tallies = [t._replace(sweeps=max(t.sweeps - 1, 0)) for t in tallies]
    return tallies


def play_match(
    rng: random.Random, owner: AbstractBaseUser, roster: list[Player], max_hands: int = 40
) -> Match:
    """Start a random match and record random hands until it is won (or abandon it)."""
    _, side_count, per_side = rng.choice(LAYOUTS)
    chosen = rng.sample(roster, side_count * per_side)
    match = services.match_start(
        owner=owner,
        variant=rng.choice(VARIANTS),
        sides=[chosen[position::side_count] for position in range(side_count)],
        first_dealer_seat=rng.randrange(side_count * per_side),
    )
    abandon_after = rng.randint(1, 3) if rng.random() < 0.04 else None
    for number in range(1, max_hands + 1):
        if not match.is_open or number == abandon_after:
            break
        services.hand_record(match=match, number=number, tallies=random_hand(rng, side_count))
        match.refresh_from_db()
    if match.is_open:
        match = services.match_abandon(match=match)
    return match


def seed(owner: AbstractBaseUser, matches: int, *, seed: int = 1, days: int = 730) -> int:
    """Play `matches` random matches for `owner`, spread over the past `days` days.

    The dates are spread after the matches are played, so the ratings are replayed at the end
    in the order of those dates (as if the matches had been played then).
    """
    rng = random.Random(seed)
    roster = [services.player_get_or_create(owner=owner, name=name) for name in NAMES]
    start = timezone.now() - timedelta(days=days)
    step = timedelta(days=days) / max(matches, 1)
    for index in range(matches):
        with transaction.atomic():
            match = play_match(rng, owner, roster)
            when = start + step * index
            Match.objects.filter(pk=match.pk).update(
                created_at=when,
                finished_at=when + timedelta(minutes=30) if match.finished_at else None,
            )
    services.ratings_recompute(owner=owner)
    return matches
