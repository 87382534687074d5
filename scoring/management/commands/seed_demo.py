"""`manage.py seed_demo --matches N --owner USERNAME`: a realistic random history."""

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from scoring.access import personal_circle
from scoring.matches import demo


class Command(BaseCommand):
    help = (
        "Add N random (valid) matches for USERNAME, written in bulk exactly as recording them "
        "hand by hand would store them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=50)
        parser.add_argument("--owner", required=True, help="username; created if missing")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        owner, created = user_model.objects.get_or_create(username=options["owner"])
        if created:
            owner.set_unusable_password()
            owner.save()
            self.stdout.write(f"Created user {owner.username} (set a password to log in).")
        began = time.perf_counter()
        demo.seed(personal_circle(owner), options["matches"], seed=options["seed"])
        self.stdout.write(
            f"Seeded {options['matches']} matches for {owner.username} "
            f"in {time.perf_counter() - began:.1f} s."
        )
