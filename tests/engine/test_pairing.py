"""The pairing of club night rounds (scoring/engine/pairing.py): pure, no database.

The exact properties are checked against brute-force oracles on small fields: every perfect
pairing enumerated in top-down order (the highest-ranked player's partner first).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import pairing, standings
from scoring.engine.pairing import PARTNERS, ROUND_ROBIN, SWISS, PairingError, Played, Round, Table

# --- Oracles -----------------------------------------------------------------------------------


def all_pairings(order: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect pairing of `order`, in top-down order (lexicographic by partner rank)."""
    if not order:
        yield []
        return
    top, rest = order[0], order[1:]
    for i, partner in enumerate(rest):
        for others in all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(top, partner), *others]


def repeat_free_exists(order: Sequence[int], met: Mapping[int, set[int]]) -> bool:
    if not order:
        return True
    top, rest = order[0], order[1:]
    return any(
        repeat_free_exists(rest[:i] + rest[i + 1 :], met)
        for i, partner in enumerate(rest)
        if partner not in met.get(top, set())
    )


def fewest_repeats(order: Sequence[int], met: Mapping[int, set[int]]) -> int:
    return min(sum(b in met.get(a, set()) for a, b in p) for p in all_pairings(order))


def met_in(history: Sequence[Played], *, partners: bool = False) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for played in history:
        for table in played.tables:
            groups = (
                [(a, b) for side in table.sides for a in side for b in side if a != b]
                if partners
                else [(a, b) for a in table.sides[0] for b in table.sides[1]]
            )
            for a, b in groups:
                met.setdefault(a, set()).add(b)
                met.setdefault(b, set()).add(a)
    return met


def byes_in(history: Sequence[Played]) -> Counter[int]:
    return Counter(p for played in history for p in played.byes)


def seated(paired: Round) -> list[int]:
    return pairing.round_players(paired)


def pairs_of(paired: Round) -> set[frozenset[int]]:
    return {frozenset(t.sides[0] + t.sides[1]) for t in paired.tables}


def play(paired: Round, number: int, rng: random.Random) -> list[standings.Result]:
    results = []
    for table in paired.tables:
        winner = rng.randrange(2)
        loser_total = rng.randrange(21)
        totals = (21, loser_total) if winner == 0 else (loser_total, 21)
        results.append(standings.Result(number, table.sides, totals, winner))
    return results


# --- Small helpers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "rounds"), [(2, 1), (3, 3), (4, 3), (5, 5), (8, 7), (9, 9), (16, 15)]
)
def test_round_robin_rounds(count, rounds):
    assert pairing.round_robin_rounds(count) == rounds


@pytest.mark.parametrize(
    ("count", "rounds"), [(2, 3), (4, 3), (8, 3), (9, 4), (16, 4), (17, 5), (64, 6), (65, 7)]
)
def test_swiss_rounds(count, rounds):
    assert pairing.swiss_rounds(count) == rounds


def test_max_matching_against_brute_force():
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randrange(1, 11)
        edges = {(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.35}
        adj = [[b for b in range(n) if (min(a, b), max(a, b)) in edges] for a in range(n)]
        mate = pairing._max_matching(adj)
        assert all(mate[v] == -1 or (mate[mate[v]] == v and mate[v] in adj[v]) for v in range(n))
        size = sum(1 for v in range(n) if mate[v] > v)
        best = 0
        for k in range(n // 2, 0, -1):
            if any(
                len({v for e in combo for v in e}) == 2 * k
                for combo in itertools.combinations(edges, k)
            ):
                best = k
                break
        assert size == best


# --- Refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "players"), [(ROUND_ROBIN, [1]), (SWISS, []), (SWISS, [4]), (PARTNERS, [1, 2, 3])]
)
def test_too_few(fmt, players):
    with pytest.raises(PairingError) as refused:
        pairing.pair_round(fmt, players, [], round_number=1)
    assert refused.value.code == "too_few"


@pytest.mark.parametrize("fmt", [ROUND_ROBIN, SWISS, PARTNERS])
def test_duplicate(fmt):
    with pytest.raises(PairingError) as refused:
        pairing.pair_round(fmt, [1, 2, 3, 2, 5], [], round_number=1)
    assert refused.value.code == "duplicate"


def test_round_robin_beyond_its_schedule():
    history: list[Played] = []
    for number in (1, 2, 3):
        paired = pairing.pair_round(ROUND_ROBIN, [1, 2, 3, 4], history, round_number=number)
        history.append(Played(*paired))
    with pytest.raises(PairingError) as refused:
        pairing.pair_round(ROUND_ROBIN, [1, 2, 3, 4], history, round_number=4)
    assert refused.value.code == "too_many_rounds"
    with pytest.raises(PairingError) as refused:
        pairing.pair_round(ROUND_ROBIN, [1, 2, 3, 4], history[:2], round_number=3, rounds=2)
    assert refused.value.code == "too_many_rounds"


def test_swiss_beyond_the_planned_rounds_and_out_of_turn():
    first = Played(*pairing.pair_round(SWISS, [1, 2, 3, 4], [], round_number=1))
    with pytest.raises(PairingError) as refused:
        pairing.pair_round(SWISS, [1, 2, 3, 4], [first], round_number=2, rounds=1)
    assert refused.value.code == "too_many_rounds"
    with pytest.raises(PairingError) as refused:
        pairing.pair_round(SWISS, [1, 2, 3, 4], [first], round_number=3)
    assert refused.value.code == "round_over"


# --- Round robin --------------------------------------------------------------------------------


@given(st.integers(2, 17), st.randoms(use_true_random=False))
@settings(max_examples=examples(40))
def test_round_robin_every_pair_meets_once(count, rng):
    players = rng.sample(range(1, 1000), count)
    history: list[Played] = []
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    side_a: Counter[int] = Counter()
    for number in range(1, pairing.round_robin_rounds(count) + 1):
        paired = pairing.pair_round(ROUND_ROBIN, players, history, round_number=number)
        everyone = seated(paired)
        assert sorted(everyone) == sorted(players)  # each once: a table or the bye
        assert all(len(side) == 1 for t in paired.tables for side in t.sides)
        assert len(paired.byes) == count % 2
        met.update(pairs_of(paired))
        byes.update(paired.byes)
        side_a.update(t.sides[0][0] for t in paired.tables)
        history.append(Played(*paired))
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    if count % 2:
        assert byes == Counter(players)
    games = count - 1
    # The circle's alternation: side A about half the time (off by at most one game).
    assert all(abs(2 * side_a[p] - games) <= 2 for p in players)
    with pytest.raises(PairingError):
        pairing.pair_round(ROUND_ROBIN, players, history, round_number=len(history) + 1)


def test_round_robin_round_one_is_the_circle():
    paired = pairing.pair_round(ROUND_ROBIN, [1, 2, 3, 4, 5, 6], [], round_number=1)
    assert paired == Round((Table(((1,), (6,))), Table(((2,), (5,))), Table(((3,), (4,)))), ())
    paired = pairing.pair_round(ROUND_ROBIN, [1, 2, 3, 4, 5], [], round_number=1)
    assert paired == Round((Table(((2,), (5,))), Table(((3,), (4,)))), (1,))


@given(st.integers(3, 12), st.randoms(use_true_random=False))
@settings(max_examples=examples(40))
def test_round_robin_field_changes(count, rng):
    """Departures keep the schedule's tables among the players present; from a late arrival's
    first round on, the rounds are paired without repeats."""
    original = list(range(1, count + 1))
    players = list(original)
    history: list[Played] = []
    schedule: list[Played] = []  # the circle, as the original field plays it
    next_id = 100
    gone: set[int] = set()
    for number in range(1, pairing.round_robin_rounds(count) + 1):
        if number > 1 and rng.random() < 0.3 and len(players) > 2:
            leaver = rng.choice(players)
            players.remove(leaver)
            gone.add(leaver)
        if number > 1 and rng.random() < 0.2:
            players.append(next_id)
            next_id += 1
        paired = pairing.pair_round(ROUND_ROBIN, players, history, round_number=number)
        assert sorted(seated(paired)) == sorted(players)
        assert not gone & set(seated(paired))
        assert len(paired.byes) == len(players) % 2
        stable = pairing.pair_round(ROUND_ROBIN, original, schedule, round_number=number)
        schedule.append(Played(*stable))
        present = set(players)
        met = met_in(history)
        on_schedule = pairing.round_robin_on_schedule(players, history)
        assert on_schedule == (present <= set(original))
        if on_schedule and len(players) % 2 == 0:
            # The schedule's tables between players present who have not met are kept; the
            # others are paired among themselves, with no repeat while they can avoid one.
            for table in stable.tables:
                a, b = table.sides[0][0], table.sides[1][0]
                if {a, b} <= present and b not in met.get(a, set()):
                    assert table in paired.tables
            extra = [t for t in paired.tables if t not in stable.tables]
            leftovers = [p for t in extra for side in t.sides for p in side]
            if repeat_free_exists(leftovers, met):
                assert all(t.sides[1][0] not in met.get(t.sides[0][0], set()) for t in extra)
        elif not on_schedule:
            at_tables = [p for p in players if p not in paired.byes]
            if repeat_free_exists(at_tables, met):
                assert all(
                    t.sides[1][0] not in met.get(t.sides[0][0], set()) for t in paired.tables
                )
        history.append(Played(*paired))


# --- Swiss --------------------------------------------------------------------------------------


def test_swiss_round_one_top_half_against_bottom_half():
    paired = pairing.pair_round(SWISS, [5, 3, 9, 1, 7], [], round_number=1)
    assert paired == Round((Table(((5,), (9,))), Table(((3,), (1,)))), (7,))


def swiss_oracle(
    ranked: Sequence[int], scores: Mapping[int, float], history: Sequence[Played]
) -> tuple[tuple[int, ...], set[frozenset[int]]]:
    """The bye and the pairs the rules ask for, by brute force."""
    met = met_in(history)
    had = byes_in(history)
    byes: tuple[int, ...] = ()
    rest = list(ranked)
    if len(rest) % 2:
        fewest = min(had[p] for p in rest)
        candidates = [p for p in reversed(rest) if had[p] == fewest]
        bye = min(candidates, key=lambda c: fewest_repeats([p for p in rest if p != c], met))
        byes = (bye,)
        rest.remove(bye)

    def key(p: list[tuple[int, int]]) -> tuple[int, float]:
        return (
            sum(b in met.get(a, set()) for a, b in p),
            sum(abs(scores.get(a, 0) - scores.get(b, 0)) for a, b in p),
        )

    best = min(all_pairings(rest), key=key)  # min keeps the first: the top-down first
    return byes, {frozenset(p) for p in best}


@st.composite
def swiss_events(draw, most: int):
    count = draw(st.integers(2, most))
    rounds = draw(st.integers(3, 6))
    return count, rounds, draw(st.randoms(use_true_random=False))


def run_swiss(count: int, rounds: int, rng: random.Random, exact: bool, most: int) -> None:
    players = list(range(1, count + 1))
    entered = list(players)
    history: list[Played] = []
    results: list[standings.Result] = []
    byes: list[tuple[int, int]] = []
    gone: set[int] = set()
    next_id = 100
    for number in range(1, rounds + 1):
        if number > 1:
            if rng.random() < 0.25 and len(players) > 2:
                leaver = rng.choice(players)
                players.remove(leaver)
                gone.add(leaver)
            if rng.random() < 0.25 and len(players) < most:
                players.append(next_id)
                entered.append(next_id)
                next_id += 1
        rows = standings.standings(entered, results, byes, swiss=True)
        present = set(players)
        ranked = [r.player for r in rows if r.player in present] if history else list(players)
        scores = {r.player: float(r.match_points) for r in rows}
        paired = pairing.pair_round(SWISS, ranked, history, round_number=number, scores=scores)
        everyone = seated(paired)
        assert sorted(everyone) == sorted(players)  # every present player once, late ones too
        assert not gone & set(everyone)
        assert len(paired.byes) == len(players) % 2
        assert all(len(side) == 1 for t in paired.tables for side in t.sides)
        met = met_in(history)
        had = byes_in(history)
        if history:
            if paired.byes:
                fewest = min(had[p] for p in players)
                assert had[paired.byes[0]] == fewest  # no second bye while someone has none
            rest = [p for p in ranked if p not in paired.byes]
            candidates = [p for p in players if had[p] == min(had[q] for q in players)]
            avoidable = (
                any(repeat_free_exists([p for p in ranked if p != c], met) for c in candidates)
                if paired.byes
                else repeat_free_exists(rest, met)
            )
            if avoidable:
                assert not any(
                    t.sides[1][0] in met.get(t.sides[0][0], set()) for t in paired.tables
                )
            if exact:
                assert (paired.byes, pairs_of(paired)) == swiss_oracle(ranked, scores, history)
            rank = {p: i for i, p in enumerate(ranked)}
            tops = [min(rank[t.sides[0][0]], rank[t.sides[1][0]]) for t in paired.tables]
            assert tops == sorted(tops)  # tables in the order of their higher-ranked player
        history.append(Played(*paired))
        results += play(paired, number, rng)
        byes += [(number, p) for p in paired.byes]


@pytest.mark.slow
@given(swiss_events(most=10))
@settings(max_examples=examples(60))
def test_swiss_against_the_brute_force_oracle(event):
    """n <= 10: the bye, no repeat, least score distance and top-down order, all exact."""
    count, rounds, rng = event
    run_swiss(count, rounds, rng, exact=True, most=10)


@given(swiss_events(most=14))
@settings(max_examples=examples(40))
def test_swiss_events_up_to_fourteen(event):
    count, rounds, rng = event
    run_swiss(count, rounds, rng, exact=False, most=14)


def test_swiss_score_groups_first():
    """Two groups of two that met across: the groups are kept together."""
    history = [Played((Table(((1,), (3,))), Table(((2,), (4,)))), ())]
    scores = {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}
    paired = pairing.pair_round(SWISS, [1, 2, 3, 4], history, round_number=2, scores=scores)
    assert paired == Round((Table(((1,), (2,))), Table(((3,), (4,)))), ())


def test_swiss_repeat_when_unavoidable():
    history = [Played((Table(((1,), (2,))),), ())]
    paired = pairing.pair_round(SWISS, [1, 2], history, round_number=2, scores={1: 1, 2: 0})
    assert paired == Round((Table(((2,), (1,))),), ())


def test_swiss_side_a_to_who_had_it_less():
    history = [Played((Table(((1,), (2,))), Table(((4,), (3,)))), ())]
    paired = pairing.pair_round(SWISS, [1, 3, 2, 4], history, round_number=2, scores={1: 1, 3: 1})
    assert paired == Round((Table(((3,), (1,))), Table(((2,), (4,)))), ())


def test_swiss_fallback_keeps_fewest_repeats(monkeypatch):
    """Past the search budget the pairing still has no repeat when one can be avoided."""
    monkeypatch.setattr(pairing, "SEARCH_BUDGET", 1)
    rng = random.Random(3)
    ranked = list(range(1, 13))
    history = [Played(*pairing.pair_round(SWISS, ranked, [], round_number=1))]
    for number in (2, 3, 4):
        rng.shuffle(ranked)
        paired = pairing.pair_round(SWISS, ranked, history, round_number=number)
        met = met_in(history)
        assert sorted(seated(paired)) == sorted(ranked)
        assert not any(t.sides[1][0] in met.get(t.sides[0][0], set()) for t in paired.tables)
        history.append(Played(*paired))


def test_swiss_deterministic():
    rng = random.Random(9)
    ranked = list(range(1, 12))
    history = [Played(*pairing.pair_round(SWISS, ranked, [], round_number=1))]
    rng.shuffle(ranked)
    scores = {p: float(rng.randrange(2)) for p in ranked}
    one = pairing.pair_round(SWISS, ranked, history, round_number=2, scores=scores)
    assert one == pairing.pair_round(SWISS, ranked, history, round_number=2, scores=dict(scores))


# --- Partners -----------------------------------------------------------------------------------


@given(
    st.integers(4, 13), st.integers(1, 6), st.integers(0, 2**31), st.randoms(use_true_random=False)
)
@settings(max_examples=examples(50))
def test_partners(count, rounds, seed, rng):
    players = list(range(1, count + 1))
    history: list[Played] = []
    for number in range(1, rounds + 1):
        if number > 1 and rng.random() < 0.2 and len(players) > 4:
            players.remove(rng.choice(players))
        paired = pairing.pair_round(PARTNERS, players, history, round_number=number, seed=seed)
        assert paired == pairing.pair_round(
            PARTNERS, players, history, round_number=number, seed=seed
        )
        assert sorted(seated(paired)) == sorted(players)
        assert all(len(t.sides[0]) == len(t.sides[1]) == 2 for t in paired.tables)
        # Byes: n mod 4 of them, the fewest byes so far first, then the lowest in the order.
        had = byes_in(history)
        position = {p: i for i, p in enumerate(players)}
        wanted = sorted(players, key=lambda p: (had[p], -position[p]))[: len(players) % 4]
        assert sorted(paired.byes) == sorted(wanted)
        partnered = met_in(history, partners=True)
        at_tables = [p for p in players if p not in paired.byes]
        if repeat_free_exists(at_tables, partnered):
            assert not any(
                side[1] in partnered.get(side[0], set()) for t in paired.tables for side in t.sides
            )
        history.append(Played(*paired))


@pytest.mark.slow
def test_partners_sixty_four_players_never_repeat_a_partnership():
    players = list(range(1, 65))
    history: list[Played] = []
    for number in range(1, 16):
        paired = pairing.pair_round(PARTNERS, players, history, round_number=number, seed=11)
        partnered = met_in(history, partners=True)
        assert not any(
            side[1] in partnered.get(side[0], set()) for t in paired.tables for side in t.sides
        )
        history.append(Played(*paired))


def test_partners_opponents_varied():
    """Eight players, partnerships fixed by the history: the tables avoid repeated opponents."""
    history = [
        Played((Table(((1, 2), (3, 4))), Table(((5, 6), (7, 8)))), ()),
    ]
    paired = pairing.pair_round(PARTNERS, list(range(1, 9)), history, round_number=2, seed=1)
    for table in paired.tables:
        for a in table.sides[0]:
            for b in table.sides[1]:
                assert b not in met_in(history).get(a, set())


@st.composite
def swiss_positions(draw):
    """Any field of up to 11 with any meetings, byes and scores (not only those events give)."""
    count = draw(st.integers(2, 11))
    players = list(range(1, count + 1))
    pairs = list(itertools.combinations(players, 2))
    met = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    had_bye = draw(st.lists(st.sampled_from(players), unique=True))
    scores = {p: float(draw(st.integers(0, 4))) for p in players}
    if draw(st.booleans()):  # standing order: by score (ties in any order)
        ranked = sorted(draw(st.permutations(players)), key=lambda p: -scores[p])
    else:
        ranked = list(draw(st.permutations(players)))
    history = [Played((Table(((a,), (b,))),), ()) for a, b in met]
    history += [Played((), (p,)) for p in had_bye]
    return ranked, scores, history


@pytest.mark.slow
@given(swiss_positions())
@settings(max_examples=examples(300))
def test_swiss_any_position_against_the_brute_force_oracle(position):
    ranked, scores, history = position
    if not history:
        return  # round 1 has its own rule
    paired = pairing.pair_round(
        SWISS, ranked, history, round_number=len(history) + 1, scores=scores
    )
    assert (paired.byes, pairs_of(paired)) == swiss_oracle(ranked, scores, history)


def test_swiss_avoidable_repeat_beats_top_down():
    """Top-down 1-2 would leave 3-4, who met: 1-3 (same group), then 2-4, the first such."""
    history = [Played((Table(((3,), (4,))),), ())]
    scores = {1: 2.0, 2: 2.0, 3: 2.0, 4: 0.0}
    paired = pairing.pair_round(SWISS, [1, 2, 3, 4], history, round_number=2, scores=scores)
    assert pairs_of(paired) == {frozenset({1, 3}), frozenset({2, 4})}


# --- Every format, with late arrivals and leavers -----------------------------------------------


@st.composite
def changing_events(draw):
    """An event of any format whose field changes between rounds: late arrivals (new players, or
    one who had left coming back) and leavers, at random rounds."""
    fmt = draw(st.sampled_from(pairing.FORMATS))
    least = 4 if fmt == PARTNERS else 2
    count = draw(st.integers(least, 11))
    most = pairing.round_robin_rounds(count) if fmt == ROUND_ROBIN else 7
    rounds = draw(st.integers(1, min(most, 7)))
    changes = [
        (draw(st.integers(0, 2)), draw(st.integers(0, 2)), draw(st.booleans()))
        for _ in range(rounds - 1)
    ]
    return fmt, count, rounds, changes, draw(st.integers(0, 2**31))


def run_changing(fmt: str, count: int, rounds: int, changes, seed: int) -> list[Round]:
    """Pair every round of the event, checking each; answers the rounds paired."""
    least = 4 if fmt == PARTNERS else 2
    per_table = 4 if fmt == PARTNERS else 2
    players = list(range(1, count + 1))
    entered = list(players)
    left: list[int] = []
    history: list[Played] = []
    results: list[standings.Result] = []
    byes: list[tuple[int, int]] = []
    rng = random.Random(seed)
    paired_rounds = []
    for number in range(1, rounds + 1):
        if number > 1:
            arrivals, leavers, comes_back = changes[number - 2]
            for _ in range(leavers):
                if len(players) > least:
                    leaver = rng.choice(players)
                    players.remove(leaver)
                    left.append(leaver)
            for _ in range(arrivals):
                if comes_back and left:
                    players.append(left.pop(0))
                else:
                    newcomer = 100 + len(entered)
                    players.append(newcomer)
                    entered.append(newcomer)
        if fmt == SWISS and history:
            rows = standings.standings(entered, results, byes, swiss=True)
            present = set(players)
            order = [r.player for r in rows if r.player in present]
            scores = {r.player: float(r.match_points) for r in rows}
        else:
            order, scores = list(players), {}
        paired = pairing.pair_round(
            fmt, order, history, round_number=number, seed=seed, rounds=rounds, scores=scores
        )
        everyone = seated(paired)
        assert sorted(everyone) == sorted(players), "every player present, once each"
        # Seated whenever the numbers allow: only the players a full table cannot take sit out.
        assert len(paired.byes) == len(players) % per_table
        # No second bye while someone present has had none (nor, generally, more byes than
        # anyone seated at a table): the byes go to those who have had the fewest.
        had = byes_in(history)
        at_tables = [p for p in players if p not in paired.byes]
        for bye in paired.byes:
            assert all(had[bye] <= had[p] for p in at_tables), (number, bye, dict(had))
        history.append(Played(*paired))
        results += play(paired, number, rng)
        byes += [(number, p) for p in paired.byes]
        paired_rounds.append(paired)
    return paired_rounds


@given(changing_events())
@settings(max_examples=examples(200))
def test_every_format_seats_the_field_and_shares_the_byes_as_it_changes(event):
    run_changing(*event)


def test_a_late_arrival_in_a_round_robin_plays_real_games():
    """Nia, Oz, Pim, Rex play round 1; Sue arrives for round 2: she sits at a table in rounds 2
    and 3 (the bye goes to players who have played), and nobody meets anyone twice."""
    nia, oz, pim, rex, sue = 1, 2, 3, 4, 5
    history = [Played(*pairing.pair_round(ROUND_ROBIN, [nia, oz, pim, rex], [], round_number=1))]
    assert pairing.round_robin_on_schedule([nia, oz, pim, rex], history)
    field = [nia, oz, pim, rex, sue]
    assert not pairing.round_robin_on_schedule(field, history)
    for number in (2, 3):
        paired = pairing.pair_round(ROUND_ROBIN, field, history, round_number=number, rounds=3)
        assert sue not in paired.byes
        assert sue in [p for table in paired.tables for side in table.sides for p in side]
        met = met_in(history)
        assert not any(t.sides[1][0] in met.get(t.sides[0][0], set()) for t in paired.tables)
        history.append(Played(*paired))
    assert len(set(byes_in(history))) == 2  # two byes, two players
