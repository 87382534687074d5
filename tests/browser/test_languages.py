"""Thai and Ukrainian on a phone: the scoreboard and hand entry render, and no text is clipped."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from scoring.engine.rules import Rules
from scoring.matches import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Any element of these whose content is wider than its box is clipped text.
CLIPPED = """() => [...document.querySelectorAll('button, .button, .chip, label, .side-name, legend, nav a')]
  .filter(el => el.offsetParent !== null && !el.matches('.visually-hidden') && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.textContent.trim().slice(0, 40))"""


@pytest.mark.parametrize("code", ["th", "uk"])
def test_scoreboard_and_hand_entry_in_language(page, live_server, log_in, screenshot, code):
    user = log_in(page)
    players = [
        services.player_get_or_create(circle=user.personal_circle, name=n) for n in ("Ана", "Бен")
    ]
    if code == "th":
        players = [
            services.player_get_or_create(circle=user.personal_circle, name=n)
            for n in ("สมชาย", "มาลี")
        ]
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("dominican"),
        sides=[[p] for p in players],
        start_totals=[18, 5],
    )
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": code, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}{match.get_absolute_url()}")
    expect(page.locator("html")).to_have_attribute("lang", code)
    expect(page.locator("[data-total]")).to_have_text(["18", "5"])
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, f"scoreboard-{code}.png", full_page=False)

    page.fill("#id_cards_0", "30")
    page.fill("#id_spades_0", "8")
    page.click("label[for=id_card_10D_0]")
    expect(page.locator("#preview .preview-side")).to_have_count(2)
    assert page.evaluate(CLIPPED) == []
    screenshot(page, f"hand-entry-{code}.png")
    page.click("button.save")
    expect(page.locator(".result")).to_be_visible()
    assert page.evaluate(CLIPPED) == []
