"""The scoreboard's parts rendered once per version of a match (the fragment cache): a board
loaded again reads only the match, and nothing rendered under an old version, name or language is
shown again."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from helpers import FIRST_8, FIRST_11, HX

from scoring.matches import services
from scoring.models import Match, Player

pytestmark = pytest.mark.django_db


def _board(client: Client, match: Match, **headers: str) -> str:
    response = client.get(reverse("scoring:match", args=[match.pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def test_a_board_loaded_again_reads_only_the_session_the_user_and_the_match(
    user_client, casino_match, django_assert_num_queries
):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    first = _board(user_client, casino_match)
    with django_assert_num_queries(3):
        again = _board(user_client, casino_match)
    # The same page but for the per-request CSRF token.
    assert again.count("csrfmiddlewaretoken") == first.count("csrfmiddlewaretoken") > 0
    assert "Hand 2" in again and 'name="cards_0"' in again and 'value="2"' in again


def test_a_saved_hand_is_on_the_next_load(user_client, casino_match):
    _board(user_client, casino_match)
    services.hand_record(match=casino_match, number=1, tallies=FIRST_11)
    body = _board(user_client, casino_match)
    assert 'data-total="0">11<' in body
    assert 'name="number" value="2"' in body


def test_a_rename_is_on_every_board_at_once_and_an_open_board_hears_of_it(
    user_client, casino_match
):
    version = casino_match.version
    _board(user_client, casino_match)
    ana = Player.objects.get(name="Ana")
    services.player_rename(player=ana, name="Anastasia")
    casino_match.refresh_from_db()
    assert casino_match.version > version
    body = _board(user_client, casino_match)
    assert "Anastasia" in body.split("</title>")[0]  # the title
    assert body.count("Anastasia") >= 3  # the totals, the turn, the entry
    poll = user_client.get(
        reverse("scoring:match", args=[casino_match.pk]), {"since": version}, headers=HX
    )
    assert poll.status_code == 200 and "Anastasia" in poll.content.decode()


def test_a_merge_gives_the_boards_a_new_version(user, casino_match):
    twin = services.player_create(circle=user.personal_circle, name="Ana Twin")
    version = casino_match.version
    services.player_merge(source=Player.objects.get(name="Ana"), target=twin)
    casino_match.refresh_from_db()
    assert casino_match.version > version


def test_each_language_has_its_own_board(user_client, casino_match):
    assert "Save hand" in _board(user_client, casino_match)
    user_client.post(reverse("scoring:language"), {"language": "es", "next": "/"})
    spanish = _board(user_client, casino_match)
    assert "Save hand" not in spanish and 'lang="es"' in spanish


def test_a_won_match_keeps_its_rematch_form_fresh(user_client, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_11)
    services.hand_record(match=casino_match, number=2, tallies=FIRST_11)
    first = _board(user_client, casino_match)
    again = _board(user_client, casino_match)
    assert "Rematch" in first
    # The rematch form's one-time token is new on each load (it is never cached).
    token = 'name="form_once" value="'
    assert first.split(token)[1][:20] != again.split(token)[1][:20]


def test_a_new_hands_blank_form_is_rendered_once_per_table_not_per_version(
    user_client, casino_match
):
    from django.core.cache import caches

    fragments = caches["fragments"]
    fragments.clear()
    for number in range(1, 4):
        _board(user_client, casino_match)
        data = {"number": str(number), "cards_0": "27", "spades_0": "7", "card_10D": "0"}
        answer = user_client.post(
            reverse("scoring:hand-create", args=[casino_match.pk]), data, headers=HX
        )
        assert f'name="number" value="{number + 1}"' in answer.content.decode()
    kept = [key for key in fragments._cache if "hand-counts" in key]
    versions = [key for key in fragments._cache if "hand-entry" in key]
    assert len(kept) == 1 and len(versions) >= 3


def test_a_sheet_row_kept_from_before_shows_an_edit_at_once(user_client, casino_match):
    """Sheet rows are kept per hand and its totals: an edit of hand 1 changes its row and the
    totals of every row after it."""
    from helpers import SECOND_8

    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    services.hand_record(match=casino_match, number=2, tallies=FIRST_8)
    before = _board(user_client, casino_match)
    services.hand_edit(match=casino_match, number=1, tallies=SECOND_8)
    after = _board(user_client, casino_match)
    rows = re.findall(r'<tr class="hand-row">(.*?)</tr>', after, re.S)
    totals = [re.findall(r'class="run-total">(\d+)<', row) for row in rows]
    casino_match.refresh_from_db()
    stored = [
        [t.total_after for t in hand.tallies.order_by("side__position")]
        for hand in casino_match.hands.order_by("number")
    ]
    assert [[int(t) for t in row] for row in totals] == stored
    assert before != after
