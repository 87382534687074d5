"""Writes of an event: making it, pairing a round, calling time, players in and out, a table
abandoned. Each locks the event's row first, so that a double tap or a second phone waits and
then finds the work done (a round is paired once)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date, timedelta

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import locks
from scoring.engine import pairing, rules
from scoring.engine.rules import Rules
from scoring.events.fields import (
    MAX_PLAYERS,
    default_rounds,
    field_problem,
)
from scoring.events.state import EventState, OpenTable
from scoring.matches import bulk, services
from scoring.models import Circle, Event, EventPlayer, EventRound, EventTable, Match, Player


@transaction.atomic
def event_create(
    *,
    circle: Circle,
    by: User | None,
    name: str,
    day: date,
    fmt: str,
    rules: Rules,
    players: Sequence[Player],
    new_names: Sequence[str] = (),
    rounds: int | None = None,
    seeding: str = Event.Seeding.RATING,
    round_minutes: int | None = None,
) -> Event:
    """Set up an event of these players (and of new players of these names, added to the
    circle: a name the circle knows is its player)."""
    players = [
        *players,
        *(services.player_get_or_create(circle=circle, name=name, by=by) for name in new_names),
    ]
    problem = field_problem(fmt, [player.pk for player in players], rounds)
    if problem is not None:
        raise ValidationError(problem)
    if any(player.circle_id != circle.pk for player in players):
        raise ValidationError(_("Every player of an event must be of the event's circle."))
    event = Event.objects.create(
        circle=circle,
        created_by=by,
        name=name,
        date=day,
        format=fmt,
        seeding=seeding,
        rounds=rounds or default_rounds(fmt, len(players)),
        round_minutes=round_minutes,
        **Event.rules_fields(rules),
    )
    EventPlayer.objects.bulk_create(
        EventPlayer(event=event, player=player, order=order) for order, player in enumerate(players)
    )
    return event


def _locked(event: Event) -> Event:
    """`event` read again once it is locked, first of the rows a write locks (scoring.locks)."""
    locks.events(Event.objects.filter(pk=event.pk))
    return Event.objects.get(pk=event.pk)


def _bump(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(version=F("version") + 1)


def _order(state: EventState, number: int) -> tuple[list[int], dict[int, float]]:
    """The players of round `number` in the order the pairing reads them, and their match
    points: the standings (Swiss after round 1), the rating or a shuffle (Swiss round 1), the
    entry order (round robin, partners)."""
    event = state.event
    active = state.active(number)
    ids = [entrant.player_id for entrant in active]
    rows = state.standing_rows()
    scores = {row.player: float(row.match_points) for row in rows}
    if event.format != Event.Format.SWISS:
        return ids, scores
    if number == 1:
        if event.seeding == Event.Seeding.RANDOM:
            random.Random(event.pk).shuffle(ids)
        else:
            rating = {entrant.player_id: entrant.rating for entrant in active}
            ids.sort(key=lambda pk: -rating[pk])  # stable: entry order among equals
        return ids, scores
    place = {row.player: row.place for row in rows}
    ids.sort(key=lambda pk: place[pk])
    return ids, scores


@transaction.atomic
def round_pair(*, event: Event, number: int, by: User | None = None) -> EventRound:
    """Pair round `number` and start its matches. Asked again for a round already paired (a
    double tap, a second phone), that round is returned: a round is paired once."""
    event = _locked(event)
    existing = EventRound.objects.filter(event=event, number=number).first()
    if existing is not None:
        return existing
    state = EventState(event)
    refusal = _round_refusal(state, number)
    if refusal is not None:
        raise ValidationError(refusal)
    ids, scores = _order(state, number)
    paired = _round_pairing(state, number, ids, scores)
    players = Player.objects.in_bulk(ids)
    ends_at = None
    if event.round_minutes:
        ends_at = timezone.now() + timedelta(minutes=event.round_minutes)
    made = EventRound.objects.create(
        event=event, number=number, ends_at=ends_at, paired_from=state.paired_from(number)
    )
    _round_store(made, paired, players, by=by)
    _bump(event)
    return made


def _round_refusal(state: EventState, number: int) -> str | None:
    """Why round `number` cannot be paired now (a message), or None: every round is paired,
    it is not the next one, a table of an earlier round or of the current one has no result."""
    event = state.event
    if state.next_number is None:
        return ngettext(
            "Every round of this event is paired (%(count)d round).",
            "Every round of this event is paired (%(count)d rounds).",
            event.rounds,
        ) % {"count": event.rounds}
    if number != state.next_number:
        return _("The next round is round %(next)d.") % {"next": state.next_number}
    current = state.current
    if state.earlier_open_tables:
        return _tables_without_result(state.earlier_open_tables, number)
    if current is not None and current.unfinished:
        return ngettext(
            "Round %(round)d is still being played: %(count)d table has not finished.",
            "Round %(round)d is still being played: %(count)d tables have not finished.",
            current.unfinished,
        ) % {"round": current.number, "count": current.unfinished}
    return None


def _round_pairing(
    state: EventState, number: int, ids: list[int], scores: dict[int, float]
) -> pairing.Round:
    """Round `number` paired from these players in this order (`_order`), or refused."""
    event = state.event
    try:
        return pairing.pair_round(
            event.format,
            ids,
            state.history(),
            round_number=number,
            seed=event.pk * 1000 + number,
            rounds=event.rounds,
            scores=scores,
        )
    except pairing.PairingError as error:
        raise ValidationError(_pairing_message(error, len(ids))) from None


def _round_store(
    made: EventRound, paired: pairing.Round, players: dict[int, Player], *, by: User | None
) -> None:
    """The round's tables: its matches at once, each stored as services.match_start stores one
    (bulk.py), then its byes."""
    event = made.event
    rules = event.rules
    pks = bulk.matches_create(
        event.circle,
        (
            bulk.NewMatch(
                rules=rules,
                sides=[[players[pk] for pk in side] for side in table.sides],
                event=event,
            )
            for table in paired.tables
        ),
        by=by,
    )
    EventTable.objects.bulk_create(
        EventTable(round=made, number=index, match_id=pk) for index, pk in enumerate(pks, start=1)
    )
    EventTable.objects.bulk_create(
        EventTable(round=made, number=len(paired.tables) + index, bye=players[pk])
        for index, pk in enumerate(paired.byes, start=1)
    )


def _tables_without_result(tables: Sequence[OpenTable], number: int) -> str:
    """Why round `number` waits for these tables of earlier rounds (open again after a deleted
    hand): each is finished or abandoned first."""
    names = ", ".join(
        _("Table %(table)s of round %(round)s") % {"table": t.number, "round": t.round}
        for t in tables
    )
    return ngettext(
        "%(tables)s has no result: finish it or abandon it before round %(number)d is paired.",
        "%(tables)s have no result: finish them or abandon them before round %(number)d is paired.",
        len(tables),
    ) % {"tables": names, "number": number}


def _pairing_message(error: pairing.PairingError, count: int) -> str:
    if error.code == "too_few":
        return _("Too few players are left to pair this round (%(count)d).") % {"count": count}
    if error.code == "too_many_rounds":
        return _("A round robin of these players has no more rounds.")
    return _("This round cannot be paired: %(reason)s") % {"reason": str(error)}


@transaction.atomic
def time_call(*, event: Event) -> EventRound | None:
    """Call time in the current round: every unfinished table plays the hand in progress, and
    the side ahead after it wins (equal totals: one more hand). Called twice, nothing more."""
    event = _locked(event)
    current = event.round_set.order_by("-number").first()
    if current is None or current.time_called_at is not None:
        return current
    current.time_called_at = timezone.now()
    current.save(update_fields=["time_called_at"])
    # The event is locked: its matches next, in id order (the lock order, scoring.locks).
    locked = locks.matches_in_order(Match.objects.filter(event_table__round=current))
    for match in Match.objects.filter(pk__in=locked).order_by("pk"):
        if match.is_open and match.last_hand is None:
            match.last_hand = match.hand_count + 1
            match.version += 1
            match.save(update_fields=["last_hand", "version"])
    _bump(event)
    return current


def _paired_rounds(event: Event) -> int:
    return event.round_set.count()


@transaction.atomic
def entrant_add(*, event: Event, player: Player) -> EventPlayer:
    """A late arrival plays from the next round (a player who had left comes back)."""
    event = _locked(event)
    if player.circle_id != event.circle_id:
        raise ValidationError(_("Every player of an event must be of the event's circle."))
    paired = _paired_rounds(event)
    if paired >= event.rounds:
        raise ValidationError(_("Every round of this event is paired: nobody can join now."))
    entrant = EventPlayer.objects.filter(event=event, player=player).first()
    if entrant is None:
        order = event.entrants.count()
        if order >= MAX_PLAYERS:
            raise ValidationError(
                _("An event can have at most %(count)d players.") % {"count": MAX_PLAYERS}
            )
        entrant = EventPlayer.objects.create(
            event=event, player=player, order=order, joined_round=paired + 1
        )
    elif entrant.left_round is not None:
        entrant.left_round = None
        if entrant.joined_round > paired + 1:
            entrant.joined_round = paired + 1
        entrant.save(update_fields=["left_round", "joined_round"])
    _bump(event)
    return entrant


@transaction.atomic
def entrant_leave(*, event: Event, player: Player) -> EventPlayer:
    """A player who leaves is not paired again and keeps their results."""
    event = _locked(event)
    entrant = EventPlayer.objects.filter(event=event, player=player).first()
    if entrant is None:
        raise ValidationError(_("%(name)s does not play in this event.") % {"name": player.name})
    if entrant.left_round is None:
        entrant.left_round = _paired_rounds(event) + 1
        entrant.save(update_fields=["left_round"])
        _bump(event)
    return entrant


@transaction.atomic
def table_abandon(*, event: Event, table: EventTable) -> Match:
    """The organiser abandons an unfinished table: a loss for both sides."""
    event = _locked(event)
    if table.match is None or table.round.event_id != event.pk:
        raise ValidationError(_("There is no match at this table."))
    return services.match_abandon(match=table.match)


@transaction.atomic
def table_paper_result(*, event: Event, table: EventTable, paper: rules.Paper) -> Match:
    """The organiser enters the result of a table played on paper (services.match_paper_result)."""
    event = _locked(event)
    if table.match is None or table.round.event_id != event.pk:
        raise ValidationError(_("There is no match at this table."))
    return services.match_paper_result(match=table.match, paper=paper)
