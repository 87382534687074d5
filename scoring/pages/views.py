"""Pages across the rooms: home (the account's records in its circles, its table tonight) and the
rules of each variant."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scoring.accounts import guests
from scoring.circles import selectors as circles
from scoring.circles.context_processors import current_circle
from scoring.events.selectors import tables_of as event_tables_of
from scoring.history import selectors as history
from scoring.models import Match
from scoring.web.htmx import HtmxHttpRequest


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"guest_days": guests.guest_days()}
    if request.user.is_authenticated:
        # The account's record in each of its circles (where a player is linked to it).
        records = circles.records_of(request.user)
        context["records"] = records
        context["current_circle"] = current_circle(request)
        # The tables of club nights where the account's players sit now ("your table: 3").
        context["your_tables"] = event_tables_of([row.player.pk for row in records])
        # Its matches to continue, and today's, in every circle it is in.
        context["home"] = history.home_matches(request.user)
    return render(request, "scoring/pages/home.html", context)


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
