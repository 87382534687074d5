"""The forms of circles: naming a circle, making an invite."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy, ngettext

from scoring.circles import invites
from scoring.models import Circle
from scoring.web.validators import readable_text


class CircleForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Circle name"),
        max_length=Circle._meta.get_field("name").max_length,
        strip=True,
        validators=[readable_text],
    )


MANY, ONCE = "many", "once"


class InviteForm(forms.Form):
    days = forms.TypedChoiceField(
        label=gettext_lazy("The link works for"),
        coerce=int,
        initial=invites.DEFAULT_DAYS,
        widget=forms.RadioSelect,
    )
    uses = forms.ChoiceField(
        label=gettext_lazy("Who can use it"),
        initial=MANY,
        widget=forms.RadioSelect,
        choices=[
            (MANY, gettext_lazy("Anyone who gets the link (for a group chat)")),
            (ONCE, gettext_lazy("One person only")),
        ],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        days_field = cast(forms.TypedChoiceField, self.fields["days"])
        days_field.choices = [
            (days, ngettext("%(count)d day", "%(count)d days", days) % {"count": days})
            for days in invites.DAYS_CHOICES
        ]

    @property
    def max_uses(self) -> int | None:
        return 1 if self.cleaned_data["uses"] == ONCE else None
