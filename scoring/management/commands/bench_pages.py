"""`manage.py bench_pages`: server time of the history and statistics pages on large histories.

For each `--matches N` (10,000 and 50,000 by default) a bench user with N random matches is
seeded once (a database that already has them is reused), then every page is requested
`--repeat` times, a round of all pages at a time, through Django's test client. Each page's
median is printed next to the floor measured in the same rounds: the home page, the lightest
page that renders the site's template for a signed-in user (session, user, template); the bare
health check is printed too. Then, per page, how much slower it is at the largest history than
at the smallest: a page whose work does not grow with the history stays near 1.0.
Run it on a database of its own (make bench-pages).
"""

import statistics
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db.models import Count
from django.test import Client
from django.urls import reverse

from scoring.access import personal_circle
from scoring.history import selectors as history_selectors
from scoring.matches import demo
from scoring.models import Match, Player

BENCH_USER = "bench-{matches}"
FLOOR = "floor: home page"


class Command(BaseCommand):
    help = "Time the history, player, head-to-head and leaderboard pages on large histories."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--matches",
            type=int,
            action="append",
            help="history size; give it several times to compare (default 10000 and 50000)",
        )
        parser.add_argument("--repeat", type=int, default=9)

    def handle(self, *args: Any, **options: Any) -> None:
        sizes = sorted(set(options["matches"] or [10_000, 50_000]))
        runs = {}
        for size in sizes:
            runs[size] = self._run(size, options["repeat"])
        if len(sizes) > 1:
            self._compare(sizes[0], sizes[-1], runs)

    def _run(self, size: int, repeat: int) -> dict[str, float]:
        owner, _ = get_user_model().objects.get_or_create(username=BENCH_USER.format(matches=size))
        circle = personal_circle(owner)
        have = Match.objects.filter(circle=circle).count()
        if have < size:
            self.stdout.write(f"Seeding {size - have} matches for {owner} (kept for next time)...")
            began = time.perf_counter()
            demo.seed(circle, size - have, seed=have + 1)
            self.stdout.write(f"Seeded in {time.perf_counter() - began:.0f} s.")
        client = Client()
        client.force_login(owner)
        pages = self._pages(circle)
        times: dict[str, list[float]] = {label: [] for label, _ in pages}
        for _ in range(repeat):  # rounds of every page, so that the floor sees the same load
            for label, url in pages:
                began = time.perf_counter()
                response = client.get(url)
                times[label].append(time.perf_counter() - began)
                assert response.status_code == 200, (url, response.status_code)
        medians = {label: statistics.median(values) * 1000 for label, values in times.items()}
        total = Match.objects.filter(circle=circle).count()
        self.stdout.write(f"\n{total} matches; median of {repeat} requests per page")
        floor = medians[FLOOR]
        for label, median in medians.items():
            self.stdout.write(f"  {label:<26} {median:8.1f} ms   {median / floor:5.1f} x floor")
        return medians

    @staticmethod
    def _pages(circle: Any) -> list[tuple[str, str]]:
        first, second = list(
            Player.objects.filter(circle=circle)
            .annotate(seat_count=Count("seats"))
            .order_by("-seat_count")[:2]
        )
        match = Match.objects.filter(circle=circle, status=Match.Status.WON).first()
        assert match is not None
        history = reverse("scoring:match-list")
        # Page 50 the way "Load more" gets there: each page starts where the one before ended.
        cursor = ""
        for _ in range(49):
            cursor = history_selectors.match_history(circle, after=cursor).next_cursor or ""
        return [
            (FLOOR, reverse("scoring:home")),
            ("health check (no template)", reverse("healthz")),
            ("history", history),
            ("history, page 50", f"{history}?page=50&after={cursor}"),
            ("history, filtered", f"{history}?player={first.pk}&variant=royal"),
            ("score sheet + chart", reverse("scoring:match-sheet", args=[match.pk])),
            ("scoreboard", reverse("scoring:match", args=[match.pk])),
            ("player page", reverse("scoring:player", args=[first.pk])),
            ("head to head", reverse("scoring:head-to-head", args=[first.pk, second.pk])),
            ("leaderboard", reverse("scoring:leaderboard")),
        ]

    def _compare(self, small: int, large: int, runs: dict[int, dict[str, float]]) -> None:
        self.stdout.write(
            f"\nx floor at {small:,} and {large:,} matches, and {large:,} / {small:,} "
            "(time, and x floor)"
        )
        low, high = runs[small], runs[large]
        for label in low:
            before, after = low[label] / low[FLOOR], high[label] / high[FLOOR]
            self.stdout.write(
                f"  {label:<26} {before:5.1f} x  {after:5.1f} x"
                f"   {high[label] / low[label]:5.2f} ({after / before:4.2f})"
            )
