"""Pairing the rounds of a club night (a tournament): pure functions, no Django.

Three formats, all with players identified by int ids:

* ``round_robin``: two-player tables, the circle (Berger) method over the seeding order, so that
  over :func:`round_robin_rounds` rounds every pair meets exactly once (while the field stays:
  from a late arrival's first round the rounds are paired without repeats instead);
* ``swiss``: two-player tables, each round pairs players of equal (or near) match points who have
  not met yet;
* ``partners``: 2 v 2 tables, partnerships that never repeat while that can be avoided, opponents
  varied.

:func:`pair_round` pairs one round from the rounds already paired (:class:`Played`), and answers a
:class:`Round`: its tables in table order and the players sitting out with a bye. Everything is
deterministic given the inputs (and ``seed``, which only the partners format uses).

The exact parts rest on one classic algorithm: Edmonds' blossom algorithm for a maximum matching
in a general graph (:func:`_max_matching`). A perfect pairing of k players that uses as few
repeated meetings as possible uses exactly ``k/2 - ν`` of them, ν being the size of a maximum
matching in the graph of the pairs that have *not* met (any such matching can be completed with
repeated pairs, and two players left over by a maximum matching have necessarily met). So "no
repeat while a repeat-free pairing exists" is exact for any field size, in O(k³) at worst.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

ROUND_ROBIN = "round_robin"
SWISS = "swiss"
PARTNERS = "partners"
FORMATS = (ROUND_ROBIN, SWISS, PARTNERS)

# Depth-first search nodes the Swiss search may visit before it settles for the best pairing found
# so far (see _swiss_pairs): above a full search of 12 players (4269 nodes), and a bound on the
# worst case (about 0.1 s for 32 players in round 20, far past the usual number of rounds).
SEARCH_BUDGET = 5_000
_EPS = 1e-9


class _OutOfBudget(Exception):
    """The Swiss search visited SEARCH_BUDGET nodes."""


class Table(NamedTuple):
    """One table: (side A players, side B players), 1 each for two-player formats, 2 for partners."""

    sides: tuple[tuple[int, ...], tuple[int, ...]]


class Round(NamedTuple):
    """A paired round: its tables in table order (table 1 first) and the players with a bye."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...]


class Played(NamedTuple):
    """One earlier round, as the engine needs it (the tables and byes :func:`pair_round` gave)."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...]


class PairingError(ValueError):
    """A round that cannot be paired, with a ``code`` for the caller's message.

    * ``too_few``: fewer than 2 players (4 for partners);
    * ``duplicate``: a player id given twice;
    * ``too_many_rounds``: a round beyond the round robin's schedule, or beyond ``rounds``;
    * ``round_over``: ``round_number`` is not the next round (``len(history) + 1``): that round
      was already paired, or an earlier one is missing.
    """

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


def round_robin_rounds(count: int) -> int:
    """How many rounds a round robin of `count` players has: count-1 (even), count (odd)."""
    if count < 2:
        return 0
    return count - 1 if count % 2 == 0 else count


def swiss_rounds(count: int) -> int:
    """The default number of Swiss rounds: enough to find a single winner, ceil(log2(count)), at least 3."""
    return max(3, (max(count, 1) - 1).bit_length())


# --- What the history says -------------------------------------------------------------------


class _Past:
    """Counts over the rounds already played: meetings, partnerships, side A seats, byes, tables."""

    def __init__(self, history: Sequence[Played]) -> None:
        self.met: dict[int, set[int]] = {}
        self.partnered: dict[int, set[int]] = {}
        self.opposed: Counter[tuple[int, int]] = Counter()
        self.side_a: Counter[int] = Counter()
        self.byes: Counter[int] = Counter()
        self.tables: Counter[int] = Counter()
        for played in history:
            self.byes.update(played.byes)
            for table in played.tables:
                side_a, side_b = table.sides
                self.tables.update(side_a + side_b)
                self.side_a.update(side_a)
                for a in side_a:
                    for b in side_b:
                        self.met.setdefault(a, set()).add(b)
                        self.met.setdefault(b, set()).add(a)
                        self.opposed[(min(a, b), max(a, b))] += 1
                for side in table.sides:
                    for a in side:
                        for b in side:
                            if a != b:
                                self.partnered.setdefault(a, set()).add(b)


# --- Edmonds' maximum matching ------------------------------------------------------------------


def _max_matching(adj: Sequence[Sequence[int]], mate: list[int] | None = None) -> list[int]:
    """A maximum matching of the graph `adj` (vertex -> neighbours): ``mate[v]`` or -1.

    Edmonds' blossom algorithm (augmenting paths, odd cycles contracted to their base), started
    from `mate` when given (else from a greedy matching in vertex order); exact, O(V³).
    """
    if mate is None:
        mate = _greedy_matching(adj)
    if sum(1 for m in mate if m == -1) <= len(adj) % 2:
        return mate  # perfect, or one short of it on an odd count: maximum already
    return _Blossom(adj, mate).maximum()


def _greedy_matching(adj: Sequence[Sequence[int]]) -> list[int]:
    """Each vertex in turn matched to its first free neighbour: the start of the blossom search."""
    mate = [-1] * len(adj)
    for v in range(len(adj)):
        if mate[v] == -1:
            for u in adj[v]:
                if mate[u] == -1 and u != v:
                    mate[v], mate[u] = u, v
                    break
    return mate


class _Blossom:
    """Edmonds' search for augmenting paths from each free vertex, growing `mate` in place.

    Per search: ``parent`` (the alternating tree), ``base`` (each vertex's blossom base),
    ``used`` (the vertices reached on an even level) and the ``queue`` of those to extend.
    """

    def __init__(self, adj: Sequence[Sequence[int]], mate: list[int]) -> None:
        self.adj = adj
        self.n = len(adj)
        self.mate = mate
        self.parent = [-1] * self.n
        self.base = list(range(self.n))
        self.used = [False] * self.n
        self.queue: deque[int] = deque()

    def maximum(self) -> list[int]:
        for root in range(self.n):
            if self.mate[root] == -1:
                self._augment(self._find_path(root))
        return self.mate

    def _augment(self, v: int) -> None:
        """Flip the matching along the path found, from its free end `v` back to the root."""
        mate, parent = self.mate, self.parent
        while v != -1:
            pv = parent[v]
            ppv = mate[pv]
            mate[v], mate[pv] = pv, v
            v = ppv

    def _find_path(self, root: int) -> int:
        """The free vertex an augmenting path from `root` ends at (``parent`` leads back), or -1."""
        self.parent = [-1] * self.n
        self.base = list(range(self.n))
        self.used = [False] * self.n
        self.used[root] = True
        self.queue = deque([root])
        while self.queue:
            v = self.queue.popleft()
            for u in self.adj[v]:
                end = self._extend(root, v, u)
                if end != -1:
                    return end
        return -1

    def _extend(self, root: int, v: int, u: int) -> int:
        """Follow the edge v-u: contract the odd cycle it closes, or grow the tree; -1 unless free."""
        base, mate, parent = self.base, self.mate, self.parent
        if base[v] == base[u] or mate[v] == u:
            return -1
        if u == root or (mate[u] != -1 and parent[mate[u]] != -1):
            self._contract(v, u)
        elif parent[u] == -1:
            parent[u] = v
            if mate[u] == -1:
                return u
            self.used[mate[u]] = True
            self.queue.append(mate[u])
        return -1

    def _contract(self, v: int, u: int) -> None:
        """Shrink the blossom closed by the edge v-u to its base, queueing its new even vertices."""
        current = self._lca(v, u)
        blossom = [False] * self.n
        self._mark(v, current, u, blossom)
        self._mark(u, current, v, blossom)
        base = self.base
        for i in range(self.n):
            if blossom[base[i]]:
                base[i] = current
                if not self.used[i]:
                    self.used[i] = True
                    self.queue.append(i)

    def _lca(self, a: int, b: int) -> int:
        """The base where the tree paths from `a` and `b` to the root meet."""
        base, mate, parent = self.base, self.mate, self.parent
        seen = [False] * self.n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def _mark(self, v: int, b: int, child: int, blossom: list[bool]) -> None:
        """Mark the blossom's vertices from `v` down to base `b`, pointing them along the cycle."""
        base, mate, parent = self.base, self.mate, self.parent
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]


def _fresh_graph(order: Sequence[int], met: Mapping[int, set[int]]) -> list[list[int]]:
    """The graph (by index in `order`) of the pairs of `order` that have not met."""
    index = {p: i for i, p in enumerate(order)}
    adj: list[list[int]] = []
    for i, p in enumerate(order):
        seen = {index[q] for q in met.get(p, ()) if q in index}
        adj.append([j for j in range(len(order)) if j != i and j not in seen])
    return adj


def _fewest_repeats(order: Sequence[int], met: Mapping[int, set[int]]) -> int:
    """How many repeated pairs a perfect pairing of `order` needs at least (0: none)."""
    mate = _max_matching(_fresh_graph(order, met))
    return sum(1 for m in mate if m == -1) // 2


def _choose_byes_for_fresh_pairs(
    ranked: Sequence[int], past: _Past, met: Mapping[int, set[int]], preferred: Sequence[int] = ()
) -> int:
    """The one bye of an odd field (Swiss, and the round robin's leftovers).

    Candidates: the players with the fewest byes so far; among them the one whose absence leaves
    the fewest repeated pairs for the others (so a repeat-free pairing is kept whenever one exists
    for some candidate), then a player of `preferred`, then the lowest-ranked (last in `ranked`).
    """
    fewest = min(past.byes[p] for p in ranked)
    candidates = [p for p in reversed(ranked) if past.byes[p] == fewest]
    candidates.sort(key=lambda p: p not in preferred)  # stable: the preferred first
    best, best_repeats = candidates[0], -1
    for candidate in candidates:
        repeats = _fewest_repeats([p for p in ranked if p != candidate], met)
        if best_repeats == -1 or repeats < best_repeats:
            best, best_repeats = candidate, repeats
        if repeats == 0:
            break
    return best


# --- Two-player pairing: fewest repeats, then score groups, then top-down ------------------------


def _swiss_pairs(
    order: Sequence[int], scores: Mapping[int, float], met: Mapping[int, set[int]]
) -> list[tuple[int, int]]:
    """Pair the even field `order` (best first), answering pairs (higher ranked, lower ranked).

    Fewest repeats, then smallest score distance, then top-down: see :class:`_SwissSearch`.
    """
    if not order:
        return []
    adj = _fresh_graph(order, met)
    mate = _max_matching(adj)
    search = _SwissSearch(adj, mate, [float(scores.get(p, 0.0)) for p in order])
    best = search.run()
    if best is None:
        best = _improved_by_swaps(mate, search.score, search.fresh)
    return [(order[a], order[b]) for a, b in best]


class _SwissSearch:
    """The pairing of an even field, by index in its order (best first), with ``score`` each.

    The pairing chosen is, in this order of priority:

    1. one with the fewest repeated pairs (two players who met before): none whenever a
       repeat-free pairing exists; exact always (the target is computed by :func:`_max_matching`);
    2. among those, one with the smallest *score distance*: the sum over tables of
       ``|scores[a] - scores[b]|`` (players missing from `scores` count 0). With match points this
       keeps score groups together: a table between two groups is only made when the groups'
       parity or the repeats force it, and each such table costs the points it spans;
    3. among those, the first in top-down order: the highest-ranked player has the highest-ranked
       partner possible, then the highest-ranked player left, and so on.

    It is a depth-first search in top-down order (so the first pairing found at a cost is the
    top-down first of that cost; later ones must cost strictly less) with branch and bound. The
    bounds on the distance still to pay, for the players left: the score-order bound (a group
    with an odd count passes one player on to the next group, paying the gap); half the sum of
    each player's distance to their nearest possible partner (infinite when more players have no
    fresh partner than the repeats left can seat); and, for the whole field once a first pairing
    has not reached those, the crossing bound of :func:`_crossing_bound`. The search stops as soon
    as a pairing reaches the whole field's bound, and remembers the sets of players left (with
    the repeats used) searched in vain. Criteria 2 and 3 are exact whenever the search ends
    within SEARCH_BUDGET nodes: always with up to 12 players at tables (a full search of 12 has
    at most 4269 inner nodes), and in practice for 64 players in the usual number of rounds (the
    first pairing found meets the bound). Past the budget it answers the best pairing found so
    far (with the fewest repeats), or, if none, a maximum fresh matching completed by repeats and
    improved by swaps of partners between two tables: criterion 1 still exact, 2 and 3 best
    effort.
    """

    def __init__(self, adj: list[list[int]], mate: list[int], score: list[float]) -> None:
        k = len(adj)
        self.k = k
        self.fresh = [0] * k  # bit j of fresh[i]: i and j have not met
        for i, neighbours in enumerate(adj):
            for j in neighbours:
                self.fresh[i] |= 1 << j
        self.allowed = sum(1 for m in mate if m == -1) // 2  # the fewest repeats possible
        self.score = score
        self.values = sorted(set(score), reverse=True)
        level_of = {v: i for i, v in enumerate(self.values)}
        self.level = [level_of[v] for v in score]
        self.gaps = [self.values[i] - self.values[i + 1] for i in range(len(self.values) - 1)]
        self.count = [0] * len(self.values)  # players left per score level
        self.members = [0] * len(self.values)  # bit set of the players per score level
        for i, lv in enumerate(self.level):
            self.count[lv] += 1
            self.members[lv] |= 1 << i
        self.nearest = [
            sorted(range(len(self.values)), key=lambda m: abs(self.values[m] - v))
            for v in self.values
        ]
        self.floor = max(self.least_distance(), self.partner_distance((1 << k) - 1, self.allowed))
        self.bounded = False  # whether floor has the (dearer) crossing bound yet
        self.best_cost = float("inf")
        self.best: list[tuple[int, int]] | None = None
        self.chosen: list[tuple[int, int]] = []
        self.nodes = 0
        # (players left, repeats so far) -> the largest distance budget with which that subtree
        # was searched in vain: a later visit with no more budget is skipped (it cannot do better).
        self.fruitless: dict[tuple[int, int], float] = {}

    def run(self) -> list[tuple[int, int]] | None:
        """The best pairing found (all of it when within budget), or None if none was."""
        with contextlib.suppress(_OutOfBudget):  # then keep the best pairing found so far, if any
            self.search((1 << self.k) - 1, 0.0, 0)
        return self.best

    def least_distance(self) -> float:
        """The score-order bound: each level with an odd count of players so far passes one on."""
        total, before = 0.0, 0
        for i, gap in enumerate(self.gaps):
            before += self.count[i]
            if before & 1:
                total += gap
        return total

    def partner_distance(self, rest: int, spare: int) -> float:
        """Half the sum over the players of `rest` of the distance to their nearest possible partner.

        A lower bound of the distance left (a table costs at least the mean of its two players'
        nearest distances); infinite when more players have no fresh partner than `spare`
        repeats can seat. With repeats to spare, any partner counts (the bound stays valid).
        """
        total, alone = 0.0, 0
        bits = rest
        while bits:
            bit = bits & -bits
            bits ^= bit
            v = bit.bit_length() - 1
            others = rest ^ bit
            near = self.fresh[v] & others
            if not near:
                alone += 1
                if alone > 2 * spare:
                    return float("inf")
            if spare:
                near = others
            total += self._nearest_distance(v, near)
        return total / 2

    def _nearest_distance(self, v: int, near: int) -> float:
        """The score distance from player `v` to the nearest of the bit set `near` (0 if empty)."""
        here = self.values[self.level[v]]
        for lv in self.nearest[self.level[v]]:
            if near & self.members[lv]:
                return abs(self.values[lv] - here)
        return 0.0

    def stranded(self, rest: int, spare: int) -> bool:
        """Whether some player of `rest` has no fresh partner left beyond what `spare` repeats cover."""
        alone = 0
        bits = rest
        while bits:
            bit = bits & -bits
            bits ^= bit
            if not self.fresh[bit.bit_length() - 1] & rest:
                alone += 1
                if alone > 2 * spare:
                    return True
        return False

    def search(self, rest: int, cost: float, repeats: int) -> bool:
        """Pair the players of `rest` below the best cost; true once the floor is reached."""
        if not rest:
            return self._complete(cost)
        self.nodes += 1
        if self.nodes > SEARCH_BUDGET:
            raise _OutOfBudget
        available = self.best_cost - cost
        key = (rest, repeats)
        if self.fruitless.get(key, -1.0) >= available - _EPS:
            return False
        before = self.best_cost
        if cost + self.partner_distance(rest, self.allowed - repeats) >= self.best_cost - _EPS:
            self._in_vain(key, available)
            return False
        done = self._pair_top(rest, cost, repeats)
        if self.best_cost == before:
            self._in_vain(key, available)
        return done

    def _in_vain(self, key: tuple[int, int], available: float) -> None:
        self.fruitless[key] = max(self.fruitless.get(key, -1.0), available)

    def _complete(self, cost: float) -> bool:
        """A whole pairing of `cost`: kept if cheaper; true when it reaches the floor."""
        if cost < self.best_cost - _EPS:
            self.best_cost, self.best = cost, list(self.chosen)
        if not self.bounded and self.best_cost > self.floor + _EPS:
            crossing = _crossing_bound(self.fresh, self.level, self.gaps, self.allowed)
            self.floor, self.bounded = max(self.floor, crossing), True
        return self.best_cost <= self.floor + _EPS

    def _pair_top(self, rest: int, cost: float, repeats: int) -> bool:
        """Try each partner of the top player of `rest` in turn, until the floor is reached."""
        top_bit = rest & -rest
        p = top_bit.bit_length() - 1
        rest ^= top_bit
        self.count[self.level[p]] -= 1
        candidates = rest
        done = False
        while candidates and not done:
            bit = candidates & -candidates
            candidates ^= bit
            done = self._try_table(p, bit, rest, cost, repeats)
        self.count[self.level[p]] += 1
        return done

    def _try_table(self, p: int, bit: int, rest: int, cost: float, repeats: int) -> bool:
        """Seat `p` with the player of `bit` and search the rest, unless a bound rules it out."""
        q = bit.bit_length() - 1
        now = repeats + (0 if self.fresh[p] & bit else 1)
        if now > self.allowed:
            return False
        step = cost + abs(self.score[p] - self.score[q])
        self.count[self.level[q]] -= 1
        done = False
        if step + self.least_distance() < self.best_cost - _EPS:
            left = rest ^ bit
            if not self.stranded(left, self.allowed - now):
                self.chosen.append((p, q))
                done = self.search(left, step, now)
                self.chosen.pop()
        self.count[self.level[q]] += 1
        return done


def _crossing_bound(fresh: list[int], level: list[int], gaps: list[float], spare: int) -> float:
    """A lower bound of the score distance of any pairing with at most `spare` repeats.

    Between two consecutive score levels, with S the players above the gap and T those below,
    the tables crossing the gap seat at least the players of S that no fresh pairing among S
    seats (|S| - 2ν(S), ν a maximum matching of the fresh pairs of S), less two per repeat
    allowed, and at least the parity of |S|; likewise for T. Each crossing table pays the gap.
    """
    k = len(level)

    def unseated(members: list[int]) -> int:
        index = {v: i for i, v in enumerate(members)}
        adj = [[index[u] for u in members if fresh[v] >> u & 1] for v in members]
        return sum(1 for m in _max_matching(adj) if m == -1)

    total = 0.0
    for i, gap in enumerate(gaps):
        above = [v for v in range(k) if level[v] <= i]
        below = [v for v in range(k) if level[v] > i]
        crossing = max(len(above) % 2, unseated(above) - 2 * spare, unseated(below) - 2 * spare)
        total += gap * crossing
    return total


def _improved_by_swaps(
    mate: list[int], score: list[float], fresh: list[int]
) -> list[tuple[int, int]]:
    """The fallback: `mate` completed by repeated pairs, then swaps of partners between two tables.

    A swap is kept when it adds no repeat and lowers the score distance; ends when none does.
    """
    pairs = _completed_pairs(mate)

    def repeat(a: int, b: int) -> int:
        return 0 if fresh[a] >> b & 1 else 1

    def cost(a: int, b: int) -> float:
        return abs(score[a] - score[b])

    def price(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, float]:
        return repeat(*x) + repeat(*y), cost(*x) + cost(*y)

    improved = True
    while improved:
        improved = False
        for i in range(len(pairs)):
            for j in range(i + 1, len(pairs)):
                if _swap_partners(pairs, i, j, price):
                    improved = True
    return sorted((min(a, b), max(a, b)) for a, b in pairs)


def _completed_pairs(mate: list[int]) -> list[tuple[int, int]]:
    """The pairs of `mate` (by lower index), then its unmatched vertices paired in order."""
    k = len(mate)
    left = [v for v in range(k) if mate[v] == -1]
    pairs = [(v, mate[v]) for v in range(k) if mate[v] > v]
    pairs += [(left[i], left[i + 1]) for i in range(0, len(left), 2)]
    return pairs


def _swap_partners(
    pairs: list[tuple[int, int]],
    i: int,
    j: int,
    price: Callable[[tuple[int, int], tuple[int, int]], tuple[int, float]],
) -> bool:
    """Swap partners between tables i and j if that adds no repeat and lowers the distance."""
    (a, b), (c, d) = pairs[i], pairs[j]
    now = price((a, b), (c, d))
    for x, y in (((a, c), (b, d)), ((a, d), (b, c))):
        then = price(x, y)
        if then[0] <= now[0] and then[1] < now[1] - _EPS:
            pairs[i], pairs[j] = x, y
            return True
    return False


def _seat(a: int, b: int, past: _Past) -> Table:
    """Side A for the player who has sat side A fewer times, then for `a` (the higher ranked)."""
    if past.side_a[b] < past.side_a[a]:
        a, b = b, a
    return Table(((a,), (b,)))


# --- The formats -------------------------------------------------------------------------------


def _round_robin_schedule(field: Sequence[int], turn: int) -> list[tuple[int | None, int | None]]:
    """Round `turn` (0-based) of the circle method over `field`: pairs (side A, side B).

    With n seeds (a dummy ``None`` added last when n is odd: its partner has the bye), m = n-1 and
    h = n/2, round t turns the circle by r = t·h (mod m): the seed at r meets the last seed, and
    the seeds r+j and r-j (mod m) meet, for j = 1..h-1. Seeds a and b meet in the round where
    a + b ≡ t (mod m), so every pair meets once in m rounds. Turning by h each round moves a
    player between the two rows of the circle, so side A (the row r+j) alternates round by round,
    with one repeat around their game against the last seed, who alternates too (side B in even
    rounds). Round 1 (t = 0) is (seed 0 v last seed), then (seed j v seed m-j), j = 1..h-1.
    """
    seeds: list[int | None] = list(field)
    if len(seeds) % 2:
        seeds.append(None)
    m = len(seeds) - 1
    half = len(seeds) // 2
    r = (turn * half) % m
    pairs: list[tuple[int | None, int | None]] = [
        (seeds[r], seeds[m]) if turn % 2 == 0 else (seeds[m], seeds[r])
    ]
    for j in range(1, half):
        pairs.append((seeds[(r + j) % m], seeds[(r - j) % m]))
    return pairs


def _round_robin_field(first: Played) -> list[int]:
    """The seeding order of the original field, read back from round 1 of the schedule.

    Round 1 seats (seed 0 v last seed) on table 1 (seed 0 has the bye instead when the field is
    odd), then seed j v seed m-j: so side A of the tables then side B in reverse give the seeds.
    When round 1 is not what the schedule gives (checked by rebuilding it), the field is taken in
    order of appearance in round 1 (side A, side B by table, then the byes): deterministic.
    """
    field = _circle_seeds(first)
    if field is not None and _schedule_round(field, 0, set(field)) == (first.tables, first.byes):
        return field
    return [p for table in first.tables for side in table.sides for p in side] + list(first.byes)


def _circle_seeds(first: Played) -> list[int] | None:
    """The seeds round 1 would have if it is the circle's round 1; None unless it is one v one."""
    if not (
        all(len(side) == 1 for table in first.tables for side in table.sides)
        and len(first.byes) <= 1
    ):
        return None
    a_side = [table.sides[0][0] for table in first.tables]
    b_side = [table.sides[1][0] for table in first.tables]
    if first.byes:
        # Odd: seed 0 has the bye, tables are (seed j v seed m-j), j = 1..h-1.
        return [first.byes[0], *a_side, *b_side[::-1]]
    # Even: table 1 is (seed 0 v seed m), so seed m comes last.
    return [a_side[0], *a_side[1:], *b_side[1:][::-1], b_side[0]] if a_side else []


def _schedule_round(
    field: Sequence[int], turn: int, present: set[int]
) -> tuple[tuple[Table, ...], tuple[int, ...]]:
    tables: list[Table] = []
    byes: list[int] = []
    for a, b in _round_robin_schedule(field, turn):
        if a is not None and b is not None:
            tables.append(Table(((a,), (b,))))
        elif a is not None:
            byes.append(a)
        elif b is not None:
            byes.append(b)
    return tuple(tables), tuple(byes)


def round_robin_on_schedule(players: Sequence[int], history: Sequence[Played]) -> bool:
    """Whether a round robin round of `players` follows the circle schedule of round 1's field:
    true while every player is of that field (players who left only take their tables away);
    false once a late arrival plays, and the rounds are then paired without repeats (see
    :func:`pair_round`)."""
    if not history:
        return True
    field = set(_round_robin_field(history[0]))
    return all(p in field for p in players)


def _pair_round_robin(
    players: Sequence[int], history: Sequence[Played], round_number: int, rounds: int | None
) -> Round:
    """Round k of the circle schedule of the *original* field (round 1's players, in the
    seeding order read back from round 1, see :func:`_round_robin_field`), so a stable field follows
    the schedule exactly. When players left (and nobody new plays), the schedule's tables between
    two players still present who have not met are kept (table order and sides as scheduled); the
    players left over (the partner of a player who left, the one the schedule gives the bye) are
    paired among themselves with the fewest repeated meetings (then top-down), and an odd one out
    has the bye: one with the fewest byes, keeping the fewest repeats, preferring the scheduled
    bye, then the lowest in the order. Their tables come after the scheduled ones. Off the
    schedule (see :func:`round_robin_on_schedule`): from the first round a late arrival plays,
    and in a round where keeping the schedule would give the bye to someone with more byes than
    a player seated, the round is paired as a Swiss round without scores (no repeat while one
    can be avoided, then top-down in `players` order; the bye to one with the fewest byes, then
    to one who has played the most tables, so that a late arrival plays).
    """
    field = _round_robin_field(history[0]) if history else list(players)
    if round_number > round_robin_rounds(len(field)) or (
        rounds is not None and round_number > rounds
    ):
        raise PairingError("too_many_rounds", f"the round robin has no round {round_number}")
    past = _Past(history)
    if round_robin_on_schedule(players, history):
        scheduled = _round_robin_scheduled(field, players, past, round_number)
        if scheduled is not None:
            return scheduled
    return _pair_without_repeats(players, past)


def _round_robin_scheduled(
    field: Sequence[int], players: Sequence[int], past: _Past, round_number: int
) -> Round | None:
    """Round `round_number` of the circle schedule of `field`, among the players present; None
    when keeping it would give a bye to someone who has had more byes than a player seated."""
    present = set(players)
    kept, scheduled_bye = _scheduled_tables(field, present, past, round_number)
    seated = {p for table in kept for side in table.sides for p in side}
    leftover = [p for p in field if p in present and p not in seated]
    byes: list[int] = []
    if len(leftover) % 2:
        bye = _choose_byes_for_fresh_pairs(leftover, past, past.met, preferred=scheduled_bye)
        byes.append(bye)
        leftover.remove(bye)
        if _had_fewer_byes(present, bye, past):
            return None
    extra = [_seat(a, b, past) for a, b in _swiss_pairs(leftover, {}, past.met)]
    return Round(tuple(kept + extra), tuple(byes))


def _had_fewer_byes(present: set[int], bye: int, past: _Past) -> bool:
    """Whether a player present other than `bye` has had fewer byes than `bye`."""
    return any(past.byes[p] < past.byes[bye] for p in present if p != bye)


def _scheduled_tables(
    field: Sequence[int], present: set[int], past: _Past, round_number: int
) -> tuple[list[Table], list[int]]:
    """The scheduled tables still to play (both present, not met yet), and the scheduled bye."""
    kept: list[Table] = []
    scheduled_bye: list[int] = []
    for a, b in _round_robin_schedule(field, round_number - 1):
        if a is None or b is None:
            scheduled_bye += [p for p in (a, b) if p is not None]
        elif a in present and b in present and b not in past.met.get(a, ()):
            kept.append(Table(((a,), (b,))))
    return kept, scheduled_bye


def _pair_without_repeats(players: Sequence[int], past: _Past) -> Round:
    """A round robin round off its schedule: the fewest repeated meetings (none while that can
    be avoided), then top-down in `players` order; an odd field's bye to one with the fewest
    byes, keeping the fewest repeats, then to one who has played the most tables (so a late
    arrival plays), then the last in the order."""
    order = list(players)
    byes: list[int] = []
    if len(order) % 2:
        position = {p: i for i, p in enumerate(order)}
        # _choose_byes_for_fresh_pairs tries the last of its order first.
        by_tables = sorted(order, key=lambda p: (past.tables[p], position[p]))
        bye = _choose_byes_for_fresh_pairs(by_tables, past, past.met)
        byes.append(bye)
        order.remove(bye)
    position = {p: i for i, p in enumerate(order)}
    pairs = sorted(_swiss_pairs(order, {}, past.met), key=lambda pair: position[pair[0]])
    return Round(tuple(_seat(a, b, past) for a, b in pairs), tuple(byes))


def _pair_swiss(
    players: Sequence[int],
    history: Sequence[Played],
    scores: Mapping[int, float] | None,
) -> Round:
    """Round 1 pairs the top half against the bottom half (1 v n/2+1, ...), the last player
    having the bye when the count is odd. Later rounds: an odd field's bye goes to a player with
    the fewest byes so far (so nobody has two byes while someone present has none), among them to
    one leaving a repeat-free pairing of the others when one exists (else the fewest repeats),
    the lowest-ranked such; the others are paired by :func:`_swiss_pairs`. Tables in the order of
    their higher-ranked player.
    """
    past = _Past(history)
    ranked = list(players)
    if not history:
        byes = (ranked.pop(),) if len(ranked) % 2 else ()
        half = len(ranked) // 2
        tables = tuple(Table(((ranked[i],), (ranked[half + i],))) for i in range(half))
        return Round(tables, byes)
    byes = ()
    if len(ranked) % 2:
        bye = _choose_byes_for_fresh_pairs(ranked, past, past.met)
        byes = (bye,)
        ranked.remove(bye)
    rank = {p: i for i, p in enumerate(ranked)}
    pairs = _swiss_pairs(ranked, scores or {}, past.met)
    pairs.sort(key=lambda pair: rank[pair[0]])
    return Round(tuple(_seat(a, b, past) for a, b in pairs), byes)


def _partner_byes(players: Sequence[int], past: _Past) -> list[int]:
    """n mod 4 byes: the players with the fewest byes so far, the lowest in the order first."""
    spare = len(players) % 4
    position = {p: i for i, p in enumerate(players)}
    by_need = sorted(players, key=lambda p: (past.byes[p], -position[p]))
    return sorted(by_need[:spare], key=position.__getitem__)


def _pair_partners(
    players: Sequence[int], history: Sequence[Played], round_number: int, seed: int
) -> Round:
    """Partners: fresh partnerships (exact), then tables of two partnerships with opponents varied.

    1. The byes: see :func:`_partner_byes` (fairness first; the partnerships are then made among
       the others).
    2. Partnerships: a perfect pairing of the players left with the fewest repeated partnerships,
       exact (a maximum matching of the pairs never partnered, :func:`_max_matching`): so no
       partnership repeats while a repeat-free set of partnerships exists, for any field size.
    3. Opponents, best effort: the *opponent count* of a table is the sum, over its four pairs of
       opposing players, of how often they have already been opponents. Several tries (a seeded
       shuffle each: random partnerships among the fresh ones, then partnerships put together
       greedily by least opponent count and improved by exchanging partnerships between two
       tables) keep the lowest total; ties go to the earliest try. The tries depend only on
       `seed`, `round_number` and the inputs.
    """
    past = _Past(history)
    byes = _partner_byes(players, past)
    seated = [p for p in players if p not in byes]
    tables = _best_partner_tables(seated, past, seed * 1_000_003 + round_number * 7_919)
    return Round(_seat_partners(tables, players, past), tuple(byes))


_TeamTable = tuple[tuple[int, int], tuple[int, int]]  # two partnerships facing each other


def _best_partner_tables(seated: list[int], past: _Past, seed: int) -> list[_TeamTable]:
    """The tables of the best try: fewest repeated partnerships, then lowest opponent count."""
    tries = max(4, min(24, 480 // max(len(seated), 1)))
    best: tuple[int, int, list[_TeamTable]] | None = None
    for attempt in range(tries):
        shuffled = list(seated)
        random.Random(seed + attempt).shuffle(shuffled)
        repeats, teams = _partnerships(shuffled, past)
        tables, cost = _tables_of_teams(teams, past)
        if best is None or (repeats, cost) < best[:2]:
            best = (repeats, cost, tables)
        if cost == 0 and repeats == best[0]:
            break  # nothing left to improve
    assert best is not None
    return best[2]


def _partnerships(shuffled: list[int], past: _Past) -> tuple[int, list[tuple[int, int]]]:
    """The repeats and partnerships of a maximum fresh matching of `shuffled`, completed in order."""
    k = len(shuffled)
    mate = _max_matching(_fresh_graph(shuffled, past.partnered))
    alone = [v for v in range(k) if mate[v] == -1]
    for i in range(0, len(alone), 2):
        mate[alone[i]], mate[alone[i + 1]] = alone[i + 1], alone[i]
    teams = [(shuffled[v], shuffled[mate[v]]) for v in range(k) if v < mate[v]]
    return len(alone) // 2, teams


def _seat_partners(
    tables: list[_TeamTable], players: Sequence[int], past: _Past
) -> tuple[Table, ...]:
    """Sides in entry order; side A to the partnership with fewer side A seats; tables by entry."""
    position = {p: i for i, p in enumerate(players)}
    seats: list[Table] = []
    for team_a, team_b in tables:
        sides = [tuple(sorted(team, key=position.__getitem__)) for team in (team_a, team_b)]
        sides.sort(key=lambda side: (sum(past.side_a[p] for p in side), position[side[0]]))
        seats.append(Table((sides[0], sides[1])))
    seats.sort(key=lambda t: min(position[p] for side in t.sides for p in side))
    return tuple(seats)


def _tables_of_teams(teams: list[tuple[int, int]], past: _Past) -> tuple[list[_TeamTable], int]:
    """Put partnerships together two by two, keeping the total opponent count low.

    Greedy (each partnership in turn, with the partnership left it has the least opponent count
    with), then exchanges of partnerships between two tables while one lowers the total.
    """
    cost = _opponent_counts(teams, past.opposed)
    left = list(range(len(teams)))
    tables: list[tuple[int, int]] = []
    while left:
        first = left.pop(0)
        row = cost[first]
        other = min(range(len(left)), key=lambda i: row[left[i]])
        tables.append((first, left.pop(other)))
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                if _exchange_teams(tables, i, j, cost):
                    improved = True
    total = sum(cost[x][y] for x, y in tables)
    return [(teams[x], teams[y]) for x, y in tables], total


def _opponent_counts(
    teams: list[tuple[int, int]], opposed: Counter[tuple[int, int]]
) -> list[list[int]]:
    """For each two partnerships, how often their four pairs of opponents have already met."""
    count = len(teams)
    cost = [[0] * count for _ in range(count)]
    for i, (a, b) in enumerate(teams):
        for j in range(i + 1, count):
            c, d = teams[j]
            cost[i][j] = cost[j][i] = (
                opposed[(min(a, c), max(a, c))]
                + opposed[(min(a, d), max(a, d))]
                + opposed[(min(b, c), max(b, c))]
                + opposed[(min(b, d), max(b, d))]
            )
    return cost


def _exchange_teams(tables: list[tuple[int, int]], i: int, j: int, cost: list[list[int]]) -> bool:
    """Exchange partnerships between tables i and j when that lowers their opponent count."""
    (a, b), (c, d) = tables[i], tables[j]
    now = cost[a][b] + cost[c][d]
    if now == 0:
        return False
    if cost[a][c] + cost[b][d] < now:
        tables[i], tables[j] = (a, c), (b, d)
        return True
    if cost[a][d] + cost[b][c] < now:
        tables[i], tables[j] = (a, d), (b, c)
        return True
    return False


def pair_round(
    fmt: str,
    players: Sequence[int],
    history: Sequence[Played],
    *,
    round_number: int,
    seed: int = 0,
    rounds: int | None = None,
    scores: Mapping[int, float] | None = None,
) -> Round:
    """Pair round `round_number` of an event of format `fmt` (ROUND_ROBIN, SWISS, PARTNERS).

    `players` are the players to pair this round: for Swiss in standing order (best first; round
    1: by rating, or shuffled), for round robin and partners in seeding (entry) order. `history`
    holds the rounds already paired, oldest first; it may name players who left (never paired
    again) and `players` may hold late arrivals it does not name. `scores` are the match points
    per player (Swiss; see :func:`_swiss_pairs`; without them every player counts 0, and the
    pairing is then the top-down first with the fewest repeats). `rounds`, when given, is the number of rounds
    planned: a later round is refused ("too_many_rounds").

    Round robin: see :func:`_pair_round_robin`; Swiss: see :func:`_pair_swiss`.

    Two-player sides: side A goes to the player who sat side A fewer times, then to the higher
    ranked (Swiss, leftover round robin tables); the scheduled round robin tables keep the
    circle's alternation. Partners: see :func:`_pair_partners`.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    if len(set(players)) != len(players):
        raise PairingError("duplicate", "a player is listed twice")
    if len(players) < (4 if fmt == PARTNERS else 2):
        raise PairingError("too_few", "too few players to pair")
    if round_number != len(history) + 1:
        raise PairingError("round_over", f"round {round_number} is not the next round")
    if fmt == ROUND_ROBIN:
        return _pair_round_robin(players, history, round_number, rounds)
    if rounds is not None and round_number > rounds:
        raise PairingError("too_many_rounds", f"only {rounds} rounds are planned")
    if fmt == SWISS:
        return _pair_swiss(players, history, scores)
    return _pair_partners(players, history, round_number, seed)


def round_players(paired: Round | Played) -> list[int]:
    """Every player of a round: the tables' (side A, side B, by table), then the byes."""
    return [p for table in paired.tables for side in table.sides for p in side] + list(paired.byes)
