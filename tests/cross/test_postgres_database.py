"""PostgreSQL only (CI's second run sets DATABASE_URL=postgres://...): the suite really runs on
PostgreSQL, its migrations match the models there, and many phones at once record each hand once
(row locks decide there, not SQLite's single writer)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from test_faults import HAND, OTHER_COUNTS, Phone, hand_post, send_together

from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Match, Tally

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
pytestmark = pytest.mark.skipif(
    not ON_POSTGRES,
    reason="needs DATABASE_URL=postgres://... (.ci/run starts PostgreSQL for its second run)",
)
PHONES = 6


@pytest.mark.django_db
def test_the_suite_runs_on_postgresql() -> None:
    assert connection.vendor == "postgresql"
    assert connection.pg_version >= 130000


@pytest.mark.django_db
def test_the_migrations_match_the_models() -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.fixture
def long_match(user: Any, players: list[Any]) -> Match:
    return services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino", target=99),
        sides=[[players[0]], [players[1]]],
    )


@pytest.mark.django_db(transaction=True)
def test_six_phones_sending_each_hand_together_record_it_once(
    live_server: Any, user: Any, long_match: Match
) -> None:
    phones = [Phone(live_server.url, user) for _ in range(PHONES)]
    path = reverse("scoring:hand-create", args=[long_match.pk])
    for number in range(1, 5):
        results = send_together(phones, path, [hand_post(number)] * PHONES)
        assert [status for status, _ in results] == [302] * PHONES, results
    assert list(long_match.hands.values_list("number", flat=True).order_by("number")) == [
        1,
        2,
        3,
        4,
    ]
    assert Tally.objects.filter(hand__match=long_match).count() == 8
    assert list(long_match.sides.order_by("position").values_list("total", flat=True)) == [28, 16]


@pytest.mark.django_db(transaction=True)
def test_six_phones_with_two_different_counts_store_one_of_them(
    live_server: Any, user: Any, long_match: Match
) -> None:
    phones = [Phone(live_server.url, user) for _ in range(PHONES)]
    path = reverse("scoring:hand-create", args=[long_match.pk])
    posts = [hand_post(1, HAND if index % 2 else OTHER_COUNTS) for index in range(PHONES)]
    results = send_together(phones, path, posts)
    assert all(status in (302, 409) for status, _ in results), results
    hand = long_match.hands.get()
    little = hand.tallies.get(side__position=0).little_casino
    winners = [post for post in posts if ("card_2S" in post) == little]
    # The phones whose counts were stored were answered with the scoreboard; the others were
    # told the hand was saved from another screen, their counts moved to hand 2 (409).
    assert sum(status == 302 for status, _ in results) == len(winners)
    assert long_match.hands.count() == 1
