"""What the match loop's posts answer: the board after a hand was saved, refused or taken
meanwhile, the form redrawn without JavaScript, the points a hand would score. The pages
(views.py) and the outbox's endpoints (sync.py) answer through it."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django_htmx.http import reswap, retarget, trigger_client_event

from scoring.engine import rules
from scoring.engine.matchdoc import MAX_HANDS
from scoring.matches import seating, selectors, services
from scoring.matches.forms import HandForm
from scoring.models import Match
from scoring.web.htmx import (
    HtmxHttpRequest,
    ScopedRequest,
    partial_template,
)


def form_status(request: HtmxHttpRequest) -> int:
    """A form shown again after a POST was refused: 400 (htmx is told to show it)."""
    return 400 if request.method == "POST" else 200


def start_match(request: ScopedRequest, data: dict[str, Any], client_id: str = "") -> Match:
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


def board_context(
    match: Match,
    form: HandForm | None = None,
    seats: Any = (),
    last_tallies: Any = (),
    last_score: rules.HandScore | None = None,
    quick: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """The scoreboard's context. A new hand's blank form (`fresh_entry`) is made only when it is
    rendered, as the page usually takes it from the fragment cache: the template calls `form`,
    made once. `seats`, `last_tallies` and `last_score`: the match's seats, its latest hand's
    tallies and the engine's score of that hand, when a save just read, wrote and scored them.
    `quick`: the new hand's form asks who took most (RULES.md §7.1), where the table allows it."""
    board = selectors.match_board(
        match, seats=seats, last_tallies=last_tallies, last_score=last_score
    )
    fresh_entry = False
    quick = quick and rules.quick_entry(match.variant, match.table[0])
    if form is None and match.is_open and match.hand_count >= MAX_HANDS:
        extra.setdefault("moved_note", services.match_full_message())
    elif form is None and match.is_open:
        fresh_entry = True
        form = functools.cache(  # type: ignore[assignment]  # the template calls it
            lambda: HandForm(
                side_names=board.side_names,
                variant=match.variant,
                initial={"number": match.hand_count + 1, "mode": rules.QUICK if quick else ""},
            )
        )
    context = {"board": board, "match": match, "form": form, "fresh_entry": fresh_entry}
    return {**context, "quick_entry": quick, **extra}


def quick_asked(request: HtmxHttpRequest) -> bool:
    """Whether the board was asked for quick entry: a link's ?mode=quick, a posted form's."""
    return rules.QUICK in (request.GET.get("mode"), request.POST.get("mode"))


def board_url(request: HtmxHttpRequest, match: Match) -> str:
    """The board, in the entry the request used (a save without JavaScript goes back to it)."""
    url = match.get_absolute_url()
    return f"{url}?mode={rules.QUICK}" if quick_asked(request) else url


MATCH_TEMPLATE = "scoring/matches/match_detail.html"


# Without JavaScript a saved or undone hand is told on the board the redirect leads to: what to
# say waits in the session for that one page.
SAVED_KEY = "hand_saved"


def whole_board(response: HttpResponse) -> HttpResponse:
    """An htmx answer that replaces the whole board, whatever the request aimed at."""
    return reswap(retarget(response, "#board"), "outerHTML")


def stepped(request: HtmxHttpRequest, match: Match) -> HandForm | None:
    """Without JavaScript, a sweep stepper's post (the board's or the edit page's): the form
    again, one side's sweeps stepped, nothing checked or saved; None for any other post."""
    step = HandForm.parse_step(request.POST.get("step", ""), match.table[0])
    if step is None:
        return None
    names = seating.side_names(match)
    return HandForm.redrawn(request.POST, side_names=names, variant=match.variant, step=step)


def redrawn(request: HtmxHttpRequest, match: Match) -> HttpResponse:
    """Without JavaScript: the form again with one side's sweeps stepped, or with the points the
    hand would score ("Check points"). Nothing is saved."""
    form = stepped(request, match)
    if form is not None:
        return hand_answer(request, match, form)
    form = HandForm.for_match(match, request.POST)
    return hand_answer(request, match, form, **preview(match, form))


def saved(request: HtmxHttpRequest, saved: services.HandRecorded) -> HttpResponse:
    """The board after a save: the match, its seats and the hand as the save left them. Without
    JavaScript a redirect to it, which says the hand was saved."""
    match = saved.match
    if not request.htmx:
        request.session[SAVED_KEY] = {"match": match.pk, "number": saved.hand.number}
        return redirect(board_url(request, match))
    return hand_answer(
        request,
        match,
        changed=True,
        saved=True,
        seats=saved.seats,
        last_tallies=saved.tallies,
        last_score=saved.score,
    )


def refused(
    request: HtmxHttpRequest, match: Match, refused: Any, *, status: int = 400
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
    return hand_answer(request, match, form, status=status)


def hand_answer(
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
    context = board_context(match, form, changed=changed, quick=quick_asked(request), **extra)
    template = partial_template(request, MATCH_TEMPLATE, "hand-answer")
    if template == MATCH_TEMPLATE:
        return render(request, template, context, status=status)
    if changed and not match.is_open:
        response = whole_board(render(request, f"{MATCH_TEMPLATE}#board", context, status=status))
    else:
        response = render(request, template, context, status=status)
    if extra.get("saved"):
        # The phone forgets the hand's draft (app.js): it is on the server now.
        trigger_client_event(response, "hand-saved", {"match": match.pk})
    return response


def moved(request: HtmxHttpRequest, match: Match, taken: services.HandNumberTaken) -> HttpResponse:
    """The hand's number was taken meanwhile: show the board as it is now, with the hand saved
    there beside the counts typed here, and two choices: keep them as the next hand, or discard
    them (nothing is stored until then). When the match is over there is nothing to keep."""
    clash = selectors.hand_clash(
        match, taken.number, taken.next_number, taken.tallies, quick_asked(request)
    )
    if taken.next_number is None:
        note = _("Hand %(number)d was saved from another screen, and the match is over.") % {
            "number": taken.number
        }
        return hand_answer(request, match, status=409, changed=True, moved_note=note, clash=clash)
    typed = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in CLASH_LEFT_OUT
        for value in values
    ]
    return hand_answer(request, match, status=409, changed=True, clash=clash, clash_fields=typed)


# What a kept clash does not post again: its own number and token, and the form's other buttons.
CLASH_LEFT_OUT = frozenset({"csrfmiddlewaretoken", "number", "step", "preview"})


def preview(match: Match, form: HandForm) -> dict[str, Any]:
    """The points the hand in `form` would score, or what keeps it from adding up."""
    if not (form.is_valid() and form.check_deck()):
        # While the counts are still being typed, blanks are not worth an error.
        missing = {error.code for errors in form.errors.as_data().values() for error in errors}
        if "required" in missing:
            return {"preview_errors": [], "preview_rows": []}
        errors = [error for errors in form.errors.values() for error in errors]
        return {"preview_errors": errors, "preview_rows": []}
    score, after_win = selectors.hand_score_preview(
        match, form.tallies, form.cleaned_data["number"]
    )
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


def client_id(request: HtmxHttpRequest) -> str | None:
    """The id a phone gave what it saved without signal, or None when it is missing or unfit."""
    client_id = request.POST.get("client_id", "").strip()
    if not client_id or len(client_id) > 64 or "\x00" in client_id:  # PostgreSQL refuses NUL
        return None
    return client_id
