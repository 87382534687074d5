"""Enter in a count box saves the hand as typed: it once clicked the form's first submit button,
the first side's "−" sweep stepper, and took a sweep off without a word."""

from __future__ import annotations

import pytest
from django.apps import apps
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_enter_in_a_count_box_saves_the_hand_as_typed(
    new_page, log_in, start_match, javascript
) -> None:
    page = new_page(java_script_enabled=javascript)
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    page.fill("#id_cards_0", "27")
    page.fill("#id_spades_0", "7")
    if javascript:
        page.click("[data-step-for=id_sweeps_0][data-step='1']")
        expect(page.locator("#id_sweeps_0")).to_have_value("1")
    else:
        page.fill("#id_sweeps_0", "1")
    for card in ("10D", "AS", "AH"):
        page.click(f"label[for=id_card_{card}_0]")
    page.fill("#id_cards_1", "25")
    page.fill("#id_spades_1", "6")
    page.press("#id_spades_1", "Enter")

    expect(page.locator("#hands > tr")).to_have_count(1)
    tally = apps.get_model("scoring", "Tally").objects.get(side__position=0)
    assert (tally.cards, tally.spades, tally.sweeps) == (27, 7, 1)
