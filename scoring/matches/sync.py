"""The outbox's endpoints (outbox.js, local.js): a hand or a match sent from a phone that had no
signal, answered in JSON for the script, whatever goes wrong."""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError
from django.http import Http404, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.access import scoped
from scoring.matches import answers, selectors, services
from scoring.matches.forms import HandForm, MatchForm
from scoring.models import Match
from scoring.web.htmx import (
    HtmxHttpRequest,
    ScopedRequest,
    unavailable,
)

logger = logging.getLogger(__name__)


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
    client_id = answers.client_id(request)
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
        quick = answers.quick_asked(request)
        clash = selectors.hand_clash(match, taken.number, taken.next_number, taken.tallies, quick)
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
    client_id = answers.client_id(request)
    if client_id is None:
        return JsonResponse(
            {"state": "invalid", "errors": [_("This match has no id.")]}, status=400
        )
    circle = request.POST.get("circle", "")
    if circle:  # 404 when no longer a member there
        request.scope.switch(int(circle) if circle.isascii() and circle.isdigit() else 0)
    try:
        match = _match_sent(request, client_id)
    except _Invalid as invalid:
        return JsonResponse({"state": "invalid", "errors": invalid.errors}, status=400)
    answer = {
        "state": "saved",
        "match": match.pk,
        "url": match.get_absolute_url(),
        "sync": reverse("scoring:hand-sync", args=[match.pk]),
    }
    return JsonResponse(answer, status=201)


class _Invalid(Exception):
    def __init__(self, errors: list[str]) -> None:
        super().__init__(errors)
        self.errors = errors


def _match_sent(request: ScopedRequest, client_id: str) -> Match:
    """The match the phone started: the rematch it asked for, or a new one from the new-match
    form's fields (refused as the form refuses)."""
    if request.POST.get("rematch_of"):
        played = request.scope.match(request.POST["rematch_of"])
        return services.match_rematch(match=played, by=request.user)
    form = MatchForm(request.POST)
    if not form.is_valid():
        raise _Invalid([str(error) for errors in form.errors.values() for error in errors])
    try:
        return answers.start_match(request, form.cleaned_data, client_id)
    except ValidationError as error:
        raise _Invalid(error.messages) from None
