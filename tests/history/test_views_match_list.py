import pytest
from django.urls import reverse
from helpers import FIRST_11

from scoring.matches import services

pytestmark = pytest.mark.django_db
URL = reverse("scoring:match-list")


def test_match_list_shows_own_matches_with_totals_and_winner(user_client, casino_match):
    for number in (1, 2):
        services.hand_record(match=casino_match, number=number, tallies=FIRST_11)
    body = user_client.get(URL).content.decode()
    assert "Ana 22" in body and "Ben 0" in body and "won" in body


def test_match_list_hides_other_users_matches(client, other_user, casino_match):
    client.force_login(other_user)
    body = client.get(URL).content.decode()
    assert casino_match.get_absolute_url() not in body


def test_match_list_htmx_request(user_client, casino_match):
    response = user_client.get(URL, headers={"HX-Request": "true"})
    assert response.status_code == 200


def test_match_list_refuses_post(user_client):
    assert user_client.post(URL).status_code == 405


def test_match_list_needs_login(client):
    assert client.get(URL).status_code == 302
