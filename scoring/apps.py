from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Casino scoring")

    def ready(self) -> None:
        # Registers the deployment checks of the proxy settings (manage.py check --deploy).
        from casino_site import checks  # noqa: F401
