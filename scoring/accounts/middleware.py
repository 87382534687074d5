"""The language saved on the account, used on every page once signed in."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from scoring.models import Profile


class AccountLanguageMiddleware:
    """After LocaleMiddleware and AuthenticationMiddleware: use the language saved on the account.

    The choice is cached in the session, so it costs one query per session, not per request.
    """

    SESSION_KEY = "account_language"

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = request.session.get(self.SESSION_KEY)
            if language is None:
                profile = Profile.objects.filter(user=user).only("language").first()
                language = profile.language if profile else ""
                request.session[self.SESSION_KEY] = language
            if language and language in dict(settings.LANGUAGES):
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
