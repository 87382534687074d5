"""The server's side of working without signal: the manifest, the service worker, and the outbox's
hands, recorded once whatever number of times they are sent."""

import json
import re
from unittest import mock

from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from helpers import FIRST_11, shared_match, tally

from scoring.circles import services as circles
from scoring.engine import rules as rules_module
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Hand, Membership

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
    assert {key: taken.json()[key] for key in ("state", "number", "next")} == {
        "state": "conflict",
        "number": 1,
        "next": 2,
    }
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
    assert (response.status_code, response.json()) == (401, {"state": "auth"})
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert _sync(strict, casino_match, **TYPICAL, client_id=CLIENT_ID).status_code == 403
    assert not Hand.objects.exists()


# --- every answer the outbox can get is one it can read ---------------------------------------


def test_a_removed_member_is_told_in_json_that_the_match_is_gone(client, user, other_user):
    match = shared_match(user, other_user)
    client.force_login(other_user)
    circles.member_remove(
        circle=match.circle,
        member_id=Membership.objects.get(circle=match.circle, user=other_user).pk,
        by=user,
    )
    response = _sync(client, match, **TYPICAL, client_id=CLIENT_ID, account=other_user.pk)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json() == {
        "state": "gone",
        "errors": ["This match is gone, or you are no longer in its circle."],
    }
    assert not Hand.objects.exists()


def test_a_deleted_match_is_gone_in_json(user_client, casino_match):
    services.match_delete(match=casino_match)
    response = _sync(user_client, casino_match, **TYPICAL, client_id=CLIENT_ID)
    assert response.status_code == 404 and response.json()["state"] == "gone"


def test_the_database_down_answers_503_in_json_with_retry_after(user_client, casino_match):
    with mock.patch.object(services, "hand_save", side_effect=OperationalError("injected fault")):
        response = _sync(user_client, casino_match, **TYPICAL, client_id=CLIENT_ID)
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert response.json() == {
        "state": "unavailable",
        "errors": ["Could not save the hand, nothing was stored; try again."],
    }
    # Back again: the same hand, sent again, is recorded once.
    assert _sync(user_client, casino_match, **TYPICAL, client_id=CLIENT_ID).status_code == 201
    assert Hand.objects.count() == 1


def test_a_server_error_and_a_wrong_method_answer_json(user_client, casino_match):
    with mock.patch.object(services, "hand_save", side_effect=RuntimeError("a bug")):
        response = _sync(user_client, casino_match, **TYPICAL, client_id=CLIENT_ID)
    assert (response.status_code, response.json()) == (500, {"state": "error"})
    wrong = user_client.get(reverse("scoring:hand-sync", args=[casino_match.pk]))
    assert (wrong.status_code, wrong.json(), wrong["Allow"]) == (405, {"state": "refused"}, "POST")


def test_a_hand_typed_by_another_account_is_not_recorded_in_this_session(
    user_client, casino_match, user, other_user
):
    """The phone changed hands: a hand another account typed is never stored as this one's."""
    response = _sync(
        user_client, casino_match, **TYPICAL, client_id=CLIENT_ID, account=other_user.pk
    )
    assert (response.status_code, response.json()) == (403, {"state": "account"})
    assert not Hand.objects.exists()
    mine = _sync(user_client, casino_match, **TYPICAL, client_id=CLIENT_ID, account=user.pk)
    assert mine.status_code == 201 and Hand.objects.get().entered_by == user


def test_the_board_names_the_account_it_is_for(user_client, casino_match, client, user):
    page = user_client.get(casino_match.get_absolute_url()).content.decode()
    assert re.search(rf'<body [^>]*data-account="{user.pk}"', page)
    user_client.logout()
    assert "data-account" not in client.get(reverse("login")).content.decode()


# --- what the phone scores with, offline ------------------------------------------------------


def _script(body: str, name: str) -> dict:
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', body, re.S)
    assert found, f"no {name} on the board"
    return json.loads(found.group(1))


def test_the_board_carries_what_the_phone_scores_the_next_hands_from(user_client, user):
    """The rules with every option, the seats, and the state after the last stored hand (the
    totals, a tie, Finnish pots): what rules.score_match carries from one hand to the next."""
    ana, ben = (services.player_create(circle=user.personal_circle, name=n) for n in "AB")
    rules = Rules.make("finnish", target=40, sweep_freeze="off")
    match = services.match_start(
        circle=user.personal_circle, rules=rules, sides=[[ana], [ben]], start_totals=[2, 0]
    )
    level = (tally(26, 7, big=True, aces="SC"), tally(26, 6, little=True, aces="HD"))
    services.hand_record(match=match, number=1, tallies=FIRST_11)
    services.hand_record(match=match, number=2, tallies=level)  # 26 cards each: a pot
    score = rules_module.score_match(rules, [FIRST_11, level], [2, 0])
    data = _script(
        user_client.get(match.get_absolute_url()).content.decode(), "board-offline-match"
    )
    assert data["rules"] == {
        "variant": "finnish",
        "target": 40,
        "sweeps": str(rules.sweeps),
        "several_reach": str(rules.several_reach),
        "scoring": str(rules.scoring),
        "twenty_needs": str(rules.twenty_needs),
        "ties": "carry",
        "sweep_freeze": "off",
    }
    assert data["sides"] == ["A", "B"] and data["seats"] == ["A", "B"]
    assert data["first_dealer"] == 0 and data["hand_count"] == 2
    assert data["totals"] == list(score.totals) and data["tied"] is False
    assert data["pots"] == list(score.pots) != [0, 0]


def test_the_words_for_the_offline_board_are_the_readers_language(user_client, casino_match):
    from django.utils import translation

    body = user_client.get(casino_match.get_absolute_url(), headers={"accept-language": "es"})
    words = _script(body.content.decode(), "board-offline-words")
    with translation.override("es"):
        one = translation.ngettext("%(name)s wins!", "%(name)s win!", 1)
        assert words["wins"]["1"] == one != "%(name)s wins!"
        # A team takes the plural.
        assert words["wins"]["2"] == translation.ngettext("%(name)s wins!", "%(name)s win!", 2)
        assert words["wins"]["2"] != one
        assert words["deals"]["3"].startswith("3 ")


def test_a_changed_board_sends_the_phone_the_new_match_too(user_client, casino_match):
    casino_match.refresh_from_db()
    since = casino_match.version
    services.hand_record(match=casino_match, number=1, tallies=FIRST_11)
    url = f"{casino_match.get_absolute_url()}?since={since}"
    body = user_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'id="board-offline" hidden hx-swap-oob="true"' in body
    assert _script(body, "board-offline-match")["hand_count"] == 1


def test_the_worker_keeps_the_engine_but_pages_do_not_load_it(client, user_client, casino_match):
    worker = client.get("/sw.js").content.decode()
    assert "/static/scoring/engine.js" in worker
    board = user_client.get(casino_match.get_absolute_url()).content.decode()
    assert 'data-engine="/static/scoring/engine.js"' in board
    assert '<script src="/static/scoring/engine.js"' not in board  # fetched only when needed
