"""Live tables benchmark (`make bench-live`): how many open scoreboards one server keeps polling.

gunicorn in production mode on 127.0.0.1 (as `make bench-load`), a fresh database (SQLite in a
temporary folder, or BENCH_DATABASE_URL), a club circle of BENCH_MEMBERS accounts with
BENCH_BOARDS open matches; then wrk, with BENCH_CONNECTIONS connections:

1. idle boards polling (GET <board>?since=<version> with HX-Request and a member's session,
   answered 204) against /healthz (one query, no session), in alternating rounds of 2 s, so that
   the machine's load weighs on both alike: polls/s, the share of /healthz's rate, and the live
   tables that rate holds at 3 phones per table polling every 4 s;
2. one poll at a time against one /healthz at a time (one connection): milliseconds each;
3. the same boards with their phones also saving a hand every 2 minutes (one request in 90 is a
   save: 3 phones polling every 4 s make 90 polls in 2 minutes): requests/s, p50/p99, errors.

Exits 1 when any request failed (every poll must be a 204 and every save the saved note).
Settings (environment variables, all optional): BENCH_BOARDS (300), BENCH_MEMBERS (10),
BENCH_CONNECTIONS (8), BENCH_WORKERS (4), BENCH_ROUNDS (5), BENCH_DURATION (mixed run, 10 s),
BENCH_DATABASE_URL.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import bench_load
from bench_load import ROOT, SCRIPTS, _free_port, _setting, _wait_until_up, start_gunicorn

POLL_EVERY_S = 4  # an open board's poll (templates/scoring/match_detail.html)
PHONES = 3  # phones open on one table's board
SAVE_EVERY_S = 120  # a table saves a hand every 2 minutes
PRE_HANDS = 2


def _seed(boards: int, members: int, workdir: Path) -> dict[str, Any]:
    """A club circle, its members logged in, its open matches; the boards' file for wrk."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client
    from django.utils.crypto import get_random_string

    from scoring import rules, services, watch
    from scoring.models import Circle, Membership

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    tag = secrets.token_hex(4)
    club = Circle.objects.create(name=f"Bench club {tag}")
    accounts = []
    for number in range(members):
        user = get_user_model().objects.create_user(
            username=f"bench-{tag}-{number}", password=secrets.token_urlsafe(16)
        )
        Membership.objects.create(circle=club, user=user, role="admin")
        client = Client()
        client.force_login(user)
        accounts.append((user, client.cookies["sessionid"].value))
    seven = rules.Tally.make(cards=27, spades=7, big_casino=True, aces="S")
    four = rules.Tally.make(cards=25, spades=6, little_casino=True, aces="CHD")
    lines = []
    for index in range(boards):
        # Each table its own players, as at a club night (their statistics are their own rows).
        ana, ben = (services.player_create(circle=club, name=f"{name} {index}") for name in "AB")
        match = services.match_start(
            circle=club, rules=rules.Rules.make("casino", target=999), sides=[[ana], [ben]]
        )
        for number in range(1, PRE_HANDS + 1):
            tallies = (seven, four) if number % 2 else (four, seven)
            services.hand_record(match=match, number=number, tallies=tallies)
        match.refresh_from_db()
        user, session = accounts[index % members]
        path = match.get_absolute_url()
        prefix = f"{path}?watch={watch.token_for(user.pk, match.pk, session)}&since="
        lines.append(f"{path} {prefix} {session} {match.version} {PRE_HANDS + 1}")
    (workdir / "boards.txt").write_text("\n".join(lines) + "\n")
    connections.close_all()
    return {"club": club.pk, "csrf": get_random_string(32), "file": str(workdir / "boards.txt")}


def _wrk(url: str, connections: int, seconds: int, *args: str) -> dict[str, Any] | None:
    """One wrk run: with `args`, scripts/bench_live.lua's numbers; without, /healthz's."""
    command = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s"]
    if args:
        command += ["-s", str(SCRIPTS / "bench_live.lua"), url, "--", *args, str(connections)]
    else:
        command += ["--latency", url]
    run = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
    if args:
        lines = [line for line in run.stdout.splitlines() if line.startswith("BENCH ")]
        if run.returncode != 0 or not lines:
            print(run.stdout, run.stderr, sep="\n")
            return None
        result = json.loads(lines[-1].removeprefix("BENCH "))
        result["rate"] = result["requests"] / (result["duration_us"] / 1e6)
        if result["transport"] or result["app_errors"]:
            print(f"errors: {result}")
            print("\n".join(line for line in run.stdout.splitlines() if line.startswith("FIRST")))
            return None
        return result
    rate = [line.split()[-1] for line in run.stdout.splitlines() if "Requests/sec" in line]
    if run.returncode != 0 or not rate or "Non-2xx" in run.stdout or "Socket errors" in run.stdout:
        print(run.stdout, run.stderr, sep="\n")
        return None
    return {"rate": float(rate[0])}


def _measure(base: str, seeded: dict[str, Any], connections: int) -> int:
    polls_args = (seeded["file"], "0", seeded["csrf"])
    health, polls, p99s = [], [], []
    rounds = _setting("BENCH_ROUNDS", 5)
    for _ in range(rounds):
        floor = _wrk(f"{base}/healthz", connections, 2)
        polled = _wrk(base, connections, 2, *polls_args)
        if floor is None or polled is None:
            return 1
        health.append(floor["rate"])
        polls.append(polled["rate"])
        p99s.append(polled["p99_us"] / 1000)
    floor_rate, poll_rate = sum(health) / rounds, sum(polls) / rounds
    tables = poll_rate * POLL_EVERY_S / PHONES
    print(
        f"idle boards polling, {rounds} alternating rounds of 2 s, {connections} connections: "
        f"/healthz {floor_rate:.0f}/s, polls {poll_rate:.0f}/s = {poll_rate / floor_rate:.0%} of "
        f"/healthz (goal >= 60%) = {tables:.0f} live tables at {PHONES} phones polling every "
        f"{POLL_EVERY_S} s (goal >= 1000); a poll's p99 {max(p99s):.1f} ms at worst"
    )
    single_floor = _wrk(f"{base}/healthz", 1, 3)
    single_poll = _wrk(base, 1, 3, *polls_args)
    if single_floor is None or single_poll is None:
        return 1
    floor_ms, poll_ms = 1000 / single_floor["rate"], 1000 / single_poll["rate"]
    print(
        f"one at a time: a poll {poll_ms:.2f} ms, /healthz {floor_ms:.2f} ms = "
        f"{poll_ms / floor_ms:.2f}x (goal <= 1.5x)"
    )
    every = round(SAVE_EVERY_S / POLL_EVERY_S * PHONES)
    duration = _setting("BENCH_DURATION", 10)
    mixed = _wrk(base, connections, duration, seeded["file"], str(every), seeded["csrf"])
    if mixed is None:
        return 1
    print(
        f"polls with a save every {SAVE_EVERY_S} s per table (1 request in {every}), "
        f"{duration} s: {mixed['rate']:.0f} requests/s ({mixed['polls_ok']} polls, "
        f"{mixed['writes_ok']} hands saved), p50 {mixed['p50_us'] / 1000:.1f} ms, "
        f"p99 {mixed['p99_us'] / 1000:.1f} ms, max {mixed['max_us'] / 1000:.1f} ms, errors 0 = "
        f"{mixed['rate'] * POLL_EVERY_S / PHONES:.0f} live tables"
    )
    return 0


def main() -> int:
    connections = _setting("BENCH_CONNECTIONS", 8)
    workers = _setting("BENCH_WORKERS", 4)
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install -y wrk (make bench-live does it as root)")
    workdir = Path(tempfile.mkdtemp(prefix="casino-bench-live-"))
    server: subprocess.Popen[bytes] | None = None
    try:
        bench_load._configure(workdir)
        sys.path.insert(0, str(ROOT))
        started = time.monotonic()
        boards = _setting("BENCH_BOARDS", 300)
        seeded = _seed(boards, _setting("BENCH_MEMBERS", 10), workdir)
        print(
            f"seeded {boards} open boards in {time.monotonic() - started:.1f} s on "
            f"{os.environ['DATABASE_URL'].split(':')[0]}; gunicorn with {workers} workers"
        )
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_gunicorn(workdir, port, workers)
        _wait_until_up(f"{base}/healthz", server)
        # Every worker's code loaded before the clock starts.
        _wrk(base, connections, 1, seeded["file"], "0", seeded["csrf"])
        status = _measure(base, seeded, connections)
        if status:
            print((workdir / "gunicorn.log").read_text()[-3000:])
        return status
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
