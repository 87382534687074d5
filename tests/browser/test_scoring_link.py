"""A scoring link on two phones: the owner makes it, a phone with no account opens it, scores
and undoes a hand; the owner's board shows the hand came through the link, and turning the link
off ends it on the other phone at once."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SPECIALS = ("10D", "2S", "AS", "AC", "AH", "AD")
POLL_WAIT_MS = 10_000  # an open board polls every 4 s


def test_a_phone_without_an_account_scores_through_the_link(
    new_page, log_in, start_match, enter_hand, screenshot, poll_now
):
    owner = new_page(clock=True)
    log_in(owner)
    board = start_match(owner, ["Ana", "Ben"])
    owner.click("#share-panel summary")
    owner.get_by_role("button", name="Make a scoring link").click()
    link = owner.locator("#scoring-url")
    expect(link).to_have_value(re.compile(r"^http://[^/]+/score/[A-Za-z0-9_-]{43}/$"))
    expect(owner.get_by_role("button", name="Copy").last).to_be_visible()
    qr = owner.locator("#scoring-link img.share-qr")
    expect(qr).to_be_visible()
    scoring_url = link.input_value()
    qr.scroll_into_view_if_needed()
    screenshot(owner, "scoring-link-owner.png")

    guest = new_page()  # another phone: no session, no account
    errors: list[str] = []
    guest.on("console", lambda message: message.type == "error" and errors.append(message.text))
    guest.goto(scoring_url)
    assert guest.url == board  # the token is gone from the address
    expect(guest.locator(".link-note")).to_contain_text("through its scoring link")
    expect(guest.get_by_role("button", name="Abandon match")).to_have_count(0)
    expect(guest.locator("#share-panel")).to_have_count(0)
    enter_hand(guest, 30, 9, ALL_SPECIALS)
    expect(guest.locator("[data-total]")).to_have_text(["11", "0"])
    # Undo on the saved bar, then the hand again.
    guest.get_by_role("button", name="Undo").click()
    expect(guest.locator("[data-total]")).to_have_text(["0", "0"])
    guest.click("button.save")
    expect(guest.locator("[data-total]")).to_have_text(["11", "0"])
    screenshot(guest, "scoring-link-board.png")

    # The owner's board, polling, shows the hand and that it came through the link.
    poll_now(owner)
    expect(owner.locator("[data-total]")).to_have_text(["11", "0"], timeout=POLL_WAIT_MS)
    owner.reload()
    expect(owner.locator("#hands .via-link")).to_have_count(1)
    expect(owner.locator(".via-link-key")).to_be_visible()

    # On a 360 px phone nothing of the link's board is wider than the screen.
    narrow = new_page(viewport={"width": 360, "height": 740})
    narrow.goto(scoring_url)
    expect(narrow.locator("#hands .via-link")).to_have_count(1)
    assert narrow.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(narrow, "scoring-link-360.png")
    assert errors == []

    owner.click("#share-panel summary")
    owner.once("dialog", lambda dialog: dialog.accept())
    owner.get_by_role("button", name="Turn the scoring link off").click()
    expect(owner.get_by_role("button", name="Make a scoring link")).to_be_visible()
    assert guest.reload().status == 404
    late = new_page()
    assert late.goto(scoring_url).status == 404
    expect(late.get_by_role("heading", name="Scoring link turned off")).to_be_visible()
