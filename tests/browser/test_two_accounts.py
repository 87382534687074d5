"""Two accounts of one circle, each on their own phone, keep the score of one match."""

import re

import pytest
from playwright.sync_api import expect

from scoring.access import personal_circle
from scoring.models import Hand, Match, Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL_MS = 6_000  # an open board asks for news every 4 s


def _caught_up(page):
    """Wait until the page's board shows the match as it is now (its poll asks since then)."""
    version = Match.objects.get().version
    poll = page.locator("#board-poll")
    expect(poll).to_have_attribute("hx-get", re.compile(rf"since={version}$"), timeout=POLL_MS)


def _open_hand(page, index):
    """Open a hand of the sheet (its number leads to its page); returns the page's main part."""
    page.locator("#hands > tr").nth(index).get_by_role("link").click()
    page.wait_for_url("**/hands/*/")
    return page.locator("main")


def test_two_accounts_record_one_match_and_see_who_entered_each_hand(
    new_page, log_in, live_server, start_match, enter_hand, poll_now
):
    first = new_page(clock=True)
    ana = log_in(first, "ana")
    second = new_page(clock=True)
    ben = log_in(second, "ben")
    Membership.objects.create(circle=personal_circle(ana), user=ben, role="member")

    url = start_match(first, ["Ana", "Ben"])
    second.goto(url)
    expect(second.locator(".turn")).to_contain_text("Hand 1")

    # Ana's phone records hand 1; Ben's board shows it without a reload.
    enter_hand(first, 27, 7, ("10D", "AS"))
    expect(first.locator("[data-total]")).to_have_text(["7", "4"])
    poll_now(second)
    expect(second.locator("[data-total]")).to_have_text(["7", "4"], timeout=POLL_MS)
    expect(second.locator(".turn")).to_contain_text("Hand 2")

    # Ben's phone records hand 2; Ana's board shows it without a reload.
    enter_hand(second, 30, 9)
    expect(second.locator("[data-total]")).to_have_text(["11", "11"])
    poll_now(first)
    expect(first.locator("[data-total]")).to_have_text(["11", "11"], timeout=POLL_MS)
    expect(first.locator("#hands > tr")).to_have_count(2)
    _caught_up(first)
    _caught_up(second)
    assert [(hand.number, hand.entered_by) for hand in Hand.objects.order_by("number")] == [
        (1, ana),
        (2, ben),
    ]

    # Each phone opens the other's hand and sees who entered it.
    bens_hand = _open_hand(first, 1)
    entry = bens_hand.locator(".hand-entry")
    expect(entry).to_contain_text("Entered by ben")
    expect(entry).not_to_contain_text("Last changed")
    entry = _open_hand(second, 0).locator(".hand-entry")
    expect(entry).to_contain_text("Entered by ana")
    second.go_back()  # Back to the board, which catches up by itself
    second.wait_for_url(url)

    # Ana fixes Ben's hand: the breakdown names both, and the hand's history keeps Ben's counts.
    bens_hand.get_by_role("link", name="Edit hand 2").click()
    expect(first.locator(".hand-entry")).to_contain_text("Entered by ben")
    first.fill("#id_cards_0", "29")
    first.click("button.save")
    first.wait_for_url(url)
    expect(first.locator(".messages")).to_contain_text("Hand 2 saved.")
    _caught_up(second)
    row = _open_hand(second, 1)
    expect(row.locator(".hand-entry")).to_contain_text("Entered by ben")
    expect(row.locator(".hand-entry")).to_contain_text("Last changed by ana")
    row.get_by_role("link", name="Earlier version (1)").click()
    expect(second.get_by_role("heading", level=1)).to_contain_text("Versions of hand 2")
    versions = second.locator(".hand-version")
    expect(versions).to_have_count(2)
    expect(versions.nth(0)).to_contain_text("Changed by ana")
    expect(versions.nth(0).locator("table").first).to_contain_text("29")
    expect(versions.nth(1)).to_contain_text("Entered by ben")
    expect(versions.nth(1)).to_contain_text("Replaced by ana")
    expect(versions.nth(1).locator("table").first).to_contain_text("30")
    expect(versions.nth(1).locator("table").nth(1)).to_contain_text("10♦ (big casino)")
    # Nothing sticks out sideways on a small phone.
    second.set_viewport_size({"width": 360, "height": 740})
    assert second.evaluate("document.documentElement.scrollWidth") <= 360
    second.get_by_role("link", name="Back to the scoreboard").click()
    second.wait_for_url(url)

    # Ana takes Ben out of her circle: his next load of the match is refused.
    Membership.objects.filter(circle=personal_circle(ana), user=ben).delete()
    response = second.reload()
    assert response is not None and response.status == 404
    response = second.goto(f"{url}hands/1/history/")
    assert response is not None and response.status == 404
    assert first.goto(url).status == 200
