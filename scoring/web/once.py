"""Creating forms survive a double tap: the same submission sent twice gets the first reply.

Every creating form carries a one-time token (`{% form_once %}`, a fresh one each time the form is
rendered). The view, wrapped in `@once_per_form`, runs in one transaction that first stores the
submission's key: the token with who sent it, where and what. A resend of the same form with the
same data finds the key taken (the database's unique index makes the twin wait for the first to
commit) and is answered with the reply stored for the first, so nothing is created twice. The same
token with other data (the form reopened with Back and changed) is a new submission.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from scoring.models import FormSubmission

FIELD = "form_once"
KEEP = timedelta(days=1)
# Headers of the first reply that a repeat needs to behave the same (redirects, htmx's).
REPLAYED_HEADERS = ("Content-Type", "Location", "HX-Redirect", "HX-Location", "HX-Refresh", "Vary")


def new_token() -> str:
    return secrets.token_urlsafe(16)


def submission_key(request: HttpRequest, token: str) -> str:
    digest = hashlib.sha256()
    user_id = getattr(getattr(request, "user", None), "pk", None)
    for part in (token, str(user_id), request.path):
        digest.update(part.encode() + b"\0")
    for name in sorted(request.POST):
        if name in (FIELD, "csrfmiddlewaretoken"):
            continue
        for value in request.POST.getlist(name):
            digest.update(f"{name}={value}".encode("utf-8", "surrogatepass") + b"\0")
    for name in sorted(request.FILES):
        for upload in request.FILES.getlist(name):
            digest.update(name.encode() + b"\0")
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    return digest.hexdigest()


def once_per_form(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer a repeated submission of a creating form with the first one's reply."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        token = request.POST.get(FIELD, "") if request.method == "POST" else ""
        if not token or len(token) > 64:
            return view(request, *args, **kwargs)
        key = submission_key(request, token)
        with transaction.atomic():
            try:
                with transaction.atomic():
                    submission = FormSubmission.objects.create(key=key)
            except IntegrityError:
                return _replay(FormSubmission.objects.get(key=key))
            response = view(request, *args, **kwargs)
            if response.status_code >= 400:
                # Refused (the form says why): nothing was created, so nothing to answer a
                # resend with; the corrected form comes back with a fresh token anyway.
                submission.delete()
            elif not response.streaming:
                submission.status = response.status_code
                submission.headers = {h: response[h] for h in REPLAYED_HEADERS if h in response}
                body = response.content.decode(response.charset or "utf-8", "replace")
                # A form shown again with what was posted may hold a NUL, which PostgreSQL
                # refuses in text.
                submission.body = body.replace("\x00", "\ufffd")
                submission.save(update_fields=["status", "headers", "body"])
            FormSubmission.objects.filter(created_at__lt=timezone.now() - KEEP).delete()
        return response

    return wrapper


def _replay(submission: FormSubmission) -> HttpResponse:
    response = HttpResponse(submission.body, status=submission.status or 200)
    for header, value in submission.headers.items():
        response[header] = value
    return response
