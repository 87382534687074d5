"""PostgreSQL only: every write that locks more than one row takes them in one order (the event,
then its matches by id, then the rest: docs/ARCHITECTURE.md, "One lock order"), so a hand saved
at an event's table while the organiser calls time or abandons the table waits its turn instead
of deadlocking (the database kills one of the two: a bare 500).

Each case makes the collision certain rather than likely: the first write sleeps right after the
statement that locked its first match, and the organiser starts then, while it sleeps. Taken in
opposite orders, the two wait for each other and PostgreSQL's deadlock detector fails one of
them after a second; taken in one order, the organiser waits for the event and goes next."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from helpers import FIRST_8, SECOND_8, at_once, friday_club

from scoring.engine.rules import Rules
from scoring.events import services as events
from scoring.matches import services
from scoring.models import Event, EventRound, Match, Player

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
pytestmark = [
    pytest.mark.skipif(
        not ON_POSTGRES, reason="row locks decide on PostgreSQL (SQLite has a single writer)"
    ),
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

HOLD = 0.5  # seconds the first write holds its first match's lock, the second one waiting


def _locks_a_match(sql: str) -> bool:
    return '"scoring_match"' in sql and (
        "FOR UPDATE" in sql or sql.startswith('UPDATE "scoring_match"')
    )


def collide(first: Callable[[], Any], second: Callable[[], Any]) -> list[Any]:
    """Run `first` and `second` at once, `second` starting as soon as `first` locked its first
    match, which it then holds for HOLD seconds; what each returned or raised."""
    locked = threading.Event()

    def hold(execute: Any, sql: str, *args: Any) -> Any:
        result = execute(sql, *args)
        if not locked.is_set() and _locks_a_match(sql):
            locked.set()
            time.sleep(HOLD)
        return result

    def run_first() -> Any:
        try:
            with connection.execute_wrapper(hold):
                return first()
        finally:
            locked.set()  # (it never locked a match: let the second go)

    def run_second() -> Any:
        locked.wait(timeout=10)
        return second()

    return at_once(run_first, run_second)


@pytest.fixture
def table(user: Any) -> Match:
    """The first table of round 1 of a Swiss event of four, one hand played."""
    event = friday_club(user)
    made = events.round_pair(event=event, number=1, by=user)
    match = made.tables.exclude(match=None).order_by("number").first().match
    services.hand_record(match=match, number=1, tallies=FIRST_8)
    match.refresh_from_db()
    return match


def _board_save(user: Any, match: Match) -> Callable[[], Any]:
    """Hand 2 saved from the board (the view reads the match locked, in its scope)."""
    client = Client()
    client.force_login(user)
    data = {
        "number": "2",
        "cards_0": "23",
        "spades_0": "5",
        "card_2S": "1",
        "card_AC": "0",
        "card_AD": "0",
    }

    def post() -> int:
        return client.post(reverse("scoring:hand-create", args=[match.pk]), data).status_code

    return post


HAND_WRITES: dict[str, Callable[[Any, Match], Callable[[], Any]]] = {
    "save from the board": _board_save,
    "save": lambda user, match: (
        lambda: services.hand_record(match=match, number=2, tallies=SECOND_8)
    ),
    "edit": lambda user, match: lambda: services.hand_edit(match=match, number=1, tallies=SECOND_8),
    "delete": lambda user, match: lambda: services.hand_delete_last(match=match, number=1),
    "undo": lambda user, match: (
        lambda: services.hand_delete_last(
            match=match, number=1, hand_id=match.hands.get(number=1).pk
        )
    ),
    "abandon from the board": lambda user, match: lambda: services.match_abandon(match=match),
    "rematch": lambda user, match: lambda: services.match_rematch(match=match, by=user),
}

ORGANISER: dict[str, Callable[[Match], Callable[[], Any]]] = {
    "call time": lambda match: lambda: events.time_call(event=match.event),
    "abandon the table": lambda match: (
        lambda: events.table_abandon(event=match.event, table=match.event_table)
    ),
    "a late arrival": lambda match: (
        lambda: events.entrant_add(
            event=match.event,
            player=services.player_create(circle=match.circle, name="Sue"),
        )
    ),
    "a leaver": lambda match: (
        lambda: events.entrant_leave(
            event=match.event, player=match.seats.order_by("seat").first().player
        )
    ),
}


def _failures(results: list[Any]) -> list[BaseException]:
    return [result for result in results if isinstance(result, BaseException)]


@pytest.mark.parametrize("organiser", list(ORGANISER))
@pytest.mark.parametrize("write", list(HAND_WRITES))
def test_a_hand_write_and_the_organiser_at_once_both_succeed(
    user: Any, table: Match, write: str, organiser: str
) -> None:
    version = Event.objects.get(pk=table.event_id).version
    results = collide(HAND_WRITES[write](user, table), ORGANISER[organiser](table))
    assert not _failures(results), results
    if write == "save from the board":
        assert results[0] in (200, 302), results
    # Both wrote, one after the other: the event's page was told of each.
    assert Event.objects.get(pk=table.event_id).version > version
    table.refresh_from_db()
    if organiser == "call time" and table.is_open:
        assert table.last_hand == table.hand_count + 1
    if organiser == "abandon the table":
        assert table.status == Match.Status.ABANDONED


@pytest.mark.parametrize(
    "write",
    [
        "rename",
        "merge",
    ],
)
def test_a_player_change_and_calling_time_at_once_both_succeed(
    user: Any, table: Match, write: str
) -> None:
    """Renaming or merging a player touches every match and event they play in."""
    seated = table.seats.order_by("seat").first().player
    if write == "rename":

        def change() -> Any:
            return services.player_rename(player=seated, name="Anna")

    else:
        # Someone who played nowhere else, merged into a player at the table.
        stray = services.player_create(circle=table.circle, name="Ana again")

        def change() -> Any:
            return services.player_merge(source=stray, target=seated)

    results = collide(change, lambda: events.time_call(event=table.event))
    assert not _failures(results), results
    assert EventRound.objects.get(event=table.event_id).time_called_at is not None
    assert Player.objects.filter(pk=seated.pk).exists()


def _statements(client: Client, match: Match, number: int) -> list[str]:
    """The statements a hand saved from the board sends the database, request and all."""
    sql: list[str] = []

    def count(execute: Any, statement: str, *args: Any) -> Any:
        sql.append(statement)
        return execute(statement, *args)

    data = {
        "number": str(number),
        "cards_0": "23",
        "spades_0": "5",
        "card_2S": "1",
        "card_AC": "0",
        "card_AD": "0",
    }
    with connection.execute_wrapper(count):
        response = client.post(
            reverse("scoring:hand-create", args=[match.pk]), data, headers={"HX-Request": "true"}
        )
    assert response.status_code == 200
    return sql


def test_a_hand_saved_alone_or_at_a_table_sends_ten_statements(user: Any, table: Match) -> None:
    """The lock order costs a save nothing: the scope's locked read of the match locks a table's
    event first in that same statement (an ordinary match has none). The session, the account,
    the match locked, its seats, the hand, its tallies, the sides, the match, two statistics;
    at a table one more, the event's version for its page."""
    alone = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino", target=99),
        sides=[[seat.player] for seat in table.seats.order_by("seat")],
    )
    services.hand_record(match=alone, number=1, tallies=FIRST_8)
    client = Client()
    client.force_login(user)
    _statements(client, alone, 2)  # the first request of a session reads its language too
    assert len(_statements(client, alone, 3)) == 10
    at_table = _statements(client, table, 2)
    assert len(at_table) == 11
    assert sum('UPDATE "scoring_event"' in sql for sql in at_table) == 1
