"""A live share link: one phone records hands, another (not logged in) follows the score."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SPECIALS = ("10D", "2S", "AS", "AC", "AH", "AD")
POLL_WAIT_MS = 10_000  # the board polls every 3 s


def test_shared_board_shows_a_new_hand_without_reloading(
    new_page, log_in, start_match, enter_hand, screenshot, poll_now
):
    owner = new_page()
    log_in(owner)
    start_match(owner, ["Ana", "Ben"])

    owner.click("#share-panel summary")
    # The panel is fetched when first opened; it opens in place, the focus where it was.
    expect(owner.get_by_role("button", name="Create a share link")).to_be_visible()
    assert owner.evaluate("document.activeElement.id") == "share-summary"
    owner.get_by_role("button", name="Create a share link").click()
    link = owner.get_by_label("Share link")
    expect(link).to_have_value(re.compile(r"^http://[^/]+/shared/[A-Za-z0-9_-]{43}/$"))
    qr = owner.locator("img.share-qr")
    expect(qr).to_be_visible()
    # The QR code is an SVG drawn by the server, and it loads.
    qr.evaluate(
        "img => img.complete || new Promise(done => {"
        " img.addEventListener('load', done); img.addEventListener('error', done); })"
    )
    assert qr.evaluate("img => img.naturalWidth > 0")
    share_url = link.input_value()

    viewer = new_page(clock=True)  # a second browser context: no session, no login
    methods, errors = [], []
    viewer.on("request", lambda request: methods.append(request.method))
    viewer.on("console", lambda message: message.type == "error" and errors.append(message.text))
    viewer.goto(share_url)
    expect(viewer.locator("[data-total]")).to_have_text(["0", "0"])
    expect(viewer.locator("form:not(.language-form)")).to_have_count(0)
    expect(viewer.get_by_role("link", name="Log in")).to_be_visible()
    viewer.evaluate("window.notReloaded = true")

    enter_hand(owner, 30, 9, ALL_SPECIALS)
    expect(owner.locator("[data-total]")).to_have_text(["11", "0"])

    poll_now(viewer)
    expect(viewer.locator("[data-total]")).to_have_text(["11", "0"], timeout=POLL_WAIT_MS)
    expect(viewer.locator("#hands > tr")).to_have_count(1)
    expect(viewer.locator(".turn")).to_contain_text("Hand 2")
    assert viewer.evaluate("window.notReloaded") is True
    screenshot(viewer, "shared-scoreboard.png")

    # An opened hand stays open while nothing changes (polls with no news swap nothing).
    viewer.locator("details.breakdowns summary").click()
    with viewer.expect_response(re.compile(r"/shared/.*since="), timeout=POLL_WAIT_MS) as poll:
        poll_now(viewer)
    assert poll.value.status == 204
    expect(viewer.locator("details.breakdowns")).to_have_attribute("open", "")
    assert set(methods) == {"GET"}
    assert errors == []  # nothing refused by the Content-Security-Policy, no failed poll

    # Stopping the share: the link is dead for anyone who opens it now. (Saving a hand left the
    # panel as it was: open.)
    expect(owner.locator("#share-panel details")).to_have_attribute("open", "")
    owner.once("dialog", lambda dialog: dialog.accept())
    owner.get_by_role("button", name="Stop sharing").click()
    expect(owner.get_by_role("button", name="Create a share link")).to_be_visible()
    late = new_page()
    assert late.goto(share_url).status == 404
    # The page still open on the viewer's phone says so and stops polling.
    poll_now(viewer)
    expect(viewer.get_by_text("This share link was turned off")).to_be_visible(timeout=POLL_WAIT_MS)
    expect(viewer.locator("#shared-board")).to_have_count(0)


def test_without_javascript_the_link_is_made_and_a_reload_brings_the_score(
    new_page, log_in, start_match, enter_hand
):
    owner = new_page(java_script_enabled=False)
    log_in(owner)
    board_url = start_match(owner, ["Ana", "Ben"])
    owner.click("#share-panel summary")
    # Without JavaScript the closed panel holds a link to the board with the panel open.
    owner.get_by_role("link", name="Show the share link and downloads").click()
    expect(owner.locator("#share-panel details")).to_have_attribute("open", "")
    owner.get_by_role("button", name="Create a share link").click()
    owner.wait_for_url(re.compile(r".*\?panel=share#share-panel$"))
    share_url = owner.get_by_label("Share link").input_value()

    viewer = new_page(java_script_enabled=False)
    viewer.goto(share_url)
    expect(viewer.locator("[data-total]")).to_have_text(["0", "0"])

    owner.goto(board_url)
    enter_hand(owner, 30, 9, ALL_SPECIALS)
    owner.wait_for_url(board_url)
    expect(owner.locator("[data-total]")).to_have_text(["11", "0"])

    viewer.reload()
    expect(viewer.locator("[data-total]")).to_have_text(["11", "0"])
