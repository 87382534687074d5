"""`manage.py stats_rebuild [--owner USERNAME]`: count the player statistics again from the matches.

The statistics are kept up to date as matches change (scoring/stats.py); this starts over, after
matches were changed or deleted some other way (the admin, the database directly).
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import ngettext

from scoring import stats
from scoring.management.inputs import owner_option
from scoring.models import Match


class Command(BaseCommand):
    help = "Count the player statistics (player and head-to-head pages) again from the matches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--owner", metavar="USERNAME", help="only this user's players")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = owner_option(self, options["owner"])
        stats.player_summaries_rebuild(owner)
        matches = Match.objects.filter(owner=owner) if owner else Match.objects.all()
        count = matches.count()
        self.stdout.write(
            ngettext(
                "Statistics counted again from %(count)d match.",
                "Statistics counted again from %(count)d matches.",
                count,
            )
            % {"count": count}
        )
