"""`manage.py bench_files` (`make bench-files`): the file commands on big files, against goals.

1. `score` against a naive reference scorer on the same file of random hands, in the same run:
   the reference is what a person would write with the engine alone (`json.load`, build the
   tallies, `rules.score_match` for each match, `json.dump(..., indent=2)`), with no checking.
   Both run as fresh processes (interpreter start included; `score` also pays Django's start),
   writing to a file, alternately, several times; the ratio is of the medians.
2. `score`'s peak memory (maximum resident set size of its process) on a bigger file.
3. `export_matches`' peak memory, and the web export's (a process that downloads "export all"
   through Django's test client), on a throwaway SQLite database seeded by `seed_demo`.

Everything generated goes to a temporary directory that is removed at the end. Numbers only:
the goals are printed next to them, nothing fails.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from scoring.engine import rules
from scoring.management.commands.bench_rules import deal_hand

GOAL_RATIO = 0.6  # score's time / the reference's
GOAL_SCORE_MB = 250  # score, 50,000 hands
GOAL_EXPORT_MB = 100  # export_matches, 10,000 matches

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Émile", "Zoë")
LAYOUTS = ((2, 1),) * 12 + ((3, 1),) * 3 + ((4, 1),) * 2 + ((2, 2),) * 3  # (sides, per side)
VARIANTS = ("casino",) * 5 + ("royal",) * 3 + ("dominican",) * 2

# The straightforward way to score the file with the engine: nothing checked, pretty-printed.
REFERENCE = """\
import json
import sys

from scoring import rules
from scoring.engine.rules import Rules, Tally


def result(score):
    return {
        "hands": [
            {
                "points": list(hand.points),
                "breakdown": [b._asdict() for b in hand.breakdown],
                "totals": list(hand.totals),
            }
            for hand in score.hands
        ],
        "totals": list(score.totals),
        "status": str(score.status),
        "winner": score.winner,
    }


with open(sys.argv[1], encoding="utf-8") as handle:
    data = json.load(handle)
for match in data if isinstance(data, list) else [data]:
    hands = [tuple(Tally.make(**t) for t in hand["tallies"]) for hand in match["hands"]]
    start = match.get("start_totals") or [0] * len(match["sides"])
    match["result"] = result(rules.score_match(Rules.make(**match["rules"]), hands, start))
json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
"""

# Downloads the web export of every match of one user, as a browser would, chunk by chunk.
WEB_EXPORT = """\
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_site.settings")
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

client = Client(HTTP_HOST="localhost")
client.force_login(get_user_model().objects.get(username=sys.argv[1]))
response = client.get(reverse("scoring:export-all"))
assert response.status_code == 200, response.status_code
with open(sys.argv[2], "wb") as out:
    if response.streaming:
        for chunk in response.streaming_content:
            out.write(chunk)
    else:
        out.write(response.content)
"""


def random_matches(rng: random.Random, hands: int) -> list[dict[str, Any]]:
    """Match documents holding `hands` random valid hands in all, most played until won."""
    matches: list[dict[str, Any]] = []
    dealt = 0
    while dealt < hands:
        side_count, per_side = rng.choice(LAYOUTS)
        variant = rng.choice(VARIANTS)
        options: dict[str, Any] = {"variant": variant}
        if rng.random() < 0.3:
            options["target"] = rng.choice((11, 15, 31))
        if side_count == 2 and per_side == 1 and variant != "royal" and rng.random() < 0.1:
            options["scoring"] = "difference"
        match_rules = rules.Rules.make(**options)
        names = rng.sample(NAMES, side_count * per_side)
        stop_after = rng.randint(1, 6) if rng.random() < 0.05 else None  # left unfinished
        totals: tuple[int, ...] = (0,) * side_count
        tied = False
        played: list[dict[str, Any]] = []
        while dealt < hands and len(played) != stop_after:
            tallies = deal_hand(rng, side_count)
            played.append({"tallies": [t._asdict() for t in tallies]})
            dealt += 1
            scored = rules.score_hand(match_rules, tallies, totals, tied_before=tied)
            totals, tied = scored.totals, scored.status is rules.Status.TIED
            if scored.status is rules.Status.WON:
                break
        matches.append(
            {
                "format": "casino-score/1",
                "rules": options,
                "sides": [{"players": names[side::side_count]} for side in range(side_count)],
                "first_dealer": rng.randrange(side_count * per_side),
                "start_totals": [0] * side_count,
                "hands": played,
            }
        )
    return matches


def write_matches(path: Path, hands: int, seed: int) -> int:
    """Write a file of random matches (JSON on one line); return its size."""
    matches = random_matches(random.Random(seed), hands)
    with path.open("w", encoding="utf-8") as handle:
        json.dump(matches, handle, ensure_ascii=False)
    return path.stat().st_size


# Runs a command and writes its peak memory to a file. The measured process is started from this
# small launcher, not from the benchmark: a process's maximum resident set size counts the memory
# of the process it was forked from (the benchmark, holding its generated matches) until its exec.
LAUNCHER = """\
import resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code)
"""


def run(args: list[str], *, out: Path, env: dict[str, str] | None = None) -> float:
    """Run a process with its output to `out`; return how long it took, in seconds."""
    with out.open("wb") as stdout, tempfile.TemporaryFile() as stderr:
        began = time.perf_counter()
        process = subprocess.run(args, stdout=stdout, stderr=stderr, cwd=settings.BASE_DIR, env=env)
        elapsed = time.perf_counter() - began
        if process.returncode != 0:
            stderr.seek(0)
            message = stderr.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"{' '.join(args)} exited {process.returncode}:\n{message}")
    return elapsed


def run_measured(
    args: list[str], *, out: Path, env: dict[str, str] | None = None
) -> tuple[float, float]:
    """`run`, through the launcher: (seconds, peak memory of the process in MB)."""
    peak = out.with_suffix(".peak")
    elapsed = run([sys.executable, "-c", LAUNCHER, str(peak), *args], out=out, env=env)
    return elapsed, int(peak.read_text()) / 1024  # kB on Linux


def verdict(good: bool) -> str:
    return "meets the goal" if good else "MISSES the goal"


class Command(BaseCommand):
    help = "Time and measure `score` and `export_matches` on big files, against their goals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=20_000, help="hands in the timed file")
        parser.add_argument("--repeat", type=int, default=5, help="timed runs of each")
        parser.add_argument(
            "--memory-hands", type=int, default=50_000, help="hands in the memory file"
        )
        parser.add_argument(
            "--export-matches", type=int, default=10_000, help="matches seeded for the export"
        )
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--no-export", action="store_true", help="skip the export part")

    def handle(self, *args: Any, **options: Any) -> None:
        with tempfile.TemporaryDirectory(prefix="bench-files-") as tmp:
            work = Path(tmp)
            ratio = self.bench_score_time(work, options)
            score_mb = self.bench_score_memory(work, options)
            export_mb = web_mb = None
            if not options["no_export"]:
                export_mb, web_mb = self.bench_export_memory(work, options)
        self.stdout.write("")
        self.stdout.write(
            f"score / reference time: {ratio:.2f} (goal <= {GOAL_RATIO}): "
            f"{verdict(ratio <= GOAL_RATIO)}"
        )
        self.stdout.write(
            f"score peak memory, {options['memory_hands']:,} hands: {score_mb:.0f} MB "
            f"(goal <= {GOAL_SCORE_MB} MB): {verdict(score_mb <= GOAL_SCORE_MB)}"
        )
        if export_mb is not None and web_mb is not None:
            matches = options["export_matches"]
            self.stdout.write(
                f"export_matches peak memory, {matches:,} matches: {export_mb:.0f} MB "
                f"(goal <= {GOAL_EXPORT_MB} MB): {verdict(export_mb <= GOAL_EXPORT_MB)}"
            )
            self.stdout.write(
                f"web export peak memory, {matches:,} matches: {web_mb:.0f} MB "
                f"(goal <= {GOAL_EXPORT_MB} MB): {verdict(web_mb <= GOAL_EXPORT_MB)}"
            )

    def bench_score_time(self, work: Path, options: dict[str, Any]) -> float:
        source = work / "hands.json"
        size = write_matches(source, options["hands"], options["seed"])
        reference = work / "reference.py"
        reference.write_text(REFERENCE, encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(settings.BASE_DIR)}
        commands = {
            "reference": [sys.executable, str(reference), str(source)],
            "score": [sys.executable, "manage.py", "score", str(source)],
        }
        self.stdout.write(
            f"score vs reference on {options['hands']:,} random hands ({size / 1e6:.1f} MB), "
            f"each a fresh process writing to a file, {options['repeat']} runs each:"
        )
        times: dict[str, list[float]] = {name: [] for name in commands}
        for repeat in range(max(options["repeat"], 1)):
            order = list(commands) if repeat % 2 == 0 else list(reversed(commands))
            for name in order:
                elapsed = run(commands[name], out=work / f"{name}.out", env=env)
                times[name].append(elapsed)
        same = json.loads((work / "score.out").read_text(encoding="utf-8")) == json.loads(
            (work / "reference.out").read_text(encoding="utf-8")
        )
        for name, runs in times.items():
            shown = ", ".join(f"{t:.2f}" for t in runs)
            self.stdout.write(f"  {name:<9} median {statistics.median(runs):.2f} s ({shown})")
        self.stdout.write(f"  same JSON content: {'yes' if same else 'NO'}")
        if not same:
            self.stderr.write("score and the reference disagree: the ratio means nothing")
        return statistics.median(times["score"]) / statistics.median(times["reference"])

    def bench_score_memory(self, work: Path, options: dict[str, Any]) -> float:
        source = work / "memory.json"
        size = write_matches(source, options["memory_hands"], options["seed"] + 1)
        elapsed, peak = run_measured(
            [sys.executable, "manage.py", "score", str(source)], out=work / "memory.out"
        )
        self.stdout.write(
            f"score on {options['memory_hands']:,} hands ({size / 1e6:.1f} MB): "
            f"{elapsed:.2f} s, peak {peak:.0f} MB"
        )
        (work / "memory.out").unlink()
        return peak

    def bench_export_memory(self, work: Path, options: dict[str, Any]) -> tuple[float, float]:
        database = work / "export.sqlite3"
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
        manage = [sys.executable, "manage.py"]
        matches = options["export_matches"]
        began = time.perf_counter()
        run([*manage, "migrate", "--noinput", "-v0"], out=work / "migrate.out", env=env)
        run(
            [*manage, "seed_demo", "--matches", str(matches), "--owner", "bench"],
            out=work / "seed.out",
            env=env,
        )
        self.stdout.write(
            f"seeded {matches:,} matches into a throwaway SQLite database "
            f"in {time.perf_counter() - began:.0f} s"
        )
        command_file = work / "export.json"
        elapsed, command_mb = run_measured(
            [*manage, "export_matches", "--owner", "bench", "--output", str(command_file)],
            out=work / "export.out",
            env=env,
        )
        self.stdout.write(
            f"export_matches: {elapsed:.2f} s, {command_file.stat().st_size / 1e6:.1f} MB "
            f"written, peak {command_mb:.0f} MB"
        )
        script = work / "web_export.py"
        script.write_text(WEB_EXPORT, encoding="utf-8")
        web_file = work / "web.json"
        elapsed, web_mb = run_measured(
            [sys.executable, str(script), "bench", str(web_file)],
            out=work / "web.out",
            env={**env, "PYTHONPATH": str(settings.BASE_DIR)},
        )
        same = web_file.read_bytes() == command_file.read_bytes()
        self.stdout.write(
            f"web export: {elapsed:.2f} s, peak {web_mb:.0f} MB, "
            f"same bytes as export_matches: {'yes' if same else 'NO'}"
        )
        return command_mb, web_mb
