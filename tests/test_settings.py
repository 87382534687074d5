"""Settings: strict environment helpers, production mode (refusals, `check --deploy` with no
warning, gunicorn serving compressed hashed static files) and what several app servers share."""

from __future__ import annotations

import os
import runpy
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from casino_site import env

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ROOT / "casino_site" / "settings.py"
PRODUCTION = {
    "DJANGO_DEBUG": "False",
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-" + "x7Kq9Lm2Pz" * 4,
    "DJANGO_ALLOWED_HOSTS": "casino.example.com",
}
DJANGO_VARIABLES = [name for name in os.environ if name.startswith("DJANGO_")]


def load_settings(monkeypatch: pytest.MonkeyPatch, **environment: str) -> dict[str, Any]:
    """Run settings.py afresh with exactly these DJANGO_* variables."""
    for name in DJANGO_VARIABLES:
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


def test_the_client_address_is_taken_through_the_trusted_proxies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forwarded = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 203.0.113.9"}
    request = RequestFactory().get("/", **forwarded)
    direct = load_settings(monkeypatch)
    assert direct["client_ip"](request) == "10.0.0.2"  # no proxy: a forged header is ignored
    behind_one = load_settings(monkeypatch, DJANGO_TRUSTED_PROXY_COUNT="1")
    assert behind_one["client_ip"](request) == "203.0.113.9"  # not the address the client wrote
    behind_two = load_settings(monkeypatch, DJANGO_TRUSTED_PROXY_COUNT="2")
    assert behind_two["client_ip"](request) == "6.6.6.6"
    alone = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2")
    assert behind_one["client_ip"](alone) == "10.0.0.2"


def test_what_app_servers_share_lives_in_the_database_not_in_a_process() -> None:
    from django.conf import settings

    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    assert settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"
    assert settings.MESSAGE_STORAGE.endswith("FallbackStorage")  # a cookie, else the session
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.dummy.DummyCache"


def test_axes_is_wired_as_its_documentation_asks() -> None:
    from django.conf import settings

    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"
    assert settings.MIDDLEWARE[-1] == "axes.middleware.AxesMiddleware"
    assert settings.AXES_FAILURE_LIMIT == 5


# --- production mode, for real -------------------------------------------------------------------


def _production_environment(tmp_path: Path) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
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


def test_gunicorn_serves_pages_and_compressed_hashed_static_files(tmp_path: Path) -> None:
    """What `make serve` does: collectstatic, migrate, gunicorn; on loopback, plain HTTP."""
    environment = _production_environment(tmp_path)
    environment.update(DJANGO_ALLOWED_HOSTS="127.0.0.1", DJANGO_SECURE_SSL_REDIRECT="False")
    for arguments in (("collectstatic", "--noinput"), ("migrate", "--noinput")):
        result = _manage(environment, *arguments)
        assert result.returncode == 0, result.stderr
    port = _free_port()
    gunicorn = Path(sys.executable).parent / "gunicorn"
    server = subprocess.Popen(
        [
            *(str(gunicorn), "casino_site.wsgi", "--config", "scripts/gunicorn.conf.py"),
            *("--bind", f"127.0.0.1:{port}", "--workers", "1"),
        ],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        home = _get_when_up(f"http://127.0.0.1:{port}/", server)
        page = home.read().decode()
        assert "script-src 'self'" in home.headers["Content-Security-Policy"]
        css = next(part for part in page.split('"') if "/static/scoring/app." in part)
        assert css.endswith(".css") and css != "/static/scoring/app.css"  # hashed name
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{css}", headers={"Accept-Encoding": "gzip"}
        )
        with urllib.request.urlopen(request, timeout=10) as static:
            assert static.status == 200
            assert static.headers["Content-Encoding"] == "gzip"
            assert "immutable" in static.headers["Cache-Control"]
    finally:
        server.terminate()
        server.wait(timeout=30)


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
