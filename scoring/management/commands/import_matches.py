"""`manage.py import_matches FILE (--owner USERNAME | --circle ID)`: create the matches of a match document."""

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext, ngettext

from scoring.management.inputs import add_circle_arguments, circle_option, read_text
from scoring.sharing import exchange


class Command(BaseCommand):
    help = (
        "Import a casino-score/1 document (one match or a list) into a circle: all or nothing. "
        "`result` in the file is ignored and worked out again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the match document, or - for standard input")
        add_circle_arguments(parser, what="into the matches")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        circle = circle_option(self, options["owner"], options["circle"])
        if circle is None:
            self.stderr.write(
                gettext("Say whose matches these are: --owner USERNAME or --circle ID.")
            )
            sys.exit(2)
        text = read_text(self, path)
        try:
            result = exchange.matches_import(circle=circle, text=text, translate=gettext)
        except exchange.ImportRefused as refused:
            self.stderr.write(gettext("Nothing was imported:"))
            for message in refused.messages:
                self.stderr.write(message)
            sys.exit(2)
        matches, players = len(result.matches), result.players_created
        imported = ngettext(
            "%(count)d match imported for %(name)s.",
            "%(count)d matches imported for %(name)s.",
            matches,
        ) % {"count": matches, "name": circle.name}
        added = ngettext("%(count)d new player.", "%(count)d new players.", players) % {
            "count": players
        }
        self.stdout.write(f"{imported} {added}")
