"""Load benchmark (`make bench-load`): gunicorn in production mode on 127.0.0.1, driven by wrk.

Sets up a fresh database (SQLite in a temporary folder, or BENCH_DATABASE_URL), migrates it,
collects the static files, seeds a user with matches (target 999, so none ends), starts gunicorn on
a free loopback port, and runs wrk for BENCH_DURATION seconds with scoreboard reads and hand writes
mixed (scripts/bench_load.lua). Prints requests/s, p50/p99 latency and the error count; exits 1
when any request failed or the database does not hold exactly the hands that were acknowledged.

Only loopback traffic, bounded in time. Settings (environment variables, all optional):
BENCH_DURATION (seconds, 20), BENCH_CONNECTIONS (8), BENCH_WORKERS (gunicorn workers, 4),
BENCH_WRITE_EVERY (one request in N records a hand, 5), BENCH_MATCHES (per connection, 25),
BENCH_READ_DURATION (seconds of the home page alone, then of the scoreboard alone, 10),
BENCH_DATABASE_URL (default: a new SQLite file; a PostgreSQL database here gets a new bench user
and its matches added, nothing else touched).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
PRE_HANDS = 4  # hands already on each scoreboard before the run, so reads render a real sheet


def _setting(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    try:
        return int(raw) if raw.strip() else default
    except ValueError:
        sys.exit(f"{name} must be a whole number, not {raw!r}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _configure(workdir: Path) -> None:
    """Production mode, plain HTTP on loopback (no proxy, so no redirect to HTTPS)."""
    database = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "casino_site.settings",
            "DJANGO_DEBUG": "False",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "False",
            "DJANGO_STATIC_ROOT": str(workdir / "static"),
            "DATABASE_URL": database,
        }
    )


def _seed(connections: int, per_connection: int) -> dict[str, Any]:
    """A user logged in (session cookie), a CSRF secret, and each connection's matches."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections as db_connections
    from django.test import Client
    from django.utils.crypto import get_random_string

    from scoring import rules, services

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    user = get_user_model().objects.create_user(
        username=f"bench-{secrets.token_hex(4)}", password=secrets.token_urlsafe(16)
    )
    ana = services.player_create(circle=user.personal_circle, name="Ana")
    ben = services.player_create(circle=user.personal_circle, name="Ben")
    seven = rules.Tally.make(cards=27, spades=7, big_casino=True, aces="S")
    four = rules.Tally.make(cards=25, spades=6, little_casino=True, aces="CHD")
    groups = []
    for _ in range(connections):
        group = []
        for _ in range(per_connection):
            match = services.match_start(
                circle=user.personal_circle,
                rules=rules.Rules.make("casino", target=999),
                sides=[[ana], [ben]],
            )
            for number in range(1, PRE_HANDS + 1):
                tallies = (seven, four) if number % 2 else (four, seven)
                services.hand_record(match=match, number=number, tallies=tallies)
            group.append(f"{match.pk}:{PRE_HANDS + 1}")
        groups.append(",".join(group))
    client = Client()
    client.force_login(user)
    seeded = {
        "user_id": user.pk,
        "session": client.cookies["sessionid"].value,
        # Django accepts the unmasked secret as the token, as long as it matches the cookie.
        "csrf": get_random_string(32),
        "groups": ";".join(groups),
    }
    db_connections.close_all()
    return seeded


def _count_hands(user_id: int) -> int:
    from scoring.models import Hand

    return Hand.objects.filter(match__circle__personal_for_id=user_id).count()


def start_gunicorn(workdir: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    """gunicorn in production mode on loopback (scripts/gunicorn.conf.py), its log in workdir."""
    log = (workdir / "gunicorn.log").open("wb")
    return subprocess.Popen(
        [
            *(str(Path(sys.executable).parent / "gunicorn"), "casino_site.wsgi"),
            *("--config", str(SCRIPTS / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}"),
            *("--workers", str(workers), "--access-logfile", "/dev/null"),
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def _wait_until_up(url: str, server: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit("gunicorn stopped before it answered; its log is above")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.2)
    sys.exit(f"gunicorn did not answer {url} within {seconds:.0f} s")


def _warm_up(base: str, seeded: dict[str, Any], workers: int) -> None:
    """Load every worker's code and templates before the clock starts (reads only)."""
    first = seeded["groups"].split(";")[0].split(",")[0].split(":")[0]
    request = urllib.request.Request(
        f"{base}/matches/{first}/", headers={"Cookie": f"sessionid={seeded['session']}"}
    )
    for _ in range(workers * 4):
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()


def _reads(url: str, session: str, connections: int, seconds: int) -> float | None:
    """Requests/s of plain GETs of one page by a signed-in user; None if any failed."""
    run = subprocess.run(
        [
            *("wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s"),
            *("-H", f"Cookie: sessionid={session}", url),
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=False,
    )
    rate = [line.split()[-1] for line in run.stdout.splitlines() if "Requests/sec" in line]
    failed = "Non-2xx" in run.stdout or "Socket errors" in run.stdout
    if run.returncode != 0 or not rate or failed:
        print(run.stdout, run.stderr, sep="\n")
        return None
    return float(rate[0])


def _reads_side_by_side(base: str, seeded: dict[str, Any], connections: int, seconds: int) -> bool:
    """The scoreboard against the signed-in home page (the floor), in alternating rounds of
    2 s each, so that a change in the machine's load weighs on both alike."""
    first = seeded["groups"].split(";")[0].split(",")[0].split(":")[0]
    homes, boards = [], []
    for _ in range(max(1, seconds // 2)):
        home = _reads(f"{base}/", seeded["session"], connections, 2)
        board = _reads(f"{base}/matches/{first}/", seeded["session"], connections, 2)
        if home is None or board is None:
            return False
        homes.append(home)
        boards.append(board)
    home, board = sum(homes) / len(homes), sum(boards) / len(boards)
    print(
        f"reads alone, {len(homes)} alternating rounds of 2 s: signed-in home page {home:.0f} "
        f"requests/s, scoreboard {board:.0f} requests/s = {board / home:.0%} of the home page "
        "(goal >= 50%)"
    )
    return True


def main() -> int:
    duration = _setting("BENCH_DURATION", 20)
    connections = _setting("BENCH_CONNECTIONS", 8)
    workers = _setting("BENCH_WORKERS", 4)
    write_every = _setting("BENCH_WRITE_EVERY", 5)
    per_connection = _setting("BENCH_MATCHES", 25)
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install -y wrk (make bench-load does it as root)")
    workdir = Path(tempfile.mkdtemp(prefix="casino-bench-"))
    server: subprocess.Popen[bytes] | None = None
    try:
        _configure(workdir)
        sys.path.insert(0, str(ROOT))
        started = time.monotonic()
        seeded = _seed(connections, per_connection)
        print(
            f"seeded {connections * per_connection} matches with {PRE_HANDS} hands each "
            f"in {time.monotonic() - started:.1f} s on {os.environ['DATABASE_URL'].split(':')[0]}"
        )
        before = _count_hands(seeded["user_id"])
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_gunicorn(workdir, port, workers)
        _wait_until_up(f"{base}/", server)
        _warm_up(base, seeded, workers)
        if not _reads_side_by_side(base, seeded, connections, _setting("BENCH_READ_DURATION", 10)):
            return 1
        print(
            f"wrk: {duration} s, {connections} connections, {workers} gunicorn workers, "
            f"one request in {write_every} records a hand"
        )
        wrk = subprocess.run(
            [
                "wrk",
                f"-t{connections}",
                f"-c{connections}",
                f"-d{duration}s",
                "--timeout",
                "10s",
                "-s",
                str(SCRIPTS / "bench_load.lua"),
                f"{base}/",
                "--",
                seeded["session"],
                seeded["csrf"],
                str(write_every),
                seeded["groups"],
            ],
            capture_output=True,
            text=True,
            timeout=duration + 60,
            check=False,
        )
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        server = None
        lines = [line for line in wrk.stdout.splitlines() if line.startswith("BENCH ")]
        if wrk.returncode != 0 or not lines:
            print(wrk.stdout, wrk.stderr, sep="\n")
            return 1
        result = json.loads(lines[-1].removeprefix("BENCH "))
        result["connections"] = connections
        stored = _count_hands(seeded["user_id"]) - before
        return _report(result, stored, workdir)
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)


def _report(result: dict[str, Any], stored: int, workdir: Path) -> int:
    seconds = result["duration_us"] / 1e6
    # A response with a bad status is also a "wrong page" (the Lua script sees every response).
    transport = sum(result[key] for key in ("connect", "read", "write", "timeout"))
    # wrk stops with up to one request per connection in flight: such a hand may be stored
    # without its answer being counted. An acknowledged hand that is not stored is an error.
    mismatch = not 0 <= stored - result["writes_ok"] <= result["connections"]
    errors = transport + result["app_errors"] + (1 if mismatch else 0)
    print(
        f"requests: {result['requests']} in {seconds:.1f} s = {result['requests'] / seconds:.0f} "
        f"requests/s ({result['reads_ok']} scoreboard reads, {result['writes_ok']} hands recorded)"
    )
    print(
        f"latency: p50 {result['p50_us'] / 1000:.1f} ms, p90 {result['p90_us'] / 1000:.1f} ms, "
        f"p99 {result['p99_us'] / 1000:.1f} ms, max {result['max_us'] / 1000:.1f} ms"
    )
    print(
        f"errors: {errors} (connect {result['connect']}, read {result['read']}, write "
        f"{result['write']}, HTTP status {result['status']}, timeout {result['timeout']}, "
        f"wrong page {result['app_errors']}; hands in the database {stored}, "
        f"acknowledged {result['writes_ok']})"
    )
    if errors:
        log = workdir / "gunicorn.log"
        if log.exists():
            print(log.read_text()[-5000:])
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
