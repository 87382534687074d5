import json
from pathlib import Path

import pytest

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

    return services.match_start(
        circle=user.personal_circle, variant="casino", sides=[[players[0]], [players[1]]]
    )


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests create many users; the production hasher is slow on purpose (a quarter of a second
    a password here). The login tests (throttling included) work the same with a fast one."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
