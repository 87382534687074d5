"""Signing up: django-allauth's sign-up page, as the app's creating forms behave.

A refused form comes back with 400, as every refused form of the app does. Two sign-ups for one
username at the same moment both pass the form's check before either writes:
the one the database's unique index turns away gets the form's own message, not a server error.
"""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from allauth.account.internal.userkit import filter_users_by_username
from allauth.account.views import SignupView as AllauthSignupView
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from scoring.once import once_per_form


class SignupView(AllauthSignupView):
    def form_valid(self, form) -> HttpResponse:
        try:
            with transaction.atomic():
                return super().form_valid(form)
        except IntegrityError:
            if not filter_users_by_username(form.cleaned_data.get("username") or "").exists():
                raise
            form.add_error("username", get_adapter(self.request).error_messages["username_taken"])
            return self.form_invalid(form)

    def form_invalid(self, form) -> HttpResponse:
        response = super().form_invalid(form)
        response.status_code = 400
        return response


signup = require_http_methods(["GET", "POST"])(once_per_form(SignupView.as_view()))
