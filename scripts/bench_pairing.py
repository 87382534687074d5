"""Pairing benchmark: the time to pair one round of a 64-player club night (scoring/engine/pairing.py).

Two cases, each the median of BENCH_RUNS (20) runs, in ms and as a share of the 50 ms goal:

* Swiss, round 6: five rounds played first (random winners, seeded), the standings fed back;
* partners, round 6: five partners rounds played first, then the sixth paired.

Pure Python, no database: `python scripts/bench_pairing.py` from the repository's root.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import pairing, standings  # noqa: E402

GOAL_MS = 50.0
PLAYERS = 64
PLAYED = 5


def _results(paired: pairing.Round, number: int, rng: random.Random) -> list[standings.Result]:
    results = []
    for table in paired.tables:
        winner = rng.randrange(2)
        totals = (21, rng.randrange(21)) if winner == 0 else (rng.randrange(21), 21)
        results.append(standings.Result(number, table.sides, totals, winner))
    return results


def _event(fmt: str, rng: random.Random) -> Callable[[], pairing.Round]:
    """Play PLAYED rounds of `fmt`; answer the call pairing the next one."""
    ids = list(range(1, PLAYERS + 1))
    history: list[pairing.Played] = []
    results: list[standings.Result] = []
    byes: list[tuple[int, int]] = []

    def order() -> tuple[list[int], dict[int, float]]:
        if fmt != pairing.SWISS or not history:
            return ids, {}
        rows = standings.standings(ids, results, byes, swiss=True)
        return [r.player for r in rows], {r.player: float(r.match_points) for r in rows}

    for number in range(1, PLAYED + 1):
        players, scores = order()
        paired = pairing.pair_round(fmt, players, history, round_number=number, scores=scores)
        history.append(pairing.Played(paired.tables, paired.byes))
        results += _results(paired, number, rng)
        byes += [(number, p) for p in paired.byes]
    players, scores = order()
    return lambda: pairing.pair_round(
        fmt, players, history, round_number=PLAYED + 1, scores=scores, seed=7
    )


def main() -> int:
    runs = int(os.environ.get("BENCH_RUNS", "20"))
    rng = random.Random(2024)
    for name, fmt in (("swiss", pairing.SWISS), ("partners", pairing.PARTNERS)):
        pair = _event(fmt, rng)
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            pair()
            times.append((time.perf_counter() - started) * 1000)
        median = statistics.median(times)
        print(
            f"{name}: {PLAYERS} players, round {PLAYED + 1}: median {median:.1f} ms over {runs} runs "
            f"(max {max(times):.1f} ms), {median / GOAL_MS:.2f} of the {GOAL_MS:.0f} ms goal"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
