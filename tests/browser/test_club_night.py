"""A whole club night on three phones and a big screen: six players, Swiss, three rounds of 30
minutes. The organiser sets it up through the form, pairs round 1 with a double tap (one round),
each phone keeps one table's score through the ordinary hand form, and the big screen (no login,
a share link) follows by itself. In round 2 a late arrival joins and the organiser calls time with
two tables unfinished: one is won on time after the hand in progress, the other plays one more
hand after equal totals. Round 3 pairs the seven (a bye) and the standings end final, consistent
with the database, with no pairing repeated."""

from __future__ import annotations

import datetime
import re
from itertools import combinations
from typing import Any

import pytest
from conftest import PASSWORD
from playwright.sync_api import expect
from test_every_page import Axe, check_page

from scoring.access import personal_circle
from scoring.engine.rules import Rules
from scoring.events import services as events
from scoring.events.selectors import EventPage
from scoring.matches import services
from scoring.models import Event, EventTable, Match, Membership

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NARROW = {"viewport": {"width": 360, "height": 800}}
TV = {"viewport": {"width": 1280, "height": 720}, "is_mobile": False, "has_touch": False}
SCREEN_MS = 9_000  # the big screen asks every 5 s
PAGE_MS = 8_000  # the event page every 5 s, a board every 4 s
KNOWN = ("Ana", "Ben", "Cy", "Dee", "Eve")

# Hands typed for the first side (the second gets the rest without a tap), and what they give.
ALL_11 = (30, 9, ("10D", "2S", "AS", "AC", "AH", "AD"))  # 11 - 0
NONE_11 = (22, 4, ())  # 0 - 11
EIGHT = (29, 8, ("10D", "AS", "AH"))  # 8 - 3
LEVEL = (26, 7, ("10D", "2S"))  # 4 - 4: equal cards, spades + both casinos against four aces

# The pairing form, sent as a second tap would send it (kept alive through the page's unload).
# Not followed to the page it redirects to: that page would take the note meant for the phone's.
SECOND_TAP = """() => {
  const form = [...document.forms].find((f) => f.action.endsWith('/pair/'));
  fetch(form.action, {method: 'POST', body: new FormData(form), keepalive: true, redirect: 'manual'});
}"""

# The page has no horizontal scroll: only a .table-scroll (the standings) may be wider.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter((el) => !el.closest('.table-scroll')
    && el.getBoundingClientRect().right > width + 0.5 && el.checkVisibility());
  return {scroll: document.documentElement.scrollWidth - width,
          wide: wide.slice(0, 5).map((el) => el.outerHTML.slice(0, 80))};
}"""


def _no_overflow(page: Any) -> None:
    found = page.evaluate(OVERFLOW)
    assert found == {"scroll": 0, "wide": []}, found


def _hand(page: Any, enter_hand: Any, hand: tuple[int, int, tuple[str, ...]], totals: list[int]):
    enter_hand(page, *hand)
    expect(page.locator("[data-total]")).to_have_text([str(total) for total in totals])


def _table(page: Any, number: int, index: int) -> str:
    """From the event page, open the board of the round's table `index` (0-based); its URL."""
    table = page.locator(f"#round-{number} .event-table").nth(index)
    table.get_by_role("link", name="Keep score").click()
    page.wait_for_url("**/matches/*/")
    expect(page.locator(".event-label")).to_contain_text(f"round {number} · table {index + 1}")
    return page.url


def _win(page: Any, enter_hand: Any, first_side: bool) -> None:
    """Two hands of 11 for one side: a win (Casino to 21); then back to the event page by the
    board's own link."""
    hand, totals = (ALL_11, [[11, 0], [22, 0]]) if first_side else (NONE_11, [[0, 11], [0, 22]])
    for shown in totals:
        _hand(page, enter_hand, hand, shown)
    expect(page.locator("#board-status .result")).to_be_visible()
    page.locator(".event-label a").click()
    page.wait_for_url("**/events/*/")


def _tables(event: Event, number: int) -> list[EventTable]:
    return list(
        EventTable.objects.filter(round__event=event, round__number=number)
        .select_related("match", "bye")
        .order_by("number")
    )


def _standing_names(event: Event) -> list[str]:
    return [line.name for line in EventPage(event).standings]


def _fetched_pairing(request: Any) -> bool:
    return request.url.endswith("/pair/") and request.resource_type == "fetch"


def _pair(page: Any, number: int) -> None:
    page.get_by_role("button", name=f"Pair round {number}").click()
    expect(page.locator(f"#round-{number} h2")).to_have_text(f"Round {number} of 3")


def test_a_swiss_club_night_on_three_phones_and_a_big_screen(
    new_page: Any,
    log_in: Any,
    live_server: Any,
    enter_hand: Any,
    screenshot: Any,
    poll_now: Any,
) -> None:
    phones = [new_page(clock=True, **NARROW) for _ in range(3)]
    organiser = phones[0]
    ana = log_in(organiser, "ana")
    circle = personal_circle(ana)
    players = {name: services.player_create(circle=circle, name=name, by=ana) for name in KNOWN}
    Membership.objects.filter(circle=circle, user=ana).update(player=players["Ana"])
    for phone, name in zip(phones[1:], ("ben", "cy"), strict=True):
        member = log_in(phone, name)
        Membership.objects.create(
            circle=circle, user=member, role="member", player=players[name.title()]
        )

    # The organiser sets the evening up on the phone: five known players and a new one.
    organiser.goto(f"{live_server.url}/events/new/")
    organiser.fill("#id_name", "Friday club")
    organiser.fill("#id_date", "2026-12-04")
    organiser.check("input[name=format][value=swiss]")
    organiser.fill("#id_rounds", "3")
    organiser.fill("#id_round_minutes", "30")
    for name in KNOWN:
        organiser.locator("fieldset.event-players label.chip", has_text=name).click()
    organiser.fill("#id_new_players", "Fay")
    _no_overflow(organiser)
    organiser.get_by_role("button", name="Create the event").click()
    organiser.wait_for_url(re.compile(r"/events/\d+/$"))
    event = Event.objects.get()
    event_url = f"{live_server.url}{event.get_absolute_url()}"
    assert (event.format, event.rounds, event.round_minutes) == ("swiss", 3, 30)
    assert event.entrants.count() == 6
    expect(organiser.locator(".event-round h2")).to_have_text("Not started")

    # The big screen: a share link made on the phone, opened on the TV without a login.
    organiser.get_by_role("button", name="Make a big screen link").click()
    screen_url = organiser.locator("#screen-url").input_value()
    screen = new_page(clock=True, **TV)
    screen.goto(screen_url)
    screen.evaluate("window.loadedOnce = true")  # gone if the page were loaded again
    expect(screen.locator("#event-screen")).to_contain_text("The organiser pairs round 1")
    for phone in phones[1:]:
        phone.goto(event_url)
        expect(phone.locator("#event-live")).to_contain_text("The organiser pairs round 1")

    # Round 1: a double tap on "Pair round 1" pairs it once. Chromium sends one of a double
    # tap's two submissions; a slow network may deliver both, so the same form also goes by
    # fetch, at the same moment.
    organiser.goto(event_url)
    posts: list[str] = []
    organiser.on("request", lambda r: posts.append(r.method) if r.url.endswith("/pair/") else None)
    with organiser.expect_request_finished(_fetched_pairing) as second_tap:
        organiser.evaluate(SECOND_TAP)
        organiser.get_by_role("button", name="Pair round 1").dblclick()
    expect(organiser.locator("#round-1 h2")).to_have_text("Round 1 of 3")
    assert second_tap.value.response().status == 302  # to the event page: round 1 is paired
    assert posts.count("POST") >= 2
    assert event.round_set.count() == 1
    assert Match.objects.filter(event=event).count() == 3
    # Said once: on this page, or on the next if the other tap's answer came after it.
    said = organiser.get_by_text("Round 1 is paired.").count()
    organiser.reload()
    assert said + organiser.get_by_text("Round 1 is paired.").count() == 1
    expect(organiser.locator(".your-table")).to_contain_text("Your table")
    expect(organiser.locator("#round-1 .countdown")).to_contain_text(re.compile(r"\b2[89]:\d\d\b"))
    poll_now(screen, *phones[1:])
    expect(screen.locator("#screen-round")).to_have_text("Round 1 of 3", timeout=SCREEN_MS)
    for phone in phones[1:]:  # their event pages show the tables by themselves
        expect(phone.locator("#round-1 .event-table")).to_have_count(3, timeout=PAGE_MS)

    first = _tables(event, 1)
    for index, phone in enumerate(phones):
        _table(phone, 1, index)
    _hand(organiser, enter_hand, ALL_11, [11, 0])
    poll_now(screen)
    expect(screen.locator(f"#table-{first[0].pk}")).to_contain_text("11", timeout=SCREEN_MS)
    _hand(organiser, enter_hand, ALL_11, [22, 0])
    expect(organiser.locator("#board-status .result")).to_be_visible()
    organiser.locator(".event-label a").click()
    organiser.wait_for_url("**/events/*/")
    _win(phones[1], enter_hand, first_side=False)
    _win(phones[2], enter_hand, first_side=True)
    names = _standing_names(event)
    poll_now(screen)
    expect(screen.locator(".standings tbody th")).to_contain_text(names, timeout=SCREEN_MS)
    expect(screen.locator(".standings tbody tr td:nth-child(3)")).to_have_text(
        ["1", "1", "1", "0", "0", "0"]
    )

    # Round 2: paired once every table is done; a late arrival; time called with two tables
    # unfinished.
    organiser.goto(event_url)
    _pair(organiser, 2)
    boards = []
    for index, phone in enumerate(phones):
        if index:
            phone.goto(event_url)
        boards.append(_table(phone, 2, index))
    _win(phones[2], enter_hand, first_side=True)  # table 3 finishes before time
    _hand(organiser, enter_hand, EIGHT, [8, 3])  # table 1: one hand; table 2: none yet
    organiser.goto(event_url)
    organiser.fill("#id_name", "Gil")
    organiser.get_by_role("button", name="Add to the event").click()
    expect(organiser.locator(".messages")).to_contain_text("Gil plays from round 3")
    organiser.get_by_role("button", name="Call time").click()
    expect(organiser.locator("#round-2 .time-called")).to_contain_text("Time is called")
    expect(organiser.get_by_role("button", name="Call time")).to_have_count(0)
    poll_now(screen, phones[1])
    expect(screen.locator(".time-called")).to_be_visible(timeout=SCREEN_MS)
    # Table 2's board, open all along, says it by itself; table 1's, opened again, too.
    last = "Time: this is the last hand"
    expect(phones[1].locator(".time-called")).to_contain_text(last, timeout=PAGE_MS)
    organiser.goto(boards[0])
    expect(organiser.locator(".time-called")).to_contain_text(last)
    # Table 1: the side ahead after the hand in progress wins, on time.
    _hand(organiser, enter_hand, EIGHT, [16, 6])
    expect(organiser.locator("#board-status .result")).to_be_visible()
    # Table 2: equal totals after that hand, so one more; then the side ahead wins.
    _hand(phones[1], enter_hand, LEVEL, [4, 4])
    expect(phones[1].locator(".time-called")).to_contain_text("one more hand is played")
    _hand(phones[1], enter_hand, EIGHT, [12, 7])
    expect(phones[1].locator("#board-status .result")).to_be_visible()
    second = _tables(event, 2)
    for table in second:
        assert table.match is not None
        table.match.refresh_from_db()
        assert table.match.status == Match.Status.WON
    outcomes = [(t.match.outcome_kind, t.match.hand_count) for t in second if t.match]
    assert outcomes[:2] == [("time", 2), ("time", 2)]
    assert outcomes[2][0] != "time"

    # Round 3: seven players, so three tables and a bye.
    organiser.goto(event_url)
    expect(organiser.locator("#round-2 .event-table.open")).to_have_count(0)
    _pair(organiser, 3)
    third = _tables(event, 3)
    assert len([t for t in third if t.match]) == 3 and len([t for t in third if t.bye]) == 1
    bye = third[-1].bye
    assert bye is not None
    expect(organiser.locator("#round-3 .byes")).to_contain_text(bye.name)
    for index, phone in enumerate(phones):
        if index:
            phone.goto(event_url)
        _table(phone, 3, index)
    for index, phone in enumerate(phones):
        _win(phone, enter_hand, first_side=index != 1)

    # The end: final standings on the phone and on the big screen, as the database has them.
    organiser.goto(event_url)
    expect(organiser.locator("#standings-title")).to_have_text("Final standings")
    expect(organiser.get_by_role("button", name=re.compile("Pair round"))).to_have_count(0)
    poll_now(screen)
    expect(screen.locator("#screen-standings")).to_have_text("Final standings", timeout=SCREEN_MS)
    names = _standing_names(event)
    expect(organiser.locator(".standings tbody th")).to_contain_text(names)
    expect(screen.locator(".standings tbody th")).to_contain_text(names)
    assert screen.evaluate("window.loadedOnce") is True  # all by itself, never reloaded

    state = EventPage(event)
    assert state.finished
    rows = [line.row for line in state.standings]
    assert len(rows) == 7
    assert sorted(row.place for row in rows) == list(range(1, 8))
    counted = {line.name: line.row.played + line.row.byes for line in state.standings}
    assert counted == {**dict.fromkeys([*KNOWN, "Fay"], 3), "Gil": 1}
    gil = event.entrants.get(player__name="Gil")
    assert gil.joined_round == 3
    # A win or a bye is 1 match point: nine tables won, one bye.
    assert sum(row.match_points for row in rows) == 10
    assert sum(row.byes for row in rows) == 1
    meetings = [
        frozenset(ids)
        for view in state.rounds
        for table in view.playing
        for ids in combinations([pk for side in table.player_ids for pk in side], 2)
    ]
    assert len(meetings) == 9 and len(set(meetings)) == 9, "a pairing repeats"

    # Accessible and easy to tap, once each; the phone's page fits 360 px.
    for page, label in ((organiser, "club night: the end"), (screen, "big screen: the end")):
        page.evaluate("window.scrollTo(0, 0)")
        problems, _description = check_page(page, Axe(), label, "light", "ana")
        assert not problems, "\n".join(str(problem) for problem in problems)
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })")
    _no_overflow(organiser)
    screenshot(screen, "club-night-screen.png", full_page=False)
    organiser.evaluate("document.getElementById('round-3').scrollIntoView()")
    screenshot(organiser, "club-night-event.png", full_page=False)


def test_the_organisers_second_phone_can_call_time(
    new_page: Any, live_server: Any, django_user_model: Any
) -> None:
    """The organiser runs the evening from two devices of one account (or logs in again): each
    session's forms carry its own CSRF token."""
    ana = django_user_model.objects.create_user(username="ana", password=PASSWORD)
    circle = personal_circle(ana)
    entrants = [services.player_create(circle=circle, name=name) for name in KNOWN[:4]]
    event = events.event_create(
        circle=circle,
        by=ana,
        name="Friday club",
        day=datetime.date(2026, 12, 4),
        fmt="swiss",
        rules=Rules.make("casino"),
        players=entrants,
    )
    events.round_pair(event=event, number=1, by=ana)
    devices = [new_page(**NARROW), new_page(**NARROW)]
    for device in devices:
        device.goto(f"{live_server.url}/accounts/login/")
        device.fill("#id_login", "ana")
        device.fill("#id_password", PASSWORD)
        device.click("form.stack button[type=submit]")
        device.wait_for_url(f"{live_server.url}/matches/")
        device.goto(f"{live_server.url}{event.get_absolute_url()}")
    with devices[1].expect_response(lambda answer: answer.url.endswith("/time/")) as called:
        devices[1].get_by_role("button", name="Call time").click()
    assert called.value.status == 302
    expect(devices[1].locator("#round-1 .time-called")).to_be_visible()
