"""Faults: the database failing in the middle of recording a hand, and two phones sending the
same hand at the same moment to a live server."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse
from django.utils.crypto import get_random_string
from helpers import HX

from scoring import services
from scoring.models import Hand, Match, Tally
from scoring.rules import Rules

# Side 1: 27 cards, 7 spades, 10♦ and A♠ (7 points); side 2 the rest (4 points).
HAND = {"number": "1", "cards_0": "27", "spades_0": "7", "card_10D": "0", "card_AS": "0"}
# The same hand counted differently: side 1 took the 2♠ as well (8 points).
OTHER_COUNTS = {**HAND, "card_2S": "0"}
MESSAGE = "Could not save the hand, nothing was stored; try again"


def _state(match: Match) -> dict[str, Any]:
    """Everything recording a hand touches."""
    match.refresh_from_db()
    return {
        "hands": list(Hand.objects.filter(match=match).values()),
        "tallies": list(Tally.objects.filter(hand__match=match).values()),
        "sides": list(match.sides.order_by("position").values()),
        "match": (match.hand_count, match.status, match.winner_position),
    }


@contextmanager
def _sql_fails(statement: str, *, replace: bool = False) -> Iterator[list[str]]:
    """Make the first SQL statement that starts with `statement` fail. With replace=True the
    database itself refuses it (it is swapped for a query on a table that does not exist);
    otherwise the driver raises OperationalError, as on a lost connection or a full disk.
    Yields the statements run, so a test can check what was written before the failure."""
    seen: list[str] = []
    failed = False

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any):
        nonlocal failed
        seen.append(sql)
        if not failed and sql.lstrip().startswith(statement):
            failed = True
            if replace:
                return execute("SELECT * FROM injected_fault_no_such_table", (), False, context)
            raise OperationalError("injected fault: disk I/O error")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield seen
    assert failed, f"no statement started with {statement!r}"


FAULTS: dict[str, Callable[[], Any]] = {
    # After the hand row is written: the tallies cannot be inserted.
    "tallies insert": lambda: mock.patch.object(
        Tally.objects, "bulk_create", side_effect=OperationalError("injected fault")
    ),
    # After the hand and its tallies are written: storing the result fails.
    "result": lambda: mock.patch.object(
        services, "_result_save", side_effect=OperationalError("injected fault")
    ),
    # The last write of the hand (the match's derived fields), refused by the database itself.
    "match update refused by the database": lambda: _sql_fails(
        'UPDATE "scoring_match"', replace=True
    ),
    # The sides' totals, as if the connection dropped.
    "sides update fails": lambda: _sql_fails('UPDATE "scoring_side"'),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("fault", list(FAULTS))
def test_database_failure_while_recording_a_hand_stores_nothing_and_says_so(
    user_client: Client, casino_match: Match, fault: str, htmx: bool
) -> None:
    before = _state(casino_match)
    url = reverse("scoring:hand-create", args=[casino_match.pk])
    with FAULTS[fault]():
        response = user_client.post(url, {**HAND, "sweeps_0": "1"}, headers=HX if htmx else {})
    body = response.content.decode()
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0  # the same answer as the outbox's and /healthz's
    assert MESSAGE in body
    assert 'value="27"' in body and 'value="7"' in body  # what was typed is still there
    assert _state(casino_match) == before
    # The database is back: the same submission is stored, once.
    retry = user_client.post(url, {**HAND, "sweeps_0": "1"}, headers=HX if htmx else {})
    assert retry.status_code == (200 if htmx else 302)
    assert casino_match.hands.count() == 1
    assert list(casino_match.sides.order_by("position").values_list("total", flat=True)) == [8, 4]


@pytest.mark.django_db(transaction=True)
def test_the_hand_row_is_written_before_the_injected_failure(
    user_client: Client, casino_match: Match
) -> None:
    url = reverse("scoring:hand-create", args=[casino_match.pk])
    with _sql_fails('UPDATE "scoring_match"') as statements:
        response = user_client.post(url, HAND)
    written = [sql for sql in statements if sql.startswith("INSERT")]
    assert any('"scoring_hand"' in sql for sql in written)
    assert any('"scoring_tally"' in sql for sql in written)
    assert MESSAGE in response.content.decode()
    assert not Hand.objects.exists() and not Tally.objects.exists()


# --- two phones, one live server -------------------------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Phone:
    """A logged-in browser, as far as the server can tell: session and CSRF cookies."""

    def __init__(self, base_url: str, user: Any) -> None:
        client = Client()
        client.force_login(user)
        self.base_url = base_url
        self.csrf = get_random_string(32)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.cookie = f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={self.csrf}"
        self.opener = urllib.request.build_opener(_NoRedirect)

    def post(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        request = urllib.request.Request(
            self.base_url + path,
            data=urlencode(data).encode(),
            headers={
                "Cookie": self.cookie,
                "X-CSRFToken": self.csrf,
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:  # 3xx (not followed), 4xx, 5xx
            return error.code, error.read().decode()


def send_together(
    phones: list[Phone], path: str, posts: list[dict[str, str]]
) -> list[tuple[int, str]]:
    """Each phone sends its post at the same moment (a barrier releases them together)."""
    barrier = threading.Barrier(len(phones))
    results: list[tuple[int, str] | None] = [None] * len(phones)
    errors: list[BaseException] = []

    def send(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = phones[index].post(path, posts[index])
        except BaseException as error:  # reported in the test thread
            errors.append(error)

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert all(result is not None for result in results), "a request did not finish in time"
    return [result for result in results if result is not None]


def hand_post(number: int, counts: dict[str, str] = HAND) -> dict[str, str]:
    return {**counts, "number": str(number)}


@pytest.fixture
def phones(live_server: Any, user: Any) -> list[Phone]:
    return [Phone(live_server.url, user) for _ in range(2)]


@pytest.fixture
def long_match(user: Any, players: list[Any]) -> Match:
    """Played to 99, so no test here plays it to the end."""
    return services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino", target=99),
        sides=[[players[0]], [players[1]]],
    )


@pytest.mark.django_db(transaction=True)
def test_two_phones_sending_the_same_hands_together_record_each_once(
    phones: list[Phone], long_match: Match
) -> None:
    path = reverse("scoring:hand-create", args=[long_match.pk])
    rounds = 6
    for number in range(1, rounds + 1):
        results = send_together(phones, path, [hand_post(number)] * len(phones))
        assert [status for status, _ in results] == [302] * len(phones), results
    numbers = list(long_match.hands.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, rounds + 1))
    assert Tally.objects.filter(hand__match=long_match).count() == 2 * rounds
    totals = list(long_match.sides.order_by("position").values_list("total", flat=True))
    assert totals == [7 * rounds, 4 * rounds]


@pytest.mark.django_db(transaction=True)
def test_two_phones_sending_different_counts_together_store_one_and_tell_the_other(
    phones: list[Phone], long_match: Match
) -> None:
    path = reverse("scoring:hand-create", args=[long_match.pk])
    for number in range(1, 5):
        posts = [hand_post(number), hand_post(number, OTHER_COUNTS)]
        results = send_together(phones, path, posts)
        statuses = sorted(status for status, _ in results)
        assert statuses == [302, 409], results
        refused = next(body for status, body in results if status == 409)
        assert f"Hand {number} was saved from another screen" in refused
        assert f"Keep mine as hand {number + 1}" in refused  # stored only when chosen
        winner = posts[[status for status, _ in results].index(302)]
        hand = long_match.hands.get(number=number)
        first = hand.tallies.get(side__position=0)
        assert first.little_casino == ("card_2S" in winner)
    assert long_match.hands.count() == 4


@pytest.mark.django_db
def test_the_health_check_says_503_with_retry_after_while_the_database_is_down(client) -> None:
    """A balancer reads 503 as "out of rotation for now", a 500 as a crash."""
    assert client.get("/healthz").status_code == 200
    with _sql_fails("SELECT 1"):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response.content == b"database unavailable"
