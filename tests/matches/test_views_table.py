"""What phones do at a table, seen from the server: a stale hand number, a second phone's poll,
Back (no stored pages), and creating forms sent twice."""

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from helpers import FIRST_8, HX, app_url, at_once, tally

from scoring.engine import rules
from scoring.matches import services
from scoring.models import FormSubmission, Hand, Match, Player
from scoring.web import watch
from scoring.web.once import FIELD

pytestmark = pytest.mark.django_db
# Side 1: 27 cards, 7 spades, 10♦ and A♠ (7 points); side 2 the rest (4 points).
TYPICAL = {"number": "1", "cards_0": "27", "spades_0": "7", "card_10D": "0", "card_AS": "0"}
SETUP = {"variant": "casino", "layout": "2", "target": "21", "first_dealer": "0"}


@pytest.mark.parametrize("headers", [{}, HX], ids=["plain", "htmx"])
def test_a_hand_number_taken_meanwhile_shows_both_versions_and_stores_nothing_until_chosen(
    user_client, casino_match, headers
):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    data = {**TYPICAL, "cards_0": "30", "spades_0": "9"}
    response = user_client.post(app_url("hand-create", casino_match), data, headers=headers)
    body = response.content.decode()
    assert response.status_code == 409
    assert "Hand 1 was saved from another screen." in body
    assert "your counts are now hand 2" not in body  # no form filled in, a tap from saving
    assert 'name="cards_0" id="id_cards_0"' not in body
    assert "already recorded" not in body  # a note, not an error that loops
    # The saved version beside the one typed here, the counts that differ marked.
    first = body.split('class="breakdown clash-side"')[1]
    assert '<th scope="row">Cards</th><td>29</td><td class="differs">30</td>' in first
    assert '<th scope="row">Spades</th><td>8</td><td class="differs">9</td>' in first
    assert '<th scope="row">Sweeps</th><td>0</td><td>0</td>' in first
    assert Hand.objects.count() == 1  # nothing stored until the player chooses
    # Two plain forms: keep mine as hand 2 (the counts typed, posted again), or discard them.
    keep = re.search(r"<form method=\"post\"[^>]*data-clash-keep>(.*?)</form>", body, re.S)
    assert keep is not None and "Keep mine as hand 2" in keep.group(1)
    posted = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', keep.group(1)))
    assert posted.pop("number") == "2" and posted.pop("csrfmiddlewaretoken")
    assert posted == {key: value for key, value in data.items() if key != "number"}
    discard = re.search(r'<form method="get" action="([^"]+)" data-clash-discard', body)
    assert discard is not None and discard.group(1) == casino_match.get_absolute_url()
    assert "Discard mine" in body
    response = user_client.post(
        app_url("hand-create", casino_match), {**posted, "number": "2"}, headers=headers
    )
    assert response.status_code in (200, 302)
    assert list(Hand.objects.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert Hand.objects.get(number=2).tallies.get(side__position=0).cards == 30


def test_the_outbox_is_told_both_versions_of_a_hand_number_taken_meanwhile(
    user_client, casino_match
):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    data = {**TYPICAL, "cards_0": "30", "spades_0": "9", "client_id": "phone-a-1"}
    response = user_client.post(app_url("hand-sync", casino_match), data)
    assert response.status_code == 409
    answer = response.json()
    assert answer["state"] == "conflict" and answer["next"] == 2
    assert [side["cards"] for side in answer["saved"]] == [29, 23]
    assert [side["cards"] for side in answer["mine"]] == [30, 22]
    assert answer["mine"][0]["taken"] == ["10♦ (big casino)", "A♠"]
    assert [side["name"] for side in answer["saved"]] == [side["name"] for side in answer["mine"]]
    assert Hand.objects.count() == 1


def test_a_hand_number_taken_by_the_winning_hand_says_the_match_is_over(user_client, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    services.match_abandon(match=casino_match)  # over: no next number to move the counts to
    response = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    body = response.content.decode()
    assert response.status_code == 409
    assert "Hand 1 was saved from another screen, and the match is over." in body
    assert 'name="cards_0"' not in body


def test_an_unchanged_board_answers_204_without_rendering(user_client, casino_match, user):
    casino_match.refresh_from_db()
    token = watch.token_for(user.pk, casino_match.pk, user_client.session.session_key)
    url = f"{app_url('match', casino_match)}?watch={token}&since={casino_match.version}"
    with CaptureQueriesContext(connection) as queries:
        response = user_client.get(url, headers=HX)
    assert response.status_code == 204 and response.content == b""
    # One read of the match joined to the membership and the session (still open): no user, no
    # sides or hands.
    assert len(queries) == 1
    assert "scoring_membership" in queries[0]["sql"] and "django_session" in queries[0]["sql"]
    assert not any(name in queries[0]["sql"] for name in ("auth_user", "hand"))


def test_a_changed_board_sends_totals_turn_sheet_and_number_but_not_the_form(
    user_client, casino_match
):
    casino_match.refresh_from_db()
    since = casino_match.version
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    response = user_client.get(f"{app_url('match', casino_match)}?since={since}", headers=HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'id="board-status" hx-swap-oob="true"', body)
    assert re.search(r'id="turn"[^>]*hx-swap-oob="true"', body) and "Hand 2" in body
    assert re.search(r'id="sheet" hx-swap-oob="true"', body)
    assert re.search(r'name="number" value="2" id="id_number" hx-swap-oob="true"', body)
    assert 'name="cards_0"' not in body  # what is being typed stays
    casino_match.refresh_from_db()
    assert f"since={casino_match.version}" in body  # the next poll asks from here


def test_a_board_whose_match_ended_elsewhere_is_replaced_whole(user_client, casino_match):
    casino_match.refresh_from_db()
    since = casino_match.version
    services.match_abandon(match=casino_match)
    response = user_client.get(f"{app_url('match', casino_match)}?since={since}", headers=HX)
    assert response["HX-Retarget"] == "#board" and response["HX-Reswap"] == "outerHTML"
    body = response.content.decode()
    assert "This match was abandoned." in body and 'name="cards_0"' not in body
    # A hand fixed into the winning one makes it won (RULES §5): the board still asks, slowly.
    poll = re.search(r'id="board-poll"[^>]*hx-get="([^"]+)"[^>]*hx-trigger="([^"]+)"', body)
    assert poll and "over=1" in poll[1] and poll[2].startswith("every 15s")


def _poll_url(body: str) -> str:
    found = re.search(r'id="board-poll"[^>]*hx-get="([^"]+)"', body)
    assert found, "the board asks whether anything changed"
    return found[1].replace("&amp;", "&")


def test_a_board_showing_the_win_follows_an_undo_of_the_deciding_hand(user_client, casino_match):
    """Phone A shows the win; phone B undoes the deciding hand: A's board (which had no form
    any more) comes back whole, with the form for the hand to play again."""
    winning = [tally(40, 13, True, True, "SCHD", 12), tally(12, 0)]
    services.hand_record(match=casino_match, number=1, tallies=winning)
    board = user_client.get(app_url("match", casino_match)).content.decode()
    assert 'name="cards_0"' not in board  # the match is over: no hand form
    poll = _poll_url(board)
    assert user_client.get(poll, headers=HX).status_code == 204  # nothing new yet
    services.hand_delete_last(match=Match.objects.get(pk=casino_match.pk), number=1)
    response = user_client.get(poll, headers=HX)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#board" and response["HX-Reswap"] == "outerHTML"
    body = response.content.decode()
    assert 'name="cards_0"' in body and "Hand 1" in body
    assert "over=1" not in _poll_url(body)  # open again: the quick poll of an open board


def test_a_finished_board_follows_a_fix_of_an_earlier_hand(user_client, casino_match):
    """A won match's earlier hand fixed on another phone: the board that shows it changes."""
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    winning = [tally(40, 13, True, True, "SCHD", 12), tally(12, 0)]
    services.hand_record(match=Match.objects.get(pk=casino_match.pk), number=2, tallies=winning)
    poll = _poll_url(user_client.get(app_url("match", casino_match)).content.decode())
    fixed = [tally(27, 7, True, False, "S"), tally(25, 6, False, True, "CHD")]
    services.hand_edit(match=Match.objects.get(pk=casino_match.pk), number=1, tallies=fixed)
    response = user_client.get(poll, headers=HX)
    assert response.status_code == 200 and response["HX-Retarget"] == "#board"
    shown = [int(t) for _, t in re.findall(r'data-total="(\d)">(\d+)<', response.content.decode())]
    score = rules.score_match(casino_match.rules, [fixed, winning])
    assert shown == list(score.totals) and score.totals != (0, 0)


def test_the_shared_board_answers_204_from_the_version_without_rendering(client, casino_match):
    from scoring.sharing import links

    match = links.share_link_create(match=casino_match)
    url = reverse("scoring:shared-match", args=[match.share_token])
    body = client.get(url).content.decode()
    poll = re.search(r'hx-get="([^"]+)"', body).group(1).replace("&amp;", "&")
    assert f"since={match.version}" in poll
    with CaptureQueriesContext(connection) as queries:
        response = client.get(poll, headers=HX)
    assert response.status_code == 204
    assert len(queries) == 1  # the match by its token
    services.hand_record(match=match, number=1, tallies=FIRST_8)
    assert client.get(poll, headers=HX).status_code == 200


@pytest.mark.parametrize("name", ["match", "match-list", "player-list", "match-new"])
def test_pages_that_change_are_not_stored_by_the_browser(user_client, casino_match, name):
    url = app_url(name, casino_match) if name == "match" else reverse(f"scoring:{name}")
    response = user_client.get(url)
    assert "no-store" in response["Cache-Control"]


# --- creating forms sent twice ------------------------------------------------------------------


def test_start_sent_twice_with_one_token_creates_one_match(user_client):
    data = {**SETUP, "seat_0": "Ana", "seat_1": "Ben", FIELD: "token-1"}
    first = user_client.post(reverse("scoring:match-new"), data)
    second = user_client.post(reverse("scoring:match-new"), data)
    assert Match.objects.count() == 1
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == Match.objects.get().get_absolute_url()


def test_the_same_token_with_other_data_is_a_new_submission(user_client):
    user_client.post(
        reverse("scoring:match-new"), {**SETUP, "seat_0": "A", "seat_1": "B", FIELD: "t"}
    )
    user_client.post(
        reverse("scoring:match-new"), {**SETUP, "seat_0": "A", "seat_1": "C", FIELD: "t"}
    )
    assert Match.objects.count() == 2


def test_another_users_token_is_not_their_reply(client, user, other_user):
    data = {**SETUP, "seat_0": "Ana", "seat_1": "Ben", FIELD: "same"}
    for who in (user, other_user):
        client.force_login(who)
        client.post(reverse("scoring:match-new"), data)
    assert sorted(Match.objects.values_list("created_by__username", flat=True)) == [
        "ana",
        "mallory",
    ]


def test_add_player_sent_twice_by_htmx_answers_the_roster_both_times(user_client):
    data = {"name": "Zoe", FIELD: "tok"}
    first = user_client.post(reverse("scoring:player-list"), data, headers=HX)
    second = user_client.post(reverse("scoring:player-list"), data, headers=HX)
    assert Player.objects.filter(name="Zoe").count() == 1
    assert second.status_code == 200 and second.content == first.content
    assert "already have a player" not in second.content.decode()


def test_rematch_sent_twice_creates_one(user_client, casino_match):
    url = app_url("match-rematch", casino_match)
    first = user_client.post(url, {FIELD: "r"})
    second = user_client.post(url, {FIELD: "r"})
    third = user_client.post(url)  # another phone, another token: still the same rematch
    assert Match.objects.filter(rematch_of=casino_match).count() == 1
    assert first["Location"] == second["Location"] == third["Location"]


def test_share_link_sent_twice_makes_one_link(user_client, casino_match):
    url = app_url("share-create", casino_match)
    first = user_client.post(url, {FIELD: "s"}, headers=HX)
    second = user_client.post(url, {FIELD: "s"}, headers=HX)
    assert first.content == second.content
    casino_match.refresh_from_db()
    assert casino_match.share_token in second.content.decode()


def test_import_sent_twice_imports_once(user_client, casino_match):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from scoring.sharing import exchange

    text = json.dumps(exchange.export_json(exchange.match_documents(casino_match.circle)))
    before = Match.objects.count()
    for _ in range(2):
        upload = SimpleUploadedFile("m.json", text.encode(), content_type="application/json")
        user_client.post(reverse("scoring:match-import"), {"file": upload, FIELD: "imp"})
    assert Match.objects.count() == before + 1


def test_creating_forms_carry_a_fresh_token_each_time(user_client, casino_match):
    pages = [
        reverse("scoring:match-new"),
        reverse("scoring:player-list"),
        reverse("scoring:match-import"),
    ]
    for page in pages:
        tokens = [
            re.search(rf'name="{FIELD}" value="([^"]+)"', user_client.get(page).content.decode())
            for _ in range(2)
        ]
        assert all(tokens), page
        assert tokens[0].group(1) != tokens[1].group(1), page


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_starts_with_one_token_create_one_match(user):
    data = {**SETUP, "seat_0": "Ana", "seat_1": "Ben", FIELD: "race"}
    clients = [Client(), Client()]
    for client in clients:
        client.force_login(user)
    responses = at_once(
        *[
            lambda client=client: client.post(reverse("scoring:match-new"), data)
            for client in clients
        ]
    )
    assert [response.status_code for response in responses] == [302, 302]
    assert Match.objects.count() == 1
    assert FormSubmission.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("what", ["player", "rename", "signup"])
def test_concurrent_creates_of_one_name_answer_already_exists(user, what):
    """Both requests pass the form's check before either writes: the loser must get the form's
    message, not a 500 from the unique index."""
    from django.contrib.auth import get_user_model

    if what == "rename":
        services.player_create(circle=user.personal_circle, name="Ana")
        services.player_create(circle=user.personal_circle, name="Ben")

    def submit(index):
        client = Client()
        if what != "signup":
            client.force_login(user)
        if what == "player":
            return lambda: client.post(reverse("scoring:player-list"), {"name": "Zoe"})
        if what == "rename":
            player = Player.objects.get(name=["Ana", "Ben"][index])
            return lambda: client.post(reverse("scoring:player", args=[player.pk]), {"name": "Zed"})
        data = {"username": "zoe", "password1": "pw-Zoe-12345!", "password2": "pw-Zoe-12345!"}
        return lambda: client.post(reverse("account_signup"), data)

    responses = at_once(submit(0), submit(1))
    assert not [r for r in responses if isinstance(r, BaseException)]  # neither request raised
    assert all(response.status_code < 500 for response in responses)
    if what == "signup":
        assert get_user_model().objects.filter(username="zoe").count() == 1
        refused = [r for r in responses if r.status_code != 302]
        assert len(refused) == 1
        assert "A user with that username already exists." in refused[0].content.decode()
    else:
        assert Player.objects.filter(name="Zoe" if what == "player" else "Zed").count() == 1


@pytest.mark.parametrize(
    "name", ["match", "match-list", "player-list", "match-import", "hand", "shared-match"]
)
def test_pages_that_answer_htmx_with_a_fragment_vary_on_hx_request(user_client, casino_match, name):
    """A cache must never hand a fragment to a page load, or the page to htmx."""
    from scoring.sharing import links

    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    urls = {
        "match": app_url("match", casino_match),
        "hand": app_url("hand", casino_match, 1),
        "shared-match": reverse(
            "scoring:shared-match",
            args=[links.share_link_create(match=casino_match).share_token],
        ),
    }
    url = urls.get(name) or reverse(f"scoring:{name}")
    for headers in ({}, HX):
        response = user_client.get(url, headers=headers)
        assert response.status_code == 200
        assert "HX-Request" in response.get("Vary", ""), (name, headers)
