"""Share links (a live, read-only scoreboard), export and import of matches."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from scoring.access import link_grant, scoped
from scoring.matches import selectors
from scoring.models import Match
from scoring.sharing import card, exchange, links
from scoring.sharing.forms import ImportForm
from scoring.web.htmx import (
    HtmxHttpRequest,
    ScopedRequest,
    download,
    link_ended,
    nothing_new,
    png,
    qr_code,
    render_region,
)
from scoring.web.once import once_per_form

SHARE_TEMPLATE = "scoring/sharing/share.html"
IMPORT_TEMPLATE = "scoring/sharing/import.html"
MAX_PROBLEMS_SHOWN = 50


# --- the live, read-only scoreboard ----------------------------------------------------------


@require_safe
@never_cache
def shared_match(request: HtmxHttpRequest, token: str) -> HttpResponse:
    try:
        match = links.match_for_share_token(token)
    except Http404:
        return link_ended(request, SHARE_TEMPLATE)  # a board still open on a link turned off
    if nothing_new(request, match.version):
        return HttpResponse(status=204)
    context: dict[str, Any] = {
        "board": selectors.match_board(match),
        "match": match,
        "poll_url": f"{request.path}?{urlencode({'since': match.version})}",
    }
    response = render_region(request, SHARE_TEMPLATE, "board", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _share_panel(
    request: HtmxHttpRequest, match: Match, *, changed: bool = True, scoring: bool = False
) -> HttpResponse:
    """The panel, open; after a change (`changed`) with the focus on what changed (the scoring
    link's part when `scoring`)."""
    if not request.htmx:
        # Without JavaScript the scoreboard reopens with the panel open at the new link.
        part = "scoring-link" if scoring else "share-panel"
        return redirect(f"{match.get_absolute_url()}?panel=share#{part}")
    context = {
        "match": match,
        "panel_open": True,
        "share_open": changed and not scoring,
        "scoring_open": changed and scoring,
    }
    return render(request, "scoring/sharing/_share_panel.html", context)


@scoped
@require_safe
@vary_on_headers("HX-Request")
def share_panel(request: ScopedRequest, pk: int) -> HttpResponse:
    """The scoreboard's share panel, fetched when it is first opened (the board does not render
    it on every load)."""
    return _share_panel(request, request.scope.match(pk), changed=False)


@scoped
@require_POST
@once_per_form
def share_create(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    return _share_panel(request, links.share_link_create(match=match))


@scoped
@require_POST
def share_revoke(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    return _share_panel(request, links.share_link_revoke(match=match))


@scoped
@require_safe
def share_qr(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    if not match.share_token:
        raise Http404
    url = request.build_absolute_uri(reverse("scoring:shared-match", args=[match.share_token]))
    return qr_code(url)


# --- scoring links ---------------------------------------------------------------------------------


@require_safe
@never_cache
def scoring_open(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A scoring link opened: this session may now score that one match (its board, without the
    token in the address). A link turned off says so."""
    try:
        match = links.match_for_scoring_token(token)
    except Http404:
        return render(request, "scoring/sharing/scoring_ended.html", status=404)
    link_grant(request.session, match)
    return redirect(match)


@scoped
@require_POST
@once_per_form
def scoring_create(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    try:
        match = links.scoring_link_create(match=match)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(match)
    return _share_panel(request, match, scoring=True)


@scoped
@require_POST
def scoring_revoke(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    return _share_panel(request, links.scoring_link_revoke(match=match), scoring=True)


@scoped
@require_safe
def scoring_qr(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    if not match.scoring_token:
        raise Http404
    return qr_code(request.build_absolute_uri(scoring_path(match)))


def scoring_path(match: Match) -> str:
    return reverse("scoring:scoring-open", args=[match.scoring_token])


# --- the result card -----------------------------------------------------------------------------


@scoped
@require_safe
def match_card(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    return png(card.match_png(match), f"casino-result-{match.pk}.png")


@require_safe
def shared_card(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The card of a shared match, for anyone holding the link (what a chat shows of it)."""
    match = links.match_for_share_token(token)
    return png(card.match_png(match), f"casino-result-{match.pk}.png")


# --- export --------------------------------------------------------------------------------------


@scoped
@require_safe
def export_all(request: ScopedRequest) -> HttpResponse | StreamingHttpResponse:
    chunks = exchange.export_chunks(exchange.iter_match_documents(request.scope.circle))
    filename = f"casino-matches-{timezone.localdate():%Y-%m-%d}.json"
    return download(chunks, "application/json", filename)


@scoped
@require_safe
def export_match(request: ScopedRequest, pk: int) -> HttpResponse | StreamingHttpResponse:
    match = request.scope.match(pk)
    docs = exchange.match_documents(match.circle, pks=[match.pk])
    text = "".join(exchange.export_chunks(docs, as_list=False))
    return download(text, "application/json", f"casino-match-{match.pk}.json")


@scoped
@require_safe
def export_hands(request: ScopedRequest) -> HttpResponse | StreamingHttpResponse:
    filename = f"casino-hands-{timezone.localdate():%Y-%m-%d}.csv"
    return download(
        exchange.iter_hands_csv(request.scope.circle), "text/csv; charset=utf-8", filename
    )


@scoped
@require_safe
def export_match_hands(request: ScopedRequest, pk: int) -> HttpResponse | StreamingHttpResponse:
    match = request.scope.match(pk)
    csv_text = exchange.hands_csv(match.circle, pk=match.pk)
    return download(csv_text, "text/csv; charset=utf-8", f"casino-match-{match.pk}-hands.csv")


# --- import --------------------------------------------------------------------------------------


@scoped
@require_http_methods(["GET", "POST"])
@once_per_form
def match_import(request: ScopedRequest) -> HttpResponse:
    posted = request.method == "POST"
    form = ImportForm(request.POST if posted else None, request.FILES if posted else None)
    problems: list[str] = []
    if posted and form.is_valid():
        try:
            result = exchange.matches_import(
                **request.scope.stamp(), text=form.cleaned_data["file"]
            )
        except exchange.ImportRefused as refused:
            problems = refused.messages
        else:
            return _imported(request, result)
    context = {
        "form": form,
        "problems": problems[:MAX_PROBLEMS_SHOWN],
        "more_problems": max(0, len(problems) - MAX_PROBLEMS_SHOWN),
    }
    status = 400 if posted else 200
    return render_region(request, IMPORT_TEMPLATE, "import-form", context, status=status)


def _imported(request: HtmxHttpRequest, result: exchange.ImportResult) -> HttpResponse:
    count = len(result.matches)
    messages.success(
        request,
        ngettext("%(count)d match imported.", "%(count)d matches imported.", count)
        % {"count": count},
    )
    url = result.matches[0].get_absolute_url() if count == 1 else reverse("scoring:match-list")
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
