"""The event's forms: setting one up (the game and its options as a match's), a player in or
out."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engine import rules
from scoring.events.fields import MAX_PLAYERS, MAX_ROUNDS, field_problem
from scoring.matches.forms import GameRulesForm
from scoring.models import Event, Player, name_key
from scoring.sharing.forms import ImportForm
from scoring.web.validators import NAME_VALIDATORS


def _new_names(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class EventForm(GameRulesForm):
    """A club night: name, date, game and options, format, who plays."""

    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=80,
        strip=True,
        validators=NAME_VALIDATORS[:1],
        initial=gettext_lazy("Club night"),
    )
    date = forms.DateField(
        label=gettext_lazy("Date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=Event.Format.choices,
        initial=Event.Format.SWISS,
        widget=forms.RadioSelect,
    )
    seeding = forms.ChoiceField(
        label=gettext_lazy("Swiss: round 1 paired"),
        choices=Event.Seeding.choices,
        initial=Event.Seeding.RATING,
        widget=forms.RadioSelect,
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"),
        help_text=gettext_lazy(
            "Empty: a round robin plays every round; Swiss, enough rounds to find a single "
            "winner (at least 3); partners, 3."
        ),
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
    )
    round_minutes = forms.IntegerField(
        label=gettext_lazy("Round time (minutes)"),
        help_text=gettext_lazy("Empty: no time limit."),
        min_value=5,
        max_value=600,
        required=False,
    )
    players = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Who plays"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    new_players = forms.CharField(
        label=gettext_lazy("New players (one name a line)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=MAX_PLAYERS * 61,
        required=False,
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelMultipleChoiceField, self.fields["players"]).queryset = players
        self.fields["date"].initial = timezone.localdate
        self._circle_players = players

    def clean_new_players(self) -> list[str]:
        names = _new_names(self.cleaned_data.get("new_players", ""))
        for name in names:
            for validator in NAME_VALIDATORS:
                validator(name)
            if len(name) > 60:
                raise forms.ValidationError(
                    _("A name has at most %(limit)d characters: %(name)s")
                    % {"limit": 60, "name": name[:60]}
                )
        return names

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        fmt = data.get("format")
        self._clean_game(data, fmt)
        self._clean_entrants(data)
        if fmt and not self.errors:
            self._clean_field(data, fmt)
        if not self.errors:
            data["rules"] = self._rules(data)
        return data

    def _clean_game(self, data: dict[str, Any], fmt: str | None) -> None:
        """The game's target and options, as a match's of the format's tables (two sides; two
        players a side for partners)."""
        per_side = 2 if fmt == Event.Format.PARTNERS else 1
        variant = data.get("variant") or Event.Variant.CASINO
        self._clean_options(data, variant, 2, per_side)
        target = data.get("target_value")
        self._clean_dominican(data, target or rules.variant_defaults(variant).target)

    def _clean_entrants(self, data: dict[str, Any]) -> None:
        """Who plays (`entrants`, and `new_names` to add to the circle): the players ticked,
        then each new name, a name the circle knows being its player; one listed twice is an
        error."""
        chosen: list[Player] = list(data.get("players") or [])
        known = {name_key(player.name): player for player in self._circle_players}
        seen = {player.pk for player in chosen}
        data["new_names"] = []
        for name in data.get("new_players") or []:
            player = known.get(name_key(name))
            if player is None:
                if name_key(name) in {name_key(other) for other in data["new_names"]}:
                    self.add_error("new_players", _("%(name)s is listed twice.") % {"name": name})
                data["new_names"].append(name)
                continue
            if player.pk in seen:
                self.add_error("new_players", _("%(name)s is listed twice.") % {"name": name})
            seen.add(player.pk)
            chosen.append(player)
        data["entrants"] = chosen

    def _clean_field(self, data: dict[str, Any], fmt: str) -> None:
        """Whether the field can play the format (and the rounds asked for): the new names
        count as players."""
        chosen = data["entrants"]
        count = len(chosen) + len(data["new_names"])
        ids = [player.pk for player in chosen] + [-n for n in range(1, len(data["new_names"]) + 1)]
        problem = field_problem(fmt, ids, data.get("rounds"))
        if problem is not None:
            self.add_error("players" if count else "new_players", problem)


class EntrantForm(forms.Form):
    """A late arrival: one of the circle's players, or a new name."""

    player = forms.ModelChoiceField(
        label=gettext_lazy("Player"), queryset=Player.objects.none(), required=False
    )
    name = forms.CharField(
        label=gettext_lazy("or a new player"),
        max_length=60,
        strip=True,
        validators=NAME_VALIDATORS,
        required=False,
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = players

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not data.get("name") and not self.errors:
            raise forms.ValidationError(_("Choose a player or type a new name."))
        return data


class LeaverForm(forms.Form):
    """A player who leaves the event: one of those still paired. Its ids are its own
    (id_leaver_player): the late arrival's form on the same page has a "player" field too."""

    player = forms.ModelChoiceField(
        label=gettext_lazy("Who leaves"), queryset=Player.objects.none()
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_leaver_%s")
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = players


class EventImportForm(ImportForm):
    file = forms.FileField(
        label=gettext_lazy("Event file (JSON)"),
        help_text=gettext_lazy("A file exported from an event's page. Up to 2 MB."),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )


class PaperResultForm(forms.Form):
    """A table's result from paper: each side's final total and which side won."""

    winner = forms.TypedChoiceField(
        label=gettext_lazy("Who won"), coerce=int, widget=forms.RadioSelect, choices=()
    )

    def __init__(self, *args: Any, side_names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.side_count = len(side_names)
        for position, name in enumerate(side_names):
            self.fields[f"total_{position}"] = forms.IntegerField(
                label=name,
                min_value=0,
                max_value=rules.MAX_PAPER_TOTAL,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        winner = cast(forms.TypedChoiceField, self.fields["winner"])
        winner.choices = list(enumerate(side_names))
        self.order_fields([*(f"total_{p}" for p in range(self.side_count)), "winner"])

    @property
    def totals(self) -> list[forms.BoundField]:
        return [self[f"total_{p}"] for p in range(self.side_count)]

    @property
    def paper(self) -> rules.Paper:
        """The result read (once the form is valid)."""
        data = self.cleaned_data
        totals = tuple(int(data[f"total_{p}"]) for p in range(self.side_count))
        return rules.Paper(totals, int(data["winner"]))
