import re

import pytest
from helpers import FIRST_8, FIRST_11, HX, app_url

from scoring.engine.rules import Rules
from scoring.matches import selectors, services
from scoring.models import Hand, Match

pytestmark = pytest.mark.django_db
# Side 1: 27 cards, 7 spades, 10♦ and A♠: 3 + 1 + 2 + 1 = 7; side 2 gets the rest: 2♠ and 3 aces = 4.
TYPICAL = {"number": "1", "cards_0": "27", "spades_0": "7", "card_10D": "0", "card_AS": "0"}


def _totals(match):
    return list(match.sides.order_by("position").values_list("total", flat=True))


def test_scoreboard_shows_totals_dealer_leader_and_deals(user_client, casino_match):
    body = user_client.get(app_url("match", casino_match)).content.decode()
    assert "Deals:</span> <strong>Ana</strong>" in body
    assert "Plays first:</span> <strong>Ben</strong>" in body
    assert "6 deals of 4 cards each" in body and "last" in body
    assert 'name="cards_0"' in body


def test_scoreboard_htmx_request_returns_board_fragment(user_client, casino_match):
    body = user_client.get(app_url("match", casino_match), headers=HX).content.decode()
    assert body.lstrip().startswith('<div id="board"') and "<html" not in body


def test_scoreboard_of_another_user_is_404(client, other_user, casino_match):
    client.force_login(other_user)
    assert client.get(app_url("match", casino_match)).status_code == 404
    assert client.post(app_url("hand-create", casino_match), TYPICAL).status_code == 404
    assert client.post(app_url("hand-preview", casino_match), TYPICAL).status_code == 404
    assert client.post(app_url("match-abandon", casino_match)).status_code == 404
    assert client.post(app_url("match-rematch", casino_match)).status_code == 404
    assert client.post(app_url("hand-delete", casino_match)).status_code == 404
    assert not Hand.objects.exists()


def test_scoreboard_refuses_post_and_hand_create_refuses_get(user_client, casino_match):
    assert user_client.post(app_url("match", casino_match)).status_code == 405
    assert user_client.get(app_url("hand-create", casino_match)).status_code == 405


def test_scoreboard_needs_login(client, casino_match):
    assert client.get(app_url("match", casino_match)).status_code == 302


def test_plain_post_records_hand_with_second_side_filled_from_the_deck(user_client, casino_match):
    response = user_client.post(app_url("hand-create", casino_match), TYPICAL)
    assert response.status_code == 302
    assert _totals(casino_match) == [7, 4]
    second = casino_match.hands.get().tallies.get(side__position=1)
    assert (second.cards, second.spades, second.little_casino, second.aces) == (25, 6, True, "CHD")


def test_htmx_post_returns_a_fresh_form_and_what_the_hand_changed(user_client, casino_match):
    response = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and '<div id="board"' not in body
    assert body.lstrip().startswith('<section class="entry" id="entry"')
    assert 'name="number" value="2"' in body and 'value="27"' not in body
    assert re.search(r'id="board-status" hx-swap-oob="true"', body) and 'data-total="0">7<' in body
    assert re.search(r'id="turn"[^>]*hx-swap-oob="true"', body)
    assert "Deals:</span> <strong>Ben</strong>" in body
    assert re.search(r'id="sheet" hx-swap-oob="true"', body) and "Hand 1" in body
    assert re.search(r'id="board-poll"[^>]*hx-swap-oob="true"', body)


def test_a_later_hand_appends_its_row_instead_of_sending_the_sheet(user_client, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    data = {**TYPICAL, "number": "2"}
    body = user_client.post(app_url("hand-create", casino_match), data, headers=HX).content.decode()
    assert (
        '<template><tbody hx-swap-oob="beforeend:#hands">' in body and 'aria-label="Hand 2"' in body
    )
    assert 'id="sheet"' not in body and "Hand 1<" not in body


def test_a_hand_that_ends_the_match_replaces_the_whole_board(user_client, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_11)
    data = {**TYPICAL, "number": "2", "cards_0": "30", "spades_0": "9"}
    data.update({"card_2S": "0", "card_AC": "0", "card_AH": "0", "card_AD": "0"})
    response = user_client.post(app_url("hand-create", casino_match), data, headers=HX)
    assert response["HX-Retarget"] == "#board"
    assert response.content.decode().lstrip().startswith('<div id="board"')


def test_the_board_shows_the_latest_hands_and_links_the_rest(user_client, user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino", target=500),
        sides=[[players[0]], [players[1]]],
    )
    for number in range(1, 13):
        services.hand_record(match=match, number=number, tallies=FIRST_8)
    body = user_client.get(app_url("match", match)).content.decode()
    earlier = 12 - selectors.BOARD_HANDS
    assert f"{earlier} earlier hands are on the full score sheet." in body
    assert f'aria-label="Hand {earlier + 1}"' in body and 'aria-label="Hand 12"' in body
    assert f'aria-label="Hand {earlier}"' not in body
    assert app_url("match-sheet", match) in body
    assert "Points in hand" not in body  # breakdowns come when a hand is opened
    detail = user_client.get(app_url("hand", match, 3), headers=HX).content.decode()
    assert "Points in hand 3" in detail and "<html" not in detail
    page = user_client.get(app_url("hand", match, 3)).content.decode()
    assert "Points in hand 3" in page and "<html" in page
    assert user_client.get(app_url("hand", match, 13)).status_code == 404


def test_hand_that_does_not_add_up_keeps_values_and_says_what_is_off(user_client, casino_match):
    data = {**TYPICAL, "cards_1": "20"}
    response = user_client.post(app_url("hand-create", casino_match), data, headers=HX)
    body = response.content.decode()
    assert response.status_code == 400
    assert "cards add up to 47, not 52" in body
    assert 'value="27"' in body and 'value="20"' in body
    assert 'aria-describedby="id_cards_0_error"' in body
    assert not Hand.objects.exists()


def test_three_sides_the_last_follows_from_the_deck_and_gets_the_cards_given_to_no_one(
    user_client, user, players
):
    match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[p] for p in players[:3]]
    )
    data = {"number": "1", "cards_0": "20", "spades_0": "5", "cards_1": "18", "spades_1": "5"}
    data.update({"card_10D": "0", "card_2S": "1", "card_AS": "0"})
    response = user_client.post(app_url("hand-create", match), data)
    assert response.status_code == 302
    stored = selectors.hand_tallies(match.hands.get(number=1))
    assert [(t.cards, t.spades) for t in stored] == [(20, 5), (18, 5), (14, 3)]
    assert [t.aces for t in stored] == ["S", "", "CHD"]


def test_a_card_the_last_side_cannot_hold_names_the_card(user_client, user, players):
    match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[p] for p in players[:3]]
    )
    # Cy is left 0 spades by the deck, but gets the 2♠ nobody was given.
    data = {"number": "1", "cards_0": "20", "spades_0": "8", "cards_1": "18", "spades_1": "5"}
    data.update({"card_10D": "0", "card_AS": "0"})
    response = user_client.post(app_url("hand-create", match), data)
    body = response.content.decode()
    assert response.status_code == 400 and "2♠" in body
    assert not Hand.objects.exists()


def test_double_submit_records_the_hand_once(user_client, casino_match):
    user_client.post(app_url("hand-create", casino_match), TYPICAL)
    response = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    assert response.status_code == 200
    assert Hand.objects.filter(match=casino_match).count() == 1
    assert _totals(casino_match) == [7, 4]


def test_preview_shows_points_without_saving(user_client, casino_match):
    response = user_client.post(app_url("hand-preview", casino_match), TYPICAL, headers=HX)
    body = response.content.decode()
    assert "+7 → 7" in body and "+4 → 4" in body
    assert not Hand.objects.exists()


def test_preview_of_a_form_past_the_next_hand_scores_nothing(user_client, casino_match):
    """A form out of date (hands undone on another phone since it was shown) previews hand 3 of
    a match of none: nothing to score, not a 500 (found by the phones' random walk)."""
    response = user_client.post(
        app_url("hand-preview", casino_match), {**TYPICAL, "number": "3"}, headers=HX
    )
    assert response.status_code == 200
    assert "+7" not in response.content.decode()
    assert not Hand.objects.exists()


def test_preview_without_javascript_renders_the_page(user_client, casino_match):
    response = user_client.post(app_url("hand-create", casino_match), {**TYPICAL, "preview": "1"})
    body = response.content.decode()
    assert response.status_code == 200 and "This hand scores:" in body and "<html" in body
    assert not Hand.objects.exists()


def test_sweep_buttons_without_javascript_count_and_keep_what_was_typed(user_client, casino_match):
    data = {**TYPICAL, "sweeps_1": "2", "step": "1:+1"}
    body = user_client.post(app_url("hand-create", casino_match), data).content.decode()
    assert re.search(r'name="sweeps_1" id="id_sweeps_1"\s+value="3"', body)
    assert re.search(r'name="cards_0" id="id_cards_0"\s+value="27"', body)
    assert re.search(r'id="id_card_10D_0"[^>]* checked', body)
    assert "This field is required" not in body
    data = {**TYPICAL, "step": "0:-1"}  # never below zero
    body = user_client.post(app_url("hand-create", casino_match), data).content.decode()
    assert re.search(r'name="sweeps_0" id="id_sweeps_0"\s+value="0"', body)
    assert not Hand.objects.exists()


def test_win_is_announced_with_reason_and_rematch(user_client, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_11)
    data = {**TYPICAL, "number": "2", "cards_0": "30", "spades_0": "9"}
    data.update({"card_2S": "0", "card_AC": "0", "card_AH": "0", "card_AD": "0"})
    body = user_client.post(app_url("hand-create", casino_match), data, headers=HX).content.decode()
    assert "Ana wins!" in body and "Ana reached 21, with 22." in body and "Rematch" in body
    assert 'name="cards_0"' not in body  # no entry form once the match is won


def test_tied_finish_says_play_another_hand(user_client, user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino"),
        sides=[[players[0]], [players[1]]],
        start_totals=[19, 17],
    )
    data = {
        "number": "1",
        "cards_0": "26",
        "spades_0": "6",
        "card_2S": "0",
        "card_AH": "0",
        "card_AD": "0",
    }
    body = user_client.post(app_url("hand-create", match), data, headers=HX).content.decode()
    assert "Tied at 22: play another hand." in body


def test_dominican_condition_is_shown(user_client, user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("dominican"),
        sides=[[players[0]], [players[1]]],
        start_totals=[19, 3],
    )
    body = user_client.get(app_url("match", match)).content.decode()
    assert "At 19: wins only by taking the big casino (10♦)." in body
    assert "counter-clockwise" in body


def test_abandon_and_rematch(user_client, casino_match):
    response = user_client.post(app_url("match-abandon", casino_match))
    assert response.status_code == 302
    casino_match.refresh_from_db()
    assert casino_match.status == "abandoned"
    assert (
        "This match was abandoned."
        in user_client.get(app_url("match", casino_match)).content.decode()
    )
    response = user_client.post(app_url("match-rematch", casino_match))
    rematch = Match.objects.exclude(pk=casino_match.pk).get()
    assert response["Location"] == rematch.get_absolute_url()


def test_delete_last_hand(user_client, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    response = user_client.post(app_url("hand-delete", casino_match), {"number": "1"})
    assert response.status_code == 302 and not Hand.objects.exists()
    assert _totals(casino_match) == [0, 0]
    response = user_client.post(app_url("hand-delete", casino_match), {"number": "1"}, follow=True)
    assert "There is no hand to delete." in response.content.decode()


def test_a_second_delete_of_the_same_hand_deletes_nothing_more(user_client, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    services.hand_record(match=casino_match, number=2, tallies=FIRST_8)
    user_client.post(app_url("hand-delete", casino_match), {"number": "2"})
    response = user_client.post(app_url("hand-delete", casino_match), {"number": "2"}, follow=True)
    assert "Hand 2 is not the last hand any more: nothing was deleted." in response.content.decode()
    assert list(Hand.objects.values_list("number", flat=True)) == [1]


def test_bad_hand_number_says_the_form_is_out_of_date(user_client, casino_match):
    response = user_client.post(app_url("hand-create", casino_match), {**TYPICAL, "number": "x"})
    assert "This form is out of date" in response.content.decode()
    assert not Hand.objects.exists()


def test_a_saved_hand_tells_the_phone_to_forget_its_draft_and_a_refused_one_does_not(
    user_client, casino_match
):
    """django-htmx's trigger_client_event: app.js forgets the draft on "hand-saved", instead of
    searching the answer's text for the toast's marker."""
    import json

    saved = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    assert saved.status_code == 200
    assert json.loads(saved["HX-Trigger"]) == {"hand-saved": {"match": casino_match.pk}}
    refused = user_client.post(
        app_url("hand-create", casino_match),
        {**TYPICAL, "cards_0": "60", "number": "2"},
        headers=HX,
    )
    assert refused.status_code == 400
    assert "HX-Trigger" not in refused


def _statements(queries) -> list[str]:
    """What a request ran besides the session, the user and transaction control (the test's
    own transaction turns each of the save's into a savepoint)."""
    return [
        query["sql"]
        for query in queries
        if not re.match(r"\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)", query["sql"])
        and "django_session" not in query["sql"]
        and '"auth_user"' not in query["sql"]
    ]


def test_a_hand_save_runs_ten_statements_or_fewer(user_client, casino_match):
    """One locked read of the match (its event first), the seats, the hand, its tallies, the
    totals and status, the statistics: one service call, nothing read twice."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    second = {**TYPICAL, "number": "2", "cards_0": "30"}
    with CaptureQueriesContext(connection) as queries:
        response = user_client.post(app_url("hand-create", casino_match), second, headers=HX)
    assert response.status_code == 200
    statements = _statements(queries.captured_queries)
    assert len(statements) <= 10, "\n".join(statements)
    with CaptureQueriesContext(connection) as queries:  # a refused hand: a few reads, no write
        refused = {**TYPICAL, "number": "3", "cards_0": "60"}
        response = user_client.post(app_url("hand-create", casino_match), refused, headers=HX)
    assert response.status_code == 400
    statements = _statements(queries.captured_queries)
    assert len(statements) <= 4, "\n".join(statements)
    assert not [s for s in statements if re.match(r"\s*(INSERT|UPDATE|DELETE)", s)]
