import re

import pytest
from helpers import FIRST_8, app_url

from scoring.matches import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(casino_match):
    for number, hand in enumerate((FIRST_8, FIRST_8), start=1):
        services.hand_record(match=casino_match, number=number, tallies=hand)
    return casino_match


def test_edit_form_shows_the_stored_counts(user_client, played):
    body = user_client.get(app_url("hand-edit", played, 1)).content.decode()
    assert 'name="cards_0" id="id_cards_0"' in body and 'value="29"' in body
    assert re.search(r'<input type="radio" name="card_10D" value="0"[^>]*checked', body)
    assert not re.search(r'<input type="radio" name="card_10D" value="1"[^>]*checked', body)


def test_edit_middle_hand_rescores(user_client, played):
    data = {
        "number": "1",
        "cards_0": "23",
        "spades_0": "5",
        "card_2S": "0",
        "card_AC": "0",
        "card_AD": "0",
    }
    response = user_client.post(app_url("hand-edit", played, 1), data)
    assert response.status_code == 302
    totals = list(played.sides.order_by("position").values_list("total", flat=True))
    assert totals == [11, 11]


def test_edit_htmx_request_renders(user_client, played):
    assert (
        user_client.get(app_url("hand-edit", played, 1), headers={"HX-Request": "true"}).status_code
        == 200
    )


def test_edit_of_another_users_hand_is_404(client, other_user, played):
    client.force_login(other_user)
    assert client.get(app_url("hand-edit", played, 1)).status_code == 404
    assert (
        client.post(
            app_url("hand-edit", played, 1), {"number": "1", "cards_0": "52", "spades_0": "13"}
        ).status_code
        == 404
    )


def test_edit_missing_hand_is_404(user_client, played):
    assert user_client.get(app_url("hand-edit", played, 9)).status_code == 404


def test_edit_refuses_delete_method(user_client, played):
    assert user_client.delete(app_url("hand-edit", played, 1)).status_code == 405


def test_invalid_edit_keeps_the_hand(user_client, played):
    response = user_client.post(
        app_url("hand-edit", played, 1), {"number": "1", "cards_0": "60", "spades_0": "5"}
    )
    assert response.status_code == 200
    assert played.hands.get(number=1).tallies.get(side__position=0).cards == 29


def test_edit_reopens_a_won_match(user_client, casino_match):
    for number, hand in enumerate((FIRST_8, FIRST_8, FIRST_8), start=1):
        services.hand_record(match=casino_match, number=number, tallies=hand)
    casino_match.refresh_from_db()
    assert casino_match.status == "won"
    data = {
        "number": "3",
        "cards_0": "23",
        "spades_0": "5",
        "card_2S": "0",
        "card_AC": "0",
        "card_AD": "0",
    }
    user_client.post(app_url("hand-edit", casino_match, 3), data)
    casino_match.refresh_from_db()
    assert casino_match.status == "playing"
    assert list(casino_match.sides.order_by("position").values_list("total", flat=True)) == [19, 14]


def _fix_of_hand_2():
    return {
        "number": "2",
        "cards_0": "23",
        "spades_0": "5",
        "card_2S": "0",
        "card_AC": "0",
        "card_AD": "0",
    }


def test_fixing_a_hand_another_phone_just_undid_says_so_with_the_board(
    user_client, played, monkeypatch
):
    """Edit × Undo: the edit page was read while hand 2 existed; the other phone's Undo lands
    between that read and the save. Once a bare 500 (Hand.DoesNotExist)."""
    from django.contrib.messages import get_messages

    from scoring.matches import selectors

    stale = selectors.hand_for_match(played, 2)
    services.hand_delete_last(match=played, number=2)
    monkeypatch.setattr(selectors, "hand_for_match", lambda match, number: stale)

    response = user_client.post(app_url("hand-edit", played, 2), _fix_of_hand_2())
    assert response.status_code == 302 and response["Location"] == played.get_absolute_url()
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Hand 2 was deleted meanwhile on another screen: nothing was changed."
    ]
    played.refresh_from_db()
    assert played.hand_count == 1


def test_fixing_a_hand_deleted_before_the_save_is_told_on_the_board(user_client, played):
    services.hand_delete_last(match=played, number=2)
    response = user_client.post(app_url("hand-edit", played, 2), _fix_of_hand_2(), follow=True)
    assert response.status_code == 200
    assert "Hand 2 was deleted meanwhile on another screen" in response.content.decode()
    assert response.redirect_chain[-1][0] == played.get_absolute_url()


def test_the_service_refuses_to_edit_a_hand_that_is_gone(played):
    services.hand_delete_last(match=played, number=2)
    with pytest.raises(services.HandGone):
        services.hand_edit(match=played, number=2, tallies=FIRST_8)


def test_the_edit_page_has_the_boards_sweep_steppers_and_preview(user_client, played):
    body = user_client.get(app_url("hand-edit", played, 1)).content.decode()
    for side in (0, 1):
        assert f'data-step="1" data-step-for="id_sweeps_{side}"' in body
        assert f'data-step="-1" data-step-for="id_sweeps_{side}"' in body
    # Enter still saves: the form's first submit button is the hidden one that saves.
    first = re.search(r"<button [^>]*>", body.split('class="hand-form"', 1)[1]).group(0)
    assert "hidden" in first and "name=" not in first


def test_a_stepper_without_javascript_steps_and_saves_nothing(user_client, played):
    page = user_client.get(app_url("hand-edit", played, 1)).content.decode()
    data = {"number": "1", "cards_0": "29", "spades_0": "8", "sweeps_0": "0", "card_10D": "0"}
    data |= {"card_AS": "0", "card_AH": "0", "step": "0:+1"}
    response = user_client.post(app_url("hand-edit", played, 1), data)
    assert response.status_code == 200
    body = response.content.decode()
    assert re.search(r'name="sweeps_0" id="id_sweeps_0"\s+value="1"', body), "one sweep more"
    assert 'value="29"' in body and 'class="errors"' not in body  # nothing checked yet
    totals = list(played.sides.order_by("position").values_list("total", flat=True))
    assert totals == [16, 6]  # nothing saved
    assert "Edit hand 1" in page
    del data["step"]
    data["sweeps_0"] = "1"
    assert user_client.post(app_url("hand-edit", played, 1), data).status_code == 302
    assert played.hands.get(number=1).tallies.get(side__position=0).sweeps == 1


def test_the_edit_pages_preview_scores_the_hand_in_its_place(user_client, played):
    body = user_client.get(app_url("hand-edit", played, 1)).content.decode()
    assert f'hx-post="{app_url("hand-preview", played)}"' in body
    # Hand 1 as Ben's 8 and Ana's 3: Ana 3 after it (Ben 8), whatever came later.
    data = {"number": "1", "cards_0": "23", "spades_0": "5", "card_2S": "0"}
    data |= {"card_AC": "0", "card_AD": "0"}
    fragment = user_client.post(app_url("hand-preview", played), data).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", fragment).split())
    assert text == "This hand scores: Ana +3 → 3 · Ben +8 → 8", text
    # Without JavaScript, "Check points" on the edit page says the same, and saves nothing.
    page = user_client.post(app_url("hand-edit", played, 1), data | {"preview": "1"})
    assert page.status_code == 200
    assert "This hand scores:" in page.content.decode()
    totals = list(played.sides.order_by("position").values_list("total", flat=True))
    assert totals == [16, 6]
