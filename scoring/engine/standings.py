"""The standings of a club night (a tournament): pure functions, no Django.

Each table that counts (:class:`Result`) gives its winning side 1 match point per player, and the
losing side 0; a table abandoned by the organiser is a loss for both sides (0 each) but still counts
as played, with its totals. A bye gives 1 match point, no table played, and adds 0 to the point
difference and the points scored.

The players are ranked by, in this order (each criterion only separates players equal on all the
ones before):

1. ``match_points``, more first;
2. ``head_to_head``: among the players with the same match points, the match points each earned
   at tables where one of the others of that group sat on the other side (for partners: one on
   each side); each such table won counts 1, however many of the group sat across;
3. ``difference``: the sum over the player's tables of (own side's total - the other side's);
4. ``opponents`` (Buchholz), only when ``swiss``: the sum of the match points of every opponent
   met (each opponent at each table; players who left count with the match points they have);
5. ``scored``: the sum of the own side's totals;
6. ``order``: the order of `players` (the caller passes the entry order): a total order.

The result depends on the results and byes as sets, not on the order they are given in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

CRITERIA = ("match_points", "head_to_head", "difference", "opponents", "scored")


class Result(NamedTuple):
    """One table of the event that counts: finished (won), or abandoned by the organiser (a loss for both)."""

    round: int
    sides: tuple[tuple[int, ...], tuple[int, ...]]  # player ids per side
    totals: tuple[int, int]  # game points per side at the end
    winner: int | None  # 0 or 1; None when abandoned (both lose)


class Row(NamedTuple):
    """One line of the standings (see the module's docstring for each criterion)."""

    player: int
    place: int  # 1, 2, 3 ... distinct (a total order)
    match_points: int  # win 1, bye 1, loss / abandoned 0
    played: int  # tables counted (byes not counted here)
    wins: int
    byes: int
    head_to_head: int  # match points won against the players tied with them on match points
    difference: int  # sum over the player's tables of (own total - other side's total)
    opponents: int  # Buchholz: the sum of the match points of every opponent played
    scored: int  # sum of own side totals
    decided_by: str | None  # the first criterion that differs from the row above; None for place 1


class _Counts(NamedTuple):
    """What the results and byes give each player, before any ranking."""

    byes: Counter[int]
    points: Counter[int]
    played: Counter[int]
    wins: Counter[int]
    difference: Counter[int]
    scored: Counter[int]


def standings(
    players: Sequence[int],
    results: Iterable[Result],
    byes: Iterable[tuple[int, int]],
    *,
    swiss: bool,
) -> list[Row]:
    """The standings of `players` (entry order) from the `results` and the `byes` (round, player).

    Every player of `players` has a row, those who left included (pass them). Players met in
    `results` but absent from `players` have no row but count as opponents (Buchholz). When
    `swiss` is false the opponents criterion is skipped (the column is still computed).
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    tables = list(results)
    counts = _count(tables, byes)
    opponents = _opponents(tables, counts.points)
    head = _head_to_head(tables, counts.points, set(players))
    return _rank(players, counts, opponents, head, swiss=swiss)


def _count(tables: list[Result], byes: Iterable[tuple[int, int]]) -> _Counts:
    """Match points, tables played, wins, point difference and points scored per player."""
    bye_count: Counter[int] = Counter(player for _, player in set(byes))
    counts = _Counts(bye_count, Counter(bye_count), Counter(), Counter(), Counter(), Counter())
    for result in tables:
        for side, members in enumerate(result.sides):
            own, other = result.totals[side], result.totals[1 - side]
            for player in members:
                counts.played[player] += 1
                counts.difference[player] += own - other
                counts.scored[player] += own
                if result.winner == side:
                    counts.wins[player] += 1
                    counts.points[player] += 1
    return counts


def _opponents(tables: list[Result], points: Counter[int]) -> Counter[int]:
    """Buchholz: the match points of every opponent met, summed per player."""
    opponents: Counter[int] = Counter()
    for result in tables:
        for side, members in enumerate(result.sides):
            across = sum(points[p] for p in result.sides[1 - side])
            for player in members:
                opponents[player] += across
    return opponents


def _head_to_head(tables: list[Result], points: Counter[int], entered: set[int]) -> Counter[int]:
    """Tables each player won against an entered player with the same match points."""
    head: Counter[int] = Counter()
    for result in tables:
        if result.winner is None:
            continue
        winners, losers = result.sides[result.winner], result.sides[1 - result.winner]
        for player in winners:
            if any(o in entered and points[o] == points[player] for o in losers):
                head[player] += 1
    return head


def _rank(
    players: Sequence[int],
    counts: _Counts,
    opponents: Counter[int],
    head: Counter[int],
    *,
    swiss: bool,
) -> list[Row]:
    """The rows in order of the criteria, each saying which criterion placed it below the one above."""
    position = {p: i for i, p in enumerate(players)}

    def criteria(player: int) -> tuple[int, ...]:
        values = [counts.points[player], head[player], counts.difference[player]]
        if swiss:
            values.append(opponents[player])
        values.append(counts.scored[player])
        return tuple(values)

    names = [name for name in CRITERIA if swiss or name != "opponents"]
    ranked = sorted(players, key=lambda p: ([-v for v in criteria(p)], position[p]))
    rows: list[Row] = []
    above: tuple[int, ...] | None = None
    for place, player in enumerate(ranked, start=1):
        mine = criteria(player)
        decided = None if above is None else _decided_by(names, above, mine)
        rows.append(
            Row(
                player=player,
                place=place,
                match_points=counts.points[player],
                played=counts.played[player],
                wins=counts.wins[player],
                byes=counts.byes[player],
                head_to_head=head[player],
                difference=counts.difference[player],
                opponents=opponents[player],
                scored=counts.scored[player],
                decided_by=decided,
            )
        )
        above = mine
    return rows


def _decided_by(names: list[str], above: tuple[int, ...], mine: tuple[int, ...]) -> str:
    """The first criterion on which a row differs from the one above it; "order" if none."""
    return next((n for n, a, b in zip(names, above, mine, strict=True) if a != b), "order")
