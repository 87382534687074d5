"""Every account gets its personal circle, as its admin; its players and matches move into it,
and the hands it recorded say so. Nothing is deleted, and every count stays the same."""

from django.conf import settings
from django.db import migrations


def to_circles(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Circle = apps.get_model("scoring", "Circle")
    Membership = apps.get_model("scoring", "Membership")
    Player = apps.get_model("scoring", "Player")
    Match = apps.get_model("scoring", "Match")
    Hand = apps.get_model("scoring", "Hand")
    for user in User.objects.order_by("pk").iterator():
        circle, _created = Circle.objects.get_or_create(
            personal_for=user, defaults={"name": user.username[:60]}
        )
        Membership.objects.get_or_create(circle=circle, user=user, defaults={"role": "admin"})
        Player.objects.filter(owner=user).update(circle=circle)
        Match.objects.filter(owner=user).update(circle=circle, created_by=user)
        Hand.objects.filter(match__owner=user).update(entered_by=user)


def to_owners(apps, schema_editor):
    """Back: each player and match to the account whose personal circle holds it (circles
    shared with others cannot be undone this way)."""
    Circle = apps.get_model("scoring", "Circle")
    Player = apps.get_model("scoring", "Player")
    Match = apps.get_model("scoring", "Match")
    for circle in Circle.objects.exclude(personal_for=None).iterator():
        Player.objects.filter(circle=circle).update(owner=circle.personal_for_id)
        Match.objects.filter(circle=circle).update(owner=circle.personal_for_id)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0009_circles"),
    ]

    operations = [
        migrations.RunPython(to_circles, to_owners),
    ]
