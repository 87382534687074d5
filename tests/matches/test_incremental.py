"""The incremental paths (append a hand, edit one, delete the last, in any order, over several
matches of one owner) store exactly what scoring everything again from scratch would: every
derived tally number, the sides' totals, the match's status and outcome, every rating and every
per-player statistic."""

from __future__ import annotations

import random
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from scoring.engine.rules import Rules
from scoring.matches import demo, services, stats
from scoring.matches.ratings import recompute as ratings_recompute
from scoring.models import (
    Match,
    Player,
    PlayerMatchStat,
    PlayerPairStat,
    PlayerRating,
    PlayerRecordStat,
    PlayerStat,
    Side,
    Tally,
)

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

OPERATION = st.sampled_from(["append", "append", "append", "edit", "delete"])
SETUPS = st.sampled_from(
    [
        ("casino", 11, None, 2, None),
        ("royal", 11, None, 3, None),
        ("dominican", 11, None, 2, None),
        ("casino", 21, [19, 18], 2, "count-out"),
        ("casino", 11, [11, 11], 2, "count-out"),  # starts tied
        ("royal", 11, [12, 12, 12], 3, "count-out"),  # starts tied
        ("royal", 11, None, 4, "count-out"),
        ("swedish", 11, None, 3, None),
        ("finnish", 11, None, 3, None),  # pots carried from hand to hand, sweeps frozen at 10
        ("finnish", 16, [8, 8], 2, "highest"),
        ("spade", 40, None, 2, None),
        ("spade", 61, [50, 50, 50, 50], 4, None),
    ]
)


def _derived_state(match: Match) -> dict:
    tallies = list(
        Tally.objects.filter(hand__match=match)
        .order_by("hand__number", "side__position")
        .values_list("hand__number", "side__position", *services.DERIVED_TALLY_FIELDS)
    )
    sides = list(Side.objects.filter(match=match).order_by("position").values_list("total"))
    pots = list(match.hands.order_by("number").values_list("number", "pot_cards", "pot_spades"))
    stored = Match.objects.filter(pk=match.pk).values(
        "status", "winner_position", "outcome_kind", "outcome_category", "hand_count"
    )
    return {"tallies": tallies, "sides": sides, "pots": pots, "match": stored.get()}


def _ratings(owner) -> dict:
    return {
        "players": list(
            Player.objects.filter(circle=owner.personal_circle)
            .order_by("pk")
            .values_list("pk", "rating_mu", "rating_sigma", "rating", "rated_matches")
        ),
        "trend": list(
            PlayerRating.objects.filter(player__circle=owner.personal_circle)
            .order_by("pk")
            .values_list("player_id", "match_id", "mu", "sigma", "rating")
        ),
    }


def _statistics(owner) -> dict:
    """Every per-player statistics row of the owner's players, without ids."""
    tables = {}
    for model in (PlayerMatchStat, PlayerStat, PlayerRecordStat, PlayerPairStat):
        rows = model.objects.filter(player__circle=owner.personal_circle).values()
        tables[model.__name__] = sorted(
            tuple(sorted((k, v) for k, v in row.items() if k != "id")) for row in rows
        )
    return tables


class IncrementalIsAFullRescore(TestCase):
    @settings(max_examples=examples(40))
    @given(
        setups=st.lists(SETUPS, min_size=1, max_size=3),
        steps=st.lists(st.tuples(st.integers(0, 2), OPERATION, st.integers(0, 10**6)), max_size=30),
    )
    def test_any_order_of_changes_stores_what_a_full_rescore_would(self, setups, steps):
        owner = get_user_model().objects.create_user(username=f"u{random.random()}")
        roster = [
            services.player_create(circle=owner.personal_circle, name=name)
            for name in demo.NAMES[:4]
        ]
        matches = []
        for variant, target, start, sides, several_reach in setups:
            matches.append(
                services.match_start(
                    circle=owner.personal_circle,
                    rules=Rules.make(variant, target=target, several_reach=several_reach),
                    sides=[[player] for player in roster[:sides]],
                    start_totals=start,
                )
            )
        for which, operation, seed in steps:
            match = Match.objects.get(pk=matches[which % len(matches)].pk)
            side_count = match.sides.count()
            rng = random.Random(seed)
            try:
                if operation == "append" and match.is_open:
                    services.hand_record(
                        match=match,
                        number=match.hand_count + 1,
                        tallies=demo.random_hand(rng, side_count, match.variant),
                    )
                elif operation == "edit" and match.hand_count:
                    services.hand_edit(
                        match=match,
                        number=rng.randint(1, match.hand_count),
                        tallies=demo.random_hand(rng, side_count, match.variant),
                    )
                elif operation == "delete" and match.hand_count:
                    services.hand_delete_last(match=match, number=match.hand_count)
            except services.HandRefused:
                pass  # an edit that would put a hand after the winning one: nothing changed

            for each in matches:
                each = Match.objects.get(pk=each.pk)
                stored = _derived_state(each)
                services.rescore(each)  # from scratch, and it must change nothing
                assert _derived_state(each) == stored
            ratings = _ratings(owner)
            ratings_recompute(circle=owner.personal_circle)
            assert _ratings(owner) == ratings
            statistics = _statistics(owner)
            stats.player_summaries_rebuild(owner.personal_circle)
            assert _statistics(owner) == statistics


def test_appending_writes_only_the_new_rows_and_the_totals(casino_match):
    rng = random.Random(7)
    for number in range(1, 6):
        services.hand_record(match=casino_match, number=number, tallies=demo.random_hand(rng, 2))
        casino_match.refresh_from_db()
        if not casino_match.is_open:
            break
    casino_match = services.match_start(
        circle=casino_match.circle,
        rules=Rules.make("casino", target=999),
        sides=[[p] for p in Player.objects.filter(circle=casino_match.circle)[:2]],
    )
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for number in range(1, 41):
        with CaptureQueriesContext(connection) as queries:
            services.hand_record(
                match=casino_match, number=number, tallies=demo.random_hand(rng, 2)
            )
        counts.append(len(queries))
        writes = [q["sql"] for q in queries if q["sql"].startswith(("UPDATE", "INSERT"))]
        assert not any('UPDATE "scoring_tally"' in sql for sql in writes)
    assert counts[-1] == counts[1], counts  # the 40th hand costs what the 2nd did


def test_editing_the_last_hand_rewrites_only_its_own_rows(casino_match):
    owner = casino_match.circle.personal_for
    match = services.match_start(
        circle=owner.personal_circle,
        rules=Rules.make("casino", target=999),
        sides=[[p] for p in Player.objects.filter(circle=owner.personal_circle)[:2]],
    )
    rng = random.Random(3)
    for number in range(1, 31):
        services.hand_record(match=match, number=number, tallies=demo.random_hand(rng, 2))
    last = [
        t.as_rules_tally() for t in match.hands.get(number=30).tallies.order_by("side__position")
    ]
    with mock.patch.object(Tally.objects, "bulk_update", wraps=Tally.objects.bulk_update) as spy:
        services.hand_edit(match=match, number=30, tallies=last[::-1])  # the sides swap piles
    derived_calls = [c for c in spy.call_args_list if "points" in c.args[1]]
    assert len(derived_calls) == 1
    rewritten = {row.pk for row in derived_calls[0].args[0]}
    assert rewritten == set(
        Tally.objects.filter(hand__match=match, hand__number=30).values_list("pk", flat=True)
    )
