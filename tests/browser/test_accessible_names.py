"""What a screen reader announces: the ✓ drawn on a chosen chip is not part of its name."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_chosen_card_toggle_is_named_without_its_check_mark(page, log_in, start_match):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    page.click("label[for=id_card_10D_0]")
    chosen = page.locator("#id_card_10D_0")
    expect(chosen).to_be_checked()
    # The mark is drawn (sighted users see which side took the card) ...
    label = page.locator("label[for=id_card_10D_0]")
    mark = label.evaluate("label => getComputedStyle(label, '::after').content")
    assert "✓" in mark
    # ... but the radio's accessible name, computed by Chromium, names the card and the side only.
    expect(chosen).to_have_accessible_name("big casino (10♦): Ana")
    expect(page.get_by_role("radio", name="big casino (10♦): Ana", exact=True)).to_be_checked()
