"""A table played on paper, entered on the organiser's phone: from the event page to the
table's totals and winner, then the standings and the table's own board say so."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.engine.rules import Rules
from scoring.events import services as events
from scoring.matches import services
from scoring.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"viewport": {"width": 360, "height": 780}}


def test_the_organiser_enters_a_table_played_on_paper(
    new_page: Any, log_in: Any, live_server: Any, screenshot: Any
) -> None:
    page = new_page(**NARROW)
    ana = log_in(page)
    players = [
        services.player_create(circle=ana.personal_circle, name=name)
        for name in ("Ana", "Ben", "Cy", "Dee")
    ]
    event = events.event_create(
        circle=ana.personal_circle,
        by=ana,
        name="Friday club",
        day=datetime.date(2026, 12, 4),
        fmt="swiss",
        rules=Rules.make("casino"),
        players=players,
    )
    made = events.round_pair(event=event, number=1, by=ana)
    table = made.tables.order_by("number").first()
    assert table is not None and table.match is not None
    page.goto(f"{live_server.url}{event.get_absolute_url()}")
    page.get_by_role("link", name="Enter a table's result from paper").click()
    page.get_by_label("Which table?").select_option(str(table.pk))
    page.get_by_role("button", name="Next").click()
    names = [seat.player.name for seat in table.match.seats.order_by("seat")]
    page.get_by_role("spinbutton", name=names[0], exact=True).fill("9")
    page.get_by_role("spinbutton", name=names[1], exact=True).fill("17")
    page.locator("input[name=winner][value='0']").check()
    screenshot(page, "paper-form-360.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("button", name="Enter the result").click()
    # The winner behind, under the target: refused in words, the numbers kept.
    expect(page.locator(".errors")).to_contain_text("has fewer points than another side")
    expect(page.get_by_role("spinbutton", name=names[0], exact=True)).to_have_value("9")
    page.locator("input[name=winner][value='1']").check()
    page.get_by_role("button", name="Enter the result").click()
    page.wait_for_url(f"**{event.get_absolute_url()}*")
    expect(page.locator(".messages")).to_contain_text("Table 1: the result from paper is entered.")
    expect(page.locator(f"#table-{table.pk}")).to_contain_text("won: a result from paper")
    screenshot(page, "paper-event-360.png")
    match = Match.objects.get(pk=table.match_id)
    assert match.on_paper and match.winner_position == 1
    page.goto(f"{live_server.url}{match.get_absolute_url()}")
    expect(page.locator("#board-status .result")).to_contain_text("Played on paper")
    expect(page.locator(".paper-note")).to_be_visible()
    screenshot(page, "paper-board-360.png")
