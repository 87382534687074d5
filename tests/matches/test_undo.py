"""Undo right after a save: the hand is deleted by its number and row, its counts come back into
the form, and a double tap, a late tap or another phone's hand cannot make it delete anything else."""

import re

from helpers import FIRST_8, FIRST_11, HX, app_url

from scoring.matches import services
from scoring.models import Hand

# Ana: 27 cards, 7 spades, 10♦ and A♠ (7 points); Ben the rest (4 points).
TYPICAL = {"number": "1", "cards_0": "27", "spades_0": "7", "card_10D": "0", "card_AS": "0"}


def _undo_value(body: str) -> str:
    found = re.search(r'name="undo" value="([^"]+)"', body)
    assert found, "no Undo in the page"
    return found.group(1)


def test_a_saved_hand_says_what_it_scored_and_offers_undo(user_client, casino_match):
    body = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    text = body.content.decode()
    assert "Hand 1 saved:" in text and "Ana +7" in text and "Ben +4" in text
    hand = Hand.objects.get(match=casino_match, number=1)
    assert _undo_value(text) == f"1:{hand.pk}"


def test_undo_deletes_the_hand_and_puts_its_counts_back(user_client, casino_match):
    saved = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    undo = _undo_value(saved.content.decode())
    response = user_client.post(app_url("hand-delete", casino_match), {"undo": undo}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and response["HX-Retarget"] == "#board"
    assert not Hand.objects.filter(match=casino_match).exists()
    assert "Hand 1 was undone" in body
    # The counts typed for side 1 are back; side 2's follow from the deck, left blank.
    assert 'name="cards_0" id="id_cards_0"\n               value="27"' in body
    assert re.search(r'name="card_10D" value="0" id="id_card_10D_0" checked', body)
    casino_match.refresh_from_db()
    assert casino_match.hand_count == 0 and [s.total for s in casino_match.sides.all()] == [0, 0]


def test_a_double_tap_on_undo_deletes_one_hand_only(user_client, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    saved = user_client.post(
        app_url("hand-create", casino_match), {**TYPICAL, "number": "2"}, headers=HX
    )
    undo = _undo_value(saved.content.decode())
    first = user_client.post(app_url("hand-delete", casino_match), {"undo": undo}, headers=HX)
    second = user_client.post(app_url("hand-delete", casino_match), {"undo": undo}, headers=HX)
    assert first.status_code == second.status_code == 200
    assert "Hand 2 was already undone." in second.content.decode()
    assert list(casino_match.hands.values_list("number", flat=True)) == [1]


def test_undo_after_another_phone_saved_the_next_hand_deletes_nothing(user_client, casino_match):
    saved = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    undo = _undo_value(saved.content.decode())
    services.hand_record(match=casino_match, number=2, tallies=FIRST_11)  # the other phone
    response = user_client.post(app_url("hand-delete", casino_match), {"undo": undo}, headers=HX)
    assert "Hand 1 is not the last hand any more: nothing was deleted." in response.content.decode()
    assert list(casino_match.hands.values_list("number", flat=True)) == [1, 2]


def test_a_late_undo_spares_a_hand_saved_again_under_the_same_number(user_client, casino_match):
    saved = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    undo = _undo_value(saved.content.decode())
    user_client.post(app_url("hand-delete", casino_match), {"undo": undo}, headers=HX)
    services.hand_record(match=casino_match, number=1, tallies=FIRST_11)  # hand 1 again
    user_client.post(app_url("hand-delete", casino_match), {"undo": undo}, headers=HX)
    assert casino_match.hands.get().tallies.count() == 2


def test_without_javascript_the_board_after_saving_offers_undo_once(user_client, casino_match):
    response = user_client.post(app_url("hand-create", casino_match), TYPICAL, follow=True)
    body = response.content.decode()
    assert "Hand 1 saved:" in body and "<html" in body
    undo = _undo_value(body)
    assert 'formaction="' + app_url("hand-delete", casino_match) + '"' in body
    again = user_client.get(casino_match.get_absolute_url()).content.decode()
    assert "Hand 1 saved:" not in again  # told once, not on every later load

    # Undo posts the hand form to the delete address; the board then has the counts back.
    undone = user_client.post(
        app_url("hand-delete", casino_match), {**TYPICAL, "undo": undo}, follow=True
    )
    page = undone.content.decode()
    assert "Hand 1 was undone" in page
    assert not casino_match.hands.exists()
    assert 'value="27"' in page and 'value="7"' in page
    assert 'name="number" value="1"' in page
    after = user_client.get(casino_match.get_absolute_url()).content.decode()
    assert 'value="27"' not in after  # the counts came back once


def test_an_undo_refused_on_a_board_won_meanwhile_says_why(user_client, casino_match):
    """A late Undo on a board that another phone finished: the whole board comes back, won, and
    says that nothing was deleted (a finished board has no form to carry the note)."""
    saved = user_client.post(app_url("hand-create", casino_match), TYPICAL, headers=HX)
    undo = _undo_value(saved.content.decode())
    services.hand_record(match=casino_match, number=2, tallies=FIRST_11)  # the other phone
    services.hand_record(match=casino_match, number=3, tallies=FIRST_11)  # Ana 29: won
    response = user_client.post(app_url("hand-delete", casino_match), {"undo": undo}, headers=HX)
    body = response.content.decode()
    assert 'class="moved-note" role="status">Hand 1 is not the last hand any more' in body
    assert 'name="cards_0"' not in body  # still won: no form
    assert list(casino_match.hands.values_list("number", flat=True)) == [1, 2, 3]
