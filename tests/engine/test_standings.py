"""The standings of a club night (scoring/engine/standings.py): pure, no database."""

from __future__ import annotations

import itertools

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.standings import Result, Row, standings


def R(number, a, b, totals, winner):
    return Result(
        number,
        ((a,) if isinstance(a, int) else a, (b,) if isinstance(b, int) else b),
        totals,
        winner,
    )


def by_player(rows: list[Row]) -> dict[int, Row]:
    return {row.player: row for row in rows}


def test_match_points_then_difference():
    rows = standings(
        [1, 2, 3, 4],
        [
            R(1, 1, 2, (21, 10), 0),
            R(1, 3, 4, (21, 20), 0),
            R(2, 1, 3, (21, 19), 0),
            R(2, 2, 4, (21, 5), 0),
        ],
        [],
        swiss=False,
    )
    assert [r.player for r in rows] == [1, 2, 3, 4]
    assert [r.place for r in rows] == [1, 2, 3, 4]
    assert [r.decided_by for r in rows] == [None, "match_points", "difference", "match_points"]
    one = rows[0]
    assert (one.match_points, one.played, one.wins, one.difference, one.scored) == (2, 2, 2, 13, 42)
    # 2 and 3 are tied on 1 match point and never met: head to head 0 each, difference decides.
    assert by_player(rows)[2].difference == 5 and by_player(rows)[3].difference == -1


def test_head_to_head_between_two():
    # 2 beat 1, but 1 has the better difference: head to head comes first.
    results = [
        R(1, 1, 3, (21, 0), 0),
        R(1, 2, 4, (21, 20), 0),
        R(2, 2, 1, (21, 20), 0),
        R(2, 3, 4, (21, 0), 0),
        R(3, 1, 4, (21, 0), 0),
        R(3, 3, 2, (21, 0), 0),
    ]
    rows = standings([1, 2, 3, 4], results, [], swiss=False)
    points = {r.player: r.match_points for r in rows}
    assert points == {1: 2, 2: 2, 3: 2, 4: 0}
    # Three tied on 2: 1 beat 3, 2 beat 1, 3 beat 2: one each: difference decides.
    assert {r.player: r.head_to_head for r in rows} == {1: 1, 2: 1, 3: 1, 4: 0}
    assert [r.player for r in rows] == [1, 3, 2, 4]
    assert [r.decided_by for r in rows] == [None, "difference", "difference", "match_points"]


def test_head_to_head_among_three_tied():
    # 1, 2, 3 tied on 2 match points; within them 1 beat 2 and 3 (2), 2 beat 3 (1), 3 none (0);
    # their wins over 4 and 5 make up the match points; 3 has the best difference.
    results = [
        R(1, 1, 2, (21, 20), 0),
        R(1, 3, 4, (21, 0), 0),
        R(2, 1, 3, (21, 20), 0),
        R(2, 5, 2, (0, 21), 1),
        R(3, 2, 3, (21, 20), 0),
        R(3, 3, 5, (21, 0), 0),
        R(4, 4, 1, (21, 0), 0),
        R(4, 5, 3, (0, 21), 1),
    ]
    rows = standings([1, 2, 3, 4, 5], results, [], swiss=False)
    assert {r.player: r.match_points for r in rows} == {1: 2, 2: 2, 3: 3, 4: 1, 5: 0}
    # Now make it a three-way tie: 3's last win is abandoned instead.
    results[-1] = R(4, 5, 3, (0, 21), None)
    rows = standings([1, 2, 3, 4, 5], results, [], swiss=False)
    assert {r.player: r.match_points for r in rows} == {1: 2, 2: 2, 3: 2, 4: 1, 5: 0}
    assert {r.player: r.head_to_head for r in rows} == {1: 2, 2: 1, 3: 0, 4: 0, 5: 0}
    assert [r.player for r in rows] == [1, 2, 3, 4, 5]
    assert [r.decided_by for r in rows] == [
        None,
        "head_to_head",
        "head_to_head",
        "match_points",
        "match_points",
    ]
    assert by_player(rows)[3].difference > by_player(rows)[1].difference


def test_bye_is_one_match_point_and_no_difference():
    rows = standings([1, 2, 3], [R(1, 1, 2, (21, 15), 0)], [(1, 3)], swiss=False)
    three = by_player(rows)[3]
    assert (three.match_points, three.byes, three.played, three.difference, three.scored) == (
        1,
        1,
        0,
        0,
        0,
    )
    assert [r.player for r in rows] == [1, 3, 2]
    assert rows[1].decided_by == "difference"  # 1 (+6) above 3 (0), both on 1 match point


def test_abandoned_is_a_loss_for_both():
    rows = standings([1, 2], [R(1, 1, 2, (15, 10), None)], [], swiss=False)
    assert [(r.match_points, r.wins, r.played, r.difference, r.scored) for r in rows] == [
        (0, 0, 1, 5, 15),
        (0, 0, 1, -5, 10),
    ]
    assert rows[1].decided_by == "difference"


def opponents_example() -> tuple[list[int], list[Result]]:
    # 1 and 2 both 1-1 with a difference of 0, alone on 1 match point; 1 met stronger opponents
    # (3 and 5, 2 match points each) than 2 did (4: 0, 6: 2); 2 scored more.
    results = [
        R(1, 1, 3, (21, 11), 0),
        R(1, 2, 4, (21, 11), 0),
        R(2, 5, 1, (21, 11), 0),
        R(2, 6, 2, (31, 21), 0),
        R(3, 3, 4, (21, 0), 0),
        R(3, 5, 6, (21, 0), 0),
        R(4, 3, 5, (21, 0), 0),
        R(4, 6, 4, (21, 0), 0),
    ]
    return [1, 2, 3, 4, 5, 6], results


def test_opponents_only_when_swiss():
    players, results = opponents_example()
    swiss = by_player(standings(players, results, [], swiss=True))
    assert (swiss[1].match_points, swiss[2].match_points) == (1, 1)
    assert swiss[1].difference == swiss[2].difference == 0
    assert swiss[1].opponents == 2 + 2 and swiss[2].opponents == 0 + 2
    rows = standings(players, results, [], swiss=True)
    order = [r.player for r in rows]
    assert order.index(1) + 1 == order.index(2) and rows[order.index(2)].decided_by == "opponents"
    rows = standings(players, results, [], swiss=False)
    order = [r.player for r in rows]
    assert order.index(2) + 1 == order.index(1) and rows[order.index(1)].decided_by == "scored"
    assert by_player(rows)[1].opponents == 4  # computed all the same


def test_order_is_the_last_fallback_and_left_players_stay():
    rows = standings([7, 3, 9], [], [], swiss=True)
    assert [r.player for r in rows] == [7, 3, 9]
    assert [r.decided_by for r in rows] == [None, "order", "order"]
    # 9 left after a win: still ranked; an opponent missing from players counts for Buchholz.
    rows = standings(
        [7, 3, 9], [R(1, 9, 7, (21, 3), 0), R(1, 3, 42, (0, 21), 1)], [(2, 42)], swiss=True
    )
    assert [r.player for r in rows] == [9, 7, 3]
    assert by_player(rows)[3].opponents == 2


def test_partners_tables_count_for_both_partners():
    results = [R(1, (1, 2), (3, 4), (21, 9), 0), R(2, (1, 3), (2, 4), (10, 21), 1)]
    rows = by_player(standings([1, 2, 3, 4], results, [], swiss=True))
    assert rows[2].match_points == 2 and rows[4].match_points == 1
    assert rows[1].match_points == 1 and rows[3].match_points == 0
    # 1 and 4 are tied on 1: 4 beat 1 at table 2 (opposite sides), 1 beat 4 at table 1.
    assert rows[1].head_to_head == rows[4].head_to_head == 1
    assert rows[2].opponents == (0 + 1) + (1 + 0)


def test_duplicate_players_refused():
    with pytest.raises(ValueError):
        standings([1, 1], [], [], swiss=False)


@st.composite
def events(draw):
    count = draw(st.integers(2, 9))
    rng = draw(st.randoms(use_true_random=False))
    players = list(range(1, count + 1))
    results, byes = [], []
    for number in range(1, draw(st.integers(1, 6)) + 1):
        order = list(players)
        rng.shuffle(order)
        if len(order) % 2:
            byes.append((number, order.pop()))
        for a, b in zip(order[::2], order[1::2], strict=True):
            winner = rng.choice([0, 1, 1, 0, None])
            totals = (rng.randrange(4) * 7, rng.randrange(4) * 7)  # ties on totals are common
            results.append(Result(number, ((a,), (b,)), totals, winner))
    return players, results, byes, rng


KEYS = ("match_points", "head_to_head", "difference", "opponents", "scored")


@given(events(), st.booleans())
@settings(max_examples=examples(150))
def test_total_order_and_permutation_invariance(event, swiss):
    players, results, byes, rng = event
    rows = standings(players, results, byes, swiss=swiss)
    assert [r.place for r in rows] == list(range(1, len(players) + 1))
    assert sorted(r.player for r in rows) == sorted(players)
    keys = [k for k in KEYS if swiss or k != "opponents"]
    position = {p: i for i, p in enumerate(players)}

    def key(r: Row) -> tuple:
        return (*(getattr(r, k) for k in keys), -position[r.player])

    assert all(key(a) > key(b) for a, b in itertools.pairwise(rows))
    for above, row in itertools.pairwise(rows):
        first = next((k for k in keys if getattr(above, k) != getattr(row, k)), "order")
        assert row.decided_by == first
    shuffled_results, shuffled_byes = list(results), list(byes)
    rng.shuffle(shuffled_results)
    rng.shuffle(shuffled_byes)
    assert standings(players, iter(shuffled_results), iter(shuffled_byes), swiss=swiss) == rows
    # Match points, byes and the rest add up.
    assert (
        sum(r.match_points for r in rows)
        == len(byes) + sum(2 * (x.winner is not None) for x in results) // 2
    )
    assert sum(r.difference for r in rows) == 0


def test_head_to_head_only_counts_tied_opponents():
    rows = by_player(
        standings([1, 2, 3], [R(1, 1, 2, (21, 0), 0), R(2, 1, 3, (21, 0), 0)], [], swiss=False)
    )
    assert rows[1].head_to_head == 0  # nobody else has 2 match points
