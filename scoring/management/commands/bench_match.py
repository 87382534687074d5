"""`manage.py bench_match`: what one hand costs as a match grows, and what an edit costs.

Plays a long match (a target nobody reaches) through the hand-entry view with htmx, as a phone
does, and prints, as ratios against floors measured in the same run:
- the time to save a hand around hand 5, 100 and 400 (against hand 5);
- the scoreboard at 400 hands (against the signed-in home page);
- the bytes a save swaps in at 100 hands;
- editing a hand of the latest finished match with `--history` finished matches behind it
  (against a plain save).
Run it on a database of its own (make bench-match): it adds users and matches.
"""

from __future__ import annotations

import functools
import gc
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.db.models import F
from django.test import Client
from django.urls import reverse

from scoring.access import personal_circle
from scoring.engine import rules
from scoring.matches import demo, services
from scoring.models import Match

HX = {"HX-Request": "true"}


def hand_post(number: int, tallies: list[rules.Tally]) -> dict[str, str]:
    """The hand form as a phone fills it in for these tallies."""
    data = {"number": str(number)}
    for position, tally in enumerate(tallies):
        data[f"cards_{position}"] = str(tally.cards)
        data[f"spades_{position}"] = str(tally.spades)
        data[f"sweeps_{position}"] = str(tally.sweeps)
    for card in rules.SPECIAL_CARDS:
        holder = next(p for p, t in enumerate(tallies) if card.held(t))
        data[f"card_{card.code}"] = str(holder)
    return data


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    result = call()
    return time.perf_counter() - began, result


class Command(BaseCommand):
    help = "Time hand saves, the scoreboard and hand edits as a match and a history grow."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=410)
        parser.add_argument("--history", type=int, default=2000)
        parser.add_argument("--repeat", type=int, default=9)

    def handle(self, *args: Any, **options: Any) -> None:
        self.rng = random.Random(1)
        self.repeat = options["repeat"]
        self.user = get_user_model().objects.create_user(username=f"bench-match-{time.time_ns()}")
        self.circle = personal_circle(self.user)
        self.client = Client()
        self.client.force_login(self.user)
        self.client.get(reverse("scoring:home"))  # the session learns the account's language
        self.players = [services.player_create(circle=self.circle, name=n) for n in ("Ana", "Ben")]
        self.reference: Match | None = None
        out = self.stdout.write
        out("Each figure is a median, its floor measured alternately with it in the same run.")

        long = self._new_match()
        out("\nsaving a hand (htmx) in a long match, against saving hand ~5 of a short one:")
        swapped: dict[int, list[int]] = {}
        for checkpoint in (5, 100, 400):
            if checkpoint + self.repeat > options["hands"]:
                break
            while Match.objects.get(pk=long.pk).hand_count < checkpoint - 1:
                self._save(long)
            pairs = [(self._save(long), self._save(self._short())) for _ in range(self.repeat)]
            seconds = statistics.median(mine[0] for mine, _ in pairs)
            floor = statistics.median(short[0] for _, short in pairs)
            swapped[checkpoint] = [mine[1] for mine, _ in pairs]
            out(
                f"  hand ~{checkpoint:<4} {seconds * 1000:7.1f} ms  {seconds / floor:5.2f}x "
                f"(floor {floor * 1000:.1f} ms; goal <= 1.5x)"
            )
        if 100 in swapped:
            size = statistics.median(swapped[100])
            out(f"  bytes swapped in by a save at hand ~100: {size / 1000:.1f} KB (goal <= 10 KB)")

        home = reverse("scoring:home")
        self._one_save(home)
        board = reverse("scoring:match", args=[long.pk])
        hands = Match.objects.get(pk=long.pk).hand_count
        fragments = caches["fragments"]
        gc.collect()  # what the saves above left, so that its collection is not timed below

        # Warm: loaded again at the same version (other phones, reloads, polls that found news).
        # The first load of a version (another phone saved: what is kept per table stays), and
        # with nothing rendered at all (a new server process).
        def new_version() -> None:
            Match.objects.filter(pk=long.pk).update(version=F("version") + 1)

        for label, before in (
            ("", lambda: None),
            (" (first load of a version)", new_version),
            (" (nothing rendered yet)", fragments.clear),
        ):
            timings: list[tuple[float, float]] = []
            for _ in range(self.repeat * 2):
                before()
                timings.append(
                    (
                        timed(lambda: self.client.get(board))[0],
                        timed(lambda: self.client.get(home))[0],
                    )
                )
            seconds = statistics.median(a for a, _ in timings)
            floor = statistics.median(b for _, b in timings)
            out(
                f"{'' if label else chr(10)}scoreboard GET at {hands} hands{label}: "
                f"{seconds * 1000:.1f} ms, {seconds / floor:.2f}x the signed-in home page "
                f"({floor * 1000:.1f} ms; goal <= {2 if 'version' in label else 3}x)"
            )
        if options["history"]:
            self._edit(options["history"])

    def _one_save(self, home: str) -> None:
        """The statements one save sends the database, and its time against the home page."""
        out = self.stdout.write
        queries: list[str] = []
        self._save(self._short(), queries)
        pairs = [
            (self._save(self._short())[0], timed(lambda: self.client.get(home))[0])
            for _ in range(self.repeat * 2)
        ]
        save = statistics.median(a for a, _ in pairs)
        floor = statistics.median(b for _, b in pairs)
        out(
            f"\none save (htmx, 2 players, hand ~5): {len(queries)} queries (goal <= 10); "
            f"{save * 1000:.1f} ms, {save / floor:.2f}x the signed-in home page "
            f"({floor * 1000:.1f} ms; goal <= 2x)"
        )

    def _new_match(self) -> Match:
        return services.match_start(
            circle=self.circle,
            # Out of reach in any run (about 11 points a hand), and within the column
            # (a small integer on PostgreSQL).
            rules=rules.Rules.make("casino", target=30_000),
            sides=[[p] for p in self.players],
        )

    def _short(self) -> Match:
        """A match at hand 5 or so: the floor a save is measured against."""
        if self.reference is None or self.reference.hand_count >= 8:
            self.reference = self._new_match()
            while self.reference.hand_count < 3:
                self._save(self.reference)
        return self.reference

    def _save(self, match: Match, queries: list[str] | None = None) -> tuple[float, int]:
        """Post the next hand as a phone does; the seconds taken and the bytes sent back (and
        the statements the post sent the database, in `queries`)."""
        match.refresh_from_db(fields=["hand_count"])
        data = hand_post(match.hand_count + 1, demo.random_hand(self.rng, 2))
        url = reverse("scoring:hand-create", args=[match.pk])

        def count(execute: Any, sql: str, *args: Any) -> Any:
            if queries is not None:
                queries.append(sql)
            return execute(sql, *args)

        # (A wrapper, not the debug cursor's log: the request closes the connection it used.)
        with connection.execute_wrapper(count):
            seconds, response = timed(lambda: self.client.post(url, data, headers=HX))
        if response.status_code != 200:
            raise SystemExit(f"saving hand {data['number']}: HTTP {response.status_code}")
        match.hand_count += 1
        return seconds, len(response.content)

    def _edit(self, history: int) -> None:
        """Edit a hand of the latest finished match, with a history behind it, against a plain
        save."""
        out = self.stdout.write
        began = time.perf_counter()
        demo.seed(self.circle, history, seed=7)
        out(
            f"\n{history} finished matches of history seeded in {time.perf_counter() - began:.0f} s"
        )
        latest = (
            Match.objects.filter(circle=self.circle, status=Match.Status.WON)
            .order_by("-finished_at", "-pk")
            .first()
        )
        if latest is None:
            return
        pairs = []
        for _ in range(self.repeat):
            number = self.rng.randint(1, latest.hand_count)
            stored = [t.as_rules_tally() for t in latest.hands.get(number=number).tallies.all()]
            # Half the time the same counts, otherwise the last two sides swap piles.
            tallies = stored if self.rng.random() < 0.5 else [*stored[:-2], stored[-1], stored[-2]]
            url = reverse("scoring:hand-edit", args=[latest.pk, number])
            data = hand_post(number, tallies)
            seconds, response = timed(functools.partial(self.client.post, url, data))
            if response.status_code not in (200, 302):
                raise SystemExit(f"editing hand {number}: HTTP {response.status_code}")
            pairs.append((seconds, self._save(self._short())[0]))
        edit = statistics.median(a for a, _ in pairs)
        save = statistics.median(b for _, b in pairs)
        out(
            f"edit a hand of the latest finished match: {edit * 1000:.1f} ms, "
            f"{edit / save:.2f}x a plain save ({save * 1000:.1f} ms; goal <= 3x)"
        )
