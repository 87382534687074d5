"""Pages anyone can read: the rules of each variant."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scoring.models import Match
from scoring.web.htmx import HtmxHttpRequest


@require_safe
def rules_page(request: HtmxHttpRequest, variant: str = "casino") -> HttpResponse:
    if variant not in Match.Variant.values:
        raise Http404
    context = {
        "variant": variant,
        "variants": Match.Variant.choices,
        "classic": variant in (Match.Variant.CASINO, Match.Variant.ROYAL, Match.Variant.DOMINICAN),
    }
    return render(request, "scoring/pages/rules.html", context)
