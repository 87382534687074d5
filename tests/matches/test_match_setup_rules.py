"""Match setup on the web agrees with the engine and the match format: start totals at or past
the target (refused for one side alone, a tied start when shared) and Dominican targets."""

import pytest
from django.urls import reverse
from helpers import FIRST_8

from scoring.matches import services
from scoring.models import Match

pytestmark = pytest.mark.django_db
URL = reverse("scoring:match-new")
ALONE = "This side alone is at or past the target (%d): that game is already won."


def _setup(**overrides: str) -> dict[str, str]:
    data = {
        "variant": "casino",
        "layout": "2",
        "seat_0": "Ana",
        "seat_1": "Ben",
        "seat_2": "Cy",
        "first_dealer": "0",
        "target": "21",
    }
    data.update(overrides)
    return data


def test_sides_sharing_the_top_total_at_the_target_start_tied(user_client):
    response = user_client.post(URL, _setup(start_0="23", start_1="23"))
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert match.status == Match.Status.TIED
    assert list(match.sides.values_list("start_total", "total")) == [(23, 23), (23, 23)]
    # The first hand after which one side alone is on top decides, even with count-out.
    services.hand_record(match=match, number=1, tallies=FIRST_8)
    match.refresh_from_db()
    assert (match.status, match.winner_position) == (Match.Status.WON, 0)


def test_a_third_side_below_the_tied_top_does_not_keep_the_match_from_starting(user_client):
    user_client.post(URL, _setup(layout="3", start_0="4", start_1="25", start_2="25"))
    assert Match.objects.get().status == Match.Status.TIED


@pytest.mark.parametrize(
    ("starts", "field", "target"),
    [
        ({"start_0": "21"}, "start_0", 21),
        ({"start_0": "25", "start_1": "22"}, "start_0", 21),
        ({"start_1": "11", "target": "11"}, "start_1", 11),
        ({"start_0": "999", "start_1": "998", "target": "other", "target_other": "999"}, "", 999),
    ],
)
def test_one_side_alone_at_or_past_the_target_is_refused(user_client, starts, field, target):
    response = user_client.post(URL, _setup(**starts))
    assert response.status_code in (200, 400)
    assert ALONE % target in response.content.decode()
    if field:
        assert response.context["form"].errors[field]
    assert not Match.objects.exists()


def test_start_totals_go_up_to_999(user_client):
    user_client.post(URL, _setup(start_0="998", target="other", target_other="999"))
    match = Match.objects.get()
    assert list(match.sides.values_list("start_total", flat=True)) == [998, 0]
    assert match.status == Match.Status.PLAYING


@pytest.mark.parametrize("target", ["1", "2", "3"])
def test_dominican_targets_below_4_are_refused(user_client, target):
    data = _setup(variant="dominican", target="other", target_other=target)
    response = user_client.post(URL, data)
    assert response.status_code in (200, 400)
    assert "Dominican Royal Casino is played to at least 4 points." in response.content.decode()
    assert not Match.objects.exists()


def test_dominican_target_4_and_casino_target_1_are_played(user_client):
    user_client.post(URL, _setup(variant="dominican", target="other", target_other="4"))
    user_client.post(URL, _setup(target="other", target_other="1", seat_0="Dee", seat_1="Eve"))
    assert sorted(Match.objects.values_list("variant", "target")) == [
        ("casino", 1),
        ("dominican", 4),
    ]
