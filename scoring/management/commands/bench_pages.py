"""`manage.py bench_pages`: server time of the history and statistics pages on a large history.

Seeds `--matches` random matches for a bench user (once: a database that already has them is
reused), then prints the median time of several requests per page through Django's test client,
next to the floor: the home page, the lightest page that renders the site's template for a
signed-in user (session, user, template). The bare health check is printed too. Run it on a database of its own (make bench-pages).
"""

import statistics
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db.models import Count
from django.test import Client
from django.urls import reverse

from scoring import demo
from scoring.models import Match, Player

BENCH_USER = "bench"


class Command(BaseCommand):
    help = "Time the history, player, head-to-head and leaderboard pages on a large history."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=10_000)
        parser.add_argument("--repeat", type=int, default=9)

    def handle(self, *args: Any, **options: Any) -> None:
        owner, _ = get_user_model().objects.get_or_create(username=BENCH_USER)
        have = Match.objects.filter(owner=owner).count()
        if have < options["matches"]:
            missing = options["matches"] - have
            self.stdout.write(f"Seeding {missing} matches (once; the database is kept)...")
            began = time.perf_counter()
            for done in range(0, missing, 500):
                demo.seed(owner, min(500, missing - done), seed=have + done)
                self.stdout.write(f"  {have + done + min(500, missing - done)} matches")
            self.stdout.write(f"Seeded in {time.perf_counter() - began:.0f} s.")
        client = Client()
        client.force_login(owner)
        busiest = (
            Player.objects.filter(owner=owner)
            .annotate(seat_count=Count("seats"))
            .order_by("-seat_count")[:2]
        )
        first, second = list(busiest)
        match = Match.objects.filter(owner=owner, status=Match.Status.WON).first()
        pages = [
            ("floor: home page", reverse("scoring:home")),
            ("health check (no template)", reverse("healthz")),
            ("history", reverse("scoring:match-list")),
            ("history, page 50", reverse("scoring:match-list") + "?page=50"),
            (
                "history, filtered",
                reverse("scoring:match-list") + f"?player={first.pk}&variant=royal",
            ),
            ("score sheet + chart", reverse("scoring:match-sheet", args=[match.pk])),
            ("scoreboard", reverse("scoring:match", args=[match.pk])),
            ("player page", reverse("scoring:player", args=[first.pk])),
            ("head to head", reverse("scoring:head-to-head", args=[first.pk, second.pk])),
            ("leaderboard", reverse("scoring:leaderboard")),
        ]
        total = Match.objects.filter(owner=owner).count()
        self.stdout.write(f"{total} matches; median of {options['repeat']} requests per page")
        floor = None
        for label, url in pages:
            times = []
            for _ in range(options["repeat"]):
                began = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - began)
                assert response.status_code == 200, (url, response.status_code)
            median = statistics.median(times) * 1000
            floor = floor or median
            self.stdout.write(f"  {label:<24} {median:8.1f} ms   {median / floor:5.1f} x floor")
