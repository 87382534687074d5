import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_signup_creates_account_and_logs_in(client):
    response = client.post(
        reverse("scoring:signup"),
        {"username": "newbie", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:match-new")
    assert get_user_model().objects.filter(username="newbie").exists()
    assert client.get(reverse("scoring:match-new")).status_code == 200


def test_signup_with_mismatched_passwords_shows_errors(client):
    response = client.post(
        reverse("scoring:signup"),
        {"username": "newbie", "password1": "a-Long-pass-42", "password2": "other-pass-42"},
    )
    assert response.status_code == 400
    assert not get_user_model().objects.filter(username="newbie").exists()
    assert 'class="errors"' in response.content.decode()


def test_signup_page_htmx_request(client):
    response = client.get(reverse("scoring:signup"), headers={"HX-Request": "true"})
    assert response.status_code == 200


def test_signup_refuses_put(client):
    assert client.put(reverse("scoring:signup")).status_code == 405


def test_login_page_and_logout(client, user):
    assert client.get(reverse("login")).status_code == 200
    assert (
        client.post(reverse("login"), {"username": "ana", "password": "casino-pass-1"}).status_code
        == 302
    )
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("scoring:match-list")).status_code == 302
