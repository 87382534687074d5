"""The benchmark commands still run (they are not part of the suite's timing, only of `make`)."""

import io
import re

import pytest
from django.core.management import call_command


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_bench_match_runs_on_a_small_match_and_history():
    out = io.StringIO()
    call_command("bench_match", "--hands", "12", "--repeat", "1", "--history", "6", stdout=out)
    text = out.getvalue()
    assert re.search(r"scoreboard GET at \d+ hands: [\d.]+ ms", text)
    assert "first load of a version" in text
    queries = re.search(r"one save \(htmx, 2 players, hand ~5\): (\d+) queries", text)
    assert queries and 5 <= int(queries.group(1)) <= 20, text
    assert "6 finished matches of history seeded" in text
    assert "edit a hand of the latest finished match" in text
