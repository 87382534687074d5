"""The server's side of a match started without signal (local.js): the outbox sends it before its
hands, and the server starts it once however often it is sent, in the circle it was started in,
refusing what the new-match form refuses; a rematch sent so is the match's one rematch. And the
page the phone shows such a match on."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from helpers import tally

from scoring.access import personal_circle
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.matches.forms import MatchForm
from scoring.models import Circle, Match, Membership

pytestmark = pytest.mark.django_db

MATCH_ID = "0b7f6c2e-6f0a-4a4e-9a57-2b8de0f7c1a9"
# The new-match form as the phone posts it (local.js: every field of the form, as typed).
SETUP = {
    "variant": "swedish",
    "layout": "3",
    "seat_0": "ana",
    "seat_1": "Ben",
    "seat_2": "Cleo",
    "first_dealer": "1",
    "target": "usual",
    "sweeps": "",
    "several_reach": "",
    "scoring": "",
    "twenty_needs": "little-casino",
    "ties": "carry",
    "sweep_freeze": "10",
}


def _send(client, **data):
    return client.post(reverse("scoring:match-sync"), data)


def test_a_match_started_offline_is_started_once_however_often_it_is_sent(
    user_client, user, players
):
    first = _send(user_client, **SETUP, client_id=MATCH_ID, account=user.pk)
    again = _send(user_client, **SETUP, client_id=MATCH_ID, account=user.pk)
    assert first.status_code == 201 and first["Content-Type"] == "application/json"
    assert first.json() == again.json()
    match = Match.objects.get()
    assert first.json() == {
        "state": "saved",
        "match": match.pk,
        "url": match.get_absolute_url(),
        "sync": reverse("scoring:hand-sync", args=[match.pk]),
    }
    assert (match.variant, match.first_dealer_seat, match.client_id) == ("swedish", 1, MATCH_ID)
    assert match.created_by == user and match.circle == user.personal_circle
    # "ana" is the circle's Ana: no second player.
    assert match.seats.get(seat=0).player == players[0]


def test_its_hands_follow_it_to_the_server(user_client, user):
    answer = _send(user_client, **SETUP, client_id=MATCH_ID, account=user.pk).json()
    hand = {"number": "1", "cards_0": "20", "spades_0": "6", "cards_1": "16", "spades_1": "4"}
    response = user_client.post(
        answer["sync"], {**hand, "last_capture": "2", "client_id": "h1", "account": user.pk}
    )
    assert response.status_code == 201 and response.json()["state"] == "saved"
    assert Match.objects.get().hand_count == 1


def test_what_the_new_match_form_refuses_is_refused_in_json_and_nothing_is_started(
    user_client, user
):
    response = _send(
        user_client, **{**SETUP, "seat_2": "", "scoring": "difference"}, client_id=MATCH_ID
    )
    assert response.status_code == 400
    assert response.json()["state"] == "invalid"
    assert set(response.json()["errors"]) == {
        "Who sits here?",
        "Difference scoring needs exactly two sides.",
    }
    assert not Match.objects.exists()


@pytest.mark.parametrize("client_id", ["", "x" * 65, "bad\x00id"])
def test_a_match_without_a_fit_id_is_refused(user_client, client_id):
    response = _send(user_client, **SETUP, client_id=client_id)
    assert (response.status_code, response.json()["state"]) == (400, "invalid")
    assert not Match.objects.exists()


def test_another_accounts_match_or_no_session_starts_nothing(client, user, other_user):
    assert _send(client, **SETUP, client_id=MATCH_ID).status_code == 401
    client.force_login(other_user)
    response = _send(client, **SETUP, client_id=MATCH_ID, account=user.pk)
    assert (response.status_code, response.json()) == (403, {"state": "account"})
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert _send(strict, **SETUP, client_id=MATCH_ID).status_code == 403
    assert not Match.objects.exists()


def test_it_goes_to_the_circle_it_was_started_in_and_not_to_one_left_meanwhile(
    client, user, other_user
):
    shared = Circle.objects.create(name="Friday club")
    Membership.objects.create(circle=shared, user=other_user, role="member")
    client.force_login(other_user)
    personal_circle(other_user)
    answer = _send(client, **SETUP, client_id=MATCH_ID, account=other_user.pk, circle=shared.pk)
    assert answer.status_code == 201
    assert Match.objects.get().circle == shared
    Membership.objects.filter(circle=shared, user=other_user).delete()
    response = _send(client, **SETUP, client_id="another", account=other_user.pk, circle=shared.pk)
    assert (response.status_code, response.json()["state"]) == (404, "gone")
    assert Match.objects.count() == 1


def test_a_rematch_sent_from_the_outbox_is_the_matchs_one_rematch(user_client, user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino", target=5),
        sides=[[players[0]], [players[1]]],
    )
    services.hand_record(
        match=match,
        number=1,
        tallies=(tally(30, 9, big=True, little=True, aces="SCHD"), tally(22, 4)),
    )
    online = services.match_rematch(match=match, by=user)  # another phone, with signal
    response = _send(user_client, client_id=MATCH_ID, rematch_of=match.pk, account=user.pk)
    assert response.status_code == 201 and response.json()["match"] == online.pk
    assert Match.objects.filter(rematch_of=match).count() == 1


def test_the_same_id_in_another_circle_is_another_match(user, other_user, players):
    ana = services.player_create(circle=personal_circle(other_user), name="Ana")
    ben = services.player_create(circle=personal_circle(other_user), name="Ben")
    for circle, sides in (
        (user.personal_circle, players[:2]),
        (other_user.personal_circle, (ana, ben)),
    ):
        services.match_start(
            circle=circle,
            rules=Rules.make("casino"),
            sides=[[p] for p in sides],
            client_id=MATCH_ID,
        )
    assert Match.objects.filter(client_id=MATCH_ID).count() == 2


def test_the_page_of_a_match_started_offline_has_a_hand_form_for_every_table(user_client):
    response = user_client.get(reverse("scoring:match-offline"))
    html = response.content.decode()
    assert response.status_code == 200
    keys = re.findall(r'data-hand-fields="([^"]+)"', html)
    assert sorted(keys) == sorted(
        [
            *(
                f"{sides}-{game}"
                for sides in (2, 3, 4)
                for game in ("casino", "swedish", "spade", "finnish")
            ),
            # Quick entry where the table has it: two sides, not Spade Casino.
            *(f"2-{game}-quick" for game in ("casino", "swedish", "finnish")),
        ]
    )
    assert "[[3]]" in html and 'name="last_capture"' in html and 'name="card_JS"' in html
    assert 'id="board-offline-words"' in html and "data-local-page" in html
    assert "scoring/local.js" in html


def test_the_new_match_form_carries_its_refusals_for_the_phone(user_client):
    response = user_client.get(reverse("scoring:match-new"), headers={"accept-language": "es"})
    html = response.content.decode()
    assert 'id="match-offline-words"' in html and "data-local-new" in html
    words = MatchForm.offline_messages()
    assert words["limits"]["dominican"] == 4
    assert "Who sits here?" not in html  # in the reader's language


def test_the_worker_keeps_the_pages_a_match_started_offline_needs(client):
    body = client.get("/sw.js").content.decode()
    kept = re.search(r"const KEPT = /(.+)/;", body).group(1)
    pattern = re.compile(kept.replace("\\/", "/"))
    for path in ("/matches/", "/matches/12/", "/matches/new/", "/matches/offline/"):
        assert pattern.match(path), path
    assert not pattern.match("/matches/sync/")
    assert "/static/scoring/local.js" in body
