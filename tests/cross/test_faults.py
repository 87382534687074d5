"""Faults: the database failing in the middle of recording a hand, or at any statement of what
the outbox and the polls ask (a 503 to retry, whichever middleware met it), and two phones
sending the same hand at the same moment to a live server."""

from __future__ import annotations

import datetime
import re
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

from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Hand, Match, Tally

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


# --- the database down, whatever reads it first: the outbox's and the polls' answers -----------


@contextmanager
def _statement_fails(index: int) -> Iterator[list[str]]:
    """The database goes away at statement number `index` (from 0) of what runs inside: it and
    every later one fail as on a lost connection. Yields the statements seen; the first that
    failed is marked "FAILED: "."""
    seen: list[str] = []

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any):
        seen.append(sql)
        if len(seen) - 1 >= index:
            if len(seen) - 1 == index:
                seen[-1] = f"FAILED: {sql}"
            raise OperationalError("injected fault: connection to server lost")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield seen


def _poll(client: Client, url: str, since: int | str) -> Any:
    return client.get(re.sub(r"since=\d+", f"since={since}", url), headers=HX)


@pytest.fixture
def sync_world(user: Any, players: list[Any]) -> dict[str, Any]:
    """A signed-in phone (its browser, cookies and all) with a match open, a shared match, an
    event and its big screen."""
    from scoring.events import services as events
    from scoring.sharing import links

    client = Client(raise_request_exception=False)  # as gunicorn: the error handler answers
    client.force_login(user)
    match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino", target=99),
        sides=[[players[0]], [players[1]]],
    )  # fmt: skip
    shared = links.share_link_create(match=match).share_token
    names = ["Nia", "Oz", "Pim", "Rex"]
    event = events.event_create(
        circle=user.personal_circle, by=user, name="Friday", day=datetime.date(2026, 3, 6),
        fmt="swiss", rules=Rules.make("casino"),
        players=[services.player_create(circle=user.personal_circle, name=n) for n in names],
    )  # fmt: skip
    screen = links.share_link_create(match=event).share_token
    return {
        "client": client, "user": user, "match": match, "shared": shared, "event": event,
        "screen": screen,
    }  # fmt: skip


def _board_poll(client: Client, page: str, poll_id: str) -> str:
    html = client.get(page).content.decode()
    found = re.search(rf'id="{poll_id}"[^>]*hx-get="([^"]+)"', html)
    assert found, f"{page} polls"
    return found.group(1).replace("&amp;", "&")


def _requests(world: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    """Every request the outbox and the polls make, as the phone (or the big screen) sends it:
    a poll that finds nothing new (204) and one that finds a change (the view's region)."""
    client, match, event = world["client"], world["match"], world["event"]
    board = _board_poll(client, match.get_absolute_url(), "board-poll")
    event_poll = _board_poll(client, event.get_absolute_url(), "event-poll")
    anonymous = Client(raise_request_exception=False)
    shared = f"/shared/{world['shared']}/?since=0"
    screen = f"/events/screen/{world['screen']}/?since=0"
    hand_sync = reverse("scoring:hand-sync", args=[match.pk])
    headers = {"Accept": "application/json", "X-CSRFToken": "x"}
    match.refresh_from_db()
    event.refresh_from_db()
    return {
        "hand sync": lambda: client.post(
            hand_sync, {**HAND, "client_id": "phone-1", "account": str(world["user"].pk)},
            headers=headers,
        ),
        "match sync": lambda: client.post(
            reverse("scoring:match-sync"),
            {"client_id": "phone-m", "variant": "casino", "layout": "2", "seat_0": "Ana",
             "seat_1": "Ben", "first_dealer": "0", "target": "usual"},
            headers=headers,
        ),
        "board poll, nothing new": lambda: _poll(client, board, match.version),
        "board poll, a change": lambda: _poll(client, board, match.version - 1),
        "event poll, nothing new": lambda: _poll(client, event_poll, event.version),
        "event poll, a change": lambda: _poll(client, event_poll, event.version - 1),
        "shared poll, nothing new": lambda: _poll(anonymous, shared, match.version),
        "shared poll, a change": lambda: _poll(anonymous, shared, match.version - 1),
        "big screen poll, nothing new": lambda: _poll(anonymous, screen, event.version),
        "big screen poll, a change": lambda: _poll(anonymous, screen, event.version - 1),
    }  # fmt: skip


REQUESTS = [
    "hand sync", "match sync", "board poll, nothing new", "board poll, a change",
    "event poll, nothing new", "event poll, a change", "shared poll, nothing new",
    "shared poll, a change", "big screen poll, nothing new", "big screen poll, a change",
]  # fmt: skip


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", REQUESTS)
def test_the_database_down_at_any_statement_is_a_503_json_with_retry_after(
    sync_world: dict[str, Any], name: str
) -> None:
    """Each statement the request runs fails in turn (the session's read, the account's, the
    watch read, axes', the header's circle, the view's own, the session's save...): whichever
    middleware or view meets the failure first, the answer is one the outbox and htmx can read
    and retry, and nothing is stored. Then, the database back, the same request succeeds."""
    send = _requests(sync_world)[name]
    hands, matches = Hand.objects.count(), Match.objects.count()
    answers = []
    for index in range(60):
        with _statement_fails(index) as statements:
            response = send()
        if len(statements) <= index:  # no statement failed: the database is "back"
            break
        failed = next(sql for sql in statements if sql.startswith("FAILED: "))
        answers.append((failed[:90], response.status_code, response.get("Content-Type")))
        assert response.status_code == 503, (failed, response.content[:300])
        assert int(response["Retry-After"]) > 0
        assert response.json()["state"] == "unavailable", failed
        assert (Hand.objects.count(), Match.objects.count()) == (hands, matches), failed
    else:
        pytest.fail("the request never ran without a fault")
    assert index > 0, "the request reads the database"
    assert response.status_code in (200, 201, 204), response.content[:300]


@pytest.mark.django_db(transaction=True)
def test_the_database_down_while_a_page_is_made_is_a_503_page_with_retry_after(
    sync_world: dict[str, Any],
) -> None:
    """A person's page (the board: the session, the account, the header's circle, the board's
    reads, the language's cookie): a short page saying to try again, never the 500 page."""
    client, match = sync_world["client"], sync_world["match"]
    for index in range(80):
        with _statement_fails(index) as statements:
            response = client.get(match.get_absolute_url(), headers={"Accept": "text/html"})
        if len(statements) <= index:
            break
        failed = next(sql for sql in statements if sql.startswith("FAILED: "))
        assert response.status_code == 503, (failed, response.content[:300])
        assert int(response["Retry-After"]) > 0
        assert response["Content-Type"].startswith("text/html")
        assert b"try again in a moment" in response.content
    else:
        pytest.fail("the page never came without a fault")
    assert index > 3 and response.status_code == 200
