"""`manage.py score FILE|-`: score a match document without touching the database.

The file is parsed once, every match is read, checked and scored once, keeping only the scores,
and only when the whole file is good is the output written, match by match (nothing on stdout
for a refused file). The output is JSON on one line unless `--indent` asks for more.
"""

import sys
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext

from scoring.engine import matchdoc, rules
from scoring.management.inputs import read_text

MAX_INDENT = 8


class Command(BaseCommand):
    help = "Score a match JSON document (casino-score/1) and print it with `result` filled in."
    # Nothing here uses the database or the URLs: no system checks (they load the URLconf).
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the match document, or - for standard input")
        parser.add_argument(
            "--indent",
            type=int,
            choices=range(MAX_INDENT + 1),
            metavar="N",
            help="pretty-print with N spaces per level (default: JSON on one line)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            # The text is let go as soon as it is parsed.
            raw = matchdoc.parse_json(read_text(self, options["file"]))
            scores, is_list = matchdoc.score_documents(raw)
        except matchdoc.DocumentError as error:
            for problem in error.problems:
                self.stderr.write(problem.describe(gettext))
            sys.exit(2)
        # The document comes back as it was given, with `result` (the only part that is not
        # checked, so the only part that could hold anything) replaced.
        originals = raw if is_list else [raw]
        del raw
        for original in originals:
            if "result" in original:
                original["result"] = None  # an old result is not kept while writing
        for chunk in matchdoc.json_chunks(
            _with_results(originals, scores), as_list=is_list, indent=options["indent"]
        ):
            self.stdout.write(chunk, ending="")


def _with_results(originals: list[Any], scores: list[rules.MatchScore]) -> Iterator[Any]:
    """Each document with its `result`, in order, letting go of each once it is written."""
    originals.reverse()
    scores.reverse()
    while originals:
        original = originals.pop()
        # The document was checked: its rules.variant is one of the format's.
        variant = original["rules"]["variant"]
        original["result"] = matchdoc.result_json(scores.pop(), variant)
        yield original
