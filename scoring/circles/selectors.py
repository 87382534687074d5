"""What the pages about circles read: the account's circles, a circle's members, the players a
member may say they are, the account's record in each circle, the current circle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Case, IntegerField, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce, Lower

from scoring.access import Scope
from scoring.engine.records import Record
from scoring.models import PROVISIONAL_BELOW, Circle, Membership, Player

ADMIN = Membership.Role.ADMIN


@dataclass(frozen=True)
class CircleRow:
    """One of the account's circles, as the circles page lists it."""

    circle: Circle
    role: str
    role_label: str
    is_personal: bool  # the account's own personal circle
    is_current: bool


def circle_rows(scope: Scope) -> list[CircleRow]:
    """The account's circles: its personal one first, then by name."""
    current = scope.circle.pk
    memberships = scope.memberships().order_by(
        _personal_first(scope.user), Lower("circle__name"), "circle_id"
    )
    return [
        CircleRow(
            circle=membership.circle,
            role=membership.role,
            role_label=membership.get_role_display(),
            is_personal=membership.circle.personal_for_id == scope.user.pk,
            is_current=membership.circle_id == current,
        )
        for membership in memberships
    ]


def _personal_first(user: User) -> Case:
    return Case(
        When(circle__personal_for=user, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )


def circle_members(circle: Circle) -> QuerySet[Membership]:
    """The circle's members, in the order they joined, with their "this is me" player."""
    return (
        Membership.objects.filter(circle=circle)
        .select_related("user", "player")
        .order_by("joined_at", "pk")
    )


def linkable_players(membership: Membership) -> QuerySet[Player]:
    """The players of the circle that the member may say they are: those who are nobody's yet,
    and the member's own."""
    return Player.objects.filter(circle_id=membership.circle_id).filter(
        Q(membership__isnull=True) | Q(membership=membership)
    )


@dataclass(frozen=True)
class CircleRecord:
    """How the account fares in one circle, as the player linked to it ("this is me")."""

    circle: Circle
    player: Player
    record: Record

    @property
    def rated(self) -> bool:
        return self.player.rated_matches > 0

    @property
    def provisional(self) -> bool:
        return self.player.rated_matches < PROVISIONAL_BELOW


def records_of(user: User) -> list[CircleRecord]:
    """The account's record in each of its circles where a player is linked to it: one query,
    however many circles (from the statistics kept by scoring/matches/stats.py)."""
    memberships = (
        Membership.objects.filter(user=user, player__isnull=False)
        .select_related("circle", "player")
        .annotate(
            played=Coalesce(Sum("player__record_stats__played"), 0),
            won=Coalesce(Sum("player__record_stats__won"), 0),
        )
        .order_by(_personal_first(user), Lower("circle__name"), "circle_id")
    )
    return [
        CircleRecord(
            circle=membership.circle,
            player=membership.player,
            record=Record(membership.played, membership.won),
        )
        for membership in memberships
        if membership.player is not None
    ]


def current_circle_of(user: User, chosen: Any) -> Circle | None:
    """The circle the account is in, read in one query: the one chosen (`chosen`, the id kept in
    the session) while the account is a member of it, else its personal circle. What the pages'
    header shows; views use `request.scope`."""
    wanted = Q(personal_for=user)
    if isinstance(chosen, int):
        wanted |= Q(pk=chosen)
    found = list(
        Circle.objects.filter(wanted, memberships__user=user).only("pk", "name", "personal_for")
    )
    return next((circle for circle in found if circle.pk == chosen), None) or next(
        iter(found), None
    )
