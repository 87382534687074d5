import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from helpers import at_once

from scoring.models import FormSubmission
from scoring.web.once import FIELD

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-pass-42"


def test_signup_creates_account_and_logs_in(client):
    response = client.post(
        reverse("account_signup"),
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:match-new")
    assert get_user_model().objects.filter(username="newbie").exists()
    assert client.get(reverse("scoring:match-new")).status_code == 200


def test_signup_asks_for_the_password_once_and_names_the_circle_as_a_person_would(client):
    page = client.get(reverse("account_signup")).content.decode()
    assert page.count('type="password"') == 1
    assert 'data-show-password="id_password1"' in page  # and a way to see what was typed
    response = client.post(reverse("account_signup"), {"username": "ana", "password1": PASSWORD})
    assert response.status_code == 302
    circle = get_user_model().objects.get(username="ana").personal_circle
    assert circle.name == "ana’s circle"


def test_the_personal_circle_is_named_in_the_language_of_the_sign_up(client):
    client.post(reverse("scoring:language"), {"language": "es", "next": "/"})
    client.post(reverse("account_signup"), {"username": "ana", "password1": PASSWORD})
    assert get_user_model().objects.get(username="ana").personal_circle.name == "Círculo de ana"


def test_signup_with_a_weak_password_shows_errors_and_keeps_the_name(client):
    response = client.post(reverse("account_signup"), {"username": "newbie", "password1": "newbie"})
    assert response.status_code == 400
    assert not get_user_model().objects.filter(username="newbie").exists()
    body = response.content.decode()
    assert 'class="errors"' in body and 'aria-invalid="true"' in body
    assert 'value="newbie"' in body


def test_the_former_signup_address_leads_to_the_signup_page_keeping_next(client):
    response = client.get(reverse("scoring:signup"), {"next": "/join/abc/"})
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_signup')}?next=%2Fjoin%2Fabc%2F"
    assert client.get(response["Location"]).status_code == 200


def test_signup_page_htmx_request(client):
    response = client.get(reverse("account_signup"), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()


def test_signup_refuses_put(client):
    assert client.put(reverse("account_signup")).status_code == 405
    assert client.put(reverse("scoring:signup")).status_code == 405


def test_signup_sent_twice_creates_one_account():
    """A double tap: the second request leaves before the first's answer (and its session
    cookie) arrives, so both come from the same anonymous visitor."""
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD, FIELD: "tap"}
    first = Client().post(reverse("account_signup"), data)
    second = Client().post(reverse("account_signup"), data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == reverse("scoring:match-new")
    assert get_user_model().objects.filter(username="newbie").count() == 1
    assert FormSubmission.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_taps_at_once_create_one_account():
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD, FIELD: "race"}
    responses = at_once(*[lambda: Client().post(reverse("account_signup"), data)] * 2)
    assert [response.status_code for response in responses] == [302, 302]
    assert get_user_model().objects.filter(username="newbie").count() == 1


def test_login_page_and_logout(client, user):
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"login": "ana", "password": "casino-pass-1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:match-list")
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("scoring:match-list")).status_code == 302


def test_a_wrong_password_shows_the_form_again_with_the_reason(client, user):
    response = client.post(reverse("login"), {"login": "ana", "password": "wrong"})
    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in (
        response.content.decode()
    )
    assert client.get(reverse("scoring:match-list")).status_code == 302


def test_a_sign_up_the_unique_index_turns_away_gets_the_forms_message(client, user, monkeypatch):
    """Two sign-ups for one username pass the form's check before either writes: the one the
    database refuses (made deterministic here) is shown the form's "taken" message, with 400."""
    from allauth.account.views import SignupView as AllauthSignupView
    from django.db import IntegrityError

    from scoring.accounts import views

    def refused(self, form):
        raise IntegrityError("UNIQUE constraint failed: auth_user.username")

    monkeypatch.setattr(AllauthSignupView, "form_valid", refused)
    monkeypatch.setattr(views, "filter_users_by_username", lambda name: get_user_model().objects)
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()


def test_a_sign_up_refused_by_the_database_for_another_reason_is_not_hidden(client, monkeypatch):
    from allauth.account.views import SignupView as AllauthSignupView
    from django.db import IntegrityError

    def refused(self, form):
        raise IntegrityError("something else")

    monkeypatch.setattr(AllauthSignupView, "form_valid", refused)
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD}
    with pytest.raises(IntegrityError):
        client.post(reverse("account_signup"), data)
