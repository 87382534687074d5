"""The rest of the evening without signal: a new match and a rematch start on the phone (local.js),
are scored there, and reach the server before their hands when the signal returns: once, in
order, with the totals the phone showed."""

from typing import Any

import pytest
from playwright.sync_api import expect
from test_every_page import Axe, check_page
from test_offline import _controlled, _until
from test_offline_scoring import ENGINE_KEPT, _hand, _shown

from scoring.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page kept for the account, and holding `text`.
KEPT = (
    "([path, text]) => caches.open('casino-pages-' + document.body.dataset.account)"
    ".then((cache) => cache.match(location.origin + path))"
    ".then((kept) => kept ? kept.text() : '').then((html) => html.includes(text))"
)


def _ready_for_the_evening(page: Any, log_in: Any, start_match: Any, **setup: Any) -> str:
    """Online: a match started, the worker running, the engine and the pages kept; then no signal."""
    log_in(page)
    url = start_match(page, ["Ana", "Ben"], **setup)
    _controlled(page)
    _until(page, ENGINE_KEPT, timeout=10)
    # The board's players are suggested on the new-match form kept for no signal.
    for path, text in (("/matches/offline/", "data-local-page"), ("/matches/new/", 'value="Ana"')):
        _until(page, f"({KEPT})({[path, text]!r})", timeout=10)
    page.context.set_offline(True)
    return url


def _online(page: Any) -> None:
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def _stored_totals(match: Match) -> list[list[int]]:
    return [
        [t.total_after for t in sorted(hand.tallies.all(), key=lambda t: t.side.position)]
        for hand in match.hands.order_by("number").prefetch_related("tallies__side")
    ]


def test_a_new_match_started_without_signal_reaches_the_server_with_its_hands(
    page: Any, log_in: Any, start_match: Any, live_server: Any, screenshot: Any
) -> None:
    _ready_for_the_evening(page, log_in, start_match)
    page.goto(f"{live_server.url}/matches/new/")  # the phone's copy
    expect(page.locator("[data-local-offline]")).to_be_visible()
    page.check("input[name=variant][value='swedish']")
    page.check("input[name=layout][value='3']")
    page.fill("#id_seat_0", "ana")  # a known player, typed in other case
    page.fill("#id_seat_1", "Ben")
    page.check("input[name=first_dealer][value='1']")
    page.click("form.match-setup button[type=submit]")
    # Refused on the phone as the server would: the third seat is empty.
    expect(page.locator("[data-local-errors]")).to_contain_text("Who sits here?")
    page.fill("#id_seat_2", "Cleo")
    page.dblclick("form.match-setup button[type=submit]")  # a double tap starts one match
    page.wait_for_url("**/matches/offline/#*")
    expect(page.locator("[data-local-title]")).to_contain_text("Swedish Kasino")
    expect(page.locator("[data-total]")).to_have_text(["0", "0", "0"])
    expect(page.locator("#turn")).to_contain_text("Deals: Ben")
    expect(page.locator("[data-outbox-list] > li").first).to_contain_text("This match: waiting")
    expect(page.locator(".who-name").first).to_have_text("Ana")

    seen = []
    page.fill("#id_cards_0", "20")
    page.fill("#id_spades_0", "6")
    page.fill("#id_cards_1", "16")
    page.fill("#id_spades_1", "4")
    page.click("label[for=id_card_10D_0]")
    page.click("label[for=id_last_capture_2]")
    page.click("button.save")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(2)
    expect(page.locator("[data-offline-scored]")).to_be_visible()
    seen.append(_shown(page))
    assert "Deals: Cleo" in seen[-1]["turn"]
    page.reload()  # still no signal: the board is built again from the phone's outbox
    expect(page.locator("[data-total]")).to_have_text([str(t) for t in seen[-1]["totals"]])
    page.fill("#id_cards_0", "10")
    page.fill("#id_spades_0", "2")
    page.fill("#id_cards_1", "30")
    page.fill("#id_spades_1", "9")
    page.click("label[for=id_last_capture_1]")
    page.click("button.save")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(3)
    seen.append(_shown(page))
    # The score sheet lists the waiting hands, marked as not sent, with their running totals.
    rows = page.locator("#hands tr.waiting-row")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("not sent yet")
    for row, shown in zip(rows.all(), seen, strict=True):
        expect(row.locator(".run-total")).to_have_text([str(t) for t in shown["totals"]])
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "offline-new-match.png", full_page=False)
    problems, _description = check_page(page, Axe(), "a match started offline", "light", "ana")
    assert not problems, "\n".join(str(problem) for problem in problems)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })")

    _online(page)
    page.wait_for_url(f"{live_server.url}/matches/*/")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(0)
    assert Match.objects.count() == 2
    match = Match.objects.exclude(client_id="").get()
    assert match.variant == "swedish" and match.first_dealer_seat == 1
    assert [seat.player.name for seat in match.seats.order_by("seat")] == ["Ana", "Ben", "Cleo"]
    assert _stored_totals(match) == [shown["totals"] for shown in seen]
    expect(page.locator("[data-total]")).to_have_text([str(t) for t in seen[-1]["totals"]])
    assert page.url.endswith(match.get_absolute_url())


def test_a_rematch_started_without_signal_follows_the_match_it_repeats(
    page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    url = _ready_for_the_evening(page, log_in, start_match)
    page.reload()
    # Ana wins on the phone after three hands (7, 8 and 11 points against 4, 3 and 0).
    _hand(page, 30, 9, ("10D", "AS"))
    _hand(page, 27, 7, ("10D", "AS", "AH"))
    _hand(page, 30, 9, ("10D", "2S", "AS", "AC", "AH", "AD"))
    assert _shown(page)["winner"] == "Ana wins!"
    page.click("[data-local-rematch]")
    page.wait_for_url("**/matches/offline/#*")
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])
    expect(page.locator("#turn")).to_contain_text("Deals: Ben")  # the next dealer deals first
    _hand(page, 20, 4, ("AS",))
    seen = _shown(page)
    # Back to the first board and Rematch again: the rematch already waiting opens.
    page.goto(url)
    page.click("[data-local-rematch]")
    page.wait_for_url("**/matches/offline/#*")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(2)

    _online(page)
    page.wait_for_url(f"{live_server.url}/matches/*/")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(0)
    first = Match.objects.get(pk=int(url.rstrip("/").rsplit("/", 1)[1]))
    rematch = Match.objects.get(rematch_of=first)
    assert first.status == Match.Status.WON and first.hands.count() == 3
    assert rematch.first_dealer_seat == 1
    assert _stored_totals(rematch) == [seen["totals"]]
    assert page.url.endswith(rematch.get_absolute_url())


def test_an_earlier_waiting_hand_is_fixed_in_its_place_or_discarded(
    page: Any, log_in: Any, start_match: Any
) -> None:
    _ready_for_the_evening(page, log_in, start_match)
    page.reload()
    _hand(page, 30, 9, ("10D", "AS"))  # Ana 7, Ben 4
    _hand(page, 27, 7, ("10D", "AS", "AH"))  # Ana 8, Ben 3
    _hand(page, 26, 6, ("2S",))  # Ana 1 (the 2♠), Ben 7 (most spades, 10♦, four aces)
    waiting = page.locator("[data-outbox-list] > li")
    expect(page.locator("[data-total]")).to_have_text(["16", "14"])
    waiting.first.get_by_role("button", name="Fix").click()
    expect(page.locator("[data-fixing-note]")).to_contain_text("Fixing hand 1")
    expect(page.locator("#id_cards_0")).to_have_value("30")
    page.fill("#id_cards_0", "22")  # hand 1 now: Ana 4 (10♦, A♠, most spades), Ben 7
    page.click("button.save")
    expect(page.locator("[data-fixing-note]")).to_have_count(0)
    expect(waiting).to_have_count(3)
    expect(waiting.first).to_contain_text("Hand 1")
    expect(waiting.first).to_contain_text("Ana 4 · Ben 7")
    expect(page.locator("[data-total]")).to_have_text(["13", "17"])
    expect(page.locator("#id_number")).to_have_value("4")
    # Hand 2 discarded: hand 3 becomes hand 2.
    waiting.nth(1).get_by_role("button", name="Discard it").click()
    expect(waiting).to_have_count(2)
    expect(waiting.last).to_contain_text("Hand 2")
    expect(page.locator("[data-total]")).to_have_text(["5", "14"])
    expect(page.locator("#id_number")).to_have_value("3")

    _online(page)
    expect(waiting).to_have_count(0)
    match = Match.objects.get()
    assert _stored_totals(match) == [[4, 7], [5, 14]]
    expect(page.locator("[data-total]")).to_have_text(["5", "14"])


# Setups the new-match form refuses, as a table would get them wrong: the phone without signal
# must refuse each with the server's own words (MatchForm.clean), and start nothing.
REFUSED = [
    {"layout": "3", "seat_0": "Ana", "seat_1": "Ben"},
    {"seat_0": "Ana", "seat_1": " ana "},
    {"seat_0": "Straße", "seat_1": "STRASSE"},  # the same name case-folded, as the server has it
    {"seat_0": "Ana", "seat_1": "Ben", "target": "other"},
    {"seat_0": "Ana", "seat_1": "Ben", "target": "other", "target_other": "1000"},
    {"seat_0": "Ana", "seat_1": "Ben", "target": "other", "target_other": "2.5"},
    {"variant": "finnish", "seat_0": "Ana", "seat_1": "Ben", "sweeps": "count"},
    {"layout": "3", "seat_0": "Ana", "seat_1": "Ben", "seat_2": "Cy", "scoring": "difference"},
    {
        "variant": "dominican",
        "seat_0": "Ana",
        "seat_1": "Ben",
        "target": "other",
        "target_other": "3",
    },
    {"seat_0": "Ana", "seat_1": "Ben", "start_0": "25"},
    {"seat_0": "Ana", "seat_1": "Ben", "first_dealer": "3"},
    {"seat_0": "Ana", "seat_1": "Ben", "start_1": "-1"},
]


def test_the_phone_refuses_a_setup_with_the_servers_own_words(
    page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    from scoring.matches.forms import MatchForm

    _ready_for_the_evening(page, log_in, start_match)
    for case in REFUSED:
        data = {"variant": "casino", "layout": "2", "first_dealer": "0", "target": "usual", **case}
        form = MatchForm(data)
        assert not form.is_valid()
        server = sorted(str(error) for errors in form.errors.values() for error in errors)
        page.goto(f"{live_server.url}/matches/new/")
        page.check(f"input[name=variant][value='{data['variant']}']")
        page.check(f"input[name=layout][value='{data['layout']}']")
        # (A seat the table does not have is hidden: chosen as a page without CSS would.)
        page.eval_on_selector(
            f"input[name=first_dealer][value='{data['first_dealer']}']",
            "(radio) => { radio.checked = true; }",
        )
        page.check(f"input[name=target][value='{data['target']}']")
        page.click("details.options > summary")
        for name, value in data.items():
            if name.startswith(("seat_", "start_", "target_other")):
                page.fill(f"#id_{name}", value)
            elif name in ("sweeps", "scoring"):
                page.select_option(f"#id_{name}", value)
        page.click("form.match-setup button[type=submit]")
        expect(page.locator("[data-local-errors]")).to_be_visible()
        phone = sorted(page.locator("[data-local-errors] li").all_text_contents())
        assert phone == server, case
    assert page.evaluate("window.casinoOutbox.waiting()") == []
    assert Match.objects.count() == 1
