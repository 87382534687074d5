"""The match history's filters."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from scoring.models import Match, Player


class HistoryFilterForm(forms.Form):
    """Filters of the match history (GET)."""

    player = forms.ModelChoiceField(
        label=gettext_lazy("Player"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=gettext_lazy("Everyone"),
    )
    variant = forms.ChoiceField(
        label=gettext_lazy("Game"),
        choices=[("", gettext_lazy("All games")), *Match.Variant.choices],
        required=False,
    )
    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        choices=[("", gettext_lazy("Any status")), *Match.Status.choices],
        required=False,
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = players

    def filters(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"player": data["player"], "variant": data["variant"], "status": data["status"]}

    def query_without_page(self) -> str:
        """The filter part of the query string, for "load more" links."""
        if not self.is_bound:
            return ""
        query = cast(QueryDict, self.data).copy()
        query.pop("page", None)
        return query.urlencode()
