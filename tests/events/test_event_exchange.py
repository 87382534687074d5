"""An event's export (JSON and CSV) and its import into another circle, all or nothing."""

from __future__ import annotations

import copy
import csv
import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from helpers import FIRST_8, SECOND_8
from test_events import finish_round, make_event, matches_of

from scoring.circles import services as circles
from scoring.events import exchange
from scoring.events import services as events
from scoring.events.selectors import EventPage
from scoring.matches import services
from scoring.models import Event, Match, Player
from scoring.sharing.exchange import ImportRefused


def played_event(user: Any) -> Event:
    """A Swiss event of five: round 1 played out, round 2 with time called at one table."""
    event = make_event(user, "Ana Ben Cy Dee Eve", round_minutes=30)
    finish_round(events.round_pair(event=event, number=1))
    second = events.round_pair(event=event, number=2)
    first, other = matches_of(second)
    services.hand_record(match=first, number=1, tallies=SECOND_8)
    events.time_call(event=event)
    services.hand_record(match=first, number=2, tallies=SECOND_8)  # decided on time
    services.hand_record(match=other, number=1, tallies=FIRST_8)  # decided on time
    return event


def standings_of(event: Event) -> list[tuple[Any, ...]]:
    return [
        (line.name, line.row.place, line.row.match_points, line.row.difference, line.row.scored)
        for line in EventPage(event).standings
    ]


@pytest.mark.slow
@pytest.mark.django_db
def test_an_exported_event_imports_into_another_circle_as_it_was(user) -> None:
    event = played_event(user)
    document = exchange.event_json(event)
    assert document["format"] == "casino-event"
    assert [len(r["tables"]) for r in document["pairings"]] == [2, 2]
    assert document["pairings"][1]["time_called"] is True
    assert any(t["match"].get("last_hand") for t in document["pairings"][1]["tables"])
    assert [row["name"] for row in document["standings"]] == [row[0] for row in standings_of(event)]
    club = circles.circle_create(name="Club", by=user)
    imported = exchange.event_import(circle=club, text=json.dumps(document), by=user)
    assert imported.circle == club
    assert standings_of(imported) == standings_of(event)
    assert Match.objects.filter(event=imported, outcome_kind="time").count() == 2
    assert {p.name for p in Player.objects.filter(circle=club)} == {
        "Ana",
        "Ben",
        "Cy",
        "Dee",
        "Eve",
    }
    # And it exports again to the same document.
    again = exchange.event_json(imported)
    assert again["pairings"] == document["pairings"]
    assert again["standings"] == document["standings"]


@pytest.mark.django_db
def test_a_player_at_two_tables_of_one_round_is_refused_and_nothing_is_stored(user) -> None:
    event = played_event(user)
    document = exchange.event_json(event)
    bad = copy.deepcopy(document)
    one, two = bad["pairings"][0]["tables"]
    two["match"]["sides"][0] = copy.deepcopy(one["match"]["sides"][0])
    club = circles.circle_create(name="Club", by=user)
    before = (Event.objects.count(), Match.objects.count(), Player.objects.count())
    with pytest.raises(ImportRefused) as refused:
        exchange.event_import(circle=club, text=json.dumps(bad), by=user)
    assert any("plays at two tables" in message for message in refused.value.messages)
    assert (Event.objects.count(), Match.objects.count(), Player.objects.count()) == before


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="casino-score/1"), "not an event file"),
        (lambda d: d.update(name=""), "needs a name"),
        (lambda d: d.update(date="4 Dec"), "not a date"),
        (lambda d: d.update(event_format="knockout"), "format is not one of"),
        (lambda d: d.update(rounds=0), "number of rounds"),
        (lambda d: d["players"].append({"name": "ana"}), "listed twice"),
        (lambda d: d["pairings"][0]["byes"].append("Zed"), "Zed is not a player of the event"),
        (
            lambda d: d["pairings"][0]["tables"][0]["match"]["hands"][0]["tallies"][0].update(
                cards=60
            ),
            "Round 1, table 1",
        ),
        (lambda d: d["rules"].update(target=-3), "The event's rules"),
        (lambda d: d["players"].append({"name": "ß" * 40}), "Player 6 of the event"),
        (lambda d: d["players"].append({"name": "Zed\u0000"}), "Player 6 of the event"),
        (lambda d: d["players"][0].update(joined_round=10**30), "Player 1 of the event"),
        (lambda d: d.update(players=d["players"][:1], pairings=[]), "at least 2 players"),
    ],
    ids=[
        "format",
        "name",
        "date",
        "event-format",
        "rounds",
        "duplicate",
        "bye",
        "hand",
        "rules",
        "long-name",
        "nul",
        "huge-round",
        "too-few",
    ],
)
def test_a_bad_event_file_is_refused_with_what_is_wrong(user, change, message) -> None:
    document = exchange.event_json(played_event(user))
    change(document)
    club = circles.circle_create(name="Club", by=user)
    with pytest.raises(ImportRefused) as refused:
        exchange.event_import(circle=club, text=json.dumps(document), by=user)
    assert any(message in line for line in refused.value.messages), refused.value.messages
    assert not Event.objects.filter(circle=club).exists()


@pytest.mark.django_db
def test_the_downloads_and_the_import_page(user, user_client) -> None:
    event = played_event(user)
    response = user_client.get(reverse("scoring:event-export", args=[event.pk]))
    assert response["Content-Disposition"].startswith("attachment")
    document = json.loads(
        b"".join(response.streaming_content) if response.streaming else response.content
    )
    assert document["name"] == "Friday club"
    response = user_client.get(reverse("scoring:event-export-csv", args=[event.pk]))
    text = (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode()
    standings, results = text.split("\r\n\r\n")
    rows = list(csv.reader(io.StringIO(standings)))
    assert rows[0][:3] == ["place", "player", "match_points"]
    assert [row[1] for row in rows[1:]] == [row[0] for row in standings_of(event)]
    assert "bye" in results
    upload = SimpleUploadedFile("event.json", json.dumps(document).encode(), "application/json")
    response = user_client.post(reverse("scoring:event-import"), {"file": upload})
    imported = Event.objects.exclude(pk=event.pk).get()
    assert response["Location"] == imported.get_absolute_url()
    upload = SimpleUploadedFile("event.json", b"{}", "application/json")
    response = user_client.post(reverse("scoring:event-import"), {"file": upload})
    assert response.status_code == 400
    assert "Nothing was imported" in response.content.decode()
