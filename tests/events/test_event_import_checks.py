"""An event file the app could never have made is refused, with the reason (naming the round
and the table, in every language), and nothing is stored; a file too big is refused by its size,
its tables or its hands, the limit in the message, before any table is read. The property: any
exported event, changed at random, is either refused so or stored as an event whose rounds can
still be paired."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import hypothesis
import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase
from test_event_exchange import played_event
from test_events import finish_round, make_event, matches_of, win

from scoring.circles import services as circles
from scoring.events import exchange
from scoring.events import services as events
from scoring.events.state import EventState
from scoring.matches import services
from scoring.models import Event, EventTable, Match, Player
from scoring.sharing.exchange import ImportRefused

LANGUAGES = ("en", "bg", "es", "ru", "sl", "th", "uk")
Document = dict[str, Any]


def round_robin_played(user: Any) -> Event:
    """A round robin of five: round 1 played, Tom arrives, Oz leaves, round 2 half played."""
    event = make_event(user, "Nia Oz Pim Rex Sue", fmt="round_robin")
    finish_round(events.round_pair(event=event, number=1))
    events.entrant_add(event=event, player=services.player_create(circle=event.circle, name="Tom"))
    events.entrant_leave(event=event, player=Player.objects.get(name="Oz"))
    win(matches_of(events.round_pair(event=event, number=2))[0])
    return event


def partners_played(user: Any) -> Event:
    """Partners of six (two byes a round): round 1 played, round 2 paired."""
    event = make_event(user, "Ana Ben Cy Dee Eve Fay", fmt="partners")
    finish_round(events.round_pair(event=event, number=1))
    events.round_pair(event=event, number=2)
    return event


BUILDERS: dict[str, Callable[[Any], Event]] = {
    "swiss": played_event,
    "round_robin": round_robin_played,
    "partners": partners_played,
}


def stored(circle: Any) -> tuple[int, int, int]:
    return (
        Event.objects.filter(circle=circle).count(),
        Match.objects.filter(circle=circle).count(),
        Player.objects.filter(circle=circle).count(),
    )


def refusal(user: Any, document: Document) -> list[str]:
    """The messages of the refused import of `document` (nothing of it stored)."""
    club = circles.circle_create(name="Club", by=user)
    before = stored(club)
    with pytest.raises(ImportRefused) as refused:
        exchange.event_import(circle=club, text=json.dumps(document), by=user)
    assert stored(club) == before
    return refused.value.messages


def _table(document: Document, round_number: int = 1, table: int = 1) -> Document:
    return document["pairings"][round_number - 1]["tables"][table - 1]["match"]


def _another_game(document: Document) -> None:
    _table(document)["rules"]["target"] = 31


def _two_a_side(document: Document) -> None:
    """The bye and a new player join table 1 of round 1, two against two."""
    first = document["pairings"][0]
    document["players"].append({"name": "Zed", "joined_round": 1, "left_round": None})
    sides = _table(document)["sides"]
    sides[0]["players"].append(first["byes"].pop())
    sides[1]["players"].append("Zed")


def _one_a_side(document: Document) -> None:
    """A partner of each side of table 1 of round 1 sits out instead, one against one."""
    first = document["pairings"][0]
    for side in _table(document)["sides"]:
        first["byes"].append(side["players"].pop())


def _joins_later(document: Document) -> None:
    name = _table(document)["sides"][0]["players"][0]
    next(p for p in document["players"] if p["name"] == name)["joined_round"] = 2


def _left_before(document: Document) -> None:
    name = _table(document, 2)["sides"][0]["players"][0]
    next(p for p in document["players"] if p["name"] == name)["left_round"] = 2


def _empty_round(document: Document) -> None:
    document["pairings"][0].update(tables=[], byes=[])


def _two_byes(document: Document) -> None:
    document["players"].append({"name": "Zed", "joined_round": 1, "left_round": None})
    document["pairings"][0]["byes"].append("Zed")


def _from_a_score(document: Document) -> None:
    _table(document)["start_totals"] = [5, 0]


CASES = {  # the event, the change, what the refusal says, the round it names
    "another game": ("swiss", _another_game, "Round 1, table 1 is not played by the event's", 1),
    "two a side": ("swiss", _two_a_side, "Round 1, table 1 is not a table of two players", 1),
    "one a side": ("partners", _one_a_side, "Round 1, table 1 is not a table of two sides", 1),
    "before joining": ("swiss", _joins_later, "plays, but joins the event in round 2", 1),
    "after leaving": ("swiss", _left_before, "plays, but left the event before round 2", 2),
    "empty round": ("round_robin", _empty_round, "Round 1 has no table", 1),
    "two byes": ("swiss", _two_byes, "Round 1 has more than one bye", 1),
    "from a score": ("swiss", _from_a_score, "Round 1, table 1 does not start from 0", 1),
}


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("case", list(CASES))
def test_what_the_app_could_not_make_is_refused_with_the_reason_in_every_language(
    user: Any, case: str
) -> None:
    fmt, change, english, round_number = CASES[case]
    document = exchange.event_json(BUILDERS[fmt](user))
    club = circles.circle_create(name="As exported", by=user)
    exchange.event_import(circle=club, text=json.dumps(document), by=user)  # as it was: stored
    change(document)
    said = {}
    for language in LANGUAGES:
        with translation.override(language):
            said[language] = refusal(user, document)
    assert any(english in message for message in said["en"]), said["en"]
    for language, messages in said.items():
        assert len(messages) == len(said["en"]), (language, messages)
        assert any(str(round_number) in message for message in messages), (language, messages)
        if language != "en":  # every message in the language's own words
            assert not set(messages) & set(said["en"]), (language, messages)


@pytest.mark.django_db
def test_an_empty_round_robin_round_is_refused_so_round_two_can_be_paired(user) -> None:
    """Stored, it made pairing the next round crash (the schedule read back from an empty
    round 1)."""
    document = exchange.event_json(round_robin_played(user))
    _empty_round(document)
    document["pairings"] = document["pairings"][:1]
    assert any("Round 1 has no table" in message for message in refusal(user, document))


@pytest.mark.slow
@pytest.mark.django_db
def test_who_arrived_left_and_came_back_is_imported_as_the_app_made_it(user) -> None:
    """The checks refuse nothing the app makes: a late arrival, a leaver, one who came back
    (seated in rounds 1 and 3, not 2)."""
    event = make_event(user, "Ana Ben Cy Dee Eve Fay")
    finish_round(events.round_pair(event=event, number=1))
    cy = Player.objects.get(name="Cy")
    events.entrant_leave(event=event, player=cy)
    events.entrant_add(event=event, player=services.player_create(circle=event.circle, name="Gus"))
    finish_round(events.round_pair(event=event, number=2))
    events.entrant_add(event=event, player=cy)  # back for round 3
    events.entrant_leave(event=event, player=Player.objects.get(name="Ana"))
    events.round_pair(event=event, number=3)
    document = exchange.event_json(event)
    seated = [
        {
            name
            for table in item["tables"]
            for side in table["match"]["sides"]
            for name in side["players"]
        }
        | set(item["byes"])
        for item in document["pairings"]
    ]
    assert ["Cy" in names for names in seated] == [True, False, True]
    assert ["Gus" in names for names in seated] == [False, True, True]
    club = circles.circle_create(name="Club", by=user)
    imported = exchange.event_import(circle=club, text=json.dumps(document), by=user)
    assert exchange.event_json(imported)["pairings"] == document["pairings"]


# --- the limits --------------------------------------------------------------------------------


def _many_tables(document: Document, count: int) -> None:
    table = document["pairings"][0]["tables"][0]
    document["pairings"][0]["tables"] = [copy.deepcopy(table) for _ in range(count)]


@pytest.mark.django_db
def test_a_file_of_too_many_tables_is_refused_before_any_is_read(
    user, django_assert_num_queries
) -> None:
    document = exchange.event_json(played_event(user))
    document["pairings"] = document["pairings"][:1]
    _many_tables(document, exchange.MAX_IMPORT_TABLES + 1)
    with django_assert_num_queries(0), pytest.raises(ImportRefused) as refused:
        exchange.event_import(circle=user.personal_circle, text=json.dumps(document), by=user)
    assert refused.value.messages == [
        f"Tables in this event file: {exchange.MAX_IMPORT_TABLES + 1}. "
        f"One import can hold at most {exchange.MAX_IMPORT_TABLES}."
    ]


@pytest.mark.django_db
def test_a_file_of_too_many_hands_is_refused_before_any_is_read(
    user, django_assert_num_queries
) -> None:
    document = exchange.event_json(played_event(user))
    document["pairings"] = document["pairings"][:1]
    one, other = (table["match"] for table in document["pairings"][0]["tables"])
    one["hands"] = one["hands"][:1] * (exchange.MAX_IMPORT_HANDS + 1 - len(other["hands"]))
    text = json.dumps(document, separators=(",", ":"))
    assert len(text) < exchange.MAX_IMPORT_BYTES  # (under the size: the hands are counted)
    with django_assert_num_queries(0), pytest.raises(ImportRefused) as refused:
        exchange.event_import(circle=user.personal_circle, text=text, by=user)
    assert refused.value.messages == [
        f"Hands in this event file: {exchange.MAX_IMPORT_HANDS + 1}. "
        f"One import can hold at most {exchange.MAX_IMPORT_HANDS}."
    ]


@pytest.mark.django_db
def test_a_file_too_large_is_refused_unread_by_the_import_and_its_form(user, user_client) -> None:
    document = exchange.event_json(played_event(user))
    text = json.dumps(document) + " " * exchange.MAX_IMPORT_BYTES
    with pytest.raises(ImportRefused) as refused:
        exchange.event_import(circle=user.personal_circle, text=text, by=user)
    assert refused.value.messages == [
        "This file is larger than 2.0\xa0MB, the most that can be imported at once."
    ]
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("event.json", text.encode(), "application/json")
    response = user_client.post(reverse("scoring:event-import"), {"file": upload})
    assert response.status_code == 400
    assert "larger than 2.0" in response.content.decode()
    assert Event.objects.count() == 1


# --- the property ------------------------------------------------------------------------------

_bases: dict[str, Document] = {}


def _base(name: str) -> Document:
    """The exported document of each kind of event (made once, kept as JSON: each example's
    database is rolled back)."""
    if name not in _bases:
        owner = get_user_model().objects.create_user(username=f"base-{name}")
        _bases[name] = exchange.event_json(BUILDERS[name](owner))
    return copy.deepcopy(_bases[name])


def _tables_of(document: Document) -> list[Document]:
    return [
        table["match"]
        for item in document["pairings"]
        for table in item.get("tables", [])
        if isinstance(table, dict) and isinstance(table.get("match"), dict)
    ]


def _names(document: Document, rng: Any) -> str:
    names = [player["name"] for player in document["players"]]
    return rng.choice([*names, "Zed"]) if names else "Zed"


def _some_table(document: Document, rng: Any) -> Document | None:
    tables = _tables_of(document)
    return rng.choice(tables) if tables else None


def _some_round(document: Document, rng: Any) -> Document | None:
    return rng.choice(document["pairings"]) if document["pairings"] else None


def _table_rules(document: Document, rng: Any) -> None:
    if table := _some_table(document, rng):
        table["rules"]["target"] = rng.choice([11, 21, 31, 61])
        if rng.random() < 0.5:
            table["rules"]["variant"] = rng.choice(["casino", "royal", "swedish", "spade"])


def _table_start(document: Document, rng: Any) -> None:
    if table := _some_table(document, rng):
        table["start_totals"] = [rng.randint(0, 5), rng.randint(0, 5)]
        table["first_dealer"] = rng.randint(0, 3)


def _table_hands(document: Document, rng: Any) -> None:
    if table := _some_table(document, rng):
        table["hands"] = table["hands"][: rng.randint(0, len(table["hands"]))]
        table["abandoned"] = rng.random() < 0.3


def _seat_added(document: Document, rng: Any) -> None:
    if table := _some_table(document, rng):
        rng.choice(table["sides"])["players"].append(_names(document, rng))


def _seat_dropped(document: Document, rng: Any) -> None:
    if (table := _some_table(document, rng)) and (side := rng.choice(table["sides"]))["players"]:
        side["players"].pop(rng.randrange(len(side["players"])))


def _seat_changed(document: Document, rng: Any) -> None:
    if (table := _some_table(document, rng)) and (side := rng.choice(table["sides"]))["players"]:
        side["players"][rng.randrange(len(side["players"]))] = _names(document, rng)


def _side_added(document: Document, rng: Any) -> None:
    if table := _some_table(document, rng):
        table["sides"].append({"players": [_names(document, rng)]})


def _round_emptied(document: Document, rng: Any) -> None:
    if chosen := _some_round(document, rng):
        chosen["tables"], chosen["byes"] = [], [] if rng.random() < 0.8 else chosen["byes"]


def _round_dropped(document: Document, rng: Any) -> None:
    if chosen := _some_round(document, rng):
        document["pairings"].remove(chosen)
        for number, item in enumerate(document["pairings"], start=1):
            item["round"] = number


def _table_moved(document: Document, rng: Any) -> None:
    if (chosen := _some_round(document, rng)) and chosen["tables"]:
        moved = chosen["tables"].pop(rng.randrange(len(chosen["tables"])))
        rng.choice(document["pairings"])["tables"].append(moved)


def _bye_added(document: Document, rng: Any) -> None:
    if chosen := _some_round(document, rng):
        chosen["byes"].append(_names(document, rng))


def _bye_dropped(document: Document, rng: Any) -> None:
    if (chosen := _some_round(document, rng)) and chosen["byes"]:
        chosen["byes"].pop()


def _round_timed(document: Document, rng: Any) -> None:
    if chosen := _some_round(document, rng):
        chosen["time_called"] = not chosen["time_called"]


def _rounds_planned(document: Document, rng: Any) -> None:
    document["rounds"] = rng.randint(1, 8)


def _format_changed(document: Document, rng: Any) -> None:
    document["event_format"] = rng.choice(["swiss", "round_robin", "partners"])


def _player_dropped(document: Document, rng: Any) -> None:
    if players := document["players"]:
        players.pop(rng.randrange(len(players)))


def _player_added(document: Document, rng: Any) -> None:
    name = f"New {rng.randint(1, 9)}"
    document["players"].append({"name": name, "joined_round": rng.randint(1, 4)})


def _player_joins(document: Document, rng: Any) -> None:
    if players := document["players"]:
        rng.choice(players)["joined_round"] = rng.randint(1, document["rounds"] + 1)


def _player_leaves(document: Document, rng: Any) -> None:
    if players := document["players"]:
        rounds = [None, *range(1, document["rounds"] + 2)]
        rng.choice(players)["left_round"] = rng.choice(rounds)


MUTATIONS = st.sampled_from(
    [
        _table_rules,
        _table_start,
        _table_hands,
        _seat_added,
        _seat_dropped,
        _seat_changed,
        _side_added,
        _round_emptied,
        _round_dropped,
        _table_moved,
        _bye_added,
        _bye_dropped,
        _round_timed,
        _rounds_planned,
        _format_changed,
        _player_dropped,
        _player_added,
        _player_joins,
        _player_leaves,
    ]
)


def _carry_on(event: Event, client: Client) -> None:
    """Pair the next rounds as the organiser would (each table of the round before finished
    or abandoned), the event's page shown each time: refusals in words only. Then the event as
    it stands now, which the app made from the file, exports and imports again."""
    for _ in range(3):
        assert client.get(event.get_absolute_url()).status_code == 200
        number = EventState(event).next_number
        if number is None:
            break
        for table in EventTable.objects.filter(round__event=event).select_related("match"):
            if table.match is not None and table.match.is_open:
                events.table_abandon(event=event, table=table)
        try:
            events.round_pair(event=event, number=number)
        except ValidationError as refused:
            assert refused.messages
            break
    for name in ("event-export", "event-export-csv"):
        assert client.get(reverse(f"scoring:{name}", args=[event.pk])).status_code == 200
    again = circles.circle_create(name="Again", by=event.created_by)
    exchange.event_import(
        circle=again, text=json.dumps(exchange.event_json(event)), by=event.created_by
    )


class Choices:
    """random.Random's few methods the changes use, drawn by Hypothesis (so it shrinks them,
    and tries the first round, the first table and the edges first)."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def choice(self, items: Any) -> Any:
        return self.data.draw(st.sampled_from(list(items)))

    def randint(self, least: int, most: int) -> int:
        return int(self.data.draw(st.integers(least, most)))

    def randrange(self, stop: int) -> int:
        return self.randint(0, stop - 1)

    def random(self) -> float:
        return float(self.data.draw(st.floats(0, 1, exclude_max=True)))


@pytest.mark.slow
class AnyChangedEventFile(TestCase):
    @settings(max_examples=examples(200))
    @given(
        base=st.sampled_from(list(BUILDERS)),
        changes=st.lists(MUTATIONS, min_size=1, max_size=3),
        data=st.data(),
    )
    def test_is_refused_with_its_reasons_or_stored_so_pairing_carries_on(
        self, base: str, changes: list[Any], data: Any
    ) -> None:
        document = _base(base)
        for change in changes:
            change(document, Choices(data))
        user = get_user_model().objects.create_user(username="importer")
        club = circles.circle_create(name="Club", by=user)
        before = stored(club)
        try:
            event = exchange.event_import(circle=club, text=json.dumps(document), by=user)
        except ImportRefused as refused:
            assert refused.messages and all(refused.messages)
            assert stored(club) == before
            hypothesis.event("refused")
            return
        hypothesis.event("stored")
        client = Client()
        client.force_login(user)
        _carry_on(event, client)
