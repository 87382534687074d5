"""Two phones and one hand number: the hand saved on the other phone is shown beside the one
typed here, and nothing is stored until the player keeps theirs as the next hand or discards it;
online (the 409 page) and from the outbox (a hand saved without signal). An entry the outbox
holds for a match another phone finished is listed, with every other entry, behind the header's
badge, and resolved there."""

from typing import Any

import pytest
from conftest import PASSWORD, PHONE
from playwright.sync_api import expect
from test_every_page import Axe, check_page
from test_offline import _controlled, _offline_hand

from scoring.models import Hand, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [360, 390]
FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def _phone(width: int) -> dict[str, Any]:
    return {"viewport": {"width": width, "height": PHONE["viewport"]["height"]}}


def _two_phones(
    new_page: Any, log_in: Any, start_match: Any, live_server: Any, width: int, **setup: Any
) -> tuple[Any, Any, str]:
    """One account on two phones, both on the board of a new match of Ana and Ben."""
    first = new_page(**_phone(width))
    ana = log_in(first)
    url = start_match(first, ["Ana", "Ben"], **setup)
    second = new_page(**_phone(width))
    second.goto(f"{live_server.url}/accounts/login/")
    second.fill("#id_login", ana.username)
    second.fill("#id_password", PASSWORD)
    second.click("form.stack button[type=submit]")
    second.wait_for_url(f"{live_server.url}/matches/")
    second.goto(url)
    return first, second, url


def _column(page: Any, which: str, side: int) -> list[str]:
    """A version's counts of one side: cards, spades, special cards, sweeps; `which` is
    ":not(.clash-mine)" for the saved one, ".clash-mine" for the one typed here."""
    cell = 3 if which == ".clash-mine" else 2
    table = page.locator(".clash-side").nth(side)
    return table.locator(f"tbody tr td:nth-child({cell})").all_text_contents()


def _no_poll(page: Any) -> None:
    """Nothing from the other phone reaches this one before it saves (its poll is stopped)."""
    page.evaluate("document.querySelectorAll('[data-poll]').forEach((poll) => poll.remove())")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_hand_saved_twice_at_once_shows_both_versions_and_stores_nothing_until_chosen(
    new_page: Any,
    log_in: Any,
    start_match: Any,
    enter_hand: Any,
    live_server: Any,
    screenshot: Any,
    width: int,
) -> None:
    first, second, _url = _two_phones(new_page, log_in, start_match, live_server, width)
    _no_poll(second)
    enter_hand(first, 27, 7, ("10D", "AS"))  # Ana 7, Ben 4
    expect(first.locator("[data-total]")).to_have_text(["7", "4"])
    enter_hand(second, 30, 9)  # the same hand 1, other counts, a moment later
    clash = second.locator(".clash")
    expect(clash).to_contain_text("Hand 1 was saved from another screen.")
    expect(second.locator("[data-hand-form]")).to_have_count(0)  # no form a tap from saving
    assert _column(second, ":not(.clash-mine)", 0) == ["27", "7", "10♦ (big casino), A♠", "0"]
    assert _column(second, ".clash-mine", 0) == ["30", "9", "–", "0"]
    assert _column(second, ".clash-mine", 1) == [
        "22",
        "4",
        "10♦ (big casino), 2♠ (little casino), A♠, A♣, A♥, A♦",
        "0",
    ]
    assert Hand.objects.count() == 1
    assert second.evaluate(FITS)
    keep = second.get_by_role("button", name="Keep mine as hand 2")
    discard = second.get_by_role("button", name="Discard mine")
    for target in (keep, discard):
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= width
    screenshot(second, f"hand-clash-{width}.png")
    problems, _description = check_page(second, Axe(), "a hand clash", "light", "ana")
    assert not problems, "\n".join(str(problem) for problem in problems)
    second.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })")

    discard.click()  # the same hand typed twice: mine goes, nothing stored
    expect(second.locator("[data-total]")).to_have_text(["7", "4"])
    expect(second.locator("#id_cards_0")).to_have_value("")
    second.reload()  # its draft went too
    expect(second.locator("#id_cards_0")).to_have_value("")
    assert Hand.objects.count() == 1

    # Hand 2 typed on both phones again; this time the second one is the next hand: kept.
    _no_poll(second)
    enter_hand(first, 27, 7, ("10D", "AS"))
    expect(first.locator("[data-total]")).to_have_text(["14", "8"])
    enter_hand(second, 30, 9)
    expect(second.locator(".clash")).to_contain_text("Hand 2 was saved from another screen.")
    assert Hand.objects.count() == 2
    second.get_by_role("button", name="Keep mine as hand 3").click()
    expect(second.locator("[data-total]")).to_have_text(["18", "15"])
    expect(second.locator("#id_cards_0")).to_have_value("")
    assert list(Hand.objects.order_by("number").values_list("number", flat=True)) == [1, 2, 3]
    assert Hand.objects.get(number=3).tallies.get(side__position=0).cards == 30


@pytest.mark.parametrize("width", WIDTHS)
def test_a_waiting_hand_whose_number_was_taken_shows_both_versions_online(
    new_page: Any,
    log_in: Any,
    start_match: Any,
    enter_hand: Any,
    live_server: Any,
    screenshot: Any,
    width: int,
) -> None:
    first, second, _url = _two_phones(new_page, log_in, start_match, live_server, width)
    _controlled(first)
    first.context.set_offline(True)
    _offline_hand(first, 30, 9, ("10D", "AS"))  # Ana 7, Ben 4, waiting
    expect(first.locator("#outbox-title")).to_have_text("Waiting for signal")
    enter_hand(second, 27, 7, ("10D", "AS"))  # hand 1 on the other phone meanwhile
    expect(second.locator("[data-total]")).to_have_text(["7", "4"])

    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    waiting = first.locator("[data-outbox-list] > li")
    expect(waiting).to_contain_text("Hand 1 was saved meanwhile on another phone.")
    # Online, the box does not say it waits for signal; each version's counts are there.
    expect(first.locator("#outbox-title")).to_have_text("Not sent yet")
    assert _column(first, ":not(.clash-mine)", 0) == ["27", "7", "10♦ (big casino), A♠", "0"]
    assert _column(first, ".clash-mine", 0) == ["30", "9", "10♦ (big casino), A♠", "0"]
    assert first.evaluate(FITS)
    waiting.scroll_into_view_if_needed()
    screenshot(first, f"outbox-clash-{width}.png", full_page=False)
    assert Hand.objects.count() == 1
    waiting.get_by_role("button", name="Discard mine").click()
    expect(first.locator("[data-outbox-list] > li")).to_have_count(0)
    expect(first.locator("[data-net-badge]")).to_be_hidden()
    assert Hand.objects.count() == 1


def test_a_clash_kept_without_signal_shows_at_once_as_the_next_waiting_hand(
    new_page: Any, log_in: Any, start_match: Any, enter_hand: Any, live_server: Any
) -> None:
    """Keep mine as hand 2, tapped without signal: the entry is redrawn as waiting at once (its
    number, Undo and Discard it), the form moves past it, and it is sent once signal is back."""
    first, second, _url = _two_phones(new_page, log_in, start_match, live_server, 390)
    _controlled(first)
    first.context.set_offline(True)
    _offline_hand(first, 30, 9, ("10D", "AS"))
    enter_hand(second, 27, 7, ("10D", "AS"))  # hand 1 on the other phone meanwhile
    # Stored there before the first phone's signal returns (else its send may come first).
    expect(second.locator("[data-total]")).to_have_text(["7", "4"])
    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    entry = first.locator("[data-outbox-list] > li")
    expect(entry).to_contain_text("Hand 1 was saved meanwhile on another phone.")

    first.context.set_offline(True)
    first.evaluate("window.dispatchEvent(new Event('offline'))")
    entry.get_by_role("button", name="Keep mine as hand 2").click()
    expect(entry).to_contain_text("Hand 2: waiting to be sent")
    expect(entry.get_by_role("button", name="Discard it")).to_be_visible()
    expect(entry.get_by_role("button", name="Keep mine as hand 2")).to_have_count(0)
    expect(first.locator("#id_number")).to_have_value("3")
    assert Hand.objects.count() == 1

    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    expect(first.locator("[data-outbox-list] > li")).to_have_count(0)
    expect(first.locator("[data-total]")).to_have_text(["14", "8"])
    assert list(Hand.objects.order_by("number").values_list("number", flat=True)) == [1, 2]


@pytest.mark.parametrize("width", WIDTHS)
def test_an_entry_held_for_a_match_won_on_another_phone_is_listed_and_resolved(
    new_page: Any,
    log_in: Any,
    start_match: Any,
    enter_hand: Any,
    live_server: Any,
    screenshot: Any,
    width: int,
) -> None:
    first, second, url = _two_phones(
        new_page, log_in, start_match, live_server, width, start_totals=(19, 10)
    )
    other = start_match(second, ["Cy", "Dee"])  # a match with a hand of its own waiting
    second.goto(url)
    _controlled(first)
    first.goto(other)
    first.context.set_offline(True)
    first.reload()
    _offline_hand(first, 30, 9, ("10D", "AS"))  # Cy's match: waiting
    first.goto(url)
    _offline_hand(first, 20, 4)  # hand 1 of Ana's match, waiting: Ben 11 → 21 wins
    enter_hand(second, 27, 7, ("10D", "AS"))  # meanwhile Ana wins there: 19 + 7
    expect(second.locator(".result")).to_contain_text("Ana")

    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    # The finished board shows the entry still held for it.
    expect(first.locator(".result")).to_be_visible()
    held = first.locator("[data-outbox-list] > li")
    expect(held).to_have_count(1)
    expect(held).to_contain_text(
        "Hand 1 was saved meanwhile on another phone, and the match is over."
    )
    # The badge counts every waiting hand and leads to the list of all of them.
    badge = first.locator("[data-net-badge] a")
    expect(badge).to_have_text("Hands waiting: 1")  # Cy's hand was sent, this one is held
    # Another render saying the same keeps the same link: one replaced under a finger loses
    # the tap (and a test's measure of it).
    kept = first.evaluate(
        """async () => {
            const link = document.querySelector("[data-net-badge] a");
            await window.casinoOutbox.render();
            return document.querySelector("[data-net-badge] a") === link;
        }"""
    )
    assert kept
    assert badge.evaluate("(link) => link.getBoundingClientRect().height") >= 44
    first.goto(other)  # another match's page: the badge still leads there
    badge.click()
    first.wait_for_url(f"{live_server.url}/matches/waiting/")
    groups = first.locator(".outbox-group")
    expect(groups).to_have_count(1)
    expect(groups.get_by_role("link", name="Ana – Ben")).to_have_attribute(
        "href", url.removeprefix(live_server.url)
    )
    expect(groups).to_contain_text("and the match is over")
    assert _column(first, ":not(.clash-mine)", 1) == [
        "25",
        "6",
        "2♠ (little casino), A♣, A♥, A♦",
        "0",
    ]
    assert _column(first, ".clash-mine", 1) == [
        "32",
        "9",
        "10♦ (big casino), 2♠ (little casino), A♠, A♣, A♥, A♦",
        "0",
    ]
    assert first.evaluate(FITS)
    screenshot(first, f"outbox-list-{width}.png")
    problems, _description = check_page(first, Axe(), "kept on this phone", "light", "ana")
    assert not problems, "\n".join(str(problem) for problem in problems)
    first.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })")
    first.get_by_role("button", name="Discard mine").click()
    expect(first.locator(".outbox-group")).to_have_count(0)
    expect(first.locator("[data-outbox-empty]")).to_be_visible()
    expect(first.locator("[data-net-badge]")).to_be_hidden()
    first.goto(url)
    expect(first.locator("[data-net-badge]")).to_be_hidden()
    match = Match.objects.get(pk=int(url.rstrip("/").rsplit("/", 1)[1]))
    assert match.hands.count() == 1 and match.status == Match.Status.WON


@pytest.mark.parametrize("choice", ["keep", "discard"])
def test_without_javascript_the_409_page_offers_the_same_two_choices(
    new_page: Any, log_in: Any, start_match: Any, enter_hand: Any, live_server: Any, choice: str
) -> None:
    first = new_page(**_phone(360))
    ana = log_in(first)
    url = start_match(first, ["Ana", "Ben"])
    second = new_page(java_script_enabled=False, **_phone(360))
    second.goto(f"{live_server.url}/accounts/login/")
    second.fill("#id_login", ana.username)
    second.fill("#id_password", PASSWORD)
    second.click("form.stack button[type=submit]")
    second.goto(url)
    enter_hand(first, 27, 7, ("10D", "AS"))
    expect(first.locator("[data-total]")).to_have_text(["7", "4"])
    second.fill("#id_cards_0", "30")
    second.fill("#id_spades_0", "9")
    second.click("button.save")  # a plain post: the 409 page
    expect(second.locator(".clash")).to_contain_text("Hand 1 was saved from another screen.")
    assert _column(second, ":not(.clash-mine)", 0) == ["27", "7", "10♦ (big casino), A♠", "0"]
    assert _column(second, ".clash-mine", 0) == ["30", "9", "–", "0"]
    assert second.evaluate(FITS)
    assert Hand.objects.count() == 1
    if choice == "keep":
        second.get_by_role("button", name="Keep mine as hand 2").click()
        expect(second.locator("[data-total]")).to_have_text(["11", "11"])
        assert Hand.objects.count() == 2
    else:
        second.get_by_role("button", name="Discard mine").click()
        expect(second.locator("[data-total]")).to_have_text(["7", "4"])
        expect(second.locator("#id_cards_0")).to_have_value("")
        assert Hand.objects.count() == 1
    assert second.url.split("?")[0] == url
