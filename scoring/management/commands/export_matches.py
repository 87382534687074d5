"""`manage.py export_matches [--owner USERNAME] [--output FILE]`: every match as a JSON list."""

import json
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext, ngettext

from scoring import transfer


class Command(BaseCommand):
    help = (
        "Write every match (or one user's) as a JSON list of casino-score/1 documents, "
        "oldest first, with `result` filled in."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--owner", metavar="USERNAME", help="only this user's matches")
        parser.add_argument("--output", metavar="FILE", help="write here instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = None
        if options["owner"] is not None:
            owner = get_user_model().objects.filter(username=options["owner"]).first()
            if owner is None:
                self.stderr.write(
                    gettext("There is no user called %(name)s.") % {"name": options["owner"]}
                )
                sys.exit(2)
        documents = transfer.export_json(transfer.match_documents(owner))
        text = json.dumps(documents, indent=2, ensure_ascii=False) + "\n"
        if options["output"] is None:
            self.stdout.write(text, ending="")
            return
        try:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            self.stderr.write(f"{options['output']}: {error}")
            sys.exit(2)
        count = len(documents)
        self.stderr.write(
            ngettext(
                "%(count)d match written to %(file)s.",
                "%(count)d matches written to %(file)s.",
                count,
            )
            % {"count": count, "file": options["output"]}
        )
