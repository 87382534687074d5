"""What a newcomer reads on a 390 px phone: names are shown whole, or visibly cut with an ellipsis
(never swapped for a clipped stub), a partnership's row names both partners, the header's brand
and circle label are whole, the edit page fills in the last side's counts, and the sign-up's
password rules are small help text."""

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.circles import services as circles
from scoring.engine import rules
from scoring.engine.rules import Rules
from scoring.matches import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# The text a label shows: its text nodes outside anything squeezed to nothing (a visually hidden
# span), and whether each box that cuts its content says so with an ellipsis.
SHOWN = """el => {
  const squeezed = node => { if (!node.parentElement.checkVisibility()) return true;
    for (let e = node.parentElement; e && e !== el.parentElement; e = e.parentElement) {
      if (e.clientWidth <= 1 && getComputedStyle(e).overflow !== 'visible') return true; }
    return false; };
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (!squeezed(node)) text += node.data;
  const boxes = [el, ...el.querySelectorAll('*')].filter(e => e.clientWidth > 1);
  const cut = boxes.filter(e => getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1);
  return {text: text.replace(/\\s+/g, ' ').trim(),
          cut: cut.map(e => getComputedStyle(e).textOverflow),
          lines: [...el.querySelectorAll('.side-line')].map(e => e.textContent)};
}"""
LABELS = ".counts th.who, .card-grid th.who, .score-grid thead th.side-head"


def _labels(page: Any) -> list[dict[str, Any]]:
    return page.locator(LABELS).evaluate_all(f"els => els.map({SHOWN})")


def _board(page: Any, live_server: Any, user: Any, sides: list[list[str]]) -> Any:
    players = [
        [services.player_get_or_create(circle=user.personal_circle, name=name) for name in side]
        for side in sides
    ]
    match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=players
    )
    page.goto(f"{live_server.url}{match.get_absolute_url()}")
    return match


def test_a_partnerships_rows_name_both_partners(
    new_page: Any, log_in: Any, live_server: Any
) -> None:
    page = new_page(viewport=PHONE)
    user = log_in(page)
    _board(page, live_server, user, [["Ana", "Cleo"], ["Ben", "Dee"]])
    labels = _labels(page)
    assert len(labels) == 6  # two rows of counts, two of special cards, two sheet heads
    for label, name in zip(labels, ["Ana & Cleo", "Ben & Dee"] * 3, strict=True):
        # Both partners shown whole, one a line, and nothing cut.
        assert label["text"] == name, label
        assert label["cut"] == [], label
        assert len(label["lines"]) == 2, label
    # What a screen reader reads is the partnership's name.
    expect(page.get_by_role("rowheader", name="Ana & Cleo", exact=True)).to_have_count(2)
    expect(page.get_by_role("columnheader", name="Ben & Dee", exact=True)).to_have_count(1)

    # Names too long for the column: each partner still has a line, cut with an ellipsis.
    _board(page, live_server, user, [["Anastasia", "Cleopatra"], ["Benedict", "Dimitri"]])
    for label in _labels(page):
        assert len(label["lines"]) == 2, label
        assert label["text"] in ("Anastasia & Cleopatra", "Benedict & Dimitri"), label
        assert all(overflow == "ellipsis" for overflow in label["cut"]), label


@pytest.mark.parametrize(
    "sides",
    [
        [["Anastasia"], ["Benedict"], ["Cleopatra"]],
        [["Anastasia"], ["Benedict"], ["Cleopatra"], ["Dimitri"]],
    ],
    ids=["three", "four"],
)
def test_long_names_are_cut_with_an_ellipsis_never_clipped(
    new_page: Any, log_in: Any, live_server: Any, sides: list[list[str]]
) -> None:
    page = new_page(viewport=PHONE)
    user = log_in(page)
    match = _board(page, live_server, user, sides)
    services.hand_record(match=match, number=1, tallies=_a_hand(len(sides)))
    page.reload()
    names = [" & ".join(side) for side in sides]
    labels = _labels(page)
    assert len(labels) == 3 * len(sides)
    for label, name in zip(labels, names * 3, strict=True):
        # The whole name is in the label (not a stub such as its first three letters), and
        # where the column is too narrow for it, the cut shows as an ellipsis.
        assert label["text"] == name, label
        assert all(overflow == "ellipsis" for overflow in label["cut"]), label
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _a_hand(count: int) -> list[rules.Tally]:
    """The first side takes most cards and the big casino, the last side the rest."""
    first = rules.Tally(
        cards=52 - 10 * (count - 1),
        spades=13 - 3 * (count - 1),
        big_casino=True,
        little_casino=False,
        aces="",
        sweeps=0,
    )
    middle = rules.Tally(
        cards=10, spades=3, big_casino=False, little_casino=False, aces="", sweeps=0
    )
    last = rules.Tally(
        cards=10, spades=3, big_casino=False, little_casino=True, aces="SCHD", sweeps=0
    )
    return [first, *[middle] * (count - 2), last]


def test_the_header_shows_the_whole_brand_and_the_circles_label(
    new_page: Any, log_in: Any, live_server: Any, start_match: Any
) -> None:
    page = new_page(viewport=PHONE)
    user = log_in(page)
    circles.circle_rename(circle=user.personal_circle, name="Friday night cards at Ben's place")
    start_match(page, ["Ana", "Ben", "Cy", "Dee"], layout="4")
    header = page.locator("header.top")
    brand = header.locator(".brand")
    expect(brand).to_have_text("♠ Casino Scorekeeper")
    assert brand.evaluate(
        "el => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight"
    )
    label = header.locator(".circle-now-label")
    expect(label).to_have_text("Circle:")
    box = label.bounding_box()
    pill = header.locator(".circle-now").bounding_box()
    assert box is not None and pill is not None
    assert (
        box["width"] > 20
        and box["x"] >= pill["x"]
        and box["x"] + box["width"] <= pill["x"] + pill["width"]
    )
    assert label.evaluate("el => el.scrollWidth <= el.clientWidth")
    # The circle's name gets the rest of the line, cut with an ellipsis.
    name = header.locator(".circle-now-name")
    assert name.evaluate("el => getComputedStyle(el).textOverflow") == "ellipsis"
    assert name.bounding_box()["width"] >= 80
    expect(header.locator(".circle-now")).to_have_accessible_name(
        "Circle: Friday night cards at Ben's place"
    )
    # Still one header line, inside the screen, over a board that fits it.
    assert header.bounding_box()["height"] <= 56
    assert pill["height"] >= 44 and pill["x"] + pill["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    save = page.locator("button.save").bounding_box()
    assert save is not None and save["y"] + save["height"] <= PHONE["height"]


def test_the_edit_page_shows_the_last_sides_counts(
    new_page: Any, log_in: Any, start_match: Any, enter_hand: Any
) -> None:
    page = new_page(viewport=PHONE)
    log_in(page)
    board = start_match(page, ["Ana", "Ben", "Cy"], layout="3")
    page.fill("#id_cards_1", "20")
    page.fill("#id_spades_1", "5")
    enter_hand(page, 18, 4, ["10D"])
    expect(page.locator(".turn")).to_contain_text("Hand 2")
    page.goto(f"{board}hands/1/edit/")
    expect(page.locator("#id_cards_0")).to_have_value("18")
    # Cy's counts are what the deck leaves, as on the board: 52 − 18 − 20 and 13 − 4 − 5.
    expect(page.locator("#id_cards_2")).to_have_attribute("placeholder", "14")
    expect(page.locator("#id_spades_2")).to_have_attribute("placeholder", "4")
    page.fill("#id_cards_1", "21")
    expect(page.locator("#id_cards_2")).to_have_attribute("placeholder", "13")


def test_the_password_rules_are_small_help_text(new_page: Any, live_server: Any) -> None:
    page = new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/accounts/signup/")
    rules_help = page.locator("#id_password1_helptext")
    expect(rules_help.locator("li")).to_have_count(4)
    expect(rules_help).to_contain_text("at least 8 characters")
    expect(page.locator("#id_password1")).to_have_accessible_description(
        re.compile("at least 8 characters")
    )
    size = "el => getComputedStyle(el).fontSize"
    email_help = page.locator("#id_email_helptext")
    body = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    for rule in rules_help.locator("li").all():
        assert rule.evaluate(size) == email_help.evaluate(size)
        assert float(rule.evaluate(size).removesuffix("px")) < body
    # The list stays in the field, not a page-wide block of its own.
    list_box = rules_help.locator("ul").bounding_box()
    field = page.locator(".field", has=page.locator("#id_password1")).bounding_box()
    assert list_box is not None and field is not None
    assert (
        field["y"] <= list_box["y"]
        and list_box["y"] + list_box["height"] <= field["y"] + field["height"]
    )
