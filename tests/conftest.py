import json
import os
import sys
import unittest
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The rooms' tests (tests/<room>/, as in scoring/) share helpers with the others by module
# name, as files of one directory do (pytest's prepend import mode): whichever file is run alone.
for room in (
    "accounts",
    "circles",
    "cross",
    "engine",
    "events",
    "history",
    "matches",
    "pages",
    "sharing",
):
    sys.path.insert(0, str(Path(__file__).resolve().parent / room))

from helpers import QUICK_EXAMPLES  # noqa: E402  (after the paths above)

# Every property test's settings but its number of examples, set once. No deadline: a shared
# machine is slow at times, and a property test is about what, not how fast. In CI every run
# tries the same examples, so a red build can be reproduced; locally each run explores new ones.
settings.register_profile(
    "casino",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=bool(os.environ.get("CI")),
)
# make test-fast, the quick loop, tries fewer examples: each property sets its number through
# helpers.examples(), which this profile caps; make test and CI try the full number.
settings.register_profile(
    "casino-quick", settings.get_profile("casino"), max_examples=QUICK_EXAMPLES
)
settings.load_profile(os.environ.get("CASINO_HYPOTHESIS", "casino"))

SCORING_EXAMPLES = Path(__file__).resolve().parent / "data" / "scoring_examples.json"


@pytest.fixture(scope="session")
def scoring_examples() -> list[dict]:
    return json.loads(SCORING_EXAMPLES.read_text())


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="ana", password="casino-pass-1")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user(username="mallory", password="casino-pass-2")


@pytest.fixture
def user_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def players(user):
    from scoring.matches import services

    return [
        services.player_create(circle=user.personal_circle, name=name)
        for name in ("Ana", "Ben", "Cy", "Dee")
    ]


@pytest.fixture
def casino_match(user, players):
    from scoring.engine.rules import Rules
    from scoring.matches import services

    return services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[players[0]], [players[1]]]
    )


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests create many users; the production hasher is slow on purpose (a quarter of a second
    a password here). The login tests (throttling included) work the same with a fast one."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def language_back_to_english():
    """A request in another language activates it in the thread that made it (LocaleMiddleware
    sets it and nothing sets it back): the next test in the same process would start in it."""
    yield
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def mail_limits_start_afresh(request, django_db_blocker):
    """allauth's mail limits count in the database's cache table: a test's rollback forgets the
    counts, but a test that commits (a live server, threads) would leave them to the next."""
    yield
    from pytest_django.fixtures import validate_django_db

    marker = request.node.get_closest_marker("django_db")
    committed = (marker is not None and validate_django_db(marker)[0]) or any(
        name in request.fixturenames for name in ("transactional_db", "live_server")
    )
    if committed:
        from django.core.cache import cache

        with django_db_blocker.unblock():
            cache.clear()


@pytest.fixture
def ana_with_email(user):
    """ana, whose address (ana@example.com) is verified."""
    from allauth.account.models import EmailAddress

    user.email = "ana@example.com"
    user.save(update_fields=["email"])
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


# CI's second pass runs on PostgreSQL (.ci/run). What it can show that SQLite cannot is how the
# database behaves: locks, types, lengths. So there only the tests that open a connection run
# (a test run in every language, in English only), and of the browser suite (which drives the
# same pages, already walked on SQLite) the flows that meet a lock. CASINO_ALL_TESTS=1 runs
# everything on any database.
BROWSER_ON_EVERY_DATABASE = {"test_casino_match.py", "test_double_tap.py", "test_outbox_clash.py"}
DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


def in_another_language(item: pytest.Item) -> bool:
    """A case of a test run in each language (a `code` of settings.LANGUAGES) but English's: the
    queries are the same in every language, only the words differ, and SQLite checked those."""
    from django.conf import settings as django_settings

    callspec = getattr(item, "callspec", None)
    code = callspec.params.get("code") if callspec is not None else None
    languages = {language for language, _name in django_settings.LANGUAGES}
    return code in languages and code != django_settings.LANGUAGE_CODE


def opens_a_connection(item: pytest.Item) -> bool:
    if in_another_language(item):
        return False
    browser = "browser" in Path(str(item.path)).parts
    if browser:
        return Path(str(item.path)).name in BROWSER_ON_EVERY_DATABASE
    if isinstance(getattr(item, "cls", None), type) and issubclass(item.cls, unittest.TestCase):
        return True  # hypothesis' state machines (bad input, files) open theirs themselves
    names = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(names & DATABASE_FIXTURES)


# The longest tests first, then the rest of the browser suite, then everything else: on every
# core (make test's --dist worksteal) the quick tests fill in at the end, instead of one long
# test running alone while the other cores wait.
LONG_FIRST = (
    "browser/test_every_page.py",
    "test_engine_js.py::test_engine_js_scores_every_random_match",
    "cross/test_evenings.py",
    "browser/test_kept_pages.py",
    "browser/test_phone_walk.py",
    "browser/test_outbox_accounts.py",
)


def _run_order(item: pytest.Item) -> int:
    if any(part in item.nodeid for part in LONG_FIRST):
        return 0
    return 1 if "browser" in Path(str(item.path)).parts else 2


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from django.conf import settings as django_settings

    items.sort(key=_run_order)  # stable: a file's tests keep their order
    engine = django_settings.DATABASES["default"]["ENGINE"]
    if "sqlite" in engine or os.environ.get("CASINO_ALL_TESTS"):
        return
    kept = [item for item in items if opens_a_connection(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def pytest_report_header(config: pytest.Config) -> str | None:
    from django.conf import settings as django_settings

    if "sqlite" in django_settings.DATABASES["default"]["ENGINE"]:
        return None
    if os.environ.get("CASINO_ALL_TESTS"):
        return "database tests: all (CASINO_ALL_TESTS)"
    return (
        "database tests: only those that open a connection (in English), and of the browser suite "
        + ", ".join(sorted(BROWSER_ON_EVERY_DATABASE))
        + " (CASINO_ALL_TESTS=1 runs all)"
    )
