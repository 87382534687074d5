"""The scoreboard held in one hand at the table: one screen per hand, a bar that covers nothing,
the last side left to the deck, and Undo right after a save."""

from collections.abc import Sequence
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 390, "height": 844}
NAMES = ["Ana", "Ben", "Cy", "Dee"]
LAYOUTS = {2: "2", 3: "3", 4: "4"}

# Every control of the hand form, with its box, whether it sits in the bottom bar, and its name.
CONTROLS = """() => [...document.querySelectorAll(
    '[data-hand-form] :is(input:not([type=hidden]), button, .toggle)')]
  .filter(el => !el.matches('.toggle input, .no-js-only') && el.offsetParent !== null)
  .map(el => { const r = el.getBoundingClientRect();
    return {name: el.id || el.getAttribute('for') || el.textContent.trim(), top: r.top,
            bottom: r.bottom, inBar: !!el.closest('.form-actions')}; })"""
BAR = "() => document.querySelector('.form-actions').getBoundingClientRect().toJSON()"


def _start(page: Any, start_match: Any, sides: int) -> None:
    start_match(page, NAMES[:sides], layout=LAYOUTS[sides])


def _covered(page: Any) -> list[str]:
    """Controls outside the bottom bar that the bar overlaps."""
    bar = page.evaluate(BAR)
    return [
        control["name"]
        for control in page.evaluate(CONTROLS)
        if not control["inBar"]
        and control["bottom"] > bar["top"]
        and control["top"] < bar["bottom"]
    ]


@pytest.mark.parametrize("sides", [2, 3, 4])
def test_one_hand_fits_one_screen(new_page: Any, log_in: Any, start_match: Any, sides: int) -> None:
    page = new_page(viewport=SCREEN)
    log_in(page)
    _start(page, start_match, sides)

    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= 56, "the header is one line"
    # Totals, counts, the six special cards and Save, all on the first screen.
    wanted = [
        page.locator(".totals"),
        page.locator(".counts"),
        page.locator(".card-grid"),
        page.locator("button.save"),
    ]
    for part in wanted:
        box = part.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SCREEN["height"], (
            part,
            box,
        )
    expect(page.locator(".card-grid .toggle")).to_have_count(6 * sides)
    assert page.evaluate("window.scrollY") == 0
    assert _covered(page) == []


@pytest.mark.parametrize("sides", [2, 4])
def test_the_bottom_bar_never_covers_a_focused_control(
    new_page: Any, log_in: Any, start_match: Any, sides: int
) -> None:
    page = new_page(viewport={"width": 360, "height": 640})  # a smaller phone: the form scrolls
    log_in(page)
    _start(page, start_match, sides)
    for side in range(sides - 1):  # the preview line makes the bar taller
        page.fill(f"#id_cards_{side}", "12")
        page.fill(f"#id_spades_{side}", "3")
    expect(page.locator("#preview .preview-side").first).to_be_visible()
    for selector in ("#id_cards_0", f"#id_sweeps_{sides - 1}", f"#id_card_AD_{sides - 1}"):
        page.focus(selector)
        box = page.locator(selector).bounding_box()
        if selector.startswith("#id_card_"):
            box = page.locator(f"label[for={selector[1:]}]").bounding_box()
        bar = page.evaluate(BAR)
        assert box is not None and box["y"] + box["height"] <= bar["top"], (selector, box, bar)


def _tap_count(page: Any, actions: list[str], selector: str) -> None:
    page.tap(selector)
    actions.append(f"tap {selector}")


def _keys(page: Any, actions: list[str], text: str) -> None:
    page.keyboard.type(text)
    actions.extend(f"key {character}" for character in text)


def test_a_typical_three_player_hand_takes_at_most_fourteen_taps_and_keys(
    page: Any, log_in: Any, start_match: Any
) -> None:
    log_in(page)
    _start(page, start_match, 3)
    expect(page.locator("#id_cards_0")).to_be_focused()
    actions: list[str] = []
    _keys(page, actions, "18")  # Ana's cards: in full, so the cursor moves on to her spades
    _keys(page, actions, "4")  # Ana's spades
    _tap_count(page, actions, "#id_cards_1")
    _keys(page, actions, "20")  # Ben's cards, then on to his spades
    _keys(page, actions, "5")  # Ben's spades; Cy's 14 cards and 4 spades follow from the deck
    expect(page.locator("#id_cards_2")).to_have_attribute("placeholder", "14")
    expect(page.locator("#id_spades_2")).to_have_attribute("placeholder", "4")
    for card, side in (("10D", 0), ("AS", 1), ("AH", 1)):  # Cy gets the rest untapped
        _tap_count(page, actions, f"label[for=id_card_{card}_{side}]")
    _tap_count(page, actions, "button.save")

    # Ana: big casino 2. Ben: most cards 3, most spades 1, two aces = 6. Cy: 2♠, A♣, A♦ = 3.
    expect(page.locator("[data-total]")).to_have_text(["2", "6", "3"])
    expect(page.locator("#hands > tr")).to_have_count(1)
    print(f"\nTaps and keys for a three-player hand: {len(actions)} ({', '.join(actions)})")
    assert len(actions) <= 14, actions


def _saved_two(
    page: Any, enter_hand: Any, cards: int, spades: int, specials: Sequence[str]
) -> None:
    enter_hand(page, cards, spades, specials)
    expect(page.locator("[data-toast]")).to_be_visible()


def test_saved_shows_the_points_and_undo_brings_the_counts_back(
    page: Any, log_in: Any, start_match: Any, enter_hand: Any, screenshot: Any
) -> None:
    page.clock.install()
    log_in(page)
    _start(page, start_match, 2)
    _saved_two(page, enter_hand, 30, 9, ("10D", "AS"))  # Ana 7, Ben 4
    expect(page.locator("[data-toast]")).to_contain_text("Hand 1 saved: Ana +7 · Ben +4")
    _saved_two(page, enter_hand, 27, 7, ("10D", "AS", "AH"))  # Ana 8, Ben 3
    toast = page.locator("[data-toast]")
    expect(toast).to_contain_text("Hand 2 saved: Ana +8 · Ben +3")
    expect(page.locator("[data-total]")).to_have_text(["15", "7"])
    assert _covered(page) == []
    screenshot(page, "board-saved-undo.png", full_page=False)

    # A double tap on Undo: one hand goes, the one before stays.
    page.locator("button.undo").dblclick()
    expect(page.locator("[data-total]")).to_have_text(["7", "4"])
    expect(page.locator(".undone")).to_contain_text("Hand 2 was undone")
    expect(page.locator("#id_cards_0")).to_have_value("27")
    expect(page.locator("#id_card_AH_0")).to_be_checked()
    expect(page.locator(".turn")).to_contain_text("Hand 2")
    assert list(Hand.objects.values_list("number", flat=True)) == [1]

    # Saved again, the new toast goes away by itself after about ten seconds.
    page.click("button.save")
    expect(toast).to_contain_text("Hand 2 saved: Ana +8 · Ben +3")
    page.clock.run_for(5_000)
    expect(toast).to_be_visible()
    page.clock.run_for(6_000)
    expect(toast).to_be_hidden()
    assert list(Hand.objects.values_list("number", flat=True)) == [1, 2]


def test_undo_without_javascript(new_page: Any, log_in: Any, start_match: Any) -> None:
    page = new_page(java_script_enabled=False)
    log_in(page)
    _start(page, start_match, 3)
    page.fill("#id_cards_0", "18")
    page.fill("#id_spades_0", "4")
    page.fill("#id_cards_1", "20")
    page.fill("#id_spades_1", "5")
    page.click("label[for=id_card_10D_0]")
    page.click("button.save")
    expect(page.locator("[data-toast]")).to_contain_text("Hand 1 saved: Ana +2 · Ben +4 · Cy +5")
    page.click("button.undo")
    expect(page.locator(".messages")).to_contain_text("Hand 1 was undone")
    expect(page.locator("[data-total]")).to_have_text(["0", "0", "0"])
    expect(page.locator("#id_cards_1")).to_have_value("20")
    expect(page.locator("#id_card_10D_0")).to_be_checked()
    assert not Hand.objects.exists()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_board_in_light_and_dark(
    new_page: Any, log_in: Any, start_match: Any, enter_hand: Any, screenshot: Any, scheme: str
) -> None:
    page = new_page(color_scheme=scheme)
    log_in(page)
    _start(page, start_match, 3)
    for cards, spades in ((18, 4), (20, 6)):
        page.fill("#id_cards_1", "20")
        page.fill("#id_spades_1", "5")
        enter_hand(page, cards, spades, ("10D",))
        expect(page.locator("[data-toast]")).to_be_visible()
    expect(page.locator("#hands > tr")).to_have_count(2)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(18, 20, 18)") == (scheme == "dark"), background
    # The latest hand is highlighted, and the side in the lead marked in words as well.
    expect(page.locator("#hands > tr").last.locator(".lead-mark")).to_be_visible()
    expect(page.locator(".total-card.leader .badge")).to_contain_text("ahead")
    screenshot(page, f"board-{scheme}.png", full_page=False)
