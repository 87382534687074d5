"""What the app asks of an account once: accounts made before e-mail addresses existed are invited,
after their next login, to add one (with it, a forgotten password can be reset).

The invitation is shown once, whether or not it is taken up: the moment it is shown is kept on the
account's profile (Profile.email_invited_at). Signing up counts as being asked, since the sign-up
form offers the address.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext

from scoring.models import Profile


def has_email(user: Any) -> bool:
    """Whether the account has an e-mail address, verified or not."""
    return bool(user.email) or EmailAddress.objects.filter(user=user).exists()


def claim_email_invitation(user: Any) -> bool:
    """Mark the account as asked to add an e-mail address; True only the first time (two logins
    at once claim it once)."""
    with transaction.atomic():
        profile, _created = Profile.objects.get_or_create(user=user)
        claimed = Profile.objects.filter(pk=profile.pk, email_invited_at__isnull=True).update(
            email_invited_at=timezone.now()
        )
    return bool(claimed)


def after_login(request: HttpRequest, user: Any, *, signup: bool) -> None:
    """After a login (or a sign-up): invite an account without an e-mail address, once."""
    if has_email(user):
        return
    if not claim_email_invitation(user) or signup:
        return
    text = gettext(
        "You currently do not have any email address set up. You should really add an email "
        "address so you can receive notifications, reset your password, etc."
    )
    link = format_html(
        '<a class="button" href="{}">{}</a>', reverse("account_email"), gettext("Add Email Address")
    )
    messages.info(request, format_html("{} {}", text, link), extra_tags="email-invitation")
