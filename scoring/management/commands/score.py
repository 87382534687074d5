"""`manage.py score FILE|-`: score a match document without touching the database."""

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext

from scoring import matchdoc
from scoring.management.inputs import read_text


class Command(BaseCommand):
    help = "Score a match JSON document (casino-score/1) and print it with `result` filled in."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the match document, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        text = read_text(self, path)
        try:
            raw = matchdoc.parse_json(text)
            docs, is_list = matchdoc.read_documents(raw)
        except matchdoc.DocumentError as error:
            for problem in error.problems:
                self.stderr.write(problem.describe(gettext))
            sys.exit(2)
        # The document comes back as it was given, with `result` (the only part that is not
        # checked, so the only part that could hold anything) replaced.
        originals = raw if is_list else [raw]
        for original, doc in zip(originals, docs, strict=True):
            original["result"] = matchdoc.result_json(matchdoc.score_doc(doc))
        output = originals if is_list else originals[0]
        self.stdout.write(json.dumps(output, indent=2, ensure_ascii=False))
