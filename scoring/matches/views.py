"""Recording a match: setup, scoreboard, hand entry and fixes."""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget, trigger_client_event

from scoring.access import scoped
from scoring.engine import rules
from scoring.engine.matchdoc import MAX_HANDS
from scoring.matches import seating, selectors, services
from scoring.matches.forms import HandForm, MatchForm, PlayerForm
from scoring.models import Match
from scoring.web import watch
from scoring.web.htmx import (
    HtmxHttpRequest,
    ScopedRequest,
    partial_template,
    render_region,
    unavailable,
)
from scoring.web.once import once_per_form

logger = logging.getLogger(__name__)


def _status(request: HtmxHttpRequest) -> int:
    """A form shown again after a POST was refused: 400 (htmx is told to show it)."""
    return 400 if request.method == "POST" else 200


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
        match = _start_match(request, form.cleaned_data)
        return redirect(match)
    players = selectors.player_list(request.scope.circle)
    context = {"form": form, "players": players, "offline_words": MatchForm.offline_messages()}
    return render(request, "scoring/matches/match_new.html", context, status=_status(request))


def _start_match(request: ScopedRequest, data: dict[str, Any], client_id: str = "") -> Match:
    sides = [
        [services.player_get_or_create(**request.scope.stamp(), name=name) for name in names]
        for names in data["sides"]
    ]
    return services.match_start(
        **request.scope.stamp(),
        rules=data["rules"],
        sides=sides,
        first_dealer_seat=data["first_dealer"],
        start_totals=data["start_totals"],
        client_id=client_id,
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
            f"{sides}-{variant}",
            HandForm(
                side_names=[f"[[{side}]]" for side in range(sides)],
                variant=variant,
                initial={"number": 1},
            ),
        )
        for sides in range(2, 5)
        for variant in (rules.Variant.CASINO, *OWN_HAND_FORMS)
    ]
    return render(request, "scoring/matches/match_offline.html", {"hand_forms": hand_forms})


@scoped
@require_safe
def outbox(request: ScopedRequest) -> HttpResponse:
    """Every entry this phone's outbox holds for the account, across matches (outbox.js lists
    them from the phone's store, with what each can still become: sent, kept, discarded). The
    header's "Hands waiting" leads here; the worker keeps the page for when there is no signal."""
    return render(request, "scoring/matches/outbox.html")


def _board_context(
    match: Match,
    form: HandForm | None = None,
    seats: Any = (),
    last_tallies: Any = (),
    last_score: rules.HandScore | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The scoreboard's context. A new hand's blank form (`fresh_entry`) is made only when it is
    rendered, as the page usually takes it from the fragment cache: the template calls `form`,
    made once. `seats`, `last_tallies` and `last_score`: the match's seats, its latest hand's
    tallies and the engine's score of that hand, when a save just read, wrote and scored them."""
    board = selectors.match_board(
        match, seats=seats, last_tallies=last_tallies, last_score=last_score
    )
    fresh_entry = False
    if form is None and match.is_open and match.hand_count >= MAX_HANDS:
        extra.setdefault("moved_note", services.match_full_message())
    elif form is None and match.is_open:
        fresh_entry = True
        form = functools.cache(  # type: ignore[assignment]  # the template calls it
            lambda: HandForm(
                side_names=board.side_names,
                variant=match.variant,
                initial={"number": match.hand_count + 1},
            )
        )
    return {"board": board, "match": match, "form": form, "fresh_entry": fresh_entry, **extra}


MATCH_TEMPLATE = "scoring/matches/match_detail.html"


@scoped
@require_safe
@vary_on_headers("HX-Request")
def match_detail(request: ScopedRequest, pk: int) -> HttpResponse:
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
            return render(request, f"{MATCH_TEMPLATE}#poll", {"match": match})
        if match.is_open:
            # Totals, turn, sheet and hand number only: what is being typed stays.
            return render(request, f"{MATCH_TEMPLATE}#board-update", _board_context(match))
        response = render(request, f"{MATCH_TEMPLATE}#board", _board_context(match))
        return _whole_board(response)
    return render_region(
        request, MATCH_TEMPLATE, "board", _board_context(match, **_after_post(request, match))
    )


# Without JavaScript a saved or undone hand is told on the board the redirect leads to: what to
# say waits in the session for that one page.
SAVED_KEY = "hand_saved"
UNDONE_KEY = "hand_undone"


def _after_post(request: HtmxHttpRequest, match: Match) -> dict[str, Any]:
    """The toast of a hand just saved, or an undone hand's counts back in the form, on the page
    after a post without JavaScript (read once)."""
    extra: dict[str, Any] = {}
    if not (SAVED_KEY in request.session or UNDONE_KEY in request.session):
        return extra
    saved = request.session.pop(SAVED_KEY, None)
    if saved and saved.get("match") == match.pk and saved.get("number") == match.hand_count:
        extra["saved"] = True
    undone = request.session.pop(UNDONE_KEY, None)
    if undone and undone.get("match") == match.pk and match.is_open:
        initial = {**undone["initial"], "number": match.hand_count + 1}
        extra["form"] = HandForm.for_match(match, initial=initial)
    return extra


def _whole_board(response: HttpResponse) -> HttpResponse:
    """An htmx answer that replaces the whole board, whatever the request aimed at."""
    return reswap(retarget(response, "#board"), "outerHTML")


@scoped
@require_POST
def hand_create(request: ScopedRequest, pk: int) -> HttpResponse:
    """Save the next hand; without JavaScript, also step a sweep count or check the points."""
    if request.POST.get("step") or request.POST.get("preview"):
        return _hand_redrawn(request, request.scope.match(pk))
    entry = functools.partial(HandForm.entry, request.POST)
    try:
        saved = services.hand_save(scope=request.scope, match_id=pk, entry=entry, by=request.user)
    except HandForm.Invalid:  # the named form shows the same errors again
        return _hand_refused(request, request.scope.match(pk), None)
    except services.HandNumberTaken as taken:
        return _hand_moved(request, request.scope.match(pk), taken)
    except ValidationError as refused:
        return _hand_refused(request, request.scope.match(pk), refused)
    except DatabaseError:
        logger.exception("Recording hand of match %s failed", pk)
        return unavailable(_hand_refused(request, request.scope.match(pk), None, status=503))
    return _hand_saved(request, saved)


def _hand_redrawn(request: ScopedRequest, match: Match) -> HttpResponse:
    """Without JavaScript: the form again with one side's sweeps stepped, or with the points the
    hand would score ("Check points"). Nothing is saved."""
    step = HandForm.parse_step(request.POST.get("step", ""), match.table[0])
    if step is not None:
        names = seating.side_names(match)
        form = HandForm.redrawn(request.POST, side_names=names, variant=match.variant, step=step)
        return _hand_answer(request, match, form)
    form = HandForm.for_match(match, request.POST)
    return _hand_answer(request, match, form, **_preview(match, form))


def _hand_saved(request: ScopedRequest, saved: services.HandRecorded) -> HttpResponse:
    """The board after a save: the match, its seats and the hand as the save left them. Without
    JavaScript a redirect to it, which says the hand was saved."""
    match = saved.match
    if not request.htmx:
        request.session[SAVED_KEY] = {"match": match.pk, "number": saved.hand.number}
        return redirect(match)
    return _hand_answer(
        request,
        match,
        changed=True,
        saved=True,
        seats=saved.seats,
        last_tallies=saved.tallies,
        last_score=saved.score,
    )


def _hand_refused(
    request: ScopedRequest, match: Match, refused: Any, *, status: int = 400
) -> HttpResponse:
    """The form again, named, with what kept the hand from being saved: the form's own errors,
    a refusal of the save (the deck's problems beside their fields), or, the database down, a
    word to try again."""
    names = getattr(refused, "side_names", None) or None
    form = HandForm.for_match(match, request.POST, names=names)
    if form.is_valid():
        if status == 503:
            form.add_error(None, _("Could not save the hand, nothing was stored; try again."))
        elif refused is not None:
            form.show_refusal(refused)
    return _hand_answer(request, match, form, status=status)


def _hand_answer(
    request: HtmxHttpRequest,
    match: Match,
    form: HandForm | None = None,
    *,
    status: int = 200,
    changed: bool = False,
    **extra: Any,
) -> HttpResponse:
    """The page after a hand was posted. With htmx: the entry (a fresh form, or the form with
    what to fix) and, when the hand changed the match, its totals, turn and sheet out of band;
    the whole board when the match just ended. Without: the whole page."""
    context = _board_context(match, form, changed=changed, **extra)
    template = partial_template(request, MATCH_TEMPLATE, "hand-answer")
    if template == MATCH_TEMPLATE:
        return render(request, template, context, status=status)
    if changed and not match.is_open:
        response = _whole_board(render(request, f"{MATCH_TEMPLATE}#board", context, status=status))
    else:
        response = render(request, template, context, status=status)
    if extra.get("saved"):
        # The phone forgets the hand's draft (app.js): it is on the server now.
        trigger_client_event(response, "hand-saved", {"match": match.pk})
    return response


def _hand_moved(
    request: HtmxHttpRequest, match: Match, taken: services.HandNumberTaken
) -> HttpResponse:
    """The hand's number was taken meanwhile: show the board as it is now, with the hand saved
    there beside the counts typed here, and two choices: keep them as the next hand, or discard
    them (nothing is stored until then). When the match is over there is nothing to keep."""
    clash = selectors.hand_clash(match, taken.number, taken.next_number, taken.tallies)
    if taken.next_number is None:
        note = _("Hand %(number)d was saved from another screen, and the match is over.") % {
            "number": taken.number
        }
        return _hand_answer(request, match, status=409, changed=True, moved_note=note, clash=clash)
    typed = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in CLASH_LEFT_OUT
        for value in values
    ]
    return _hand_answer(request, match, status=409, changed=True, clash=clash, clash_fields=typed)


# What a kept clash does not post again: its own number and token, and the form's other buttons.
CLASH_LEFT_OUT = frozenset({"csrfmiddlewaretoken", "number", "step", "preview"})


def _sync_answers(view: Any) -> Any:
    """The outbox's endpoint answers its script in JSON whatever goes wrong (a match deleted, a
    member removed, a session ended, the database down), so that no hand waits on an answer the
    phone cannot read. Outermost: a signed-out phone is told so (401), not sent to log in."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            if not request.user.is_authenticated:
                return JsonResponse({"state": "auth"}, status=401)
            response = view(request, *args, **kwargs)
        except Http404:
            message = _("This match is gone, or you are no longer in its circle.")
            return JsonResponse({"state": "gone", "errors": [message]}, status=404)
        except PermissionDenied as error:
            return JsonResponse({"state": "refused", "errors": [str(error)]}, status=403)
        except DatabaseError:
            # hand_record is one transaction: when it fails, none of the hand was stored.
            logger.exception("Recording an outbox hand of match %s failed", kwargs.get("pk"))
            message = _("Could not save the hand, nothing was stored; try again.")
            return unavailable(JsonResponse({"state": "unavailable", "errors": [message]}))
        except Exception:
            logger.exception("Sending an outbox hand of match %s failed", kwargs.get("pk"))
            return JsonResponse({"state": "error"}, status=500)
        if response.status_code == 405:  # @require_POST
            return JsonResponse({"state": "refused"}, status=405, headers={"Allow": "POST"})
        return response

    return wrapper


@_sync_answers
@scoped
@require_POST
def hand_sync(request: ScopedRequest, pk: int) -> JsonResponse:
    """A hand saved without signal, sent from the phone's outbox (outbox.js): the answer is for the
    script. `client_id` makes a resend harmless; a number taken meanwhile by another phone is a
    conflict the phone shows, never a silent drop. `account` is who typed the hand: a session
    of another account (the phone changed hands) records nothing."""
    if request.POST.get("account", str(request.user.pk)) != str(request.user.pk):
        return JsonResponse({"state": "account"}, status=403)
    client_id = _client_id(request)
    if client_id is None:
        request.scope.match(pk)  # an outsider is told nothing but 404
        return JsonResponse({"state": "invalid", "errors": [_("This hand has no id.")]}, status=400)
    entry = functools.partial(HandForm.entry, request.POST)
    try:
        saved = services.hand_save(
            scope=request.scope, match_id=pk, entry=entry, by=request.user, client_id=client_id
        )
    except HandForm.Invalid as invalid:
        errors = [str(error) for errors in invalid.form.errors.values() for error in errors]
        return JsonResponse({"state": "invalid", "errors": errors}, status=400)
    except services.HandNumberTaken as taken:
        match = request.scope.match(pk)
        clash = selectors.hand_clash(match, taken.number, taken.next_number, taken.tallies)
        answer = {
            "state": "conflict",
            "number": taken.number,
            "next": taken.next_number,
            **clash.as_json(),
        }
        return JsonResponse(answer, status=409)
    except ValidationError as error:
        return JsonResponse({"state": "invalid", "errors": error.messages}, status=400)
    answer = {"state": "saved", "number": saved.hand.number, "created": saved.created}
    return JsonResponse(answer, status=201 if saved.created else 200)


@scoped
@require_POST
def hand_preview(request: ScopedRequest, pk: int) -> HttpResponse:
    match = request.scope.match(pk)
    form = HandForm.for_match(match, request.POST)
    return render(request, "scoring/matches/_hand_preview.html", _preview(match, form))


def _preview(match: Match, form: HandForm) -> dict[str, Any]:
    """The points the hand in `form` would score, or what keeps it from adding up."""
    if not (form.is_valid() and form.check_deck()):
        # While the counts are still being typed, blanks are not worth an error.
        missing = {error.code for errors in form.errors.as_data().values() for error in errors}
        if "required" in missing:
            return {"preview_errors": [], "preview_rows": []}
        errors = [error for errors in form.errors.values() for error in errors]
        return {"preview_errors": errors, "preview_rows": []}
    score, after_win = selectors.hand_preview(match, form.tallies, form.cleaned_data["number"])
    rows = []
    if score is not None:
        rows = [
            {"name": name, "tally": tally, "cell": selectors.HandCell(*numbers)}
            for name, tally, *numbers in zip(
                form.side_names,
                form.tallies,
                score.credited,
                score.points,
                score.totals,
                score.held,
                strict=True,
            )
        ]
    return {"preview_rows": rows, "after_win": after_win, "preview_errors": []}


@scoped
@require_safe
def hand_detail(request: ScopedRequest, pk: int, number: int) -> HttpResponse:
    """One hand's points by category: a page, or (htmx) the breakdown opened in the sheet."""
    match = request.scope.match(pk)
    context = {
        "match": match,
        "row": selectors.hand_row(match, number),
        "side_names": seating.side_names(match),
    }
    return render_region(request, "scoring/matches/hand_detail.html", "breakdown", context)


@scoped
@require_http_methods(["GET", "POST"])
def hand_edit(request: ScopedRequest, pk: int, number: int) -> HttpResponse:
    match = request.scope.match(pk)
    try:
        hand = selectors.hand_for_match(match, number)
    except Http404:
        if request.method != "POST":
            raise
        return _hand_gone(request, match, services.HandGone(number))  # deleted before the save
    if request.method == "POST":
        form = HandForm.for_match(match, request.POST)
        if form.is_valid():
            try:
                saved = services.hand_edit(
                    match=match, number=number, tallies=form.tallies, by=request.user
                )
            except services.HandGone as gone:  # an Undo on another phone, while this one typed
                return _hand_gone(request, match, gone)
            except ValidationError as error:
                form.show_refusal(error)
            else:
                if saved.changed_at == hand.changed_at:
                    note = _("Nothing changed in hand %(number)d.")
                else:
                    note = _("Hand %(number)d saved.")
                messages.success(request, note % {"number": number})
                return redirect(match)
    else:
        initial = HandForm.initial_for(number, selectors.hand_tallies(hand))
        form = HandForm.for_match(match, initial=initial)
    context = {"match": match, "hand": hand, "form": form, "entry": selectors.hand_entry(hand)}
    return render(request, "scoring/matches/hand_edit.html", context)


def _hand_gone(request: HtmxHttpRequest, match: Match, gone: services.HandGone) -> HttpResponse:
    """The fix of a hand deleted meanwhile: back to the board, which says so."""
    messages.warning(request, gone.messages[0])
    return redirect(match)


@scoped
@require_safe
def hand_history(request: ScopedRequest, pk: int, number: int) -> HttpResponse:
    """A hand's counts now and before each change, with who entered or changed them and when."""
    match = request.scope.match(pk)
    context = {"match": match, "history": selectors.hand_history(match, number)}
    return render(request, "scoring/matches/hand_history.html", context)


@scoped
@require_POST
def hand_delete(request: ScopedRequest, pk: int) -> HttpResponse:
    """Delete the last hand: from its page, or "Undo" right after saving it (then with the hand's
    id, so a double tap or a late tap deletes nothing else). An undone hand's counts come back
    into the form, to fix and save again."""
    match = request.scope.match(pk)
    number, hand_id = _posted_int(request, "number"), None
    if "undo" in request.POST:  # "<number>:<hand id>", from the bar shown after a save
        undo_number, _sep, undo_hand = request.POST["undo"].partition(":")
        number, hand_id = _int(undo_number), _int(undo_hand)
    form = None
    try:
        undone = services.hand_delete_last(match=match, number=number, hand_id=hand_id)
    except ValidationError as error:
        note, level = " ".join(error.messages), messages.ERROR
    else:
        if hand_id is None:
            note = _("The last hand was deleted.")
        elif undone is None:
            note = _("Hand %(number)d was already undone.") % {"number": number}
        else:
            note = _("Hand %(number)d was undone: its counts are back in the form.") % {
                "number": number
            }
        level = messages.SUCCESS
        match.refresh_from_db()
        if undone is not None and match.is_open and match.hand_count == number - 1:
            initial = HandForm.initial_for(number, undone)
            form = HandForm.for_match(match, initial=initial)
    if not request.htmx:
        if form is not None:
            request.session[UNDONE_KEY] = {"match": match.pk, "initial": form.initial}
        messages.add_message(request, level, note)
        return redirect(match)
    match.refresh_from_db()
    context = _board_context(match, form, undo_note=note, undo_failed=level == messages.ERROR)
    return _whole_board(render(request, f"{MATCH_TEMPLATE}#board", context))


def _posted_int(request: HtmxHttpRequest, name: str) -> int:
    return _int(request.POST.get(name, ""))


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


def _client_id(request: HtmxHttpRequest) -> str | None:
    """The id a phone gave what it saved without signal, or None when it is missing or unfit."""
    client_id = request.POST.get("client_id", "").strip()
    if not client_id or len(client_id) > 64 or "\x00" in client_id:  # PostgreSQL refuses NUL
        return None
    return client_id


@_sync_answers
@scoped
@require_POST
def match_sync(request: ScopedRequest) -> JsonResponse:
    """A match started without signal, sent from the phone's outbox (outbox.js) before its hands:
    a new match (the new-match form's fields, in the circle it was started in) or the rematch of
    a match (`rematch_of`). `client_id` makes a resend harmless, as a match has one rematch. The
    answer names the match and where its hands go."""
    if request.POST.get("account", str(request.user.pk)) != str(request.user.pk):
        return JsonResponse({"state": "account"}, status=403)
    client_id = _client_id(request)
    if client_id is None:
        return JsonResponse(
            {"state": "invalid", "errors": [_("This match has no id.")]}, status=400
        )
    circle = request.POST.get("circle", "")
    if circle:  # 404 when no longer a member there
        request.scope.switch(int(circle) if circle.isascii() and circle.isdigit() else 0)
    if request.POST.get("rematch_of"):
        match = services.match_rematch(
            match=request.scope.match(request.POST["rematch_of"]), by=request.user
        )
    else:
        form = MatchForm(request.POST)
        if not form.is_valid():
            errors = [str(error) for errors in form.errors.values() for error in errors]
            return JsonResponse({"state": "invalid", "errors": errors}, status=400)
        try:
            match = _start_match(request, form.cleaned_data, client_id)
        except ValidationError as error:
            return JsonResponse({"state": "invalid", "errors": error.messages}, status=400)
    answer = {
        "state": "saved",
        "match": match.pk,
        "url": match.get_absolute_url(),
        "sync": reverse("scoring:hand-sync", args=[match.pk]),
    }
    return JsonResponse(answer, status=201)


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
    return redirect(services.match_rematch(match=match, by=request.user))
