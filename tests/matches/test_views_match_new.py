import pytest
from django.urls import reverse

from scoring.models import Match, Player

pytestmark = pytest.mark.django_db
URL = reverse("scoring:match-new")


def _setup(**overrides):
    data = {
        "variant": "casino",
        "layout": "2",
        "seat_0": "Ana",
        "seat_1": "Ben",
        "first_dealer": "0",
        "target": "21",
    }
    data.update(overrides)
    return data


def test_new_match_form_renders_with_roster_suggestions(user_client, players):
    body = user_client.get(URL).content.decode()
    assert '<datalist id="player-names">' in body and '<option value="Dee">' in body


def test_new_match_htmx_request(user_client):
    assert user_client.get(URL, headers={"HX-Request": "true"}).status_code == 200


def test_new_match_refuses_put(user_client):
    assert user_client.put(URL).status_code == 405


def test_start_two_player_match_creates_new_players_inline(user_client, players):
    response = user_client.post(URL, _setup(seat_1="Zoe"))
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert Player.objects.filter(name="Zoe").exists()
    assert Player.objects.filter(name__iexact="ana").count() == 1
    assert (match.variant, match.target, match.sweeps) == ("casino", 21, "count")


def test_start_partnership_match_seats_partners_opposite(user_client):
    user_client.post(
        URL, _setup(layout="teams", seat_0="Ana", seat_1="Ben", seat_2="Cy", seat_3="Dee")
    )
    match = Match.objects.get()
    seats = [
        (s.seat, s.player.name, s.side.position)
        for s in match.seats.select_related("player", "side")
    ]
    assert seats == [(0, "Ana", 0), (1, "Ben", 1), (2, "Cy", 0), (3, "Dee", 1)]


def test_dominican_defaults_and_target_11_and_start_totals(user_client):
    user_client.post(URL, _setup(variant="dominican", target="11", start_0="5", start_1="7"))
    match = Match.objects.get()
    assert (match.sweeps, match.several_reach, match.target) == ("cancel", "highest", 11)
    assert list(match.sides.values_list("start_total", "total")) == [(5, 5), (7, 7)]


def test_other_target_needs_a_number(user_client):
    response = user_client.post(URL, _setup(target="other"))
    assert response.status_code == 400 and "Enter the target score." in response.content.decode()
    assert not Match.objects.exists()


def test_missing_and_repeated_names_are_refused(user_client):
    response = user_client.post(URL, _setup(layout="3", seat_1="ana", seat_2=""))
    body = response.content.decode()
    assert "ana already has a seat." in body and "Who sits here?" in body
    assert not Match.objects.exists()


def test_difference_scoring_with_three_players_is_refused(user_client):
    response = user_client.post(URL, _setup(layout="3", seat_2="Cy", scoring="difference"))
    assert "Difference scoring needs exactly two sides." in response.content.decode()


def test_first_dealer_must_sit_at_the_table(user_client):
    response = user_client.post(URL, _setup(first_dealer="3"))
    assert "Choose one of the 2 seats." in response.content.decode()
    assert not Match.objects.exists()


def test_start_total_must_be_below_target(user_client):
    response = user_client.post(URL, _setup(start_0="21"))
    assert "This side alone is at or past the target (21)" in response.content.decode()
