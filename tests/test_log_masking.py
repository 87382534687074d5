"""Share tokens never reach a log: a share link is the key to a match, and logs are read (and
kept) by more people than the match's owner."""

from __future__ import annotations

import io
import logging
import runpy
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from casino_site.log_masking import MaskShareTokens, mask_share_tokens

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "pX3b9_Zq-7LmN0aQk2Rt5uVw8yA1cE4gH6jK9nPq3sU"  # what secrets.token_urlsafe(32) gives


def test_a_share_link_is_masked_wherever_it_is_in_a_line() -> None:
    path = reverse("scoring:shared-match", args=[TOKEN])
    assert TOKEN in path
    line = f'GET {path}?since=ab12 HTTP/1.1 "https://casino.example.com{path}"'
    masked = mask_share_tokens(line)
    assert TOKEN not in masked
    assert masked.count("/shared/***/") == 2 and "?since=ab12" in masked
    untouched = "GET /matches/12/share/qr.svg HTTP/1.1"
    assert mask_share_tokens(untouched) == untouched


def test_an_invite_link_is_masked_in_a_path_a_referer_and_a_login_pages_next() -> None:
    path = reverse("scoring:invite-join", args=[TOKEN])
    assert path == f"/join/{TOKEN}/"
    line = (
        f'GET /accounts/login/?next={path} HTTP/1.1 "https://casino.example.com{path}" '
        f"POST /signup/?next=%2Fjoin%2F{TOKEN}%2F&x=1 /signup/?next=%2fjoin%2f{TOKEN}"
    )
    masked = mask_share_tokens(line)
    assert TOKEN not in masked
    assert masked.count("/join/***/") == 2
    assert "next=%2Fjoin%2F***%2F&x=1" in masked and "next=%2fjoin%2f***" in masked
    untouched = "GET /circles/3/invites/12/qr.svg HTTP/1.1"
    assert mask_share_tokens(untouched) == untouched


@pytest.mark.django_db
def test_djangos_request_log_does_not_show_an_invite_code(captured: io.StringIO, user) -> None:
    """An unknown code is a 404 and a revoked one a 410, both logged with their path."""
    from scoring import invites

    invite = invites.invite_create(circle=user.personal_circle, by=user)
    invites.invite_revoke(invite=invite)
    assert Client().get(reverse("scoring:invite-join", args=[TOKEN])).status_code == 404
    assert Client().get(reverse("scoring:invite-join", args=[invite.token])).status_code == 410
    log = captured.getvalue()
    assert "Not Found: /join/***/" in log and "Gone: /join/***/" in log
    assert TOKEN not in log and invite.token not in log


def _record(msg: str, *args: Any, name: str = "django.request") -> logging.LogRecord:
    return logging.LogRecord(name, logging.WARNING, __file__, 1, msg, args, None)


def test_the_filter_masks_the_formatted_message_and_keeps_the_record() -> None:
    record = _record("Not Found: %s", f"/shared/{TOKEN}/")
    assert MaskShareTokens().filter(record) is True
    assert record.getMessage() == "Not Found: /shared/***/"
    plain = _record("Not Found: %s", "/nowhere/")
    assert MaskShareTokens().filter(plain) is True
    assert (plain.msg, plain.args) == ("Not Found: %s", ("/nowhere/",))  # left as it was


@pytest.fixture
def captured() -> Iterator[io.StringIO]:
    """What Django's loggers write, through the handlers settings.LOGGING configured."""
    stream = io.StringIO()
    handlers = [h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler)]
    previous = [handler.setStream(stream) for handler in handlers]
    yield stream
    for handler, old in zip(handlers, previous, strict=True):
        handler.setStream(old)


@pytest.mark.django_db
def test_djangos_request_log_does_not_show_the_token(captured: io.StringIO) -> None:
    """A wrong or revoked link is a 404, which Django logs with its path."""
    response = Client().get(reverse("scoring:shared-match", args=[TOKEN]))
    assert response.status_code == 404
    log = captured.getvalue()
    assert "Not Found: /shared/***/" in log and TOKEN not in log


@pytest.mark.parametrize("name", ["django.request", "django.server", "django.security.csrf"])
def test_djangos_own_loggers_mask_before_any_handler(name: str) -> None:
    """runserver's access log and the e-mail to ADMINS have their own handlers: the loggers
    themselves mask."""
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    try:
        logger.warning('"%s" %s %s', f"GET /shared/{TOKEN}/ HTTP/1.1", "404", "179")
    finally:
        logger.removeHandler(handler)
    assert seen == ['"GET /shared/***/ HTTP/1.1" 404 179']


def test_runserver_still_logs_its_requests() -> None:
    """Configuring the django.server logger must not take its handler away."""
    logger = logging.getLogger("django.server")
    assert logger.handlers and not logger.propagate


# --- gunicorn -------------------------------------------------------------------------------------


def _gunicorn_logger() -> Any:
    from gunicorn.config import Config

    conf = runpy.run_path(str(ROOT / "scripts" / "gunicorn.conf.py"))
    config = Config()
    for name in ("logger_class", "accesslog", "errorlog"):
        config.set(name, conf[name])
    return config.logger_class(config)


def test_gunicorns_access_log_masks_the_path_the_request_line_and_the_referer() -> None:
    log = _gunicorn_logger()
    stream = io.StringIO()
    for handler in log.access_log.handlers:
        handler.setStream(stream)
    path = f"/shared/{TOKEN}/"
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"{path}?since=1f2e",
        "PATH_INFO": path,
        "QUERY_STRING": "since=1f2e",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": f"https://casino.example.com{path}",
        "HTTP_USER_AGENT": "phone",
    }
    response = SimpleNamespace(status="204 No Content", sent=0, headers=[])
    request = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    log.access(response, request, environ, timedelta(milliseconds=3))
    line = stream.getvalue()
    assert '"GET /shared/***/?since=1f2e HTTP/1.1" 204' in line
    assert '"https://casino.example.com/shared/***/"' in line
    assert TOKEN not in line


def test_gunicorns_error_log_masks_too() -> None:
    log = _gunicorn_logger()
    stream = io.StringIO()
    for handler in log.error_log.handlers:
        handler.setStream(stream)
    log.exception("Error handling request %s", f"/shared/{TOKEN}/")
    assert "Error handling request /shared/***/" in stream.getvalue()
    assert TOKEN not in stream.getvalue()
