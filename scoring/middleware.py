"""A signed-in user's language follows them: their account's choice wins over the browser's."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import add_never_cache_headers

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


class NoStoreMiddleware:
    """Pages change with every hand: the browser must ask again, not show a stored copy.

    Back after a hand was saved with htmx would otherwise show the page as first loaded (0–0,
    hand 1), and Chromium keeps no page with `no-store` in its back/forward cache either. A view
    that set its own Cache-Control keeps it; static files are WhiteNoise's and never reach here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Cache-Control" not in response and response.get("Content-Type", "").startswith(
            "text/html"
        ):
            add_never_cache_headers(response)
        return response
