"""Pages anyone can read: the rules of each variant, and choosing the language."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST, require_safe

from scoring import services
from scoring.middleware import AccountLanguageMiddleware
from scoring.models import Match
from scoring.views.common import HtmxHttpRequest

ONE_YEAR = 365 * 24 * 60 * 60


@require_safe
def rules_page(request: HtmxHttpRequest, variant: str = "casino") -> HttpResponse:
    if variant not in Match.Variant.values:
        raise Http404
    context = {
        "variant": variant,
        "variants": Match.Variant.choices,
        "classic": variant in (Match.Variant.CASINO, Match.Variant.ROYAL, Match.Variant.DOMINICAN),
    }
    return render(request, "scoring/rules.html", context)


@require_POST
def language_set(request: HtmxHttpRequest) -> HttpResponse:
    """Switch the language: remembered in a cookie, and on the account when signed in."""
    language = request.POST.get("language", "")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("scoring:home")
    response = HttpResponseRedirect(target)
    if language in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=ONE_YEAR,
            samesite="Lax",
            secure=request.is_secure(),
        )
        if request.user.is_authenticated:
            services.profile_language_set(user=request.user, language=language)
            request.session[AccountLanguageMiddleware.SESSION_KEY] = language
    return response
