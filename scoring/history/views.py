"""Looking back: history, read-only score sheets, players, head to head, leaderboard."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.access import linked, scoped
from scoring.engine import charts
from scoring.events.selectors import events_played
from scoring.history import selectors as history
from scoring.history.forms import HistoryFilterForm
from scoring.matches import selectors, services
from scoring.matches.forms import PlayerForm, PlayerMergeForm
from scoring.web.htmx import LinkedRequest, ScopedRequest, render_region


@scoped
@require_safe
def match_list(request: ScopedRequest) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None, players=request.scope.players())
    filters = form.filters() if form.is_valid() else {}
    page = history.match_history(
        request.scope.circle,
        after=request.GET.get("after", ""),
        page=request.GET.get("page", 1),
        **filters,
    )
    # "Load more" carries the filters, the next page's number and where this page ended.
    query = request.GET.copy()
    for name in ("page", "after"):
        query.pop(name, None)
    context = {"form": form, "page": page, "rows": page.rows, "query": query.urlencode()}
    return render_region(request, "scoring/history/match_list.html", "rows", context)


@linked
@require_safe
def match_sheet(request: LinkedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    board = selectors.match_board(match, latest=None)
    chart = charts.running_totals_chart(board.side_names, board.running_totals, match.target)
    return render(
        request,
        "scoring/matches/match_sheet.html",
        {"match": match, "board": board, "chart": chart},
    )


@scoped
@require_http_methods(["GET", "POST"])
def player_detail(request: ScopedRequest, pk: int) -> HttpResponse:
    player = request.scope.player(pk, admin=request.method == "POST")  # a rename
    rename = PlayerForm(request.POST or None, initial={"name": player.name})
    if request.method == "POST" and rename.is_valid():
        try:
            services.player_rename(player=player, name=rename.cleaned_data["name"])
        except ValidationError as error:
            rename.add_error("name", error)
        else:
            messages.success(request, _("Renamed to %(name)s.") % {"name": player.name})
            return redirect("scoring:player", pk=player.pk)
    context = {
        "player": player,
        "stats": history.player_stats(player),
        "events": events_played(player),
        "rename": rename,
        "merge": PlayerMergeForm(players=request.scope.players(), source=player),
    }
    return render(request, "scoring/history/player_detail.html", context)


@scoped
@require_POST
def player_merge(request: ScopedRequest, pk: int) -> HttpResponse:
    source = request.scope.player(pk, admin=True)
    form = PlayerMergeForm(request.POST, players=request.scope.players(), source=source)
    if form.is_valid() and request.POST.get("confirm"):
        try:
            target = services.player_merge(source=source, target=form.cleaned_data["target"])
        except ValidationError as error:
            form.add_error("target", error)
        else:
            messages.success(request, _("Merged into %(name)s.") % {"name": target.name})
            return redirect("scoring:player", pk=target.pk)
    preview = (
        history.merge_preview(source, form.cleaned_data["target"]) if form.is_valid() else None
    )
    return render(
        request,
        "scoring/history/player_merge.html",
        {"player": source, "form": form, "preview": preview},
    )


@scoped
@require_safe
def head_to_head(request: ScopedRequest, pk: int, other: int) -> HttpResponse:
    first = request.scope.player(pk)
    second = request.scope.player(other)
    return render(
        request, "scoring/history/head_to_head.html", {"h2h": history.head_to_head(first, second)}
    )


@scoped
@require_safe
def leaderboard(request: ScopedRequest) -> HttpResponse:
    players: list[Any] = list(history.leaderboard(request.scope.circle))  # annotated: rated
    context = {
        "players": players,
        "rated": [player for player in players if player.rated],
        "unrated": [player for player in players if not player.rated],
    }
    return render(request, "scoring/history/leaderboard.html", context)
