"""Share tokens, invite codes and the accounts' mailed keys never reach a log: a share link is the
key to a match, a password-reset link sets the account's password, and logs are read (and kept)
by more people than the match's owner or the account's holder."""

from __future__ import annotations

import io
import logging
import re
import runpy
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from casino_site.log_masking import MASK, MaskShareTokens, mask_share_tokens

ROOT = Path(__file__).resolve().parents[2]
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


RESET_KEY = "2-cv8a1z-8e3f1c0b5a9d7e6f4c2b"  # <uidb36>-<Django's password reset token>
CONFIRM_KEY = "MQ:1uYb2c:Xk3vQ9zP0aLm7nRt5uVw8yA1cE4gH6jK9nPq3sU"  # allauth's signed key


def test_reset_and_verification_keys_are_masked_in_a_path_a_referer_and_a_next() -> None:
    reset = reverse("account_reset_password_from_key", args=["2", RESET_KEY[2:]])
    assert reset == f"/accounts/password/reset/key/{RESET_KEY}/"
    confirm = reverse("account_confirm_email", args=[CONFIRM_KEY])
    line = (
        f'GET {reset} HTTP/1.1 "https://casino.example.com{reset}" '
        f"POST {confirm}?next=/join/abc/ HTTP/1.1 "
        f"GET /accounts/login/?next=%2Faccounts%2Fconfirm-email%2F{CONFIRM_KEY}%2F "
        f"GET /accounts/login/?next=%2Faccounts%2Fpassword%2Freset%2Fkey%2F{RESET_KEY}%2F"
    )
    masked = mask_share_tokens(line)
    assert RESET_KEY not in masked and CONFIRM_KEY not in masked and "cv8a1z" not in masked
    assert masked.count("/accounts/password/reset/key/***/") == 2
    assert "/accounts/confirm-email/***/?next=/join/***/" in masked
    assert "%2Fconfirm-email%2F***%2F" in masked and "%2Freset%2Fkey%2F***%2F" in masked
    # The page after the key (it is in the session by then) loses its account number too; pages
    # without a key stay as they are.
    assert mask_share_tokens("/accounts/password/reset/key/2-set-password/") == (
        "/accounts/password/reset/key/***/"
    )
    for untouched in (
        "GET /accounts/password/reset/key/done/ HTTP/1.1",
        "GET /accounts/confirm-email/ HTTP/1.1",
        "GET /accounts/password/reset/?next=%2Faccounts%2Fpassword%2Freset%2Fkey%2Fdone%2F",
    ):
        assert mask_share_tokens(untouched) == untouched


@pytest.mark.django_db
def test_djangos_request_log_does_not_show_a_verification_key(captured: io.StringIO) -> None:
    """A wrong or used verification link, confirmed, is a 404, which Django logs with its path."""
    response = Client().post(reverse("account_confirm_email", args=[CONFIRM_KEY]))
    assert response.status_code == 404
    log = captured.getvalue()
    assert "Not Found: /accounts/confirm-email/***/" in log and CONFIRM_KEY not in log


@pytest.mark.django_db
def test_djangos_request_log_does_not_show_a_reset_key(captured: io.StringIO) -> None:
    """A reset link tried too often from one address is a 429, logged with its path."""
    path = f"/accounts/password/reset/key/{RESET_KEY}/"
    client = Client()
    statuses = {
        client.post(path, {"password1": "x", "password2": "x"}).status_code for _ in range(21)
    }
    assert 429 in statuses
    log = captured.getvalue()
    assert "Too Many Requests: /accounts/password/reset/key/***/" in log
    assert RESET_KEY not in log


@pytest.mark.django_db
def test_djangos_request_log_does_not_show_an_invite_code(captured: io.StringIO, user) -> None:
    """An unknown code is a 404 and a revoked one a 410, both logged with their path."""
    from scoring.circles import invites

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


def test_gunicorns_access_log_masks_a_reset_key_and_the_page_it_leads_to() -> None:
    """A logged reset key opens the form that sets the account's password, for whoever reads the
    log: the request for it, and the set-password page's request with it as referer."""
    key_path = f"/accounts/password/reset/key/{RESET_KEY}/"
    lines = _access_lines(
        (key_path, "", "https://mail.example.com/"),
        (
            "/accounts/password/reset/key/2-set-password/",
            "",
            f"https://casino.example.com{key_path}",
        ),
        (f"/accounts/confirm-email/{CONFIRM_KEY}/", "", "-"),
    )
    assert '"GET /accounts/password/reset/key/***/ HTTP/1.1" 200 0 "https://mail' in lines
    assert (
        '"GET /accounts/password/reset/key/***/ HTTP/1.1" 200 0 '
        '"https://casino.example.com/accounts/password/reset/key/***/"'
    ) in lines
    assert '"GET /accounts/confirm-email/***/ HTTP/1.1" 200' in lines
    assert RESET_KEY not in lines and CONFIRM_KEY not in lines


def test_gunicorns_error_log_masks_too() -> None:
    log = _gunicorn_logger()
    stream = io.StringIO()
    for handler in log.error_log.handlers:
        handler.setStream(stream)
    log.exception("Error handling request %s", f"/shared/{TOKEN}/")
    assert "Error handling request /shared/***/" in stream.getvalue()
    assert TOKEN not in stream.getvalue()


# --- every URL that carries a secret, in every log path --------------------------------------------

# A signed value's shape (allauth's confirmation key, a watch token): letters, '-', '_' and ':'.
SECRET = "WzEsMiwiYWIxMiJd:1uYb2c:Xk3vQ9zP0aLm7nRt5uVw8yA1cE4gH6jK"
# The URL parameters that hold no secret: a game's name (the admin's pages, under /admin/, take
# only a row's number or an app's label).
NOT_SECRET = {"scoring:rules-variant": {"variant"}}
# Query parameters that hold a secret: the board's and the event page's watch token.
SECRET_QUERY = ["watch"]


def _routes() -> Iterator[tuple[str, str | None, list[str]]]:
    """(route, name, parameters that are not whole numbers) of every URL the site answers."""
    from django.urls import URLPattern, URLResolver, get_resolver
    from django.urls.converters import IntConverter

    def walk(
        resolver: URLResolver, prefix: str, namespace: str = ""
    ) -> Iterator[tuple[str, str | None, list[str]]]:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                yield from walk(pattern, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                converters = getattr(pattern.pattern, "converters", {})
                names = [
                    name
                    for name in pattern.pattern.regex.groupindex
                    if not isinstance(converters.get(name), IntConverter)
                ]
                name = f"{namespace}{pattern.name}" if pattern.name else None
                yield prefix + str(pattern.pattern), name, names

    yield from walk(get_resolver(), "/")


def _secret_paths() -> list[tuple[str, str]]:
    """(name, path) of every named URL with a parameter that is not a number and not listed in
    NOT_SECRET, the parameter filled with SECRET (a reset key is '<uidb36>-<key>')."""
    paths = []
    for route, name, parameters in _routes():
        secret = [p for p in parameters if p not in NOT_SECRET.get(name or "", set())]
        if not secret or route.startswith("/admin/"):
            continue
        assert name, f"{route} has a parameter and no name"
        values = {p: ("2" if p == "uidb36" else SECRET) for p in parameters}
        paths.append((name, reverse(name, kwargs=values)))
    return paths


def test_the_urls_with_a_secret_are_the_known_ones() -> None:
    """A new URL with a token in it must be masked (or listed in NOT_SECRET): this names them."""
    names = {name for name, _path in _secret_paths()}
    assert names == {
        "scoring:shared-match",
        "scoring:shared-card",
        "scoring:scoring-open",
        "scoring:event-screen",
        "scoring:screen-card",
        "scoring:invite-join",
        "account_confirm_email",
        "account_reset_password_from_key",
    }


def _leaks(text: str) -> list[str]:
    """The pieces of SECRET still in `text` (a signed value is three pieces, joined by ':')."""
    return [piece for piece in SECRET.split(":") if piece in text]


def _lines(path: str) -> list[str]:
    """Every way a log line may hold `path`: the request line, a referer, a login page's `next`
    (percent-encoded once, and twice when it goes through another page's `next`)."""
    once = quote(path, safe="")
    return [
        f'"GET {path} HTTP/1.1" 200 512 "-"',
        f'"GET {path}?since=4 HTTP/1.1" 204 0 "https://casino.example.com{path}"',
        f'"GET /static/scoring/app.css HTTP/1.1" 200 9 "https://casino.example.com{path}"',
        f"Not Found: {path}",
        f'"GET /accounts/login/?next={once}&x=1 HTTP/1.1" 200',
        f'"GET /accounts/signup/?next={quote("/accounts/login/?next=" + once, safe="")} HTTP/1.1"',
    ]


@pytest.mark.parametrize("name", sorted(name for name, _path in _secret_paths()))
def test_every_url_with_a_secret_is_masked_in_every_shape_of_line(name: str) -> None:
    path = dict(_secret_paths())[name]
    for line in _lines(path):
        masked = mask_share_tokens(line)
        assert not _leaks(masked), (line, masked)
        assert MASK in masked


@pytest.mark.parametrize("parameter", SECRET_QUERY)
def test_a_secret_in_the_query_is_masked_in_every_shape_of_line(parameter: str) -> None:
    for path in ("/matches/12/", "/events/3/"):
        for line in _lines(f"{path}?{parameter}={SECRET}&since=7"):
            masked = mask_share_tokens(line)
            assert not _leaks(masked), (line, masked)
            assert "since" in masked  # only the secret goes


def test_a_watch_token_the_board_renders_is_masked(user_client, casino_match) -> None:
    """The token as the board's poll carries it (a real one), in its request line."""
    html = user_client.get(casino_match.get_absolute_url()).content.decode()
    found = re.search(r'id="board-poll"[^>]*hx-get="([^"]+)"', html)
    assert found
    url = found.group(1).replace("&amp;", "&")
    named = re.search(r"watch=([^&]+)", url)
    assert named
    token = named.group(1)
    masked = mask_share_tokens(f'"GET {url} HTTP/1.1" 204 0')
    assert token not in masked and "watch=***&since=" in masked


@pytest.mark.django_db
def test_djangos_request_log_does_not_show_a_big_screen_token(captured: io.StringIO) -> None:
    """A big screen whose link was never made is a 404, which Django logs with its path."""
    response = Client().get(reverse("scoring:event-screen", args=[TOKEN]))
    assert response.status_code == 404
    log = captured.getvalue()
    assert "Not Found: /events/screen/***/" in log and TOKEN not in log


def test_gunicorns_access_log_masks_a_big_screen_and_a_watch_token() -> None:
    screen = f"/events/screen/{TOKEN}/"
    lines = _access_lines(
        (screen, "since=3", "-"),
        ("/static/scoring/app.css", "", f"https://casino.example.com{screen}"),
        ("/matches/4/", f"watch={SECRET}&since=2", "https://casino.example.com/matches/4/"),
    )
    assert '"GET /events/screen/***/?since=3 HTTP/1.1" 200' in lines
    assert '"https://casino.example.com/events/screen/***/"' in lines
    assert '"GET /matches/4/?watch=***&since=2 HTTP/1.1" 200' in lines
    assert TOKEN not in lines and not _leaks(lines)


# --- the proxy's access log (docs/DEPLOY.md's nginx maps) -------------------------------------


def _nginx() -> tuple[dict[str, tuple[str, list[tuple[re.Pattern[str], str]], str]], str]:
    """DEPLOY.md's nginx block: each `map $source $variable { "~regex" "value"; default $x; }`
    (nginx takes the first regular expression that matches, "~*" ignoring case, and the value
    replaces the whole variable) and the masked log_format."""
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    blocks = [b for b in re.findall(r"```nginx\n(.*?)```", text, re.DOTALL) if "log_format" in b]
    assert len(blocks) == 1, "docs/DEPLOY.md shows the proxy's masked access log"
    block = blocks[0]
    maps = {}
    for found in re.finditer(r"map \$(\w+)\s+\$(\w+)\s*\{(.*?)\n\}", block, re.DOTALL):
        source, variable, body = found.groups()
        rules = [
            (
                re.compile(rule.group(2), re.IGNORECASE if rule.group(1) else 0),
                re.sub(r"\$(\d)", r"\\\1", rule.group(3)),
            )
            for rule in re.finditer(r'"~(\*?)([^"]+)"\s+"([^"]*)";', body)
        ]
        default = re.search(r"default\s+\$(\w+);", body)
        assert rules and default, body
        maps[variable] = (source, rules, default.group(1))
    log_format = re.search(r"log_format masked (.*?);", block, re.DOTALL)
    assert log_format
    return maps, log_format.group(1)


def _nginx_value(name: str, known: dict[str, str], maps: dict[str, Any]) -> str:
    if name in known:
        return known[name]
    source, rules, default = maps[name]
    value = _nginx_value(source, known, maps)
    for pattern, replacement in rules:
        if found := pattern.search(value):
            return found.expand(replacement)
    return _nginx_value(default, known, maps)


def _uris(path: str) -> list[str]:
    once = quote(path, safe="")
    return [
        path,
        f"{path}?since=4",
        f"/accounts/login/?next={once}&x=1",
        f"/accounts/signup/?next={quote('/accounts/login/?next=' + once, safe='')}",
    ]


def test_the_proxys_log_format_writes_only_masked_addresses() -> None:
    maps, log_format = _nginx()
    assert "$masked_uri" in log_format and "$masked_referer" in log_format
    for raw in ("$request_uri", "$http_referer", '"$request"', "$request "):
        assert raw not in log_format
    assert {"masked_uri", "masked_referer"} <= set(maps)


@pytest.mark.parametrize(
    "path",
    [path for _name, path in sorted(_secret_paths())]
    + [f"/matches/12/?{name}={SECRET}&since=7" for name in SECRET_QUERY],
)
def test_the_proxys_maps_mask_every_url_with_a_secret(path: str) -> None:
    maps, _format = _nginx()
    for uri in _uris(path):
        for variable, known in (
            ("masked_uri", {"request_uri": uri}),
            ("masked_referer", {"http_referer": f"https://casino.example.com{uri}"}),
        ):
            masked = _nginx_value(variable, known, maps)
            assert not _leaks(masked), (variable, uri, masked)
            assert MASK in masked
    plain = "/matches/12/?since=7"
    assert _nginx_value("masked_uri", {"request_uri": plain}, maps) == plain


def _access_lines(*requests: tuple[str, str, str]) -> str:
    """What gunicorn's access log writes for these (path, query, referer) requests."""
    log = _gunicorn_logger()
    stream = io.StringIO()
    for handler in log.access_log.handlers:
        handler.setStream(stream)
    for path, query, referer in requests:
        environ = {
            "REQUEST_METHOD": "GET",
            "RAW_URI": f"{path}?{query}" if query else path,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_REFERER": referer,
            "HTTP_USER_AGENT": "phone",
        }
        response = SimpleNamespace(status="200 OK", sent=0, headers=[])
        request = SimpleNamespace(headers=[("REFERER", referer)])
        log.access(response, request, environ, timedelta(milliseconds=3))
    return stream.getvalue()
