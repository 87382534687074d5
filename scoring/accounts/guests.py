"""Playing without an account first: "Start a match" makes a guest account, and a sign-up later
turns that same account into the person's own, so every match, player and statistic stays where
it is (no copy, no import).

A guest is an ordinary account (its own circle, the same scope, outbox and pages) with no
password and a made-up username, marked on its profile. One nobody claims is deleted
settings.CASINO_GUEST_DAYS days after it was made (`guests_purge`, run daily by
`manage.py purge_guests`), with its circle, matches and players, as an account deletion would.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.access import personal_circle, personal_circle_name
from scoring.accounts.services import account_delete
from scoring.models import Circle, Profile

GUEST_PREFIX = "guest-"


def guest_days() -> int:
    return int(getattr(settings, "CASINO_GUEST_DAYS", 30))


def guest_circle_name() -> str:
    return _("Your circle")


@transaction.atomic
def guest_create() -> User:
    """A new guest account with its own circle, ready to score (the caller logs it in)."""
    users = get_user_model().objects
    user = users.create_user(username=f"{GUEST_PREFIX}{secrets.token_hex(6)}")
    user.set_unusable_password()
    user.save(update_fields=["password"])
    Profile.objects.update_or_create(user=user, defaults={"is_guest": True})
    circle = personal_circle(user)
    Circle.objects.filter(pk=circle.pk).update(name=guest_circle_name())
    return user


def is_guest(user: User) -> bool:
    return Profile.objects.filter(user_id=user.pk, is_guest=True).exists()


@transaction.atomic
def guest_claim(*, user: User, username: str, password: str, email: str = "") -> User:
    """The guest becomes `username`'s own account, with this password (and e-mail address, not
    yet verified): the same account, so all it scored stays. Its circle, while still named as a
    guest's, takes the new name. Refused for an account that is not a guest (a resend after the
    claim, another tab)."""
    account = get_user_model().objects.select_for_update().get(pk=user.pk)
    profile = Profile.objects.select_for_update().filter(user=account, is_guest=True).first()
    if profile is None:
        raise ValidationError(_("This account is already yours: nothing to keep."), code="claimed")
    account.username = username
    account.email = email
    account.set_password(password)
    account.save(update_fields=["username", "email", "password"])
    profile.is_guest = False
    profile.save(update_fields=["is_guest"])
    Circle.objects.filter(personal_for=account, name=guest_circle_name()).update(
        name=personal_circle_name(username)
    )
    if email:
        EmailAddress.objects.create(user=account, email=email, primary=True, verified=False)
    return account


def guests_purge(*, now: datetime | None = None) -> int:
    """Delete the guest accounts made more than CASINO_GUEST_DAYS ago (and what only they were
    in); one that is the only admin of a circle others joined is kept. Returns how many went."""
    cutoff = (now or timezone.now()) - timedelta(days=guest_days())
    old = get_user_model().objects.filter(profile__is_guest=True, date_joined__lt=cutoff)
    purged = 0
    for user in old.order_by("pk"):
        try:
            if account_delete(user=user) is not None:
                purged += 1
        except ValidationError:
            continue  # others play in its circle: kept until they choose another admin
    return purged
