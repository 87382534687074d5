"""`manage.py export_matches [--owner USERNAME | --circle ID] [--output FILE]`: every match as a JSON list."""

import sys
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import ngettext

from scoring.engine.matchdoc import MatchDoc
from scoring.management.inputs import add_circle_arguments, circle_option
from scoring.sharing import exchange


class Command(BaseCommand):
    help = (
        "Write every match (or one circle's) as a JSON list of casino-score/1 documents, "
        "oldest first, with `result` filled in."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_circle_arguments(parser, what="only the matches")
        parser.add_argument("--output", metavar="FILE", help="write here instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        circle = circle_option(self, options["owner"], options["circle"])
        counted = _Counted(exchange.iter_match_documents(circle))
        # Written a match at a time: a history of any length takes the memory of one match.
        chunks = exchange.export_chunks(counted)
        if options["output"] is None:
            for chunk in chunks:
                self.stdout.write(chunk, ending="")
            return
        try:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.writelines(chunks)
        except OSError as error:
            self.stderr.write(f"{options['output']}: {error}")
            sys.exit(2)
        self.stderr.write(
            ngettext(
                "%(count)d match written to %(file)s.",
                "%(count)d matches written to %(file)s.",
                counted.count,
            )
            % {"count": counted.count, "file": options["output"]}
        )


class _Counted:
    """The documents of an iterator, counted as they go by."""

    def __init__(self, docs: Iterator[MatchDoc]) -> None:
        self.docs = docs
        self.count = 0

    def __iter__(self) -> Iterator[MatchDoc]:
        for doc in self.docs:
            self.count += 1
            yield doc
