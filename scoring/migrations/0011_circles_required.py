"""Players and matches belong to a circle now, not to an account: the owner columns go (made
nullable by 0009, so that going back can fill them again), the circle is required, and the
indexes and the unique player name follow the circle."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill_statistics(apps, schema_editor):
    """Count the player statistics if they were never counted (a database from before 0008:
    the count runs today's code, which needs today's tables)."""
    if apps.get_model("scoring", "PlayerMatchStat").objects.exists():
        return
    if not apps.get_model("scoring", "Match").objects.exists():
        return
    from scoring.matches import stats

    stats.player_summaries_rebuild()


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0010_personal_circles'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='player',
            name='player_name_unique_per_owner',
        ),
        migrations.RemoveIndex(
            model_name='match',
            name='scoring_mat_owner_i_a99de7_idx',
        ),
        migrations.RemoveIndex(
            model_name='match',
            name='scoring_mat_owner_i_6f1fd1_idx',
        ),
        migrations.RemoveIndex(
            model_name='match',
            name='match_status_newest',
        ),
        migrations.RemoveField(
            model_name='match',
            name='owner',
        ),
        migrations.RemoveField(
            model_name='player',
            name='owner',
        ),
        migrations.AlterField(
            model_name='match',
            name='circle',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='matches', to='scoring.circle'),
        ),
        migrations.AlterField(
            model_name='player',
            name='circle',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players', to='scoring.circle'),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(fields=['circle', '-created_at'], name='match_circle_newest'),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(fields=['circle', 'status', 'finished_at'], name='match_circle_finished'),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(fields=['circle', 'status', '-created_at'], name='match_status_newest'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('circle', 'name_key'), name='player_name_unique_per_circle'),
        ),
        migrations.RunPython(fill_statistics, migrations.RunPython.noop),
    ]
