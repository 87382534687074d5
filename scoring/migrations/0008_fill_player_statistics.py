"""Formerly counted the player statistics of the matches already stored; see `fill`."""

from django.db import migrations


def fill(apps, schema_editor):
    """Nothing here any more: the count runs today's code, which needs today's tables, so it is
    done by the last migration that changes them (0011_circles_required), when not done yet."""


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_player_statistics"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
