"""`manage.py purge_guests`: delete the guest accounts nobody kept (scoring/accounts/guests.py).

A guest account (made by "Start a match" without signing up) that was not turned into an
account of its own within CASINO_GUEST_DAYS days (30 unless set) goes, with its circle, matches
and players. Run it daily, like `clearsessions` (docs/DEPLOY.md).
"""

from typing import Any

from django.core.management.base import BaseCommand
from django.utils.translation import ngettext

from scoring.accounts import guests


class Command(BaseCommand):
    help = "Delete guest accounts older than CASINO_GUEST_DAYS days, with what only they held."

    def handle(self, *args: Any, **options: Any) -> None:
        purged = guests.guests_purge()
        self.stdout.write(
            ngettext(
                "%(count)d guest account deleted.", "%(count)d guest accounts deleted.", purged
            )
            % {"count": purged}
        )
