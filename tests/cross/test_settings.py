"""Settings: strict environment helpers, production mode (refusals, `check --deploy` with no
warning, gunicorn serving compressed hashed static files) and what several app servers share."""

from __future__ import annotations

import os
import re
import runpy
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from casino_site import env

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "casino_site" / "settings.py"
PRODUCTION = {
    "DJANGO_DEBUG": "False",
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-" + "x7Kq9Lm2Pz" * 4,
    "DJANGO_ALLOWED_HOSTS": "casino.example.com",
}


def _read_by_settings(name: str) -> bool:
    return name.startswith("DJANGO_") or name == "FORWARDED_ALLOW_IPS"


SHARE_TOKEN = "pX3b9_Zq-7LmN0aQk2Rt5uVw8yA1cE4gH6jK9nPq3sU"
RESET_KEY = "2-cv8a1z-8e3f1c0b5a9d7e6f4c2b"
CONFIRM_KEY = "MQ:1uYb2c:Xk3vQ9zP0aLm7nRt5uVw8yA1cE4gH6jK9nPq3sU"


def load_settings(monkeypatch: pytest.MonkeyPatch, **environment: str) -> dict[str, Any]:
    """Run settings.py afresh with exactly these DJANGO_* (and FORWARDED_ALLOW_IPS) variables."""
    for name in [name for name in os.environ if _read_by_settings(name)]:
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS))


# --- helpers -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("true", True), ("Yes", True), ("1", True), ("off", False), ("FALSE", False), ("", None)],
)
def test_env_bool_reads_the_usual_spellings(raw: str, expected: bool | None) -> None:
    assert env.env_bool("X", None, {"X": raw}) is expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "reader",
    [
        lambda raw: env.env_bool("X", False, {"X": raw}),
        lambda raw: env.env_int("X", 0, {"X": raw}),
    ],
    ids=["bool", "int"],
)
def test_env_junk_is_an_error_not_a_guess(reader: Any) -> None:
    with pytest.raises(ImproperlyConfigured, match="X must be"):
        reader("maybe")


def test_env_list_and_int() -> None:
    assert env.env_list("X", [], {"X": " a.example, ,b.example "}) == ["a.example", "b.example"]
    assert env.env_list("X", ["d"], {}) == ["d"]
    assert env.env_int("X", 5, {"X": "31536000"}) == 31_536_000


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("X-Forwarded-Proto: https", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("x-forwarded-ssl:on", ("HTTP_X_FORWARDED_SSL", "on")),
        ("", None),
    ],
)
def test_env_header_reads_a_proxy_header(raw: str, expected: Any) -> None:
    assert env.env_header("X", {"X": raw}) == expected


@pytest.mark.parametrize("raw", ["X-Forwarded-Proto", "X-Forwarded-Proto:", "Bad Header: https"])
def test_env_header_refuses_junk(raw: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="X-Forwarded-Proto: https"):
        env.env_header("X", {"X": raw})


# --- modes ---------------------------------------------------------------------------------------


def test_development_mode_needs_nothing_set(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch)
    assert settings["DEBUG"] is True
    assert settings["SECURE_SSL_REDIRECT"] is False and settings["SECURE_HSTS_SECONDS"] == 0
    assert settings["SESSION_COOKIE_SECURE"] is False


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"])
def test_production_mode_refuses_to_start_without(
    monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    environment = {name: value for name, value in PRODUCTION.items() if name != missing}
    with pytest.raises(ImproperlyConfigured, match=missing):
        load_settings(monkeypatch, **environment)


def test_production_mode_turns_on_https_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch, **PRODUCTION)
    assert settings["SECURE_SSL_REDIRECT"] is True
    assert settings["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] and settings["SECURE_HSTS_PRELOAD"]
    assert settings["SESSION_COOKIE_SECURE"] and settings["CSRF_COOKIE_SECURE"]
    assert settings["SECURE_PROXY_SSL_HEADER"] is None
    storage = settings["STORAGES"]["staticfiles"]["BACKEND"]
    assert storage == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_behind_a_proxy_https_is_read_from_its_header(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(
        monkeypatch,
        **PRODUCTION,
        DJANGO_SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_HSTS_SECONDS="3600",
    )
    assert settings["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert settings["SECURE_SSL_REDIRECT"] is False
    assert settings["SECURE_HSTS_SECONDS"] == 3600


def test_junk_in_a_security_variable_stops_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECURE_SSL_REDIRECT"):
        load_settings(monkeypatch, **PRODUCTION, DJANGO_SECURE_SSL_REDIRECT="sometimes")


def _address(settings: Any, count: int, trusted: list[str], **meta: str) -> str | None:
    from casino_site.proxies import client_ip

    settings.TRUSTED_PROXY_COUNT, settings.TRUSTED_PROXIES = count, trusted
    return client_ip(RequestFactory().get("/", **meta))


def test_the_client_address_is_taken_through_the_trusted_proxies(settings: Any) -> None:
    loopback = ["127.0.0.1", "::1"]
    forwarded = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.9"}
    # No proxy: a forged header is ignored.
    assert _address(settings, 0, loopback, **forwarded) == "10.0.0.2"
    # Behind one proxy at 10.0.0.2: the address it wrote (right-most), not the client's own.
    assert _address(settings, 1, ["10.0.0.0/24"], **forwarded) == "203.0.113.9"
    # Behind two (a CDN whose edge is 203.0.113.9, then nginx): what the CDN wrote.
    assert _address(settings, 2, ["10.0.0.2", "203.0.113.0/24"], **forwarded) == "6.6.6.6"
    assert _address(settings, 1, ["*"], **forwarded) == "203.0.113.9"
    # Fewer addresses than proxies, or junk where the proxy's address should be: the proxy.
    assert _address(settings, 1, ["10.0.0.2"], REMOTE_ADDR="10.0.0.2") == "10.0.0.2"
    junk = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.2.3.4, bogus"}
    assert _address(settings, 1, ["10.0.0.2"], **junk) == "10.0.0.2"
    ipv6 = {"REMOTE_ADDR": "::1", "HTTP_X_FORWARDED_FOR": "2001:DB8::7"}
    assert _address(settings, 1, loopback, **ipv6) == "2001:db8::7"


def test_a_header_sent_straight_to_the_app_is_not_believed(settings: Any) -> None:
    """DJANGO_TRUSTED_PROXY_COUNT=1 but the app is reachable without the proxy: only a request
    from an address in FORWARDED_ALLOW_IPS (gunicorn's list of proxies) is read through."""
    direct = {"REMOTE_ADDR": "198.51.100.66", "HTTP_X_FORWARDED_FOR": "10.9.8.7"}
    assert _address(settings, 1, ["127.0.0.1", "::1"], **direct) == "198.51.100.66"
    assert _address(settings, 1, ["10.0.0.0/8"], **direct) == "198.51.100.66"
    # A UNIX socket has no address; only a process on the machine (the proxy) can reach it.
    socket = {"REMOTE_ADDR": "", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    assert _address(settings, 1, ["127.0.0.1"], **socket) == "203.0.113.9"


def test_a_client_that_goes_round_the_outer_proxy_is_counted_by_its_own_address(
    settings: Any,
) -> None:
    """Two proxies, a CDN in front of nginx: a client that reaches nginx directly writes its own
    X-Forwarded-For, which nginx passes on with the client's real address appended. Every hop
    must be a trusted proxy, so the address nginx saw, not a CDN's, is the client: it cannot pick
    a new one for every guess."""
    cdn = ["127.0.0.1", "203.0.113.0/24"]  # nginx on this machine, the CDN's published range
    for forged in ("10.9.8.1", "10.9.8.2", "6.6.6.6, 10.9.8.3"):
        around = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": f"{forged}, 198.51.100.66"}
        assert _address(settings, 2, cdn, **around) == "198.51.100.66"
    through = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.40"}
    assert _address(settings, 2, cdn, **through) == "6.6.6.6"
    # The CDN's ranges not listed: every client seems to be the CDN's edge (a lock for all, never
    # a fresh address per guess); check --deploy warns of it (casino.W006).
    assert _address(settings, 2, ["127.0.0.1"], **through) == "203.0.113.40"


def test_a_proxy_the_throttle_is_not_told_about_is_logged(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Behind a proxy with DJANGO_TRUSTED_PROXY_COUNT=0 every login seems to come from the proxy,
    so five wrong guesses from anyone lock the player out: say so in the log."""
    through_proxy = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    with caplog.at_level("WARNING", logger="casino_site.proxies"):
        assert _address(settings, 0, ["127.0.0.1"], **through_proxy) == "127.0.0.1"
    assert "DJANGO_TRUSTED_PROXY_COUNT" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="casino_site.proxies"):
        _address(
            settings, 0, ["127.0.0.1"], REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR="1.2.3.4"
        )
        _address(settings, 0, ["127.0.0.1"], REMOTE_ADDR="127.0.0.1")
    assert not caplog.records  # a direct client's header, or no header: nothing to say


def test_the_proxy_settings_are_read_strictly(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="DJANGO_TRUSTED_PROXY_COUNT"):
        load_settings(monkeypatch, DJANGO_TRUSTED_PROXY_COUNT="-1")
    with pytest.raises(ImproperlyConfigured, match="FORWARDED_ALLOW_IPS"):
        load_settings(monkeypatch, FORWARDED_ALLOW_IPS="10.0.0.1, proxy.internal")
    with pytest.raises(ImproperlyConfigured, match="FORWARDED_ALLOW_IPS"):
        load_settings(monkeypatch, FORWARDED_ALLOW_IPS="192.168.1.1/24")  # host bits set
    assert load_settings(monkeypatch)["TRUSTED_PROXIES"] == ["127.0.0.1", "::1"]  # gunicorn's
    read = load_settings(monkeypatch, FORWARDED_ALLOW_IPS=" 10.0.0.5 ,10.1.0.0/16")
    assert read["TRUSTED_PROXIES"] == ["10.0.0.5", "10.1.0.0/16"]
    assert load_settings(monkeypatch, FORWARDED_ALLOW_IPS="")["TRUSTED_PROXIES"] == []


def test_throttling_is_by_username_and_client_address_together() -> None:
    from django.conf import settings

    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_CLIENT_IP_CALLABLE == "casino_site.proxies.client_ip"


# --- proxy settings that contradict each other (check --deploy) ----------------------------------


def _proxy_warnings(settings: Any, **values: Any) -> list[str]:
    from casino_site.checks import PROXY_CHECKS

    base = {
        "TRUSTED_PROXY_COUNT": 0,
        "TRUSTED_PROXIES": ["127.0.0.1", "::1"],
        "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_SSL_REDIRECT": True,
    }
    for name, value in {**base, **values}.items():
        setattr(settings, name, value)
    return [warning.id for check in PROXY_CHECKS for warning in check(None)]


HTTPS_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, []),  # no proxy: gunicorn serves the clients itself
        ({"TRUSTED_PROXY_COUNT": 1, "SECURE_PROXY_SSL_HEADER": HTTPS_HEADER}, []),  # nginx here
        (
            {
                "TRUSTED_PROXY_COUNT": 1,
                "SECURE_PROXY_SSL_HEADER": HTTPS_HEADER,
                "TRUSTED_PROXIES": ["10.0.0.5"],
            },
            [],  # a proxy on another machine
        ),
        # A CDN in front of nginx, its ranges listed (nginx finding the client with its realip
        # module is the "local proxy" case above).
        (
            {
                "TRUSTED_PROXY_COUNT": 2,
                "SECURE_PROXY_SSL_HEADER": HTTPS_HEADER,
                "TRUSTED_PROXIES": ["127.0.0.1", "173.245.48.0/20"],
            },
            [],
        ),
        (
            {"TRUSTED_PROXY_COUNT": 2, "SECURE_PROXY_SSL_HEADER": HTTPS_HEADER},
            ["casino.W006"],
        ),
        (
            {
                "TRUSTED_PROXY_COUNT": 2,
                "SECURE_PROXY_SSL_HEADER": HTTPS_HEADER,
                "TRUSTED_PROXIES": ["10.0.0.5"],
            },
            ["casino.W006"],
        ),
        ({"SECURE_PROXY_SSL_HEADER": HTTPS_HEADER}, ["casino.W001"]),
        ({"TRUSTED_PROXIES": ["10.0.0.5"]}, ["casino.W002"]),
        ({"TRUSTED_PROXIES": ["*"]}, ["casino.W002"]),
        ({"TRUSTED_PROXY_COUNT": 1}, ["casino.W003"]),
        ({"TRUSTED_PROXY_COUNT": 1, "SECURE_SSL_REDIRECT": False}, []),
        (
            {
                "TRUSTED_PROXY_COUNT": 1,
                "SECURE_PROXY_SSL_HEADER": HTTPS_HEADER,
                "TRUSTED_PROXIES": ["*"],
            },
            ["casino.W004"],
        ),
        (
            {
                "TRUSTED_PROXY_COUNT": 2,
                "SECURE_PROXY_SSL_HEADER": HTTPS_HEADER,
                "TRUSTED_PROXIES": [],
            },
            ["casino.W005"],
        ),
    ],
    ids=[
        "direct",
        "local proxy",
        "remote proxy",
        "CDN ranges listed",
        "two proxies, one listed",
        "two proxies, one remote listed",
        "TLS proxy but no count",
        "trusted proxy but no count",
        "everyone trusted but no count",
        "count but no HTTPS header",
        "count, plain HTTP inside",
        "count and every address trusted",
        "count but no proxy trusted",
    ],
)
def test_proxy_settings_that_contradict_each_other_are_warned_about(
    settings: Any, values: dict[str, Any], expected: list[str]
) -> None:
    assert _proxy_warnings(settings, **values) == expected


@pytest.mark.slow
def test_check_deploy_warns_behind_a_proxy_the_throttle_does_not_know(tmp_path: Path) -> None:
    environment = _production_environment(tmp_path)
    environment["DJANGO_SECURE_PROXY_SSL_HEADER"] = "X-Forwarded-Proto: https"
    result = _manage(environment, "check", "--deploy")
    assert "casino.W001" in result.stderr and "DJANGO_TRUSTED_PROXY_COUNT" in result.stderr
    assert "casino.W" not in _manage(environment, "check").stderr  # only with --deploy


@pytest.mark.slow
def test_check_deploy_is_clean_for_the_documented_proxy_setup(tmp_path: Path) -> None:
    environment = _production_environment(tmp_path)
    environment.update(
        DJANGO_SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https", DJANGO_TRUSTED_PROXY_COUNT="1"
    )
    result = _manage(environment, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr
    environment["FORWARDED_ALLOW_IPS"] = "10.0.0.5"  # the proxy on another machine
    result = _manage(environment, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("hosts", "expected"),
    [(["casino.example.com"], []), ([".example.com"], []), (["*"], ["casino.W007"])],
)
def test_any_host_is_warned_about(settings: Any, hosts: list[str], expected: list[str]) -> None:
    """The links in the reset and verification mails name the host the request came to."""
    from casino_site.checks import check_allowed_hosts

    settings.ALLOWED_HOSTS = hosts
    assert [warning.id for warning in check_allowed_hosts(None)] == expected


@pytest.mark.slow
def test_check_deploy_warns_when_any_host_is_allowed(tmp_path: Path) -> None:
    environment = _production_environment(tmp_path)
    environment["DJANGO_ALLOWED_HOSTS"] = "*"
    result = _manage(environment, "check", "--deploy")
    assert "casino.W007" in result.stderr and "DJANGO_ALLOWED_HOSTS" in result.stderr


def test_what_app_servers_share_lives_in_the_database_not_in_a_process() -> None:
    from django.conf import settings

    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    assert settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"
    assert settings.MESSAGE_STORAGE.endswith("FallbackStorage")  # a cookie, else the session
    # allauth's mail limits count in the default cache: the database's table, not a process.
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    assert settings.ACCOUNT_RATE_LIMITS["reset_password"]


def test_axes_is_wired_as_its_documentation_asks() -> None:
    from django.conf import settings

    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"
    assert settings.MIDDLEWARE[-1] == "axes.middleware.AxesMiddleware"
    assert settings.AXES_FAILURE_LIMIT == 5


# --- production mode, for real -------------------------------------------------------------------


def _production_environment(tmp_path: Path) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if not _read_by_settings(k)}
    environment.update(PRODUCTION)
    environment["DJANGO_STATIC_ROOT"] = str(tmp_path / "static")
    environment["DATABASE_URL"] = f"sqlite:///{tmp_path / 'production.sqlite3'}"
    return environment


def _manage(environment: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_check_deploy_passes_without_a_single_warning(tmp_path: Path) -> None:
    result = _manage(
        _production_environment(tmp_path), "check", "--deploy", "--fail-level", "WARNING"
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """What `make serve` does: collectstatic, migrate, gunicorn; on loopback, plain HTTP. Yields
    the server's address and its log (the access log and the error log). One server for the
    module: starting it (three manage.py runs and gunicorn's boot) is most of these tests' time,
    and each test only adds lines to the log and checks its own."""
    tmp_path = tmp_path_factory.mktemp("production")
    environment = _production_environment(tmp_path)
    environment.update(DJANGO_ALLOWED_HOSTS="127.0.0.1", DJANGO_SECURE_SSL_REDIRECT="False")
    for arguments in (
        ("collectstatic", "--noinput"),
        ("migrate", "--noinput"),
        ("createcachetable",),
    ):
        result = _manage(environment, *arguments)
        assert result.returncode == 0, result.stderr
    port = _free_port()
    log = tmp_path / "gunicorn.log"
    gunicorn = Path(sys.executable).parent / "gunicorn"
    server = subprocess.Popen(
        [
            *(str(gunicorn), "casino_site.wsgi", "--config", "scripts/gunicorn.conf.py"),
            *("--bind", f"127.0.0.1:{port}", "--workers", "1"),
        ],
        cwd=ROOT,
        env=environment,
        stdout=log.open("w"),  # the access log
        stderr=subprocess.STDOUT,
    )
    try:
        _get_when_up(f"http://127.0.0.1:{port}/healthz", server)
        yield f"http://127.0.0.1:{port}", log
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow
def test_gunicorn_serves_pages_and_compressed_hashed_static_files(
    gunicorn: tuple[str, Path],
) -> None:
    base, log = gunicorn
    home = urllib.request.urlopen(f"{base}/", timeout=10)
    page = home.read().decode()
    assert "script-src 'self'" in home.headers["Content-Security-Policy"]
    css = next(part for part in page.split('"') if "/static/scoring/app." in part)
    assert css.endswith(".css") and css != "/static/scoring/app.css"  # hashed name
    request = urllib.request.Request(
        f"{base}{css}", headers={"Accept-Encoding": "gzip", "Referer": f"{base}/"}
    )
    with urllib.request.urlopen(request, timeout=10) as static:
        assert static.status == 200
        assert static.headers["Content-Encoding"] == "gzip"
        assert "immutable" in static.headers["Cache-Control"]
    # A share link's token stays out of the access log, in the path and in the referer; so
    # does a big screen's, in its path and in the referer of the static files it loads.
    for path in (f"/shared/{SHARE_TOKEN}/", f"/events/screen/{SHARE_TOKEN}/"):
        request = urllib.request.Request(f"{base}{path}", headers={"Referer": base + path})
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(request, timeout=10)
    screen = f"{base}/events/screen/{SHARE_TOKEN}/"
    request = urllib.request.Request(f"{base}{css}", headers={"Referer": screen})
    with urllib.request.urlopen(request, timeout=10) as static:
        assert static.status == 200
    # A board's watch token, in its poll's query.
    request = urllib.request.Request(
        f"{base}/matches/1/?watch={CONFIRM_KEY}&since=3", headers={"HX-Request": "true"}
    )
    with pytest.raises(urllib.error.HTTPError, match="401") as poll:  # no session
        urllib.request.urlopen(request, timeout=10)
    assert CONFIRM_KEY not in poll.value.headers["HX-Redirect"]  # back to the board alone
    # So do the accounts' reset and verification keys (the pages answer a wrong key).
    for path in (
        f"/accounts/password/reset/key/{RESET_KEY}/",
        f"/accounts/confirm-email/{CONFIRM_KEY}/",
    ):
        with urllib.request.urlopen(f"{base}{path}", timeout=10) as page:
            assert page.status == 200
    written = log.read_text()
    assert '"GET /shared/***/ HTTP/1.1" 404' in written
    assert '"GET /events/screen/***/ HTTP/1.1" 404' in written
    assert '"http://127.0.0.1:' in written and '/events/screen/***/"' in written
    assert '"GET /matches/1/?watch=***&since=3 HTTP/1.1" 401' in written
    assert SHARE_TOKEN not in written
    assert '"GET /accounts/password/reset/key/***/ HTTP/1.1" 200' in written
    assert '"GET /accounts/confirm-email/***/ HTTP/1.1" 200' in written
    assert RESET_KEY not in written and CONFIRM_KEY not in written
    assert not any(piece in written for piece in CONFIRM_KEY.split(":"))


@pytest.mark.slow
def test_gunicorn_answers_a_form_in_another_charset_with_a_400(
    gunicorn: tuple[str, Path],
) -> None:
    """An anonymous form posted in UTF-16 (the login page's, any other): a 400, never the 500
    Django's error handler made of it by reading the form again."""
    forms = [
        ("/accounts/login/", "login=ana&password=x".encode("utf-16"), "charset=utf-16"),
        ("/accounts/signup/", "username=ana".encode("utf-32"), "charset=utf-32"),
        ("/language/", "language=es".encode("utf-16"), "charset=UTF-16"),
    ]
    statuses = []
    base, log = gunicorn
    for path, body, charset in forms:
        request = urllib.request.Request(
            f"{base}{path}",
            data=body,
            headers={
                "Content-Type": f"application/x-www-form-urlencoded; {charset}",
                "Cookie": "csrftoken=" + "c" * 32,  # as the form's page set it
                "Referer": f"{base}{path}",
            },
        )
        try:
            urllib.request.urlopen(request, timeout=10)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
    assert statuses == [400] * len(forms), log.read_text()[-3000:]
    written = log.read_text()
    assert "Internal Server Error" not in written and '" 500 ' not in written


def _get_when_up(url: str, server: subprocess.Popen[bytes], seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        assert server.poll() is None, "gunicorn stopped"
        try:
            return urllib.request.urlopen(url, timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_the_production_environment_takes_no_django_variable_of_the_test_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process; `check --deploy` run by
    these tests must see only the production variables, whichever test module came first."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    monkeypatch.setenv("DJANGO_DEBUG", "True")
    environment = _production_environment(tmp_path)
    assert "DJANGO_ALLOW_ASYNC_UNSAFE" not in environment
    assert environment["DJANGO_DEBUG"] == "False"


# --- the documents' lines for trying production mode ------------------------------------------


def _local_trials(document: str) -> list[str]:
    """The shell commands of `document` that run `make serve` with a secret key of their own: the
    line a reader copies to try production mode on their machine (continued lines joined)."""
    text = (ROOT / document).read_text()
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        for command in block.replace("\\\n", " ").splitlines():
            if "make serve" in command and "DJANGO_SECRET_KEY=" in command:
                commands.append(command)
    return commands


@pytest.mark.django_db
@pytest.mark.parametrize("document", ["README.md", "docs/DEPLOY.md"])
def test_the_documented_local_trial_answers_plain_http_on_loopback(
    document: str, monkeypatch: pytest.MonkeyPatch, settings: Any, client: Any
) -> None:
    """`make serve` with only the key and the hosts redirects http://localhost:8000/ to https,
    which nothing serves there: the line the documents give for a local try must not."""
    trials = _local_trials(document)
    assert trials, f"{document} shows how to try production mode locally"
    for command in trials:
        assignments = dict(
            re.findall(r"\b(DJANGO_\w+)=(\$\(.*?\)\)|'[^']*'|\"[^\"]*\"|\S+)", command)
        )
        assignments["DJANGO_SECRET_KEY"] = PRODUCTION["DJANGO_SECRET_KEY"]  # the $(...) it runs
        loaded = load_settings(monkeypatch, DJANGO_DEBUG="False", **assignments)
        settings.SECURE_SSL_REDIRECT = loaded["SECURE_SSL_REDIRECT"]
        settings.ALLOWED_HOSTS = loaded["ALLOWED_HOSTS"]
        response = client.get("/healthz", HTTP_HOST="localhost:8000")
        assert response.status_code == 200, (
            command,
            response.status_code,
            response.get("Location"),
        )
