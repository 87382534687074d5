"""The points preview is computed on the phone by the engine it carries (engine.js), at once and
without signal; the server's preview, when it comes, says the same (it stays the truth)."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PREVIEW = re.compile(r".*/preview/$")
HANDS = [  # Ana's cards, spades and special cards; Ben takes the rest
    (27, 7, ("10D",)),
    (30, 9, ("10D", "2S", "AS", "AC", "AH", "AD")),
    (20, 3, ()),
    (26, 6, ("AS", "2S")),
    (40, 8, ("AH",)),
]


@pytest.fixture
def page(new_page):
    """A phone whose requests all reach page.route: a service worker's would pass it by."""
    return new_page(service_workers="block")


def _type_hand(page, cards, spades, specials):
    page.fill("#id_cards_0", str(cards))
    page.fill("#id_spades_0", str(spades))
    for card in specials:
        page.click(f"label[for=id_card_{card}_0]")


def _clear(page, specials):
    for card in specials:  # back to Ben
        page.click(f"label[for=id_card_{card}_1]")


def test_the_preview_comes_from_the_phone_and_agrees_with_the_server(page, log_in, start_match):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    # The server's preview answers nothing: what shows is the phone's.
    page.route(PREVIEW, lambda route: route.fulfill(status=204))
    preview = page.locator("#preview")
    phone = {}
    for cards, spades, specials in HANDS:
        _type_hand(page, cards, spades, specials)
        expect(preview.locator(".preview-line")).to_be_visible()
        expect(preview).to_have_attribute("data-phone", re.compile(r"\d+"))
        phone[(cards, spades, specials)] = " ".join(preview.inner_text().split())
        _clear(page, specials)
    page.unroute(PREVIEW)
    # The server's own preview of the same hands, in place of the phone's.
    for hand, shown in phone.items():
        with page.expect_response(PREVIEW):
            _type_hand(page, *hand)
        page.wait_for_timeout(1200)  # the last of its previews (a box's change asks at once)
        assert " ".join(preview.inner_text().split()) == shown, hand
        _clear(page, hand[2])
    assert phone[(27, 7, ("10D",))] == "This hand scores: Ana +6 → 6 · Ben +5 → 5"


def test_an_impossible_hand_previews_nothing_on_the_phone(page, log_in, start_match):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    page.route(PREVIEW, lambda route: route.fulfill(status=204))
    _type_hand(page, 27, 7, ())
    expect(page.locator("#preview .preview-line")).to_be_visible()
    page.fill("#id_spades_0", "14")  # more spades than the pack has
    expect(page.locator("#preview .preview-line")).to_have_count(0)


def test_the_preview_shows_without_signal(page, log_in, start_match):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    _type_hand(page, 27, 7, ())  # the engine is fetched while there is signal
    expect(page.locator("#preview .preview-line")).to_be_visible()
    page.context.set_offline(True)
    page.fill("#id_cards_0", "30")
    expect(page.locator("#preview")).to_contain_text("Ana +4 → 4")
    page.context.set_offline(False)


def test_the_phones_preview_is_quicker_than_the_servers(page, log_in, start_match):
    """A benchmark: the phone's preview against the server's, measured in the same run."""
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    _type_hand(page, 27, 7, ())
    expect(page.locator("#preview .preview-line")).to_be_visible()
    page.route(PREVIEW, lambda route: route.fulfill(status=204))
    phone_ms = page.evaluate(
        """async () => {
          const box = document.getElementById("id_cards_0");
          const preview = document.getElementById("preview");
          const times = [];
          for (let i = 0; i < 20; i++) {
            const before = preview.dataset.phone;
            const start = performance.now();
            box.value = String(20 + (i % 10));
            box.dispatchEvent(new Event("input", { bubbles: true }));
            while (preview.dataset.phone === before) await new Promise(r => setTimeout(r, 0));
            times.push(performance.now() - start);
          }
          times.sort((a, b) => a - b);
          return times[10];
        }"""
    )
    page.unroute(PREVIEW)
    form = page.locator("form.hand-form")
    server_ms = form.evaluate(
        """async (form) => {
          const url = document.querySelector("#preview").getAttribute("hx-post");
          const times = [];
          for (let i = 0; i < 5; i++) {
            const start = performance.now();
            await fetch(url, { method: "POST", body: new FormData(form) });
            times.push(performance.now() - start);
          }
          times.sort((a, b) => a - b);
          return times[2];
        }"""
    )
    print(
        f"\nPreview: phone {phone_ms:.1f} ms, server {server_ms:.1f} ms (median; ratio {server_ms / max(phone_ms, 0.1):.0f}x)"
    )
    assert phone_ms < server_ms


def test_a_late_server_preview_for_older_counts_does_not_cover_the_phones(
    page, log_in, start_match
):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    held = []
    page.route(PREVIEW, lambda route: held.append(route))  # the server's previews wait
    _type_hand(page, 27, 7, ())
    expect(page.locator("#preview")).to_contain_text("Ana +4 → 4")
    for _ in range(30):  # the server is asked (at most 300 ms after the last key)
        page.wait_for_timeout(100)
        if held:
            break
    page.wait_for_timeout(400)
    stale = list(held)
    assert stale, "the server was asked"
    page.fill("#id_cards_0", "20")  # Ben now has most cards
    expect(page.locator("#preview")).to_contain_text("Ana +1 → 1")
    for route in stale:
        route.continue_()  # the answers for 27 cards come now
    page.wait_for_timeout(800)
    expect(page.locator("#preview")).to_contain_text("Ana +1 → 1")
    for route in held[len(stale) :]:
        route.continue_()  # the answers for 20 cards
    page.wait_for_timeout(500)
    expect(page.locator("#preview")).to_contain_text("Ana +1 → 1")
