"""Playwright (sync API) against pytest-django's live_server, on Debian's Chromium, as a phone.

Playwright's sync API runs an event loop in the test thread, so Django refuses ORM calls there
unless DJANGO_ALLOW_ASYNC_UNSAFE is set; the test thread only creates users and reads back rows.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

HERE = Path(__file__).resolve().parent
SCREENSHOTS = HERE.parent.parent / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "color_scheme": "light",
    "locale": "en-US",
}
PASSWORD = "casino-pass-1"
TIMEOUT_MS = 5_000


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip (visibly, in -ra) every browser test when there is no browser to drive."""
    if CHROMIUM:
        return
    skip = pytest.mark.skip(reason="Chromium not found: apt-get install chromium")
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Open a page in a fresh phone context; keyword arguments go to `browser.new_context`.

    `clock=True` installs Playwright's clock in the context (time still flows as usual), so that
    `poll_now` can bring a page's next htmx poll forward instead of waiting seconds for it."""
    contexts = []

    def open_page(clock: bool = False, **options: Any) -> Any:
        context = browser.new_context(**{**PHONE, **options})
        context.set_default_timeout(TIMEOUT_MS)
        if clock:
            context.clock.install()
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


POLL_EVERY_MS = 5_000  # the slowest poll: the event page and the big screen ask every 5 s


@pytest.fixture
def poll_now() -> Callable[..., None]:
    """Move the clock of pages opened with `new_page(clock=True)` past their next poll, which
    then asks at once; a poll already under way still answers as it would have."""

    def bring_forward(*pages: Any) -> None:
        for each in pages:
            each.clock.fast_forward(POLL_EVERY_MS + 500)

    return bring_forward


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    return new_page()


@pytest.fixture
def log_in(live_server: Any, django_user_model: Any) -> Callable[..., Any]:
    """Create a user and log in through the login form; returns the user."""

    def log_in_as(page: Any, username: str = "ana") -> Any:
        user = django_user_model.objects.create_user(username=username, password=PASSWORD)
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_login", username)
        page.fill("#id_password", PASSWORD)
        page.click("form.stack button[type=submit]")
        page.wait_for_url(f"{live_server.url}/matches/")
        return user

    return log_in_as


@pytest.fixture
def start_match(live_server: Any) -> Callable[..., str]:
    """Fill in /matches/new/ like a user and submit it; returns the scoreboard's URL."""

    def start(
        page: Any,
        names: Sequence[str],
        *,
        variant: str = "casino",
        layout: str = "2",
        target: str = "21",
        start_totals: Sequence[int] = (),
    ) -> str:
        page.goto(f"{live_server.url}/matches/new/")
        page.check(f"input[name=variant][value='{variant}']")
        page.check(f"input[name=layout][value='{layout}']")
        for seat, name in enumerate(names):
            page.fill(f"#id_seat_{seat}", name)
        page.check("input[name=first_dealer][value='0']")
        page.check(f"input[name=target][value='{target}']")
        if start_totals:
            page.click("details.options > summary")
            for position, total in enumerate(start_totals):
                page.fill(f"#id_start_{position}", str(total))
        page.click("form.match-setup button[type=submit]")
        page.wait_for_url(f"{live_server.url}/matches/*/")
        return page.url

    return start


@pytest.fixture
def enter_hand() -> Callable[..., None]:
    """Fill in the hand form for side 1 (side 2 is left to the deck) and, by default, save it.

    `cards_to_side1` are the special cards (10D, 2S, AS, AC, AH, AD) given to side 1; with two
    sides the rest go to side 2 without a tap. The caller waits for what the save should show.
    """

    def enter(
        page: Any, cards: int, spades: int, cards_to_side1: Sequence[str] = (), save: bool = True
    ) -> None:
        page.fill("#id_cards_0", str(cards))
        page.fill("#id_spades_0", str(spades))
        for card in cards_to_side1:
            page.click(f"label[for=id_card_{card}_0]")
        if save:
            page.click("button.save")

    return enter


@pytest.fixture
def screenshot(tmp_path: Path) -> Callable[..., Path]:
    """Screenshots go to docs/screenshots only with UPDATE_SCREENSHOTS=1 (make screenshots), so
    an ordinary test run leaves the work tree as it was."""
    folder = SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path

    def take(page: Any, name: str, *, full_page: bool = True) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    return take
