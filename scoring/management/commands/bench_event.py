"""`manage.py bench_event`: an event of 64 players and 6 Swiss rounds (every table played to its
winner, a hand or two each), then the server time of its page (the organiser's), its big screen
(a share link, no login) and their polls, each next to the floor measured in the same rounds:
the signed-in home page. Goal: the event page and the big screen no costlier than 3x the home
page. Run it on a database of its own (make bench-event)."""

from __future__ import annotations

import datetime
import statistics
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandParser
from django.db.models import F
from django.test import Client
from django.urls import reverse

from scoring.access import personal_circle
from scoring.engine import rules
from scoring.events import services as events
from scoring.matches import services
from scoring.models import Event, Match
from scoring.sharing import links

BENCH_USER = "bench-event"
FLOOR = "floor: home page"
GOAL = 3.0
# The first side takes all 11 points; a Casino match to 21 is won in two such hands.
FIRST_11 = (
    rules.Tally.make(cards=30, spades=9, big_casino=True, little_casino=True, aces="SCHD"),
    rules.Tally.make(cards=22, spades=4),
)


class Command(BaseCommand):
    help = "Time an event page and its big screen (64 players, 6 rounds) against the home page."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=64)
        parser.add_argument("--rounds", type=int, default=6)
        parser.add_argument("--repeat", type=int, default=15)

    def handle(self, *args: Any, **options: Any) -> None:
        event = self._event(options["players"], options["rounds"])
        owner = event.created_by
        assert owner is not None
        member, screen = Client(), Client()
        member.force_login(owner)
        event.refresh_from_db()
        since = f"?since={event.version}"
        page_url = event.get_absolute_url()
        screen_url = reverse("scoring:event-screen", args=[event.share_token])
        pages = [
            (FLOOR, member, reverse("scoring:home"), {}),
            ("event page", member, page_url, {}),
            ("big screen", screen, screen_url, {}),
            ("big screen poll, nothing new", screen, screen_url + since, {"HX-Request": "true"}),
        ]
        times: dict[str, list[float]] = {label: [] for label, *_ in pages}
        for _ in range(options["repeat"]):  # rounds of every page: the floor sees the same load
            for label, client, url, headers in pages:
                began = time.perf_counter()
                response = client.get(url, headers=headers)
                times[label].append(time.perf_counter() - began)
                assert response.status_code in (200, 204), (url, response.status_code)
        # A hand saved at a table: a new version of the event (and of that table's match),
        # whose page is rendered again: the other tables' lines, the earlier rounds and the
        # standings (no result changed) come from their fragments. Then the worst case: nothing
        # rendered at all (a server just started).
        matches = list(Match.objects.filter(event=event).order_by("-pk")[:32])
        fresh: dict[str, list[float]] = {}
        for case in ("a hand at one table", "nothing rendered"):
            for index in range(options["repeat"]):
                Match.objects.filter(pk=matches[index % len(matches)].pk).update(
                    version=F("version") + 1
                )
                Event.objects.filter(pk=event.pk).update(version=F("version") + 1)
                for label, client, url in (
                    ("event page", member, page_url),
                    ("big screen", screen, screen_url),
                ):
                    if case == "nothing rendered":
                        caches["fragments"].clear()
                    began = time.perf_counter()
                    response = client.get(url)
                    fresh.setdefault(f"{label}, {case}", []).append(time.perf_counter() - began)
                    assert response.status_code == 200
        times.update(fresh)
        medians = {label: statistics.median(values) * 1000 for label, values in times.items()}
        floor = medians[FLOOR]
        tables = Match.objects.filter(event=event).count()
        self.stdout.write(
            f"\n{event.entrants.count()} players, {event.round_set.count()} rounds, {tables} "
            f"tables; median of {options['repeat']} requests per page"
        )
        for label, median in medians.items():
            self.stdout.write(f"  {label:<30} {median:8.1f} ms   {median / floor:5.2f} x floor")
        for kind in ("", ", a hand at one table", ", nothing rendered"):
            worst = max(medians[f"event page{kind}"], medians[f"big screen{kind}"]) / floor
            verdict = "within" if worst <= GOAL else "OVER"
            self.stdout.write(
                f"  costlier of the two{kind}: {worst:.2f} x floor ({verdict} the {GOAL:g}x goal)"
            )

    def _event(self, players: int, rounds: int) -> Event:
        owner, _ = get_user_model().objects.get_or_create(username=BENCH_USER)
        circle = personal_circle(owner)
        event = Event.objects.filter(circle=circle, name=f"bench {players}x{rounds}").first()
        if event is not None and event.round_set.count() == rounds:
            return event
        self.stdout.write(f"Seeding an event of {players} players and {rounds} rounds...")
        began = time.perf_counter()
        roster = [
            services.player_get_or_create(circle=circle, name=f"Player {number:02d}")
            for number in range(1, players + 1)
        ]
        event = events.event_create(
            circle=circle,
            by=owner,
            name=f"bench {players}x{rounds}",
            day=datetime.date(2026, 12, 4),
            fmt=Event.Format.SWISS,
            rules=rules.Rules.make("casino"),
            players=roster,
            rounds=rounds,
        )
        paired = []
        for number in range(1, rounds + 1):
            start = time.perf_counter()
            made = events.round_pair(event=event, number=number, by=owner)
            paired.append(time.perf_counter() - start)
            for table in made.tables.select_related("match"):
                if table.match is None:
                    continue
                match = table.match
                for hand in (1, 2):
                    services.hand_record(match=match, number=hand, tallies=FIRST_11)
        links.share_link_create(match=event)
        self.stdout.write(
            f"Seeded in {time.perf_counter() - began:.0f} s (pairing a round and starting its "
            f"matches: median {statistics.median(paired) * 1000:.0f} ms)."
        )
        return event
