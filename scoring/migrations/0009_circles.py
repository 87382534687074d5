"""Circles: the tables, and a circle column (empty for now) on players and matches."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _user_fk(related_name, verbose_name=None, on_delete=django.db.models.deletion.SET_NULL):
    options = {"verbose_name": verbose_name} if verbose_name else {}
    return models.ForeignKey(
        blank=True,
        null=True,
        on_delete=on_delete,
        related_name=related_name,
        to=settings.AUTH_USER_MODEL,
        **options,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_fill_player_statistics"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Circle",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=60, verbose_name="name")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                (
                    "personal_for",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="personal_circle",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="personal circle of",
                    ),
                ),
            ],
            options={
                "verbose_name": "circle",
                "verbose_name_plural": "circles",
                "ordering": ["name", "pk"],
            },
        ),
        migrations.AddField(
            model_name="player",
            name="circle",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="players",
                to="scoring.circle",
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="circle",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="matches",
                to="scoring.circle",
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="created_by",
            field=_user_fk("matches_started", "started by"),
        ),
        migrations.AddField(
            model_name="hand",
            name="entered_by",
            field=_user_fk("+", "entered by"),
        ),
        migrations.AddField(
            model_name="hand",
            name="changed_by",
            field=_user_fk("+", "last changed by"),
        ),
        migrations.AddField(
            model_name="hand",
            name="changed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="last changed"),
        ),
        migrations.CreateModel(
            name="Membership",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "role",
                    models.CharField(
                        choices=[("admin", "admin"), ("member", "member")],
                        default="member",
                        max_length=8,
                        verbose_name="role",
                    ),
                ),
                ("joined_at", models.DateTimeField(auto_now_add=True, verbose_name="joined")),
                (
                    "circle",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to="scoring.circle",
                    ),
                ),
                (
                    "player",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="membership",
                        to="scoring.player",
                        verbose_name="player",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "membership",
                "verbose_name_plural": "memberships",
                "ordering": ["circle", "joined_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("circle", "user"), name="membership_once_per_circle"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Invite",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("token", models.CharField(max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                ("expires_at", models.DateTimeField(verbose_name="expires")),
                (
                    "max_uses",
                    models.PositiveIntegerField(blank=True, null=True, verbose_name="uses allowed"),
                ),
                ("uses", models.PositiveIntegerField(default=0, verbose_name="times used")),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked")),
                (
                    "circle",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invites",
                        to="scoring.circle",
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "invite",
                "verbose_name_plural": "invites",
                "ordering": ["-created_at", "-pk"],
            },
        ),
        migrations.CreateModel(
            name="HandRevision",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tallies", models.JSONField()),
                ("at", models.DateTimeField()),
                ("replaced_at", models.DateTimeField(auto_now_add=True)),
                ("by", _user_fk("+")),
                ("replaced_by", _user_fk("+")),
                (
                    "hand",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="revisions",
                        to="scoring.hand",
                    ),
                ),
            ],
            options={
                "verbose_name": "hand revision",
                "verbose_name_plural": "hand revisions",
                "ordering": ["hand", "pk"],
            },
        ),
        # Nullable until they go (0011), so that going back can fill them again first.
        migrations.AlterField(
            model_name="match",
            name="owner",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="matches", to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name="player",
            name="owner",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="players", to=settings.AUTH_USER_MODEL),
        ),
    ]
