"""Recording a match: setup, scoreboard, hand entry and fixes."""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import DatabaseError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from scoring.access import linked, scoped
from scoring.engine import rules
from scoring.matches import answers, seating, selectors, services
from scoring.matches.forms import HandForm, MatchForm, PlayerForm
from scoring.models import Hand, Match
from scoring.web import watch
from scoring.web.htmx import (
    HtmxHttpRequest,
    LinkedRequest,
    ScopedRequest,
    render_region,
    unavailable,
)
from scoring.web.once import once_per_form

logger = logging.getLogger(__name__)


@scoped
@require_http_methods(["GET", "POST"])
@once_per_form
def player_list(request: ScopedRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.player_create(**request.scope.stamp(), name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_error("name", error)
        else:
            if not request.htmx:
                return redirect("scoring:player-list")
            form = PlayerForm()
    context = {"form": form, "players": selectors.player_list(request.scope.circle)}
    status = 400 if form.errors else 200
    return render_region(
        request, "scoring/matches/player_list.html", "roster", context, status=status
    )


@scoped
@require_http_methods(["GET", "POST"])
@once_per_form
def match_new(request: ScopedRequest) -> HttpResponse:
    form = MatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        match = answers.start_match(request, form.cleaned_data)
        return redirect(match)
    players = selectors.player_list(request.scope.circle)
    context = {"form": form, "players": players, "offline_words": MatchForm.offline_messages()}
    return render(
        request, "scoring/matches/match_new.html", context, status=answers.form_status(request)
    )


# The games whose hand form differs from Casino's (a question of their own, a note): the board of
# a match started without signal takes the form of its game and table (local.js).
OWN_HAND_FORMS = (rules.Variant.SWEDISH, rules.Variant.SPADE, rules.Variant.FINNISH)


@scoped
@require_safe
def match_offline(request: ScopedRequest) -> HttpResponse:
    """The scoreboard of a match started on this phone without signal, which local.js fills in
    from the outbox (the worker keeps this page for when there is no signal). The hand forms are
    rendered with placeholders, `[[0]]`, for the side names the phone puts in."""
    hand_forms = [
        (
            f"{sides}-{variant}{'-quick' if mode else ''}",
            HandForm(
                side_names=[f"[[{side}]]" for side in range(sides)],
                variant=variant,
                initial={"number": 1, "mode": mode},
            ),
        )
        for sides in range(2, 5)
        for variant in (rules.Variant.CASINO, *OWN_HAND_FORMS)
        # Quick entry (who took most) where the table has it: local.js switches between them.
        for mode in ("", rules.QUICK)
        if not mode or rules.quick_entry(variant, sides)
    ]
    return render(request, "scoring/matches/match_offline.html", {"hand_forms": hand_forms})


@scoped
@require_safe
def outbox(request: ScopedRequest) -> HttpResponse:
    """Every entry this phone's outbox holds for the account, across matches (outbox.js lists
    them from the phone's store, with what each can still become: sent, kept, discarded). The
    header's "Hands waiting" leads here; the worker keeps the page for when there is no signal."""
    return render(request, "scoring/matches/outbox.html")


@linked
@require_safe
@vary_on_headers("HX-Request")
def match_detail(request: LinkedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    since = request.GET.get("since")
    if request.htmx and since is not None:
        # An open board asking whether anything changed (a hand saved on another phone): most
        # answers are WatchMiddleware's 204, before this view. One that gets here unchanged has
        # a token too old (or none, or another account's): the board gets a fresh one.
        if since == str(match.version):
            token = request.GET.get("watch", "")
            if watch.watcher(token, match.pk, request.session.session_key) == request.user.pk:
                return HttpResponse(status=204)
            return render(request, f"{answers.MATCH_TEMPLATE}#poll", {"match": match})
        if match.is_open and "over" not in request.GET:
            # Totals, turn, sheet and hand number only: what is being typed stays. (A board that
            # showed the match over has no form: it comes back whole.)
            return render(
                request, f"{answers.MATCH_TEMPLATE}#board-update", answers.board_context(match)
            )
        response = render(request, f"{answers.MATCH_TEMPLATE}#board", answers.board_context(match))
        return answers.whole_board(response)
    return render_region(
        request,
        answers.MATCH_TEMPLATE,
        "board",
        answers.board_context(
            match, quick=answers.quick_asked(request), **_after_post(request, match)
        ),
    )


UNDONE_KEY = "hand_undone"


def _after_post(request: HtmxHttpRequest, match: Match) -> dict[str, Any]:
    """The toast of a hand just saved, or an undone hand's counts back in the form, on the page
    after a post without JavaScript (read once)."""
    extra: dict[str, Any] = {}
    if not (answers.SAVED_KEY in request.session or UNDONE_KEY in request.session):
        return extra
    saved = request.session.pop(answers.SAVED_KEY, None)
    if saved and saved.get("match") == match.pk and saved.get("number") == match.hand_count:
        extra["saved"] = True
    undone = request.session.pop(UNDONE_KEY, None)
    if undone and undone.get("match") == match.pk and match.is_open:
        initial = {**undone["initial"], "number": match.hand_count + 1}
        extra["form"] = HandForm.for_match(match, initial=initial)
    return extra


@linked
@require_POST
def hand_create(request: LinkedRequest, pk: int) -> HttpResponse:
    """Save the next hand; without JavaScript, also step a sweep count or check the points."""
    if request.POST.get("step") or request.POST.get("preview"):
        return answers.redrawn(request, request.scope.match(pk))
    entry = functools.partial(HandForm.entry, request.POST)
    try:
        saved = services.hand_save(
            scope=request.scope, match_id=pk, entry=entry, by=request.scope.author
        )
    except HandForm.Invalid:  # the named form shows the same errors again
        return answers.refused(request, request.scope.match(pk), None)
    except services.HandNumberTaken as taken:
        return answers.moved(request, request.scope.match(pk), taken)
    except ValidationError as refused:
        return answers.refused(request, request.scope.match(pk), refused)
    except DatabaseError:
        logger.exception("Recording hand of match %s failed", pk)
        return unavailable(answers.refused(request, request.scope.match(pk), None, status=503))
    return answers.saved(request, saved)


@linked
@require_POST
def hand_preview(request: LinkedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    form = HandForm.for_match(match, request.POST)
    return render(request, "scoring/matches/_hand_preview.html", answers.preview(match, form))


@linked
@require_safe
def hand_detail(request: LinkedRequest, pk: int, number: int) -> HttpResponse:
    """One hand's points by category: a page, or (htmx) the breakdown opened in the sheet."""
    match = request.scope.match(pk)
    context = {
        "match": match,
        "row": selectors.hand_detail(match, number),
        "side_names": seating.side_names(match),
    }
    return render_region(request, "scoring/matches/hand_detail.html", "breakdown", context)


@linked
@require_http_methods(["GET", "POST"])
def hand_edit(request: LinkedRequest, pk: int, number: int) -> HttpResponse:
    match = request.scope.match(pk)
    try:
        hand = selectors.hand_for_match(match, number)
    except Http404:
        if request.method != "POST":
            raise
        return _hand_gone(request, match, services.HandGone(number))  # deleted before the save
    checked: dict[str, Any] = {}
    if request.method == "POST":
        # Without JavaScript a sweep stepper brings the form again, "Check points" the points
        # the hand would score in its place; anything else saves.
        form = answers.stepped(request, match) or HandForm.for_match(match, request.POST)
        if request.POST.get("preview") and form.is_bound:
            checked = answers.preview(match, form)
        elif form.is_bound and form.is_valid():
            done = _edit_save(request, match, hand, form)
            if done is not None:
                return done
    else:
        # A quick hand stays quick unless the link asks for counts (?mode=), and then its
        # stand-in counts are not shown as counted.
        quick = answers.quick_asked(request) if "mode" in request.GET else hand.quick
        tallies = selectors.hand_tallies(hand)
        initial = HandForm.initial_for(number, tallies, quick=quick, counted=not hand.quick)
        form = HandForm.for_match(match, initial=initial)
    context = {"match": match, "hand": hand, "form": form, "entry": selectors.hand_entry(hand)}
    context["entry_url"] = request.path
    context |= checked
    return render(request, "scoring/matches/hand_edit.html", context)


def _edit_save(
    request: LinkedRequest, match: Match, hand: Hand, form: HandForm
) -> HttpResponse | None:
    """The edited hand stored (back to the board, saying whether anything changed), or None with
    the refusal on the form."""
    number = hand.number
    try:
        saved = services.hand_edit(
            match=match,
            number=number,
            tallies=form.tallies,
            by=request.scope.author,
            via_link=request.scope.via_link,
            quick=form.quick,
        )
    except services.HandGone as gone:  # an Undo on another phone, while this one typed
        return _hand_gone(request, match, gone)
    except ValidationError as error:
        form.show_refusal(error)
        return None
    if saved.changed_at == hand.changed_at:
        note = _("Nothing changed in hand %(number)d.")
    else:
        note = _("Hand %(number)d saved.")
    messages.success(request, note % {"number": number})
    return redirect(match)


def _hand_gone(request: HtmxHttpRequest, match: Match, gone: services.HandGone) -> HttpResponse:
    """The fix of a hand deleted meanwhile: back to the board, which says so."""
    messages.warning(request, gone.messages[0])
    return redirect(match)


@linked
@require_safe
def hand_history(request: LinkedRequest, pk: int, number: int) -> HttpResponse:
    """A hand's counts now and before each change, with who entered or changed them and when."""
    match = request.scope.match(pk)
    context = {"match": match, "history": selectors.hand_history(match, number)}
    return render(request, "scoring/matches/hand_history.html", context)


@linked
@require_POST
def hand_delete(request: LinkedRequest, pk: int) -> HttpResponse:
    """Delete the last hand: from its page, or "Undo" right after saving it (then with the hand's
    id, so a double tap or a late tap deletes nothing else). An undone hand's counts come back
    into the form, to fix and save again."""
    match = request.scope.match(pk)
    number, hand_id = _undo_target(request)
    form = None
    try:
        undone = services.hand_delete_last(match=match, number=number, hand_id=hand_id)
    except ValidationError as error:
        note, level = " ".join(error.messages), messages.ERROR
    else:
        note, level = _deleted_note(number, hand_id, undone is not None), messages.SUCCESS
        match.refresh_from_db()
        if undone is not None and match.is_open and match.hand_count == number - 1:
            initial = HandForm.initial_for(
                number, undone.tallies, quick=undone.quick, counted=not undone.quick
            )
            form = HandForm.for_match(match, initial=initial)
    if not request.htmx:
        if form is not None:
            request.session[UNDONE_KEY] = {"match": match.pk, "initial": form.initial}
        messages.add_message(request, level, note)
        return redirect(match)
    match.refresh_from_db()
    context = answers.board_context(
        match, form, undo_note=note, undo_failed=level == messages.ERROR
    )
    return answers.whole_board(render(request, f"{answers.MATCH_TEMPLATE}#board", context))


def _undo_target(request: HtmxHttpRequest) -> tuple[int, int | None]:
    """The hand to delete: the number posted, or the "<number>:<hand id>" of an Undo."""
    if "undo" in request.POST:  # from the bar shown after a save
        undo_number, _sep, undo_hand = request.POST["undo"].partition(":")
        return _int(undo_number), _int(undo_hand)
    return _int(request.POST.get("number", "")), None


def _deleted_note(number: int, hand_id: int | None, undone: bool) -> str:
    if hand_id is None:
        return _("The last hand was deleted.")
    if not undone:
        return _("Hand %(number)d was already undone.") % {"number": number}
    return _("Hand %(number)d was undone: its counts are back in the form.") % {"number": number}


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


@scoped
@require_POST
def match_abandon(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    if match.event_id is not None:
        # A table of an event abandoned is a loss for both: the organiser's call.
        request.scope.event(match.event_id, manage=True)
    services.match_abandon(match=match)
    return redirect(match)


@scoped
@require_POST
def match_delete(request: ScopedRequest, pk: int) -> HttpResponse:
    """An admin deletes a match (a test game, a match recorded twice)."""
    match = request.scope.match(pk, admin=True)
    try:
        services.match_delete(match=match)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect(match)
    messages.success(request, _("The match was deleted."))
    return redirect("scoring:match-list")


@scoped
@require_POST
@once_per_form
def match_rematch(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    # A table that entered who took most goes on doing so (the board's ?mode=quick).
    return redirect(
        answers.board_url(request, services.match_rematch(match=match, by=request.user))
    )
