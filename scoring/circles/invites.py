"""Invites to a circle: a link that lets whoever holds it join (with an account) until it expires,
is used up or is revoked. The code in the link is the only key, so it is long and random, and it
is kept out of logs (casino_site/log_masking.py)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from scoring.models import Circle, Invite, Membership, Removal

CODE_BYTES = 32  # secrets.token_urlsafe(32): 43 characters, 256 bits
DAYS_CHOICES = (1, 7, 30)
DEFAULT_DAYS = 7
CODE_MAX = 64  # Invite.token's max_length


class State(StrEnum):
    ACTIVE = "active"
    EXPIRED = "expired"
    USED_UP = "used-up"
    REVOKED = "revoked"
    REMOVED = "removed"  # for one account: removed from the circle after the invite was made


class InviteGone(Exception):
    """The invite is known but lets nobody in any more."""

    def __init__(self, invite: Invite, state: State) -> None:
        super().__init__(state)
        self.invite = invite
        self.state = state


class InviteUnknown(Exception):
    """No invite has this code."""


@dataclass(frozen=True)
class Joined:
    membership: Membership
    new: bool  # False: the account was a member already (nothing changed, no use counted)

    @property
    def circle(self) -> Circle:
        return self.membership.circle


def _active(now: datetime) -> Q:
    return Q(revoked_at__isnull=True, expires_at__gt=now) & (
        Q(max_uses__isnull=True) | Q(uses__lt=F("max_uses"))
    )


def invite_state(invite: Invite, now: datetime | None = None) -> State:
    now = now or timezone.now()
    if invite.revoked_at is not None:
        return State.REVOKED
    if invite.expires_at <= now:
        return State.EXPIRED
    if invite.max_uses is not None and invite.uses >= invite.max_uses:
        return State.USED_UP
    return State.ACTIVE


# --- selectors -----------------------------------------------------------------------------------


def invites_active(circle: Circle, now: datetime | None = None) -> QuerySet[Invite]:
    """The circle's invites that still let someone in, newest first."""
    return (
        Invite.objects.filter(circle=circle)
        .filter(_active(now or timezone.now()))
        .select_related("created_by")
    )


def invite_of(circle: Circle, pk: int, *, active: bool = False) -> Invite:
    """One invite of the circle (404 when it is another circle's, or not active when `active`)."""
    invites = Invite.objects.filter(circle=circle, pk=pk)
    if active:
        invites = invites.filter(_active(timezone.now()))
    invite = invites.first()
    if invite is None:
        raise Http404
    return invite


def invite_for_code(code: str) -> Invite | None:
    """The invite behind a link's code, whatever its state (None for an unknown code)."""
    if not code or len(code) > CODE_MAX:
        return None
    return Invite.objects.select_related("circle", "created_by").filter(token=code).first()


def is_member(user: User | AnonymousUser, circle: Circle) -> bool:
    return user.is_authenticated and Membership.objects.filter(circle=circle, user=user).exists()


def removed_since(invite: Invite, user: User | AnonymousUser) -> bool:
    """Whether an admin removed `user` from the invite's circle after the invite was made: such an
    invite no longer lets that account in (a newer one does)."""
    return (
        user.is_authenticated
        and Removal.objects.filter(
            circle_id=invite.circle_id, user_id=user.pk, removed_at__gte=invite.created_at
        ).exists()
    )


def state_for(invite: Invite, user: User | AnonymousUser, now: datetime | None = None) -> State:
    """The invite's state for this account: an active invite made before the account was removed
    from the circle is REMOVED for it."""
    state = invite_state(invite, now)
    if state is State.ACTIVE and removed_since(invite, user):
        return State.REMOVED
    return state


# --- services ------------------------------------------------------------------------------------


@transaction.atomic
def invite_create(
    *,
    circle: Circle,
    by: User,
    days: int = DEFAULT_DAYS,
    max_uses: int | None = None,
    now: datetime | None = None,
) -> Invite:
    """A new invite to `circle`, valid for `days`, for `max_uses` accounts (None: any number)."""
    if days <= 0:
        raise ValueError("an invite lasts at least a day")
    if max_uses is not None and max_uses <= 0:
        raise ValueError("an invite lets at least one account in")
    now = now or timezone.now()
    return Invite.objects.create(
        circle=circle,
        token=secrets.token_urlsafe(CODE_BYTES),
        created_by=by,
        expires_at=now + timedelta(days=days),
        max_uses=max_uses,
    )


@transaction.atomic
def invite_revoke(*, invite: Invite, now: datetime | None = None) -> Invite:
    """Stop the link working at once; revoking it again changes nothing."""
    invite = Invite.objects.select_for_update().get(pk=invite.pk)
    if invite.revoked_at is None:
        invite.revoked_at = now or timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def invite_accept(*, code: str, user: User, now: datetime | None = None) -> Joined:
    """Let `user` into the invite's circle as a member, counting one use.

    The invite row is locked first, so two accounts racing for the last use are let in one after
    the other and the second finds it used up. An account that is a member already stays as it
    is (whatever the invite's state: a resent join, an old link) and no use is counted.
    """
    if not code or len(code) > CODE_MAX:
        raise InviteUnknown
    invite = Invite.objects.select_for_update().filter(token=code).first()
    if invite is None:
        raise InviteUnknown
    membership = Membership.objects.select_related("circle").filter(
        circle_id=invite.circle_id, user=user
    )
    existing = membership.first()
    if existing is not None:
        return Joined(existing, new=False)
    state = state_for(invite, user, now)
    if state is not State.ACTIVE:
        raise InviteGone(invite, state)
    Invite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    Membership.objects.create(circle_id=invite.circle_id, user=user, role=Membership.Role.MEMBER)
    return Joined(membership.get(), new=True)
