"""Count the player statistics of the matches already stored (scoring/stats.py keeps them after)."""

from django.db import migrations


def fill(apps, schema_editor):
    # A database without matches (a new one) has nothing to count, and must not run today's
    # code against the tables of a later version.
    if not apps.get_model("scoring", "Match").objects.exists():
        return
    from scoring import stats

    stats.player_summaries_rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_player_statistics"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
