import datetime

import pytest
from django.urls import reverse
from helpers import FIRST_8

from scoring.engine.rules import Rules
from scoring.events import services as events
from scoring.matches import services
from scoring.models import Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["player", "match", "hand", "side", "event"])
def test_admin_lists_and_opens_our_models(admin_client, user, casino_match, model):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    event = events.event_create(
        circle=user.personal_circle,
        by=user,
        name="Friday club",
        day=datetime.date(2026, 12, 4),
        fmt="swiss",
        rules=Rules.make("casino"),
        players=list(Player.objects.filter(circle=user.personal_circle)),
    )
    changelist = admin_client.get(reverse(f"admin:scoring_{model}_changelist"))
    assert changelist.status_code == 200
    obj = {
        "player": casino_match.seats.first().player,
        "match": casino_match,
        "hand": casino_match.hands.get(),
        "side": casino_match.sides.first(),
        "event": event,
    }[model]
    assert (
        admin_client.get(reverse(f"admin:scoring_{model}_change", args=[obj.pk])).status_code == 200
    )
