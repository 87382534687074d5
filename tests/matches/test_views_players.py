import pytest
from django.urls import reverse

from scoring.models import Player

pytestmark = pytest.mark.django_db
URL = reverse("scoring:player-list")


def test_players_need_login(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_players_lists_only_own_players(user_client, players, other_user):
    Player.objects.create(circle=other_user.personal_circle, name="Secret Sam")
    body = user_client.get(URL).content.decode()
    assert "Ana" in body and "Dee" in body and "Secret Sam" not in body


def test_add_player_plain_post_redirects(user_client):
    response = user_client.post(URL, {"name": "Eve"})
    assert response.status_code == 302
    assert Player.objects.filter(name="Eve").exists()


def test_add_player_htmx_returns_roster_fragment(user_client):
    response = user_client.post(URL, {"name": "Eve"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="roster"' in body and "Eve" in body and "<html" not in body


def test_duplicate_name_in_other_case_is_refused_clearly(user_client, players):
    response = user_client.post(URL, {"name": "aNA"}, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert "You already have a player called aNA." in response.content.decode()
    assert Player.objects.filter(name__iexact="ana").count() == 1


def test_same_name_allowed_for_another_user(client, other_user, players):
    client.force_login(other_user)
    client.post(URL, {"name": "Ana"})
    assert Player.objects.filter(name="Ana").count() == 2


def test_players_refuse_delete_method(user_client):
    assert user_client.delete(URL).status_code == 405


def test_player_name_is_escaped(user_client):
    user_client.post(URL, {"name": "<script>x</script>"})
    body = user_client.get(URL).content.decode()
    assert "<script>x</script>" not in body and "&lt;script&gt;" in body
