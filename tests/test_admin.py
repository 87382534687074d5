import pytest
from django.urls import reverse
from helpers import FIRST_8

from scoring import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["player", "match", "hand", "side"])
def test_admin_lists_and_opens_our_models(admin_client, user, casino_match, model):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    changelist = admin_client.get(reverse(f"admin:scoring_{model}_changelist"))
    assert changelist.status_code == 200
    obj = {
        "player": casino_match.seats.first().player,
        "match": casino_match,
        "hand": casino_match.hands.get(),
        "side": casino_match.sides.first(),
    }[model]
    assert (
        admin_client.get(reverse(f"admin:scoring_{model}_change", args=[obj.pk])).status_code == 200
    )
