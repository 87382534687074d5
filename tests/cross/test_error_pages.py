"""The app's own error pages: a member refused an admin's action reads why, in the app's layout
(with DEBUG off, as in production: Django's bare "403 Forbidden" page once had no message), and
so do a page that is not there and a request the app cannot read."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Circle, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def production(settings: Any) -> None:
    settings.DEBUG = False


@pytest.fixture
def member(django_user_model: Any, user: Any) -> Any:
    """ben, a plain member of ana's Friday table."""
    circle = Circle.objects.create(name="Friday table")
    Membership.objects.create(circle=circle, user=user, role=Membership.Role.ADMIN)
    ben = django_user_model.objects.create_user(username="ben", password="casino-pass-3")
    Membership.objects.create(circle=circle, user=ben)
    return ben


def _laid_out(body: str) -> bool:
    return "<header" in body and "app.css" in body and 'href="/"' in body


def test_a_members_403_gives_the_reason_in_the_apps_layout(member: Any) -> None:
    client = Client()
    client.force_login(member)
    circle = Circle.objects.get(name="Friday table")
    response = client.get(reverse("scoring:circle-invites", args=[circle.pk]))
    assert response.status_code == 403
    body = response.content.decode()
    assert "Only an admin of the circle can do that." in body
    assert _laid_out(body) and "<h1>Not allowed</h1>" in body


def test_a_missing_page_is_the_apps_404(user_client: Client) -> None:
    response = user_client.get("/matches/999999/")
    assert response.status_code == 404
    body = response.content.decode()
    assert _laid_out(body) and "<h1>Page not found</h1>" in body


@pytest.mark.parametrize("path", ["/shared/%00/", "/matches/%00/", "/join/%00/"])
def test_a_nul_address_is_the_apps_404_before_any_session_is_read(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.content.decode()


def test_an_unreadable_query_is_the_apps_400(user_client: Client) -> None:
    response = user_client.get("/matches/?q=a%00b")
    assert response.status_code == 400
    body = response.content.decode()
    assert _laid_out(body) and "<h1>Bad request</h1>" in body
