"""Club nights: the circle's events, setting one up, its page (rounds, tables, standings, the
organiser's buttons) and its big screen (a share link, no login)."""

from __future__ import annotations

import json
from typing import Any, cast
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.access import scoped
from scoring.events import exchange, selectors
from scoring.events import services as events
from scoring.events.forms import (
    EntrantForm,
    EventForm,
    EventImportForm,
    LeaverForm,
    PaperResultForm,
)
from scoring.matches import services
from scoring.models import Event, EventTable, Player
from scoring.sharing import card, links
from scoring.sharing.exchange import ImportRefused
from scoring.web import watch
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

EVENT_TEMPLATE = "scoring/events/event_detail.html"
SCREEN_TEMPLATE = "scoring/events/event_screen.html"


@scoped
@require_safe
def event_list(request: ScopedRequest) -> HttpResponse:
    context = {"events": selectors.events_of(request.scope.events())}
    return render(request, "scoring/events/event_list.html", context)


@scoped
@require_http_methods(["GET", "POST"])
@once_per_form
def event_new(request: ScopedRequest) -> HttpResponse:
    form = EventForm(request.POST or None, players=request.scope.players())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = _create(request, data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(event)
    status = 400 if form.errors else 200
    return render(request, "scoring/events/event_new.html", {"form": form}, status=status)


def _create(request: ScopedRequest, data: dict[str, Any]) -> Event:
    return events.event_create(
        circle=request.scope.circle,
        by=request.user,
        name=data["name"],
        day=data["date"],
        fmt=data["format"],
        rules=data["rules"],
        players=data["entrants"],
        new_names=data["new_names"],
        rounds=data.get("rounds"),
        seeding=data.get("seeding") or Event.Seeding.RATING,
        round_minutes=data.get("round_minutes"),
    )


def _context(event: Event, *, me: int | None = None, **extra: Any) -> dict[str, Any]:
    state = selectors.EventPage(event, me=me, kept=True)
    return {"event": event, "state": state, "me": me, **extra}


@scoped
@require_safe
def event_detail(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk)
    since = request.GET.get("since")
    organiser = request.scope.organises(event)
    if request.htmx and since is not None:
        # Most polls are answered by WatchMiddleware's 204 before this view. One that gets here
        # unchanged has a token too old (or another account's): the region comes again, with a
        # fresh token.
        token = request.GET.get("watch", "")
        if since == str(event.version) and (
            watch.watcher(token, event.pk, request.session.session_key, salt=watch.EVENT_SALT)
            == request.user.pk
        ):
            return HttpResponse(status=204)
        context = _context(event, me=_me(request, event), organiser=organiser)
        return render(request, f"{EVENT_TEMPLATE}#live", context)
    context = _context(
        event,
        me=_me(request, event),
        organiser=organiser,
        entrant_form=EntrantForm(players=request.scope.players()),
        leave_form=LeaverForm(players=_still_playing(event)),
        share_open=request.GET.get("panel") == "share",
        scoring_links=selectors.scoring_links(event) if organiser else (),
    )
    return render_region(request, EVENT_TEMPLATE, "live", context)


def _me(request: ScopedRequest, event: Event) -> int | None:
    """The reader's player in the event's circle ("this is me"), read by scope.event."""
    return getattr(event, "member_player", None)


def _done(
    request: ScopedRequest, event: Event, error: ValidationError | None = None
) -> HttpResponse:
    if error is not None:
        for message in error.messages:
            messages.error(request, message)
    return redirect(event)


@scoped
@require_POST
@once_per_form
def event_pair(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk, manage=True)
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = 0  # refused below, with the round that is next
    try:
        paired = events.round_pair(event=event, number=number, by=request.user)
    except ValidationError as error:
        return _done(request, event, error)
    messages.success(request, _("Round %(number)d is paired.") % {"number": paired.number})
    return redirect(f"{event.get_absolute_url()}#round-{paired.number}")


@scoped
@require_POST
@once_per_form
def event_time(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk, manage=True)
    called = events.time_call(event=event)
    if called is not None:
        messages.success(request, _("Time is called: every table plays the hand in progress."))
    return redirect(event)


@scoped
@require_POST
@once_per_form
def event_entrant_add(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk, manage=True)
    form = EntrantForm(request.POST, players=request.scope.players())
    if not form.is_valid():
        return _done(
            request, event, ValidationError([e for errors in form.errors.values() for e in errors])
        )
    player = form.cleaned_data.get("player")
    try:
        if player is None:
            player = services.player_get_or_create(
                circle=event.circle, name=form.cleaned_data["name"], by=request.user
            )
        entrant = events.entrant_add(event=event, player=player)
    except ValidationError as error:
        return _done(request, event, error)
    messages.success(
        request,
        _("%(name)s plays from round %(number)d.")
        % {"name": player.name, "number": entrant.joined_round},
    )
    return redirect(f"{event.get_absolute_url()}#players")


@scoped
@require_POST
@once_per_form
def event_entrant_leave(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk, manage=True)
    form = LeaverForm(request.POST, players=_still_playing(event))
    if not form.is_valid():
        return _done(request, event, ValidationError(list(form.errors["player"])))
    leaver = form.cleaned_data["player"]
    try:
        events.entrant_leave(event=event, player=leaver)
    except ValidationError as error:
        return _done(request, event, error)
    messages.success(
        request, _("%(name)s is not paired again; their results stay.") % {"name": leaver.name}
    )
    return redirect(f"{event.get_absolute_url()}#players")


def _still_playing(event: Event) -> QuerySet[Player]:
    return Player.objects.filter(entries__event=event, entries__left_round__isnull=True).order_by(
        "entries__order"
    )


PAPER_TEMPLATE = "scoring/events/event_paper.html"


@scoped
@require_http_methods(["GET", "POST"])
def event_paper_result(request: ScopedRequest, pk: int) -> HttpResponse:
    """The organiser enters a table's final result from its paper score sheet: first which
    table (?table=), then its totals and winner."""
    event = request.scope.event(pk, manage=True)
    try:
        chosen = int(request.GET.get("table", ""))
    except ValueError:
        chosen = 0
    entry = selectors.paper_entry(event, chosen) if chosen else None
    if entry is None:
        context = {"event": event, "tables": selectors.paper_tables(event), "asked": bool(chosen)}
        return render(request, PAPER_TEMPLATE, context, status=404 if chosen else 200)
    initial = {}
    if entry.entered is not None:
        initial = {f"total_{p}": total for p, total in enumerate(entry.entered.totals)}
        initial["winner"] = entry.entered.winner
    posted = request.method == "POST"
    form = PaperResultForm(
        request.POST if posted else None, initial=initial, side_names=entry.side_names
    )
    if posted and form.is_valid():
        try:
            events.table_paper_result(event=event, table=entry.table, paper=form.paper)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _("Table %(number)d: the result from paper is entered.")
                % {"number": entry.table.number},
            )
            return redirect(f"{event.get_absolute_url()}#round-{entry.table.round.number}")
    context = {"event": event, "entry": entry, "form": form}
    return render(request, PAPER_TEMPLATE, context, status=400 if form.errors else 200)


@scoped
@require_POST
@once_per_form
def event_table_abandon(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk, manage=True)
    try:
        table = int(request.POST.get("table", ""))
    except ValueError:
        table = 0
    found = EventTable.objects.select_related("match", "round").filter(pk=table, round__event=event)
    chosen = found.first()
    if chosen is None:
        return _done(request, event, ValidationError(_("There is no match at this table.")))
    try:
        events.table_abandon(event=event, table=chosen)
    except ValidationError as error:
        return _done(request, event, error)
    messages.success(
        request,
        _("Table %(number)d is abandoned: a loss for both sides.") % {"number": chosen.number},
    )
    return redirect(event)


@scoped
@require_POST
@once_per_form
def event_scoring_links(request: ScopedRequest, pk: int) -> HttpResponse:
    """The organiser gives every open table a scoring link, for its players' own phones."""
    event = request.scope.event(pk, manage=True)
    made = links.event_scoring_links(event=event)
    messages.success(
        request,
        ngettext(
            "%(count)d table got a scoring link.", "%(count)d tables got a scoring link.", made
        )
        % {"count": made},
    )
    return redirect(f"{event.get_absolute_url()}#scoring-links")


# --- the big screen ------------------------------------------------------------------------------


@scoped
@require_POST
def event_share(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk)
    links.share_link_create(match=event)
    return redirect(f"{event.get_absolute_url()}?panel=share#big-screen")


@scoped
@require_POST
def event_share_revoke(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk)
    links.share_link_revoke(match=event)
    return redirect(f"{event.get_absolute_url()}#big-screen")


@scoped
@require_safe
def event_share_qr(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk)
    if not event.share_token:
        raise Http404
    return qr_code(
        request.build_absolute_uri(reverse("scoring:event-screen", args=[event.share_token]))
    )


@scoped
@require_safe
def event_card(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk)
    return png(card.event_png(event, selectors.EventPage(event).podium), _filename(event, "png"))


@require_safe
def screen_card(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The card of a club night whose big screen is shared, for anyone holding that link."""
    event = links.event_for_share_token(token)
    return png(card.event_png(event, selectors.EventPage(event).podium), _filename(event, "png"))


@require_safe
@never_cache
def event_screen(request: HtmxHttpRequest, token: str) -> HttpResponse:
    try:
        event = links.event_for_share_token(token)
    except Http404:
        return link_ended(request, SCREEN_TEMPLATE)  # a screen still open on a link turned off
    if nothing_new(request, event.version):
        return HttpResponse(status=204)
    context = {
        **_context(event),
        "poll_url": f"{request.path}?{urlencode({'since': event.version})}",
    }
    response = render_region(request, SCREEN_TEMPLATE, "screen", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


# --- export and import ---------------------------------------------------------------------------


def _filename(event: Event, extension: str) -> str:
    return f"casino-event-{event.pk}-{event.date:%Y-%m-%d}.{extension}"


@scoped
@require_safe
def event_export(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk)
    text = json.dumps(exchange.event_json(event), ensure_ascii=False, indent=2) + "\n"
    return cast(HttpResponse, download(text, "application/json", _filename(event, "json")))


@scoped
@require_safe
def event_export_csv(request: ScopedRequest, pk: int) -> HttpResponse:
    event = request.scope.event(pk)
    content = exchange.event_csv(event)
    return cast(HttpResponse, download(content, "text/csv; charset=utf-8", _filename(event, "csv")))


@scoped
@require_http_methods(["GET", "POST"])
@once_per_form
def event_import(request: ScopedRequest) -> HttpResponse:
    posted = request.method == "POST"
    form = EventImportForm(request.POST if posted else None, request.FILES if posted else None)
    problems: list[str] = []
    if posted and form.is_valid():
        try:
            event = exchange.event_import(
                circle=request.scope.circle, by=request.user, text=form.cleaned_data["file"]
            )
        except ImportRefused as refused:
            problems = refused.messages
        else:
            messages.success(request, _("The event was imported."))
            return redirect(event)
    context = {"form": form, "problems": problems[:50], "more_problems": max(0, len(problems) - 50)}
    return render(
        request, "scoring/events/event_import.html", context, status=400 if posted else 200
    )
