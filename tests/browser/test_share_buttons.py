"""Copy and Share on the links a person hands out, and the result card shared in one tap; the
text box and the card's download without JavaScript."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SPECIALS = ("10D", "2S", "AS", "AC", "AH", "AD")
# A phone's share sheet: records what it was given (Chromium on Linux has no Web Share).
FAKE_SHARE = """
window.shared = [];
navigator.share = (data) => {
  const files = (data.files || []).map((file) => ({ name: file.name, type: file.type, size: file.size }));
  window.shared.push({ title: data.title, text: data.text, url: data.url, files });
  return Promise.resolve();
};
navigator.canShare = (data) => true;
"""


def _invite_page(page, live_server, user):
    page.goto(f"{live_server.url}/circles/{user.personal_circle.pk}/invites/")
    page.get_by_role("button", name="Create an invite link").click()
    return page.get_by_label("Invite link").first


def test_copy_puts_the_invite_link_on_the_clipboard_and_says_so(
    new_page, live_server, log_in, screenshot
):
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    user = log_in(page)
    box = _invite_page(page, live_server, user)
    link = box.input_value()
    assert re.fullmatch(r"http://[^/]+/join/[^/]+/", link), link
    # No Web Share here: Copy alone.
    expect(page.get_by_role("button", name="Share")).to_have_count(0)
    page.get_by_role("button", name="Copy").first.click()
    expect(page.locator(".link-done").first).to_have_text("Copied: paste it in a message.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    button = page.get_by_role("button", name="Copy").first.bounding_box()
    assert button["height"] >= 44
    screenshot(page, "invite-copy.png")


def test_share_hands_the_link_to_the_phones_share_sheet(new_page, live_server, log_in):
    page = new_page()
    page.add_init_script(FAKE_SHARE)
    user = log_in(page)
    box = _invite_page(page, live_server, user)
    page.get_by_role("button", name="Share").first.click()
    page.wait_for_function("() => window.shared.length === 1")
    shared = page.evaluate("window.shared[0]")
    assert shared["url"] == box.input_value()
    assert shared["title"] == "Join ana’s circle"


def test_the_result_card_is_shared_as_an_image_in_one_tap(
    new_page, log_in, start_match, enter_hand, screenshot
):
    page = new_page()
    page.add_init_script(FAKE_SHARE)
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    enter_hand(page, 30, 9, ALL_SPECIALS)
    expect(page.locator("[data-total]")).to_have_text(["11", "0"])
    enter_hand(page, 30, 9, ALL_SPECIALS)
    expect(page.locator(".result h2")).to_have_text("Ana wins!")
    # The deciding hand came by htmx: the board it brought carries the script too.
    page.get_by_role("link", name="Share the result").click()
    page.wait_for_function("() => window.shared.length === 1")
    shared = page.evaluate("window.shared[0]")
    assert shared["text"] == "Ana wins! Final score: Ana 22 – Ben 0"
    [image] = shared["files"]
    assert image["type"] == "image/png" and image["size"] > 10_000
    assert re.fullmatch(r"casino-result-\d+\.png", image["name"])
    screenshot(page, "result-share.png")


def test_without_web_share_the_result_card_downloads(new_page, log_in, start_match, enter_hand):
    page = new_page(accept_downloads=True)
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    for _ in range(2):
        enter_hand(page, 30, 9, ALL_SPECIALS)
        page.wait_for_load_state("networkidle")
    with page.expect_download() as download:
        page.get_by_role("link", name="Share the result").click()
    assert re.fullmatch(r"casino-result-\d+\.png", download.value.suggested_filename)


def test_without_javascript_the_link_is_a_text_box_to_copy(new_page, live_server, log_in):
    page = new_page(java_script_enabled=False)
    user = log_in(page)
    page.goto(f"{live_server.url}/circles/{user.personal_circle.pk}/invites/")
    page.get_by_role("button", name="Create an invite link").click()
    expect(page.get_by_label("Invite link").first).to_be_visible()
    expect(page.get_by_role("button", name="Copy")).to_have_count(0)  # hidden: they need scripts
