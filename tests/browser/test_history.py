"""Looking back on a phone: history, a match's chart, a player page and the leaderboard."""

import pytest
from helpers import main_menu
from playwright.sync_api import expect

from scoring.matches import demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_history_chart_player_and_leaderboard(
    page, live_server, log_in, django_user_model, screenshot
):
    user = log_in(page)
    demo.seed(user.personal_circle, 25, seed=7)

    page.goto(f"{live_server.url}/matches/")
    rows = page.locator(".match-list > li:not(.load-more)")
    expect(rows).to_have_count(20)
    screenshot(page, "history.png", full_page=False)
    page.get_by_role("link", name="Load more").click()
    expect(rows).to_have_count(25)
    expect(page.get_by_role("link", name="Load more")).to_have_count(0)

    page.locator(".status-won").first.click()
    expect(page.locator("figure.chart svg[role=img]")).to_be_visible()
    expect(page.locator("table.sheet-table")).to_be_visible()
    screenshot(page, "match-chart.png")

    page.goto(f"{live_server.url}/players/")
    page.get_by_role("link", name="Ana", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ana")
    expect(page.locator(".stat-cards")).to_contain_text("matches finished")
    expect(page.get_by_role("heading", name="Most frequent opponents")).to_be_visible()
    screenshot(page, "player.png")
    page.locator(
        "section", has=page.get_by_role("heading", name="Most frequent opponents")
    ).get_by_role("link").first.click()
    expect(page.locator(".stat-cards")).to_contain_text("finished against each other")

    main_menu(page).get_by_role("link", name="Leaderboard").click()
    expect(page.locator("table.leaderboard tbody tr")).to_have_count(10)
    screenshot(page, "leaderboard.png", full_page=False)
    # Nothing on these pages is wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
