"""The server's side of working without signal: the manifest, the service worker, and the outbox's
hands, recorded once whatever number of times they are sent."""

import json

from django.test import Client
from django.urls import reverse
from helpers import FIRST_11

from scoring import services
from scoring.models import Hand

# Ana: 27 cards, 7 spades, 10♦ and A♠ (7 points); Ben the rest (4 points).
TYPICAL = {"number": "1", "cards_0": "27", "spades_0": "7", "card_10D": "0", "card_AS": "0"}
CLIENT_ID = "5b0c9e0e-1c39-4c5e-9d1e-3f8a3c1d2e4f"


def _sync(client, match, **data):
    return client.post(reverse("scoring:hand-sync", args=[match.pk]), data)


def test_the_manifest_names_the_app_in_the_readers_language(client):
    response = client.get("/manifest.webmanifest", headers={"accept-language": "uk"})
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    assert manifest["name"] != "Casino Scorekeeper"  # translated
    assert all(icon["src"].startswith("/static/scoring/icons/") for icon in manifest["icons"])


def test_the_service_worker_is_served_from_the_root_and_never_cached(client):
    response = client.get("/sw.js")
    body = response.content.decode()
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache" and response["Service-Worker-Allowed"] == "/"
    assert body.startswith("const RELEASE = '") and "/static/scoring/app.css" in body
    assert 'addEventListener("fetch"' in body


def test_an_outbox_hand_is_recorded_once_however_often_it_is_sent(user_client, casino_match):
    first = _sync(user_client, casino_match, **TYPICAL, client_id=CLIENT_ID)
    again = _sync(user_client, casino_match, **TYPICAL, client_id=CLIENT_ID)
    assert (first.status_code, first.json()) == (
        201,
        {"state": "saved", "number": 1, "created": True},
    )
    assert (again.status_code, again.json()["created"]) == (200, False)
    assert Hand.objects.get().client_id == CLIENT_ID
    casino_match.refresh_from_db()
    assert [side.total for side in casino_match.sides.order_by("position")] == [7, 4]


def test_a_resend_after_the_hand_was_kept_under_another_number_is_still_the_same(
    user_client, casino_match
):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_11)  # another phone
    taken = _sync(user_client, casino_match, **TYPICAL, client_id=CLIENT_ID)
    assert taken.status_code == 409
    assert taken.json() == {"state": "conflict", "number": 1, "next": 2}
    kept = _sync(user_client, casino_match, **{**TYPICAL, "number": "2"}, client_id=CLIENT_ID)
    resent = _sync(user_client, casino_match, **{**TYPICAL, "number": "2"}, client_id=CLIENT_ID)
    assert kept.status_code == 201 and resent.status_code == 200
    assert list(casino_match.hands.values_list("number", flat=True)) == [1, 2]


def test_an_outbox_hand_that_does_not_add_up_says_why(user_client, casino_match):
    response = _sync(user_client, casino_match, **{**TYPICAL, "cards_0": "60"}, client_id="x1")
    assert response.status_code == 400 and response.json()["state"] == "invalid"
    assert _sync(user_client, casino_match, **TYPICAL).status_code == 400  # no id
    assert not Hand.objects.exists()


def test_an_expired_session_or_a_stale_token_records_nothing(client, casino_match, user):
    response = _sync(client, casino_match, **TYPICAL, client_id=CLIENT_ID)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert _sync(strict, casino_match, **TYPICAL, client_id=CLIENT_ID).status_code == 403
    assert not Hand.objects.exists()
