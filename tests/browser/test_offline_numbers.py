"""Without signal the phone's board says what the server's would: each waiting hand's points as
they counted (difference scoring: the margin, the cards' worth in brackets) and the time note
on the hand numbered last_hand, scored by engine.js."""

from typing import Any

import pytest
from playwright.sync_api import expect
from test_offline import _controlled, _until
from test_offline_scoring import ENGINE_KEPT, _hand

from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_offline_a_difference_match_shows_what_counted_and_the_time_note(
    page: Any, log_in: Any, live_server: Any
) -> None:
    user = log_in(page)
    ana, ben = (services.player_create(circle=user.personal_circle, name=n) for n in ("Ana", "Ben"))
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino", scoring="difference"),
        sides=[[ana], [ben]],
    )
    Match.objects.filter(pk=match.pk).update(last_hand=3)  # time called during hand 3
    page.goto(f"{live_server.url}{match.get_absolute_url()}")
    time_note = page.locator("#turn .time-called")
    expect(time_note).to_have_text(
        "⏱ Time has been called: hand 3 is the last hand. The side ahead after it wins."
    )
    _controlled(page)
    _until(page, ENGINE_KEPT, timeout=10)
    page.context.set_offline(True)
    page.reload()

    _hand(page, 27, 7, ("10D", "AS"))  # Ana 7, Ben 4: Ana +3, Ben +0
    row = page.locator("#hands tr.waiting-row")
    expect(row.locator(".hand-pts")).to_have_text(["+3 (7)", "+0 (4)"])
    expect(row.locator(".run-total")).to_have_text(["3", "0"])
    expect(page.locator("[data-outbox-list] > li")).to_contain_text("Ana 3 (7) · Ben 0 (4)")
    expect(time_note).to_contain_text("Time has been called: hand 3 is the last hand.")
    _hand(page, 27, 7, ("10D", "AS"))
    expect(time_note).to_contain_text("Time: this is the last hand.")
    _hand(page, 27, 7, ("10D", "AS"))  # Ana alone ahead after hand 3: she wins on time
    expect(page.locator("#board-status .result h2")).to_have_text("Ana wins!")
