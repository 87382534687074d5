"""Quick entry on the board: who took most cards and spades as taps, through every way a hand is
saved (the form, htmx, the outbox's sync), fixed, shown, exported and imported."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from helpers import FIRST_11, HX, app_url

from scoring.engine import rules
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Hand, Match

pytestmark = pytest.mark.django_db

# Ana took most cards, Ben most spades; Ana the 10♦ and two aces, Ben the rest (left blank).
TAPPED = {"number": "1", "mode": "quick", "most_cards": "0", "card_10D": "0", "card_AC": "0"}
TAPPED_HAND = [
    rules.Tally.make(cards=27, spades=6, big_casino=True, aces="C"),
    rules.Tally.make(cards=25, spades=7, little_casino=True, aces="SHD"),
]


def totals(match: Match) -> list[int]:
    return list(match.sides.order_by("position").values_list("total", flat=True))


def test_the_board_offers_quick_entry_and_keeps_it(user_client, casino_match):
    board = user_client.get(app_url("match", casino_match)).content.decode()
    assert f'href="{casino_match.get_absolute_url()}?mode=quick"' in board
    assert 'name="cards_0"' in board and 'name="most_cards"' not in board
    quick = user_client.get(app_url("match", casino_match) + "?mode=quick").content.decode()
    assert 'name="cards_0"' not in quick and 'name="spades_0"' not in quick
    assert quick.count('name="most_cards"') == 3  # Ana, Ben, tie
    assert quick.count('name="most_spades"') == 2  # thirteen spades cannot tie
    assert 'name="mode" value="quick"' in quick and 'name="sweeps_1"' in quick
    # The two boards are cached apart: the plain one is still plain.
    again = user_client.get(app_url("match", casino_match)).content.decode()
    assert 'name="cards_0"' in again


def test_a_quick_hand_is_stored_as_who_took_most_without_javascript(user_client, casino_match):
    response = user_client.post(app_url("hand-create", casino_match), TAPPED)
    assert response.status_code == 302
    assert response["Location"] == casino_match.get_absolute_url() + "?mode=quick"
    hand = Hand.objects.get(match=casino_match)
    assert hand.quick
    assert [t.as_rules_tally() for t in hand.tallies.order_by("side__position")] == TAPPED_HAND
    # Scored as the hand counted card by card: 3 + 2 + 1 = 6 to Ana, 1 + 1 + 3 = 5 to Ben.
    assert totals(casino_match) == [6, 5]
    board = user_client.get(response["Location"]).content.decode()
    assert 'name="most_cards"' in board and 'value="2"' in board  # the next hand, quick still


def test_an_htmx_save_answers_a_quick_form_for_the_next_hand(user_client, casino_match):
    response = user_client.post(app_url("hand-create", casino_match), TAPPED, headers=HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="most_cards"' in body and 'name="cards_0"' not in body
    plain = {"number": "2", "cards_0": "27", "spades_0": "6", "card_10D": "0", "card_AC": "0"}
    answer = user_client.post(app_url("hand-create", casino_match), plain, headers=HX)
    assert 'name="cards_0"' in answer.content.decode()
    assert list(Hand.objects.order_by("number").values_list("quick", flat=True)) == [True, False]


def test_the_outbox_sends_a_quick_hand_once(user_client, casino_match):
    sent = {**TAPPED, "client_id": "phone-1-hand-1"}
    first = user_client.post(app_url("hand-sync", casino_match), sent)
    again = user_client.post(app_url("hand-sync", casino_match), sent)
    assert (first.status_code, again.status_code) == (201, 200)
    assert Hand.objects.filter(match=casino_match, quick=True).count() == 1


@pytest.mark.parametrize(("variant", "seats"), [("casino", 3), ("spade", 2)])
def test_no_quick_entry_where_counts_decide(user, user_client, players, variant, seats):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make(variant),
        sides=[[player] for player in players[:seats]],
    )
    board = user_client.get(app_url("match", match) + "?mode=quick").content.decode()
    assert "Not counting cards?" not in board and 'name="most_cards"' not in board
    # Posted anyway, the counts are asked for, and nothing is stored.
    response = user_client.post(app_url("hand-create", match), TAPPED)
    assert response.status_code == 400 and not Hand.objects.filter(match=match).exists()


def test_a_tie_for_most_cards_scores_nobody_for_cards(user_client, casino_match):
    tie = {**TAPPED, "most_cards": str(rules.TIE)}
    assert user_client.post(app_url("hand-create", casino_match), tie).status_code == 302
    assert totals(casino_match) == [3, 5]  # 10♦ 2 + A♣ 1; spades 1, 2♠ 1, three aces
    counts = Hand.objects.get().tallies.order_by("side__position").values_list("cards", flat=True)
    assert list(counts) == [26, 26]


def test_a_side_tapped_that_is_not_there_is_refused(user_client, casino_match):
    for wrong in ({"most_cards": "2"}, {"most_spades": "-1"}, {"most_cards": "x"}):
        response = user_client.post(app_url("hand-create", casino_match), {**TAPPED, **wrong})
        assert response.status_code == 400, wrong
    assert not Hand.objects.exists()


def test_a_quick_hand_shows_most_never_its_stand_in_counts(user_client, casino_match):
    user_client.post(app_url("hand-create", casino_match), TAPPED)
    detail = user_client.get(app_url("hand", casino_match, 1)).content.decode()
    assert "Quick entry: who took most cards and spades, not how many." in detail
    cards_row = re.search(r"<th scope=\"row\">Cards</th>(.*?)</tr>", detail).group(1)
    assert "most" in cards_row and "27" not in cards_row and "25" not in cards_row
    sheet = user_client.get(app_url("match-sheet", casino_match)).content.decode()
    assert "most / –♠" in sheet and "27 / 6" not in sheet
    history = user_client.get(app_url("hand-history", casino_match, 1)).content.decode()
    assert "27" not in re.sub(r"<[^>]+>", " ", history).split("Cards", 1)[1][:40]


def test_a_quick_hand_is_fixed_with_taps_or_counted_afresh(user_client, casino_match):
    user_client.post(app_url("hand-create", casino_match), TAPPED)
    form = user_client.get(app_url("hand-edit", casino_match, 1)).content.decode()
    assert re.search(r'name="most_cards" value="0"[^>]*checked', form)
    assert re.search(r'name="most_spades" value="1"[^>]*checked', form)
    fixed = {**TAPPED, "most_cards": "1"}
    assert user_client.post(app_url("hand-edit", casino_match, 1), fixed).status_code == 302
    assert totals(casino_match) == [3, 8]
    # Counted afresh: the stand-in counts are not offered as typed ones.
    counted = user_client.get(app_url("hand-edit", casino_match, 1) + "?mode=").content.decode()
    assert 'name="cards_0"' in counted and 'value="25"' not in counted
    exact = {"number": "1", "cards_0": "30", "spades_0": "9", "card_10D": "0", "card_AC": "0"}
    assert user_client.post(app_url("hand-edit", casino_match, 1), exact).status_code == 302
    hand = Hand.objects.get()
    assert not hand.quick and hand.tallies.get(side__position=0).cards == 30


def test_a_quick_hand_goes_out_and_comes_back_quick(user_client, casino_match):
    user_client.post(app_url("hand-create", casino_match), TAPPED)
    exported = json.loads(user_client.get(app_url("export-match", casino_match)).content)
    assert exported["hands"][0]["quick"] is True

    def upload(document: dict) -> str:
        file = SimpleUploadedFile("match.json", json.dumps(document).encode(), "application/json")
        return user_client.post(
            app_url("match-import"), {"file": file}, follow=True
        ).content.decode()

    upload(exported)
    assert Hand.objects.filter(quick=True).count() == 2
    exported["hands"][0]["quick"] = "yes"
    assert "quick must be true or false" in upload(exported)
    assert Hand.objects.count() == 2


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_an_undone_quick_hand_comes_back_as_taps(user_client, casino_match, htmx):
    user_client.post(app_url("hand-create", casino_match), TAPPED)
    undo = {"undo": f"1:{Hand.objects.get().pk}"}
    answer = user_client.post(
        app_url("hand-delete", casino_match), undo, headers=HX if htmx else {}
    )
    body = answer.content.decode() if htmx else user_client.get(answer["Location"]).content.decode()
    assert not Hand.objects.exists()
    assert re.search(r'name="most_cards" value="0"[^>]*checked', body)
    assert 'name="cards_0"' not in body and 'value="27"' not in body


def test_an_earlier_quick_version_shows_most_in_the_history(user_client, casino_match):
    user_client.post(app_url("hand-create", casino_match), TAPPED)
    exact = {"number": "1", "cards_0": "30", "spades_0": "9", "card_10D": "0", "card_AC": "0"}
    assert user_client.post(app_url("hand-edit", casino_match, 1), exact).status_code == 302
    history = re.sub(
        r"<[^>]+>", " ", user_client.get(app_url("hand-history", casino_match, 1)).content.decode()
    )
    # The first version shows who took most, not its stand-in counts (and the page's clock,
    # "5:27 p.m." or "6 p.m.", must not count as one).
    assert re.search(r"Cards\s+30\b", history) and re.search(r"Spades\s+9\b", history)
    assert not re.search(r"Cards\s+27\b", history) and not re.search(r"Spades\s+6\b", history)
    assert history.count("most") >= 2


def test_a_clash_with_a_quick_hand_shows_most_not_its_stand_in_counts(user_client, casino_match):
    user_client.post(app_url("hand-create", casino_match), TAPPED)
    other = {**TAPPED, "most_cards": "1"}  # typed on another phone for the same hand
    form = user_client.post(app_url("hand-create", casino_match), other, headers=HX)
    sent = user_client.post(app_url("hand-sync", casino_match), {**other, "client_id": "p2-1"})
    assert (form.status_code, sent.status_code) == (409, 409)
    clash = form.content.decode().split('class="clash-versions"', 1)[1]
    assert "most" in clash and ">27<" not in clash and ">25<" not in clash
    assert {side["cards"] for side in sent.json()["saved"] + sent.json()["mine"]} == {"most", "–"}
    assert Hand.objects.count() == 1


def test_a_rematch_of_a_quick_table_is_entered_quickly_too(user_client, casino_match):
    for number in (1, 2):  # Ana 11 a hand: 22, past 21
        services.hand_record(match=casino_match, number=number, tallies=FIRST_11)
    board = user_client.get(app_url("match", casino_match) + "?mode=quick").content.decode()
    assert 'name="mode" value="quick"' in board.split("data-rematch", 1)[1][:600]
    answer = user_client.post(app_url("match-rematch", casino_match), {"mode": "quick"})
    assert answer.status_code == 302 and answer["Location"].endswith("/?mode=quick")
    counting = user_client.get(app_url("match", casino_match)).content.decode()
    assert 'name="mode" value="quick"' not in counting.split("data-rematch", 1)[1][:600]
