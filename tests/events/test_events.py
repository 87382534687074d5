"""Club nights: setting up, pairing, time, standings live, players in and out, abandoned tables,
the version the big screen polls, merges and deletes that meet an event."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from helpers import FIRST_8, FIRST_11, HX, SECOND_8, at_once

from scoring.access import Scope
from scoring.engine.rules import Rules
from scoring.events import services as events
from scoring.events.selectors import EventPage, events_played, tables_of
from scoring.matches import services
from scoring.models import Event, EventRound, EventTable, Match, Membership
from scoring.web import watch

DAY = datetime.date(2026, 12, 4)


def make_players(user: Any, names: str) -> list[Any]:
    return [
        services.player_create(circle=user.personal_circle, name=name) for name in names.split()
    ]


def make_event(
    user: Any, names: str = "Ana Ben Cy Dee Eve Fay", fmt: str = "swiss", **options: Any
) -> Event:
    return events.event_create(
        circle=user.personal_circle,
        by=user,
        name="Friday club",
        day=DAY,
        fmt=fmt,
        rules=options.pop("rules", Rules.make("casino")),
        players=make_players(user, names),
        **options,
    )


def win(match: Match, side: int = 0) -> None:
    """Side `side` wins the match in two hands of 11 (Casino to 21)."""
    tallies = FIRST_11 if side == 0 else tuple(reversed(FIRST_11))
    for number in (match.hand_count + 1, match.hand_count + 2):
        services.hand_record(match=match, number=number, tallies=tallies)
        match.refresh_from_db()
    assert match.status == Match.Status.WON


def matches_of(made: EventRound) -> list[Match]:
    return [
        table.match
        for table in made.tables.select_related("match").order_by("number")
        if table.match
    ]


def finish_round(made: EventRound) -> None:
    for match in matches_of(made):
        win(match)


# --- setting up --------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fmt", "names", "message"),
    [
        ("swiss", "Ana", "at least 2 players"),
        ("round_robin", "Ana", "at least 2 players"),
        ("partners", "Ana Ben Cy", "at least 4 players"),
    ],
)
def test_too_few_players_are_refused_and_nothing_is_stored(user, fmt, names, message) -> None:
    with pytest.raises(ValidationError, match=message):
        make_event(user, names, fmt)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_more_rounds_than_a_round_robin_has_are_refused(user) -> None:
    with pytest.raises(ValidationError, match="4 players has 3 rounds"):
        make_event(user, "Ana Ben Cy Dee", "round_robin", rounds=4)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_a_duplicate_player_is_refused(user) -> None:
    ana, ben = make_players(user, "Ana Ben")
    with pytest.raises(ValidationError, match="listed twice"):
        events.event_create(
            circle=user.personal_circle,
            by=user,
            name="x",
            day=DAY,
            fmt="swiss",
            rules=Rules.make("casino"),
            players=[ana, ben, ana],
        )
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_the_default_rounds(user) -> None:
    assert make_event(user, "A B C D E F", "round_robin").rounds == 5
    assert make_event(user, "G H I J K", "round_robin").rounds == 5
    assert make_event(user, "L M N O P Q R S T", "swiss").rounds == 4  # 9 players: ceil(log2 9)
    assert make_event(user, "U V W X", "swiss").rounds == 3  # at least 3


@pytest.mark.django_db
def test_the_form_refuses_duplicates_and_too_few_and_keeps_what_was_typed(
    user_client, user
) -> None:
    ana, ben = make_players(user, "Ana Ben")
    url = reverse("scoring:event-new")
    data = {
        "name": "Friday club",
        "date": "2026-12-04",
        "format": "partners",
        "seeding": "rating",
        "variant": "casino",
        "target": "usual",
        "players": [ana.pk, ben.pk],
        "new_players": "Cy\nana",
    }
    response = user_client.post(url, data)
    assert response.status_code == 400
    assert "ana is listed twice" in response.content.decode()
    data["new_players"] = "Cy"
    response = user_client.post(url, data)
    assert response.status_code == 400
    assert "at least 4 players" in response.content.decode()
    assert 'value="Friday club"' in response.content.decode()
    assert not Event.objects.exists()
    data["new_players"] = "Cy\nDee"
    response = user_client.post(url, data)
    event = Event.objects.get()
    assert response["Location"] == event.get_absolute_url()
    assert [e.player.name for e in event.entrants.order_by("order")] == ["Ana", "Ben", "Cy", "Dee"]
    assert event.rules == Rules.make("casino")


@pytest.mark.django_db
def test_every_option_of_the_game_reaches_every_table(user) -> None:
    finnish = Rules.make("finnish", target=21, ties="none", sweep_freeze="off")
    event = make_event(user, "Ana Ben Cy Dee", rules=finnish)
    made = events.round_pair(event=event, number=1)
    assert [match.rules for match in matches_of(made)] == [finnish, finnish]


# --- pairing ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_pairing_a_round_starts_its_matches_and_a_second_tap_pairs_nothing_more(user) -> None:
    event = make_event(user)
    first = events.round_pair(event=event, number=1, by=user)
    again = events.round_pair(event=event, number=1, by=user)
    assert again.pk == first.pk
    assert EventRound.objects.count() == 1
    tables = list(first.tables.order_by("number"))
    assert [table.number for table in tables] == [1, 2, 3]
    seated = [seat.player.name for table in tables for seat in table.match.seats.all()]
    assert sorted(seated) == ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]
    assert Match.objects.filter(event=event).count() == 3
    assert all(match.circle_id == user.personal_circle.pk for match in matches_of(first))


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_pair_round_tapped_on_two_phones_at_once_pairs_once(user) -> None:
    event = make_event(user)
    results = at_once(
        lambda: events.round_pair(event=event, number=1, by=user).pk,
        lambda: events.round_pair(event=event, number=1, by=user).pk,
    )
    assert results[0] == results[1], results
    assert EventRound.objects.count() == 1
    assert Match.objects.filter(event=event).count() == 3


@pytest.mark.django_db
def test_the_next_round_waits_for_the_last_table(user) -> None:
    event = make_event(user)
    made = events.round_pair(event=event, number=1)
    first, second, third = matches_of(made)
    win(first)
    win(second)
    with pytest.raises(ValidationError, match="1 table has not finished"):
        events.round_pair(event=event, number=2)
    with pytest.raises(ValidationError, match="The next round is round 2"):
        events.round_pair(event=event, number=3)
    win(third, side=1)
    second_round = events.round_pair(event=event, number=2)
    # Swiss: the three winners and the three losers (score groups first), nobody meets twice.
    before = {frozenset(s.player.pk for s in m.seats.all()) for m in matches_of(made)}
    after = {frozenset(s.player.pk for s in m.seats.all()) for m in matches_of(second_round)}
    assert not before & after


@pytest.mark.django_db
def test_an_odd_field_gives_a_bye_that_counts_as_a_win_without_game_points(user) -> None:
    event = make_event(user, "Ana Ben Cy Dee Eve")
    made = events.round_pair(event=event, number=1)
    (bye,) = [table for table in made.tables.all() if table.bye_id]
    state = EventPage(event)
    row = next(line.row for line in state.standings if line.row.player == bye.bye_id)
    assert (row.match_points, row.byes, row.played, row.scored) == (1, 1, 0, 0)


@pytest.mark.django_db
def test_every_round_paired_then_no_more(user) -> None:
    event = make_event(user, "Ana Ben", "round_robin")
    finish_round(events.round_pair(event=event, number=1))
    with pytest.raises(ValidationError, match="Every round of this event is paired"):
        events.round_pair(event=event, number=2)
    assert EventPage(event).finished


# --- standings, live -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_standings_follow_the_hands_and_an_edit_that_changes_a_winner(user) -> None:
    event = make_event(user, "Ana Ben Cy Dee")
    made = events.round_pair(event=event, number=1)
    first, second = matches_of(made)
    win(first)
    win(second)
    state = EventPage(event)
    winners = {match.seats.get(side__position=0).player_id for match in (first, second)}
    assert {line.row.player for line in state.standings[:2]} == winners
    # The organiser pairs round 2, then an edit gives hand 2 of table 1 to the other side...
    events.round_pair(event=event, number=2)
    services.hand_edit(match=first, number=2, tallies=SECOND_8)
    first.refresh_from_db()
    assert first.status == Match.Status.PLAYING  # 11 + 3 against 0 + 8: nobody at 21
    state = EventPage(event)
    assert state.changed_after_pairing == 2
    first_winner = first.seats.get(side__position=0).player_id
    row = next(line.row for line in state.standings if line.row.player == first_winner)
    assert row.match_points == 0


@pytest.mark.django_db
def test_a_hand_bumps_the_events_version(user) -> None:
    event = make_event(user, "Ana Ben")
    made = events.round_pair(event=event, number=1)
    version = Event.objects.get(pk=event.pk).version
    (match,) = matches_of(made)
    services.hand_record(match=match, number=1, tallies=FIRST_11)
    assert Event.objects.get(pk=event.pk).version == version + 1


# --- time ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_time_the_hand_in_progress_decides_and_equal_totals_play_one_more(
    user, user_client
) -> None:
    event = make_event(user, "Ana Ben Cy Dee", round_minutes=30)
    made = events.round_pair(event=event, number=1)
    assert made.ends_at is not None
    first, second = matches_of(made)
    services.hand_record(match=first, number=1, tallies=SECOND_8)  # 3 - 8
    events.time_call(event=event)
    events.time_call(event=event)  # twice: nothing more
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.last_hand, second.last_hand) == (2, 1)
    page = user_client.get(first.get_absolute_url()).content.decode()
    assert "Time: this is the last hand" in page
    assert "Friday club · round 1 · table 1" in page
    # Table 1: hand 2 puts side 0 ahead (3+8 = 11 against 8+3 = 11: level) ...
    services.hand_record(match=first, number=2, tallies=FIRST_8)
    first.refresh_from_db()
    assert first.status == Match.Status.PLAYING
    assert "one more hand" in user_client.get(first.get_absolute_url()).content.decode()
    services.hand_record(match=first, number=3, tallies=FIRST_8)
    first.refresh_from_db()
    assert (first.status, first.winner_position, first.outcome_kind) == ("won", 0, "time")
    # Table 2: its first hand decides.
    services.hand_record(match=second, number=1, tallies=SECOND_8)
    second.refresh_from_db()
    assert (second.status, second.winner_position) == ("won", 1)
    # A full re-score stores the same.
    services.rescore(first)
    first.refresh_from_db()
    assert (first.status, first.winner_position, first.outcome_kind) == ("won", 0, "time")


# --- players in and out, tables abandoned ------------------------------------------------------------


@pytest.mark.django_db
def test_a_late_arrival_plays_from_the_next_round_and_a_leaver_is_not_paired_again(user) -> None:
    event = make_event(user, "Ana Ben Cy Dee")
    made = events.round_pair(event=event, number=1)
    (gus,) = make_players(user, "Gus")
    entrant = events.entrant_add(event=event, player=gus)
    assert entrant.joined_round == 2
    ana = event.entrants.get(player__name="Ana").player
    events.entrant_leave(event=event, player=ana)
    finish_round(made)
    second = events.round_pair(event=event, number=2)
    seated = {seat.player.name for match in matches_of(second) for seat in match.seats.all()}
    byes = {table.bye.name for table in second.tables.all() if table.bye}
    assert "Ana" not in seated | byes
    assert "Gus" in seated | byes
    # Ana keeps her round-1 result.
    state = EventPage(event)
    assert any(line.name == "Ana" and line.left for line in state.standings)


@pytest.mark.django_db
def test_an_abandoned_table_is_a_loss_for_both(user) -> None:
    event = make_event(user, "Ana Ben")
    made = events.round_pair(event=event, number=1)
    table = made.tables.get()
    events.table_abandon(event=event, table=table)
    rows = EventPage(event).standings
    assert [line.row.match_points for line in rows] == [0, 0]
    assert [line.row.played for line in rows] == [1, 1]


@pytest.mark.django_db
def test_only_the_organiser_or_an_admin_runs_the_event(user, other_user) -> None:
    circle = user.personal_circle
    Membership.objects.create(circle=circle, user=other_user, role=Membership.Role.MEMBER)
    event = make_event(user)
    member = Scope(other_user, {"circle": circle.pk})
    assert member.event(event.pk) == event
    with pytest.raises(PermissionDenied):
        member.event(event.pk, manage=True)
    # A member's own event is theirs to run.
    theirs = events.event_create(
        circle=circle,
        by=other_user,
        name="x",
        day=DAY,
        fmt="swiss",
        rules=Rules.make("casino"),
        players=[entrant.player for entrant in event.entrants.all()],
    )
    assert member.event(theirs.pk, manage=True) == theirs


@pytest.mark.django_db
def test_a_member_cannot_abandon_an_event_table_through_the_match_page(
    user, other_user, client
) -> None:
    circle = user.personal_circle
    Membership.objects.create(circle=circle, user=other_user, role=Membership.Role.MEMBER)
    event = make_event(user, "Ana Ben")
    (match,) = matches_of(events.round_pair(event=event, number=1))
    client.force_login(other_user)
    response = client.post(reverse("scoring:match-abandon", args=[match.pk]))
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


@pytest.mark.django_db
def test_a_table_of_an_event_is_not_deleted(user, user_client) -> None:
    event = make_event(user, "Ana Ben")
    (match,) = matches_of(events.round_pair(event=event, number=1))
    response = user_client.post(reverse("scoring:match-delete", args=[match.pk]), follow=True)
    assert "table of an event" in response.content.decode()
    assert Match.objects.filter(pk=match.pk).exists()


@pytest.mark.django_db
def test_merging_two_players_of_one_event_is_refused_and_a_merge_keeps_byes(user) -> None:
    event = make_event(user, "Ana Ben Cy")
    ana, ben = (e.player for e in event.entrants.order_by("order")[:2])
    with pytest.raises(ValidationError, match="same event"):
        services.player_merge(source=ana, target=ben)
    made = events.round_pair(event=event, number=1)
    bye = made.tables.get(bye__isnull=False)
    (zed,) = make_players(user, "Zed")
    merged = services.player_merge(source=bye.bye, target=zed)
    bye.refresh_from_db()
    assert bye.bye == merged
    assert event.entrants.filter(player=zed).exists()


# --- what members see ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_your_table_on_the_home_page_and_the_event_page(user, user_client) -> None:
    event = make_event(user, "Ana Ben")
    ana = event.entrants.get(player__name="Ana").player
    Membership.objects.filter(user=user, circle=user.personal_circle).update(player=ana)
    (match,) = matches_of(events.round_pair(event=event, number=1))
    (found,) = tables_of([ana.pk])
    assert (found.table, found.against) == (1, ["Ben"])
    home = user_client.get(reverse("scoring:home")).content.decode()
    assert "Your table: 1, against Ben" in home
    page = user_client.get(event.get_absolute_url()).content.decode()
    assert "Your table: 1, against Ben" in page
    win(match)
    assert "Your table" not in user_client.get(reverse("scoring:home")).content.decode()
    assert [(p.place, p.of, p.finished) for p in events_played(ana)] == [(1, 2, True)]
    player_page = user_client.get(reverse("scoring:player", args=[ana.pk])).content.decode()
    assert "place 1 of 2" in player_page


@pytest.mark.django_db
def test_the_event_poll_is_a_204_until_something_changes(user, user_client) -> None:
    event = make_event(user, "Ana Ben")
    event.refresh_from_db()
    session = user_client.session.session_key
    token = watch.token_for(user.pk, event.pk, session, salt=watch.EVENT_SALT)
    url = f"{event.get_absolute_url()}?watch={token}&since={event.version}"
    assert user_client.get(url, headers=HX).status_code == 204
    events.round_pair(event=event, number=1)
    response = user_client.get(url, headers=HX)
    assert response.status_code == 200
    assert 'id="event-live"' in response.content.decode()
    # Another account's token is no good.
    wrong = watch.token_for(user.pk + 1, event.pk, session, salt=watch.EVENT_SALT)
    event.refresh_from_db()
    response = user_client.get(
        f"{event.get_absolute_url()}?watch={wrong}&since={event.version}", headers=HX
    )
    assert response.status_code == 200


@pytest.mark.django_db
def test_the_big_screen_is_read_only_polls_cheaply_and_ends_with_its_link(
    user, client, django_assert_max_num_queries
) -> None:
    event = make_event(user, "Ana Ben Cy Dee")
    user_client = client
    user_client.force_login(user)
    user_client.post(reverse("scoring:event-share", args=[event.pk]))
    event.refresh_from_db()
    assert event.share_token
    events.round_pair(event=event, number=1)
    event.refresh_from_db()
    anonymous = type(client)()
    url = reverse("scoring:event-screen", args=[event.share_token])
    page = anonymous.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Round 1 of 3" in body and "Standings" in body
    assert "<form" not in body.split('id="event-screen"')[1].split("</main>")[0]
    with django_assert_max_num_queries(1):
        assert anonymous.get(f"{url}?since={event.version}", headers=HX).status_code == 204
    user_client.post(reverse("scoring:event-share-revoke", args=[event.pk]))
    assert anonymous.get(url).status_code == 404
    assert anonymous.get(f"{url}?since=1", headers=HX).status_code == 286


@pytest.mark.django_db
def test_a_renamed_player_shows_under_the_new_name_on_the_event_page_kept_rendered(
    user, user_client
) -> None:
    event = make_event(user, "Ana Ben")
    events.round_pair(event=event, number=1)
    assert "Ana" in user_client.get(event.get_absolute_url()).content.decode()
    ana = event.entrants.get(player__name="Ana").player
    services.player_rename(player=ana, name="Anneli")
    page = user_client.get(event.get_absolute_url()).content.decode()
    assert "Anneli" in page
    assert ">Ana<" not in page and "Ana <strong>" not in page


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_last_two_tables_finishing_at_once_leave_one_consistent_state(user) -> None:
    event = make_event(user, "Ana Ben Cy Dee")
    first, second = matches_of(events.round_pair(event=event, number=1))
    for match in (first, second):
        services.hand_record(match=match, number=1, tallies=FIRST_11)
    version = Event.objects.get(pk=event.pk).version
    results = at_once(
        lambda: services.hand_record(match=first, number=2, tallies=FIRST_11),
        lambda: services.hand_record(match=second, number=2, tallies=FIRST_11),
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    event.refresh_from_db()
    assert event.version == version + 2
    state = EventPage(event)
    assert not state.current.unfinished
    assert [line.row.match_points for line in state.standings] == [1, 1, 0, 0]
    assert events.round_pair(event=event, number=2).number == 2


@pytest.mark.django_db
def test_a_paired_table_is_stored_as_a_match_started_by_hand(user) -> None:
    event = make_event(user, "Ana Ben", rules=Rules.make("dominican", target=25))
    (paired,) = matches_of(events.round_pair(event=event, number=1, by=user))
    ana, ben = (seat.player for seat in paired.seats.order_by("seat"))
    started = services.match_start(
        circle=user.personal_circle, by=user, rules=event.rules, sides=[[ana], [ben]]
    )
    skip = {"id", "created_at", "event_id", "_state"}

    def fields(match: Match) -> dict[str, Any]:
        match.refresh_from_db()
        return {key: value for key, value in vars(match).items() if key not in skip}

    assert fields(paired) == fields(started)
    rows = [
        [(side.position, side.start_total, side.total) for side in m.sides.order_by("position")]
        for m in (paired, started)
    ]
    assert rows[0] == rows[1]
    assert [s.seat for s in paired.seats.all()] == [s.seat for s in started.seats.all()]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "event-pair",
        "event-time",
        "event-entrant-add",
        "event-table-abandon",
        "event-entrant-leave",
        "event-paper",
    ],
)
def test_a_member_who_is_not_the_organiser_cannot_run_the_event(
    user, other_user, client, name
) -> None:
    circle = user.personal_circle
    Membership.objects.create(circle=circle, user=other_user, role=Membership.Role.MEMBER)
    event = make_event(user, "Ana Ben")
    made = events.round_pair(event=event, number=1)
    table = made.tables.get()
    ana = event.entrants.get(player__name="Ana").player
    kwargs: dict[str, Any] = {"pk": event.pk}
    client.force_login(other_user)
    before = (Event.objects.get(pk=event.pk).version, EventRound.objects.count())
    response = client.post(
        reverse(f"scoring:{name}", kwargs=kwargs),
        {"number": 2, "name": "Gus", "player": ana.pk, "table": table.pk},
    )
    assert response.status_code == 403
    assert (Event.objects.get(pk=event.pk).version, EventRound.objects.count()) == before
    # The member still sees the event.
    assert client.get(event.get_absolute_url()).status_code == 200


@pytest.mark.django_db
def test_creating_an_event_twice_with_one_form_makes_one(user_client, user) -> None:
    ana, ben = make_players(user, "Ana Ben")
    page = user_client.get(reverse("scoring:event-new")).content.decode()
    token = (
        page.split('name="form_once" value="')[1].split('"')[0]
        if 'name="form_once"' in page
        else ""
    )
    assert token, "the form carries its once-token"
    data = {
        "name": "Friday club",
        "date": "2026-12-04",
        "format": "swiss",
        "seeding": "rating",
        "variant": "casino",
        "target": "usual",
        "players": [ana.pk, ben.pk],
        "form_once": token,
    }
    first = user_client.post(reverse("scoring:event-new"), data)
    second = user_client.post(reverse("scoring:event-new"), data)
    assert Event.objects.count() == 1
    assert first["Location"] == second["Location"] == Event.objects.get().get_absolute_url()


@pytest.mark.django_db
def test_the_organiser_runs_an_evening_with_plain_forms(user, user_client) -> None:
    """Without JavaScript: pair, a late arrival, a leaver, time, abandon: each a plain POST and a
    redirect to the event page, which says what happened."""
    event = make_event(user, "Ana Ben Cy Dee")
    url = event.get_absolute_url()
    response = user_client.post(
        reverse("scoring:event-pair", args=[event.pk]), {"number": 1}, follow=True
    )
    assert "Round 1 is paired." in response.content.decode()
    response = user_client.post(
        reverse("scoring:event-pair", args=[event.pk]), {"number": 2}, follow=True
    )
    assert "Round 1 is still being played: 2 tables have not finished." in response.content.decode()
    response = user_client.post(
        reverse("scoring:event-entrant-add", args=[event.pk]), {"name": "Gus"}, follow=True
    )
    assert "Gus plays from round 2." in response.content.decode()
    response = user_client.post(
        reverse("scoring:event-entrant-add", args=[event.pk]), {}, follow=True
    )
    assert "Choose a player or type a new name." in response.content.decode()
    ana = event.entrants.get(player__name="Ana").player
    response = user_client.post(
        reverse("scoring:event-entrant-leave", args=[event.pk]), {"player": ana.pk}, follow=True
    )
    assert "Ana is not paired again; their results stay." in response.content.decode()
    response = user_client.post(
        reverse("scoring:event-entrant-leave", args=[event.pk]), {"player": ana.pk}, follow=True
    )
    assert "Select a valid choice" in response.content.decode()  # she has left already
    response = user_client.post(reverse("scoring:event-time", args=[event.pk]), follow=True)
    assert "Time is called" in response.content.decode()
    table = EventTable.objects.filter(round__event=event).order_by("number").first()
    response = user_client.post(
        reverse("scoring:event-table-abandon", args=[event.pk]), {"table": table.pk}, follow=True
    )
    assert "Table 1 is abandoned: a loss for both sides." in response.content.decode()
    assert user_client.get(url).status_code == 200


@pytest.mark.django_db
def test_the_shared_board_of_a_table_says_time_too(user, client) -> None:
    from scoring.sharing import links

    event = make_event(user, "Ana Ben")
    (match,) = matches_of(events.round_pair(event=event, number=1))
    events.time_call(event=event)
    match = links.share_link_create(match=Match.objects.get(pk=match.pk))
    page = client.get(reverse("scoring:shared-match", args=[match.share_token])).content.decode()
    assert "Time: this is the last hand" in page


@pytest.mark.django_db
def test_every_session_of_the_organiser_gets_forms_it_can_send(user) -> None:
    """The event page keeps parts rendered, never its forms: a second phone of the account (a
    session of its own) posts with its own CSRF token and is not refused."""
    from django.test import Client

    event = make_event(user, "Ana Ben Cy Dee")
    events.round_pair(event=event, number=1)
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    for client in (first, second):
        client.force_login(user)
    first.get(event.get_absolute_url())  # renders and keeps what can be kept
    page = second.get(event.get_absolute_url()).content.decode()
    action = reverse("scoring:event-time", args=[event.pk])
    form = page.split(f'action="{action}"')[1]
    token = form.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    response = second.post(action, {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert EventRound.objects.get(event=event).time_called_at is not None


@pytest.mark.django_db
def test_an_edit_in_an_earlier_round_shows_on_the_page_kept_rendered(user, user_client) -> None:
    """The page keeps the earlier rounds' rows and tables rendered: an edit of one of their
    hands (a new version of that match) shows at once, totals and standings."""
    event = make_event(user, "Ana Ben Cy Dee")
    first, second = matches_of(events.round_pair(event=event, number=1))
    win(first)
    win(second)
    events.round_pair(event=event, number=2)
    url = event.get_absolute_url()
    assert "<strong>22</strong>" in user_client.get(url).content.decode()
    services.hand_edit(match=first, number=2, tallies=FIRST_8)  # 11 + 8: no longer won
    page = user_client.get(url).content.decode()
    earlier = page.split('id="earlier-title"')[1]
    assert "<strong>19</strong>" in earlier
    state = EventPage(event, kept=True)
    fresh = EventPage(event)
    assert [t.totals for v in state.rounds for t in v.playing] == [
        t.totals for v in fresh.rounds for t in v.playing
    ]
    assert [line.row for line in state.standings] == [line.row for line in fresh.standings]


@pytest.mark.django_db
def test_the_round_end_is_a_moment_the_phone_shows_in_its_own_time_zone(user, user_client) -> None:
    event = make_event(user, "Ana Ben", round_minutes=30)
    made = events.round_pair(event=event, number=1)
    page = user_client.get(event.get_absolute_url()).content.decode()
    assert f'<time datetime="{made.ends_at.isoformat()}" data-local-time>' in page


# --- a late arrival in a round robin ----------------------------------------------------------------


def seated_names(made: EventRound) -> set[str]:
    return {seat.player.name for match in matches_of(made) for seat in match.seats.all()}


@pytest.mark.django_db
def test_a_late_arrival_in_a_round_robin_plays_and_the_organiser_is_told(user, user_client) -> None:
    event = make_event(user, "Nia Oz Pim Rex", "round_robin")
    finish_round(events.round_pair(event=event, number=1))
    page = user_client.get(event.get_absolute_url()).content.decode()
    form = page.split('class="stack late-arrival"')[1].split("</form>")[0]
    assert "The schedule of this round robin was made for the players of round 1" in form
    response = user_client.post(
        reverse("scoring:event-entrant-add", args=[event.pk]), {"name": "Sue"}, follow=True
    )
    page = response.content.decode()
    assert "Sue plays from round 2." in page
    told = "From round 2 this round robin is paired without repeated meetings"
    assert told in page
    for number in (2, 3):
        made = events.round_pair(event=event, number=number)
        assert "Sue" in seated_names(made)
        finish_round(made)
    sue = next(line.row for line in EventPage(event).standings if line.name == "Sue")
    assert (sue.played, sue.byes) == (2, 0)
    assert told in user_client.get(event.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_a_round_robin_on_its_schedule_says_nothing_of_repeats(user, user_client) -> None:
    event = make_event(user, "Nia Oz Pim Rex", "round_robin")
    finish_round(events.round_pair(event=event, number=1))
    rex = event.entrants.get(player__name="Rex").player
    events.entrant_leave(event=event, player=rex)  # a departure keeps the schedule
    assert EventPage(event).off_schedule_from is None
    swiss = make_event(user, "Sam Tom Uma Val")
    events.round_pair(event=swiss, number=1)
    assert (
        "schedule of this round robin"
        not in user_client.get(swiss.get_absolute_url()).content.decode()
    )
    assert (
        "this round robin is paired without repeated meetings"
        not in user_client.get(event.get_absolute_url()).content.decode()
    )


# --- a table left without a result -------------------------------------------------------------------


def abandon_choices(page: str) -> list[str]:
    form = (
        page.split('id="abandon-table"')[1].split("</select>")[0] if "abandon-table" in page else ""
    )
    return [part.split('"')[0] for part in form.split('value="')[1:]]


@pytest.mark.django_db
def test_a_table_without_a_result_in_an_earlier_round_is_listed_and_holds_the_event(
    user, user_client
) -> None:
    """Swiss of 2 rounds: round 1 played, round 2 paired, then the last hand of a round-1 table
    deleted. The organiser is told that table has no result and may abandon it; the event is
    not final while it has none, and no later round is paired before."""
    event = make_event(user, "Ana Ben Cy Dee Eve Fay", rounds=3)
    first = events.round_pair(event=event, number=1)
    finish_round(first)
    second = events.round_pair(event=event, number=2)
    reopened = matches_of(first)[1]
    services.hand_delete_last(match=reopened, number=2)
    table = EventTable.objects.get(match=reopened)
    url = event.get_absolute_url()
    page = user_client.get(url).content.decode()
    assert "count the new result" not in page
    notice = page.split('no-result"')[1].split("</div>")[0]
    assert "1 table of an earlier round has no result" in notice
    assert f'href="{reopened.get_absolute_url()}"' in notice
    assert "Table 2 of round 1" in notice
    assert str(table.pk) in abandon_choices(page)
    finish_round(second)
    with pytest.raises(ValidationError, match="Table 2 of round 1 has no result"):
        events.round_pair(event=event, number=3)
    response = user_client.post(
        reverse("scoring:event-pair", args=[event.pk]), {"number": 3}, follow=True
    )
    assert "Table 2 of round 1 has no result: finish it or abandon it" in response.content.decode()
    assert EventRound.objects.filter(event=event).count() == 2
    page = response.content.decode()
    assert "Pair round 3" not in page
    response = user_client.post(
        reverse("scoring:event-table-abandon", args=[event.pk]), {"table": table.pk}, follow=True
    )
    assert "has no result" not in response.content.decode()
    assert events.round_pair(event=event, number=3).number == 3


@pytest.mark.django_db
def test_the_standings_are_not_final_while_a_table_has_no_result(user, user_client) -> None:
    event = make_event(user, "Ana Ben Cy Dee", rounds=2)
    first = events.round_pair(event=event, number=1)
    finish_round(first)
    finish_round(events.round_pair(event=event, number=2))
    assert EventPage(event).finished
    reopened = matches_of(first)[0]
    services.hand_delete_last(match=reopened, number=2)
    state = EventPage(event)
    assert not state.finished
    assert [table.round for table in state.open_tables] == [1]
    page = user_client.get(event.get_absolute_url()).content.decode()
    assert "Final standings" not in page
    assert "Table 1 of round 1" in page.split('no-result"')[1]
    user_client.post(reverse("scoring:event-share", args=[event.pk]))
    event.refresh_from_db()
    screen = reverse("scoring:event-screen", args=[event.share_token])
    assert "Final standings" not in Client().get(screen).content.decode()
    services.hand_record(match=reopened, number=2, tallies=FIRST_11)  # won again
    assert EventPage(event).finished
    assert "Final standings" in user_client.get(event.get_absolute_url()).content.decode()
    assert "Final standings" in Client().get(screen).content.decode()


# --- one answer to a double tap ----------------------------------------------------------------------


def form_token(page: str, action: str) -> str:
    form = page.split(f'action="{action}"')[1].split("</form>")[0]
    if 'name="form_once" value="' not in form:
        return "no-token-in-the-form"
    return form.split('name="form_once" value="')[1].split('"')[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("route", "message"),
    [
        ("scoring:event-pair", "Round 1 is paired."),
        ("scoring:event-time", "Time is called: every table plays the hand in progress."),
    ],
)
def test_a_double_tap_on_pair_or_time_says_it_once(user, user_client, route, message) -> None:
    event = make_event(user, "Ana Ben Cy Dee")
    if route == "scoring:event-time":
        events.round_pair(event=event, number=1)
    action = reverse(route, args=[event.pk])
    page = user_client.get(event.get_absolute_url()).content.decode()
    data = {"number": 1, "form_once": form_token(page, action)}
    first = user_client.post(action, data)
    second = user_client.post(action, data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    page = user_client.get(event.get_absolute_url()).content.decode()
    assert page.count(message) == 1
    assert EventRound.objects.filter(event=event).count() == 1
