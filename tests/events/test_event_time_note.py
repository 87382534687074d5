"""An event's table says where its timed match stands as its board does (the note belongs to
the hand numbered `last_hand`): before it (its earlier hands undone), during it, and after it
while the top totals are equal."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.urls import reverse
from helpers import FIRST_8, SECOND_8
from test_events import make_event, matches_of

from scoring.events import services as events
from scoring.matches import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fragments_forgotten():
    """A table's kept line is named by its table's and match's numbers and the match's version,
    which a rolled-back test database gives the next test again: forget what this one kept."""
    yield
    caches["fragments"].clear()


LAST = "time: playing the last hand"
MORE = "time: level, one more hand"


def table_state(client, event, table: int) -> str:
    page = client.get(reverse("scoring:event", args=[event.pk])).content.decode()
    states = [state.strip() for state in page.split('<span class="table-state small">')[1:]]
    return states[table - 1].split("</span>")[0]


def test_the_table_state_follows_the_hand_numbered_last_hand(user, user_client) -> None:
    event = make_event(user, "Ana Ben Cy Dee", round_minutes=30)
    first, _second = matches_of(events.round_pair(event=event, number=1))
    services.hand_record(match=first, number=1, tallies=SECOND_8)  # 3 - 8
    events.time_call(event=event)  # during hand 2
    assert table_state(user_client, event, 1) == LAST
    services.hand_record(match=first, number=2, tallies=FIRST_8)  # 11 - 11: one more hand
    assert table_state(user_client, event, 1) == MORE
    services.hand_delete_last(match=first, number=2)
    assert table_state(user_client, event, 1) == LAST
    services.hand_delete_last(match=first, number=1)  # hand 1 again: hand 2 is still the last
    assert table_state(user_client, event, 1) == "time: hand 2 is the last"
