"""An account's own page and leaving with one's data: what the account holds, and deleting it.

Deleting an account takes with it every circle where it is the only member (its personal circle,
normally), with their matches, players and statistics. From a circle that others share it only
leaves: the circle's matches, players, ratings and statistics stay as they are, and the account's
name disappears from them ("started by", "entered by" and the hand history point at nobody). A
personal circle that others have joined stays with them, as an ordinary circle. The last admin of
a circle that others share must first make another member an admin (the rule of
scoring/circles/services.py). The deletion is one transaction that first locks the account and the
memberships of its circles; sent again, it finds the account gone and does nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce, Lower
from django.utils.translation import ngettext

from scoring.circles import services as circles
from scoring.models import Circle, Event, Match, Membership, Player, Profile

ADMIN = Membership.Role.ADMIN


# --- what the account holds ----------------------------------------------------------------------


@dataclass(frozen=True)
class CircleFate:
    """One of the account's circles, and what deleting the account does to it."""

    circle: Circle
    role: str
    is_personal: bool  # the account's own personal circle
    others: int  # members besides the account
    other_admins: int
    matches: int
    players: int

    @property
    def is_deleted(self) -> bool:
        """Nobody else is in it: it goes with the account, with everything in it."""
        return self.others == 0

    @property
    def is_blocking(self) -> bool:
        """Others stay and the account is their only admin: another member must be made an
        admin before the account can go."""
        return self.others > 0 and self.role == ADMIN and self.other_admins == 0

    @property
    def is_left(self) -> bool:
        return self.others > 0 and not self.is_blocking


@dataclass(frozen=True)
class DeletionPlan:
    """What deleting the account would do, circle by circle."""

    deleted: tuple[CircleFate, ...]
    left: tuple[CircleFate, ...]
    blocking: tuple[CircleFate, ...]

    @property
    def allowed(self) -> bool:
        return not self.blocking

    @property
    def circles(self) -> tuple[CircleFate, ...]:
        return self.deleted + self.left + self.blocking


def _count(queryset: QuerySet) -> Coalesce:
    """How many rows of `queryset` belong to the circle of the outer row (0 when none)."""
    counted = (
        queryset.filter(circle=OuterRef("circle_id"))
        .order_by()
        .values("circle")
        .annotate(count=Count("pk"))
        .values("count")[:1]
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def circle_fates(user: User) -> list[CircleFate]:
    """The account's circles with their members, matches and players counted: its personal one
    first, then by name (one query, however many circles)."""
    others = Membership.objects.exclude(user_id=user.pk)
    memberships = (
        Membership.objects.filter(user_id=user.pk)
        .select_related("circle")
        .annotate(
            others=_count(others),
            other_admins=_count(others.filter(role=ADMIN)),
            match_count=_count(Match.objects.all()),
            player_count=_count(Player.objects.all()),
        )
        .order_by(Lower("circle__name"), "circle_id")
    )
    fates = [
        CircleFate(
            circle=membership.circle,
            role=membership.role,
            is_personal=membership.circle.personal_for_id == user.pk,
            others=membership.others,
            other_admins=membership.other_admins,
            matches=membership.match_count,
            players=membership.player_count,
        )
        for membership in memberships
    ]
    return sorted(fates, key=lambda fate: not fate.is_personal)


def deletion_plan(user: User) -> DeletionPlan:
    fates = circle_fates(user)
    return DeletionPlan(
        deleted=tuple(fate for fate in fates if fate.is_deleted),
        left=tuple(fate for fate in fates if fate.is_left),
        blocking=tuple(fate for fate in fates if fate.is_blocking),
    )


@dataclass(frozen=True)
class EmailRow:
    email: str
    verified: bool
    primary: bool


@dataclass(frozen=True)
class Overview:
    """What the account page shows."""

    emails: tuple[EmailRow, ...]
    has_password: bool
    passkeys: int
    circles: tuple[CircleFate, ...]


def overview(user: User) -> Overview:
    from allauth.account.models import EmailAddress
    from allauth.mfa.models import Authenticator

    emails = EmailAddress.objects.filter(user_id=user.pk).order_by("-primary", "email")
    return Overview(
        emails=tuple(EmailRow(row.email, row.verified, row.primary) for row in emails),
        has_password=user.has_usable_password(),
        passkeys=Authenticator.objects.filter(
            user_id=user.pk, type=Authenticator.Type.WEBAUTHN
        ).count(),
        circles=tuple(circle_fates(user)),
    )


def address_verified_elsewhere(email: str, *, user_id: int | None) -> bool:
    """Whether an account other than `user_id` has verified `email`: the address is then that
    account's, and a link to confirm it for another could never be used."""
    from allauth.account.models import EmailAddress

    return (
        EmailAddress.objects.filter(email__iexact=email, verified=True)
        .exclude(user_id=user_id)
        .exists()
    )


# --- deleting it ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deleted:
    """What a deletion did."""

    username: str
    deleted: int  # circles deleted with the account
    left: int  # circles it left, where others stay


def _refusal(plan: DeletionPlan) -> ValidationError:
    names = ", ".join(fate.circle.name for fate in plan.blocking)
    return ValidationError(
        ngettext(
            "You are the only admin of %(names)s: make another member an admin there first.",
            "You are the only admin of these circles: %(names)s. Make another member an admin "
            "in each of them first.",
            len(plan.blocking),
        )
        % {"names": names},
        code="last_admin",
    )


def _circle_delete(circle: Circle) -> None:
    """A circle nobody else is in, with its club nights, matches, players, statistics and
    invites. The events go first (their entries and byes hold the players), then the matches:
    the one lock order (scoring/locks.py)."""
    Event.objects.filter(circle_id=circle.pk).delete()
    Match.objects.filter(circle_id=circle.pk).delete()
    circle.delete()


@transaction.atomic
def account_delete(*, user: User) -> Deleted | None:
    """Delete the account: its circles that nobody else is in go with it, the others it leaves
    (see the module's docstring). None when the account is gone already (a resend). Refused,
    with nothing changed, while it is the only admin of a circle that others stay in."""
    account = get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if account is None:
        return None
    circle_ids = Membership.objects.filter(user_id=account.pk).values("circle_id")
    list(
        Membership.objects.select_for_update()
        .filter(circle_id__in=circle_ids)
        .order_by("circle_id", "pk")
    )
    plan = deletion_plan(account)
    if not plan.allowed:
        raise _refusal(plan)
    for fate in plan.deleted:
        _circle_delete(fate.circle)
    for fate in plan.left:
        if fate.is_personal:
            # The others keep it: no longer anyone's personal circle.
            Circle.objects.filter(pk=fate.circle.pk).update(personal_for=None)
            fate.circle.personal_for = None
        circles.member_leave(circle=fate.circle, user=account)
    username = account.get_username()
    account.delete()
    return Deleted(username=username, deleted=len(plan.deleted), left=len(plan.left))


def account_exists(user: User) -> bool:
    return get_user_model().objects.filter(pk=user.pk).exists()


def profile_language_set(*, user: User, language: str) -> None:
    """Remember the user's language on their account (used on every device they sign in on)."""
    Profile.objects.update_or_create(user=user, defaults={"language": language})
