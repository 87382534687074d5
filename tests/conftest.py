import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The rooms' tests (tests/accounts/, circles/, events/, sharing/) share helpers with the others by module
# name, as files of one directory do (pytest's prepend import mode): whichever file is run alone.
for room in ("accounts", "circles", "events", "sharing"):
    sys.path.insert(0, str(Path(__file__).resolve().parent / room))


# Every property test's settings but its number of examples, set once. No deadline: a shared
# machine is slow at times, and a property test is about what, not how fast. In CI every run
# tries the same examples, so a red build can be reproduced; locally each run explores new ones.
settings.register_profile(
    "casino",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=bool(os.environ.get("CI")),
)
# make test-fast, the quick loop, tries fewer examples of the properties that do not set their
# own number; make test and CI try the full number.
settings.register_profile("casino-quick", settings.get_profile("casino"), max_examples=25)
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
    from scoring import services

    return [
        services.player_create(circle=user.personal_circle, name=name)
        for name in ("Ana", "Ben", "Cy", "Dee")
    ]


@pytest.fixture
def casino_match(user, players):
    from scoring import services
    from scoring.rules import Rules

    return services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[players[0]], [players[1]]]
    )


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests create many users; the production hasher is slow on purpose (a quarter of a second
    a password here). The login tests (throttling included) work the same with a fast one."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
