"""The account forms: django-allauth's (settings.ACCOUNT_FORMS) as the app words them, and
confirming that it is the account holder before the account is deleted.

- The login form names its field for what it takes, a username or an e-mail address; the sign-up
  form says what the optional address is for; no form repeats its labels as placeholders.
- A password reset goes only to a verified address.
- Wrong current passwords on the password-change page count as failed logins (django-axes), as
  reauthentication's do.
- A sign-up or an address added while its address has had too many mails is refused with the
  time to wait (scoring/accounts/rate_limits.py).
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from allauth.account.forms import AddEmailForm as AllauthAddEmailForm
from allauth.account.forms import ChangePasswordForm as AllauthChangePasswordForm
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import ReauthenticateForm as AllauthReauthenticateForm
from allauth.account.forms import ResetPasswordForm as AllauthResetPasswordForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.models import EmailAddress
from allauth.core import context as allauth_context
from django import forms
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

from scoring.accounts import rate_limits


class LoginForm(AllauthLoginForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.label = gettext_lazy("Username or email")
        login.widget.attrs.update(autocomplete="username", autocapitalize="none")
        login.widget.attrs.pop("placeholder", None)
        password = self.fields["password"]
        password.help_text = ""  # the page links to the password reset with a full-size button
        password.widget.attrs.pop("placeholder", None)


def refuse_while_mail_limited(email: str) -> None:
    """Refuse an address that has had too many verification mails lately (or this client has
    sent too many), saying when to try again: allauth would accept it and send nothing."""
    request = allauth_context.request
    if request is None:
        return
    wait = rate_limits.wait_seconds(request, rate_limits.VERIFICATION, key=email)
    if wait:
        raise ValidationError(
            "{} {}".format(
                gettext(
                    "Too many e-mails have gone to this address, or from your connection, in a "
                    "short while."
                ),
                rate_limits.try_again_text(wait),
            ),
            code="mail_rate_limited",
        )


class SignupForm(AllauthSignupForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("username", "email", "password1", "password2"):
            if name in self.fields:
                self.fields[name].widget.attrs.pop("placeholder", None)
        self.fields["username"].widget.attrs.update(autocapitalize="none")
        if "email" in self.fields:
            self.fields["email"].help_text = gettext_lazy(
                "With an e-mail address you can reset a forgotten password. We send a link to it "
                "to check that it is yours."
            )

    def clean_email(self) -> str:
        email = super().clean_email()
        if email:
            refuse_while_mail_limited(email)
        return email


class ResetPasswordForm(AllauthResetPasswordForm):
    """The reset link goes only to an address the account has verified: not to one it is still
    changing to, nor to one typed at sign-up and never confirmed (a typo would hand the account
    to whoever owns the address typed). The page looks the same either way."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # "Email address": Django's own "Email" (its auth app comes first) is not translated in
        # every language.
        self.fields["email"].label = gettext_lazy("Email address")
        self.fields["email"].widget.attrs.pop("placeholder", None)

    def clean_email(self) -> str:
        email = super().clean_email()
        verified = EmailAddress.objects.filter(email__iexact=email, verified=True)
        owners = set(verified.values_list("user_id", flat=True))
        self.users: list[Any] = [user for user in self.users if user.pk in owners]
        return email


class AddEmailForm(AllauthAddEmailForm):
    """The address to add, or to change to once it is verified (ACCOUNT_CHANGE_EMAIL)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        email = self.fields["email"]
        has_one = self.user is not None and EmailAddress.objects.filter(user=self.user).exists()
        email.label = gettext_lazy("Change to") if has_one else gettext_lazy("Email address")
        email.widget.attrs.pop("placeholder", None)

    def clean_email(self) -> str:
        email = super().clean_email()
        refuse_while_mail_limited(email)
        return email


class ChangePasswordForm(AllauthChangePasswordForm):
    """The current password is checked through the authentication backends, so wrong guesses
    count as failed logins (django-axes) and lock the page as they lock the login; allauth's own
    form compares it directly, as often as asked."""

    def clean_oldpassword(self) -> str:
        password = self.cleaned_data.get("oldpassword", "")
        adapter = get_adapter()
        if not adapter.reauthenticate(self.user, password):
            raise adapter.validation_error("enter_current_password")
        return password


class ReauthenticateForm(AllauthReauthenticateForm):
    """The password asked again before the address changes; the page links to the password reset
    with a full-size button instead of the field's help text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password"].help_text = ""
        self.fields["password"].widget.attrs.pop("placeholder", None)


class DeleteAccountForm(forms.Form):
    """The account holder confirms it is them: with the password, unless they did so a moment
    ago through allauth (a passkey, a code), or the account has no password."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, confirmed: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.confirmed = confirmed
        if confirmed or not user.has_usable_password():
            del self.fields["password"]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        # Through the authentication backends: wrong guesses count as failed logins (django-axes).
        if not get_adapter().reauthenticate(self.user, password):
            raise ValidationError(_("That is not your password."), code="incorrect_password")
        return password

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if not self.confirmed and "password" not in self.fields:
            raise ValidationError(
                _("First confirm that it is you, with one of the ways below."),
                code="not_confirmed",
            )
        return cleaned
