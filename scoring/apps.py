from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Casino scoring")

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save

        # Registers the deployment checks of the proxy settings (manage.py check --deploy).
        from casino_site import checks  # noqa: F401

        post_save.connect(
            _personal_circle, sender=settings.AUTH_USER_MODEL, dispatch_uid="personal-circle"
        )


def _personal_circle(sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any):
    """Every account has its personal circle from the start."""
    if created and not raw:
        from scoring.access import personal_circle

        personal_circle(instance)
