"""Small builders shared by the tests."""

import io
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar
from unittest import mock

from django.core.management import call_command
from django.db import connection, transaction
from django.urls import reverse

from scoring.engine.rules import Tally

# make test-fast loads the casino-quick profile (tests/conftest.py): each property tries at most
# this many examples there.
QUICK_EXAMPLES = 25


def examples(full: int) -> int:
    """A property's number of examples: `full` in make test and CI, fewer in the quick loop (a
    test's own max_examples overrides any profile, so the count goes through here)."""
    if os.environ.get("CASINO_HYPOTHESIS") == "casino-quick":
        return min(full, QUICK_EXAMPLES)
    return full


# The header htmx sends with every request it makes: a view answers it with a part of the page.
HX = {"HX-Request": "true"}

T = TypeVar("T")


def tally(
    cards: int,
    spades: int,
    big: bool = False,
    little: bool = False,
    aces: str = "",
    sweeps: int = 0,
    *,
    last: bool = False,
    jack: bool = False,
) -> Tally:
    """A side's tally in a few words; `last` (Swedish Kasino's last capture) and `jack` (Spade
    Casino's J♠) only where the variant records them."""
    return Tally.make(
        cards=cards,
        spades=spades,
        big_casino=big,
        little_casino=little,
        aces=aces,
        sweeps=sweeps,
        last_capture=last,
        jack_of_spades=jack,
    )


# First side takes 8 points (cards 3, spades 1, big casino 2, two aces), second side 3.
FIRST_8 = (tally(29, 8, big=True, aces="SH"), tally(23, 5, little=True, aces="CD"))
# The mirror image: first side 3, second side 8.
SECOND_8 = (tally(23, 5, little=True, aces="CD"), tally(29, 8, big=True, aces="SH"))
# First side takes all 11.
FIRST_11 = (tally(30, 9, big=True, little=True, aces="SCHD"), tally(22, 4))


def at_once(*calls: Callable[[], T]) -> list[T | BaseException]:
    """Run each call in a thread of its own, all released together (two phones, two taps), and
    return what each returned, or raised, in the order given. Each thread closes its database
    connection, as a finished request does."""
    barrier = threading.Barrier(len(calls))
    results: list[T | BaseException | None] = [None] * len(calls)

    def run(index: int, call: Callable[[], T]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except BaseException as error:  # handed back to the test, which says what it expects
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results  # type: ignore[return-value]


def main_menu(page: Any) -> Any:
    """Open the header's menu (a <details> behind one button) and return its navigation."""
    menu = page.locator("details[data-menu]")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    return page.get_by_role("navigation", name="Main")


def tally_doc(
    cards: int,
    spades: int,
    *,
    big: bool = False,
    little: bool = False,
    aces: str = "",
    sweeps: int = 0,
    **variant_fields: bool,
) -> dict[str, Any]:
    """A side's tally as a match file writes it (`last_capture`, `jack_of_spades` if given)."""
    return {
        "cards": cards,
        "spades": spades,
        "big_casino": big,
        "little_casino": little,
        "aces": aces,
        "sweeps": sweeps,
        **variant_fields,
    }


def app_url(name: str, *args: Any) -> str:
    """The app's URL `scoring:<name>` for these arguments: an object stands for its pk, so
    `app_url("hand", match, 2)` is the match's second hand."""
    return reverse(f"scoring:{name}", args=[getattr(arg, "pk", arg) for arg in args])


def run_command(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """Run a management command in-process. Returns (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(stdin)):
        try:
            call_command(*args, stdout=out, stderr=err)
            code = 0
        except SystemExit as stop:
            code = stop.code  # type: ignore[assignment]
    return code, out.getvalue(), err.getvalue()


def shared_match(owner: Any, member: Any) -> Any:
    """A match of Ana and Ben in `owner`'s circle, which `member` belongs to as well."""
    from scoring.access import personal_circle
    from scoring.engine.rules import Rules
    from scoring.matches import services
    from scoring.models import Membership

    circle = personal_circle(owner)
    Membership.objects.create(circle=circle, user=member, role="member")
    ana, ben = (services.player_create(circle=circle, name=name) for name in ("Ana", "Ben"))
    return services.match_start(circle=circle, rules=Rules.make("casino"), sides=[[ana], [ben]])


def friday_club(user: Any, names: Any = ("Ana", "Ben", "Cy", "Dee"), **options: Any) -> Any:
    """A Swiss club night of Casino in `user`'s own circle, its players made from `names`."""
    import datetime

    from scoring.engine.rules import Rules
    from scoring.events import services as events
    from scoring.matches import services

    circle = user.personal_circle
    players = [services.player_create(circle=circle, name=name) for name in names]
    return events.event_create(
        circle=circle,
        by=user,
        name="Friday club",
        day=options.pop("day", datetime.date(2026, 12, 4)),
        fmt=options.pop("fmt", "swiss"),
        rules=options.pop("rules", Rules.make("casino")),
        players=players,
        **options,
    )


@contextmanager
def built_once(django_db_blocker: Any) -> Iterator[None]:
    """Rows built once for a whole module of tests, as Django's setUpTestData does: they stay in
    a transaction rolled back after the module's last test, and each test runs in a savepoint
    inside it (pytest-django's django_db), so what one test changes the next never sees."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@dataclass
class CountingUser:
    """Drives a browser page and counts every tap and every key it took (the tap counts)."""

    page: Any
    actions: list[str] = field(default_factory=list)

    def tap(self, selector: str) -> None:
        self.page.tap(selector)
        self.actions.append(f"tap {selector}")

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.actions.extend(f"key {character}" for character in text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.actions.append(f"key {key}")

    @property
    def count(self) -> int:
        return len(self.actions)

    @property
    def taps(self) -> int:
        return sum(action.startswith("tap ") for action in self.actions)

    @property
    def keys(self) -> int:
        return sum(action.startswith("key ") for action in self.actions)
