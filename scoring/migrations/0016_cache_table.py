"""The default cache's table (settings.CACHES): allauth counts its mail limits there, shared by
every app server. Made by `migrate` itself, so no deployment can forget `createcachetable`; a
later run of that command finds it and does nothing."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0015_member_removals")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
