"""The one lock order (docs/ARCHITECTURE.md): a write that locks more than one row locks events
before matches, each kind in id order, and only then the rows below them (the statistics, then
the players' ratings, both in pk order). Two writes that meet then wait for each other in turn and
never each for the other (a deadlock, which PostgreSQL ends by failing one of them).

A table's match is locked after its event: `matches()` does it in the statement that locks the
match, so a hand saved at a table costs no statement more than one saved anywhere else."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from scoring.models import Event, Match


def matches() -> QuerySet[Match]:
    """Matches read locked, each after its event (a table's) is locked. The event's lock is taken
    by the filter, which the database evaluates before it locks the row it returns."""
    event = Event.objects.filter(pk=OuterRef("event_id")).select_for_update()
    return Match.objects.select_for_update(of=("self",)).filter(
        Q(event_id__isnull=True) | Exists(event)
    )


def match(match: Match) -> Match:
    """`match` read again, locked (its event first)."""
    return matches().get(pk=match.pk)


def events(these: QuerySet[Event]) -> list[int]:
    """Lock `these` events, in id order; their ids."""
    pks = these.values("pk")
    locked = Event.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    return list(locked.values_list("pk", flat=True))


def matches_in_order(these: QuerySet[Match]) -> list[int]:
    """Lock `these` matches (their events locked already), in id order; their ids."""
    locked = Match.objects.select_for_update().filter(pk__in=these.values("pk")).order_by("pk")
    return list(locked.values_list("pk", flat=True))
