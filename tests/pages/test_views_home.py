import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_says_what_the_app_is(client):
    response = client.get(reverse("scoring:home"))
    assert response.status_code == 200
    assert "Keep score of Casino" in response.content.decode()


def test_home_htmx_request_renders(client):
    response = client.get(reverse("scoring:home"), headers={"HX-Request": "true"})
    assert response.status_code == 200


def test_home_refuses_post(client):
    assert client.post(reverse("scoring:home")).status_code == 405


def test_home_loads_htmx_from_the_package(client):
    body = client.get(reverse("scoring:home")).content.decode()
    sources = re.findall(r'<script[^>]*src="([^"]+)"', body)
    assert any("htmx" in source for source in sources)
    assert all(source.startswith("/static/") for source in sources)  # nothing from another host


def test_home_answers_head_for_uptime_monitors(client):
    assert client.head(reverse("scoring:home")).status_code == 200


def test_no_password_reset_without_e_mail_addresses(client):
    assert client.get("/accounts/password_reset/").status_code == 404


# --- a player's home: what to continue, today's results; the marketing text for visitors only ---


def _home(client) -> str:
    response = client.get(reverse("scoring:home"))
    assert response.status_code == 200
    return response.content.decode()


def _section(body: str, title: str) -> str:
    """The home page's section headed `title` (empty when there is none)."""
    found = re.search(rf"<h2 id=\"[a-z]+-title\">{title}</h2>(.*?)</section>", body, re.S)
    return found.group(1) if found else ""


def test_a_players_home_leads_with_the_matches_to_continue(user_client, casino_match):
    from helpers import FIRST_8

    from scoring.matches import services

    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    body = _home(user_client)
    playing = _section(body, "Continue a match")
    assert f'href="/matches/{casino_match.pk}/"' in playing
    assert "Ana 8" in playing and "Ben 3" in playing  # the score so far
    assert "Keep score of Casino at a real table" not in body  # the marketing text is for visitors
    assert "Finished today" not in body


def test_a_players_home_lists_the_matches_finished_today_only(user_client, user, players):
    from datetime import timedelta

    from django.utils import timezone
    from helpers import FIRST_11

    from scoring.engine.rules import Rules
    from scoring.matches import services
    from scoring.models import Match

    circle = user.personal_circle
    finished = []
    for _ in range(2):
        match = services.match_start(
            circle=circle, rules=Rules.make("casino"), sides=[[players[0]], [players[1]]]
        )
        services.hand_record(match=match, number=1, tallies=FIRST_11)
        services.hand_record(match=match, number=2, tallies=FIRST_11)  # Ana 22: won
        finished.append(match)
    yesterday = timezone.localtime().replace(hour=0, minute=0) - timedelta(minutes=1)
    Match.objects.filter(pk=finished[0].pk).update(finished_at=yesterday)
    today = _section(_home(user_client), "Finished today")
    assert f'href="/matches/{finished[1].pk}/sheet/"' in today and "★" in today
    assert f"/matches/{finished[0].pk}/" not in today
    assert "Continue a match" not in _home(user_client)


def test_a_players_home_shows_every_circle_of_theirs_and_no_other(
    client, user, other_user, django_user_model
):
    from helpers import shared_match

    from scoring.access import personal_circle
    from scoring.engine.rules import Rules
    from scoring.matches import services
    from scoring.models import Membership

    theirs = shared_match(other_user, user)  # mallory's circle, ana a member
    outsider = django_user_model.objects.create_user(username="eve", password="casino-pass-3")
    circle = personal_circle(outsider)
    eve, zed = (services.player_create(circle=circle, name=n) for n in ("Eve", "Zed"))
    hidden = services.match_start(circle=circle, rules=Rules.make("casino"), sides=[[eve], [zed]])
    client.force_login(user)
    playing = _section(_home(client), "Continue a match")
    assert f'href="/matches/{theirs.pk}/"' in playing
    assert f"/matches/{hidden.pk}/" not in playing and "Eve" not in playing
    Membership.objects.filter(circle=theirs.circle, user=user).delete()  # ana removed
    assert f"/matches/{theirs.pk}/" not in _home(client)


def test_a_players_home_reads_the_same_few_queries_whatever_it_lists(
    user_client, user, players, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.engine.rules import Rules
    from scoring.matches import services

    def start() -> None:
        services.match_start(
            circle=user.personal_circle,
            rules=Rules.make("casino"),
            sides=[[players[0]], [players[1]]],
        )

    start()
    with CaptureQueriesContext(connection) as one:
        _home(user_client)
    for _ in range(8):
        start()
    with django_assert_max_num_queries(len(one.captured_queries)):
        body = _home(user_client)
    assert _section(body, "Continue a match").count("<li>") == 6  # the newest six
