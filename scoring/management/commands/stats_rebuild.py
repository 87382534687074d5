"""`manage.py stats_rebuild [--owner USERNAME | --circle ID]`: count the player statistics again from the matches.

The statistics are kept up to date as matches change (scoring/matches/stats.py); this starts over, after
matches were changed or deleted some other way (the admin, the database directly).
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import ngettext

from scoring.management.inputs import add_circle_arguments, circle_option
from scoring.matches import stats
from scoring.models import Match


class Command(BaseCommand):
    help = "Count the player statistics (player and head-to-head pages) again from the matches."

    def add_arguments(self, parser: CommandParser) -> None:
        add_circle_arguments(parser, what="only the players")

    def handle(self, *args: Any, **options: Any) -> None:
        circle = circle_option(self, options["owner"], options["circle"])
        stats.player_summaries_rebuild(circle)
        matches = Match.objects.filter(circle=circle) if circle else Match.objects.all()
        count = matches.count()
        self.stdout.write(
            ngettext(
                "Statistics counted again from %(count)d match.",
                "Statistics counted again from %(count)d matches.",
                count,
            )
            % {"count": count}
        )
