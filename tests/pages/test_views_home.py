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
