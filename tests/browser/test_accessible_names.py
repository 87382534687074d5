"""What a screen reader announces: the ✓ drawn on a chosen chip is not part of its name."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_chosen_chip_is_named_without_its_check_mark(page, log_in, start_match):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    page.click("label[for=id_card_10D_0]")
    chosen = page.locator("#id_card_10D_0")
    expect(chosen).to_be_checked()
    # The mark is drawn (sighted users see which chip is chosen) ...
    label = page.locator("label[for=id_card_10D_0]")
    mark = label.evaluate("label => getComputedStyle(label, '::before').content")
    assert "✓" in mark
    # ... but the radio's accessible name, computed by Chromium, is the player's name alone.
    expect(chosen).to_have_accessible_name("Ana")
    expect(page.get_by_role("radio", name="Ana", exact=True).first).to_be_checked()
