"""Forms: field checks here, deck checks by `rules.validate`, messages in the user's language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms.boundfield import BoundWidget
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engine import matchdoc, rules
from scoring.matches import seating
from scoring.models import Match, Player
from scoring.web.validators import NAME_VALIDATORS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_SEATS = 4
# The six special cards' codes (the hand form's fields card_10D, card_2S, ...); the cards
# themselves are rules.SPECIAL_CARDS.
SPECIAL_CARDS = tuple(card.code for card in rules.SPECIAL_CARDS)
JACK_FIELD = f"card_{rules.JACK_OF_SPADES.code}"  # Spade Casino's question
CARD_FIELDS = tuple(f"card_{code}" for code in SPECIAL_CARDS)
# The hand form's questions beyond the special cards, and the variant that asks each.
SIDE_QUESTIONS = {"last_capture": rules.Variant.SWEDISH, JACK_FIELD: rules.Variant.SPADE}
# The options of a game's rules the form asks for, besides the target (rules.Rules.make's).
RULE_OPTIONS = ("sweeps", "several_reach", "scoring", "twenty_needs", "ties", "sweep_freeze")


class PlayerForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"), max_length=60, strip=True, validators=NAME_VALIDATORS
    )


class PlayerMergeForm(forms.Form):
    """Pick the player that `source` really is."""

    target = forms.ModelChoiceField(
        label=gettext_lazy("The same person as"), queryset=Player.objects.none()
    )

    def __init__(
        self, *args: Any, players: QuerySet[Player], source: Player, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["target"]).queryset = players.exclude(pk=source.pk)


def _default_choice(label: str | Promise) -> tuple[str, str | Promise]:
    return ("", label)


class GameRulesForm(forms.Form):
    """A game and every option of it (a match's, or an event's for all its tables)."""

    variant = forms.ChoiceField(
        label=gettext_lazy("Game"),
        choices=Match.Variant.choices,
        initial=Match.Variant.CASINO,
        widget=forms.RadioSelect,
    )
    target = forms.TypedChoiceField(
        label=gettext_lazy("Play to"),
        choices=[
            ("usual", gettext_lazy("the game's usual")),
            ("21", "21"),
            ("11", "11"),
            ("16", "16"),
            ("other", gettext_lazy("other")),
        ],
        initial="usual",
        widget=forms.RadioSelect,
    )
    target_other = forms.IntegerField(
        label=gettext_lazy("Other target"), min_value=1, max_value=rules.MAX_TARGET, required=False
    )
    sweeps = forms.ChoiceField(
        label=gettext_lazy("Sweeps"),
        choices=[
            _default_choice(gettext_lazy("as the game is usually played")),
            *Match.Sweeps.choices,
        ],
        required=False,
    )
    several_reach = forms.ChoiceField(
        label=gettext_lazy("When several reach the target in one hand"),
        choices=[
            _default_choice(gettext_lazy("as the game is usually played")),
            *Match.SeveralReach.choices,
        ],
        required=False,
    )
    scoring = forms.ChoiceField(
        label=gettext_lazy("Scoring"),
        choices=[
            _default_choice(gettext_lazy("every side scores its points")),
            *Match.Scoring.choices[1:],
        ],
        required=False,
    )
    twenty_needs = forms.ChoiceField(
        label=gettext_lazy("Dominican: at 20 a side wins only by taking"),
        choices=Match.TwentyNeeds.choices,
        initial=Match.TwentyNeeds.LITTLE_CASINO,
        required=False,
    )

    ties = forms.ChoiceField(
        label=gettext_lazy("Finnish: a tie for most cards or most spades is"),
        choices=Match.Ties.choices,
        initial=Match.Ties.CARRY,
        required=False,
    )
    sweep_freeze = forms.ChoiceField(
        label=gettext_lazy("Finnish: sweeps near the target"),
        choices=Match.SweepFreeze.choices,
        initial=Match.SweepFreeze.TEN,
        required=False,
    )

    def _target_asked(self, data: dict[str, Any]) -> int | str | None:
        """The target asked for, as rules.option_problems takes it: None for the game's usual
        one, "" for another left blank (or refused by its field); and `target_value`, the
        number or None."""
        asked: int | str | None = None
        if data.get("target") == "other":
            asked = data.get("target_other")
            asked = "" if asked is None else asked
        elif data.get("target") and data["target"] != "usual":
            asked = int(data["target"])
        data["target_value"] = asked if isinstance(asked, int) else None
        return asked

    def _options(self, data: dict[str, Any], variant: str) -> dict[str, Any]:
        """The options asked for; the Finnish ones mean nothing in the other games."""
        if variant != Match.Variant.FINNISH:
            data["ties"], data["sweep_freeze"] = "", ""
        return {option: data.get(option) for option in RULE_OPTIONS}

    def _add_problems(self, problems: Sequence[rules.Problem]) -> None:
        """Setup problems (rules.SETUP_PROBLEMS) at their fields, in the reader's language."""
        for problem in problems:
            message = _(rules.SETUP_PROBLEMS[problem.code]) % problem.params
            self.add_error(str(problem.params["field"]), message)

    def _clean_options(
        self, data: dict[str, Any], variant: str, side_count: int, per_side: int
    ) -> None:
        """The target (`target_value`: None for the game's usual one) and the options that fit
        the game and the table (rules.option_problems)."""
        asked = self._target_asked(data)
        options = self._options(data, variant)
        self._add_problems(rules.option_problems(variant, asked, options, (side_count, per_side)))

    def _clean_dominican(self, data: dict[str, Any], target: int) -> None:
        """Dominican's least target."""
        self._add_problems(rules.dominican_problems(data.get("variant") or "casino", target))

    def _rules(self, data: dict[str, Any]) -> rules.Rules:
        variant = data.get("variant") or Match.Variant.CASINO
        return rules.Rules.make(
            variant,
            target=data["target_value"],
            **{option: data.get(option) or None for option in RULE_OPTIONS},
        )


class MatchForm(GameRulesForm):
    """Set up a match: variant, who sits where, who deals first, target and options."""

    layout = forms.ChoiceField(
        label=gettext_lazy("Players"),
        choices=Match.Layout.choices,
        initial="2",
        widget=forms.RadioSelect,
    )
    first_dealer = forms.TypedChoiceField(
        label=gettext_lazy("First dealer"),
        choices=[(str(seat), str(seat + 1)) for seat in range(MAX_SEATS)],
        coerce=int,
        initial="0",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(MAX_SEATS):
            self.fields[f"seat_{seat}"] = forms.CharField(
                label=_("Seat %(number)d") % {"number": seat + 1},
                max_length=60,
                required=False,
                strip=True,
                validators=NAME_VALIDATORS,
            )
        for position in range(MAX_SEATS):
            self.fields[f"start_{position}"] = forms.IntegerField(
                label=_("Start total, side %(number)d") % {"number": position + 1},
                min_value=0,
                max_value=matchdoc.MAX_START_TOTAL,
                required=False,
            )

    @staticmethod
    def offline_messages() -> dict[str, Any]:
        """What clean says of a setup, for the phone to say the same when it starts a match
        without signal (local.js), in the reader's language, %(name)s placeholders kept; and
        the limits it checks."""
        return {
            "limits": {
                "target": rules.MAX_TARGET,
                "start": rules.MAX_START_TOTAL,
                "dominican": rules.MIN_DOMINICAN_TARGET,
            },
            **{code: _(message) for code, message in rules.SETUP_PROBLEMS.items()},
        }

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(MAX_SEATS)]

    def start_fields(self) -> list[forms.BoundField]:
        return [self[f"start_{position}"] for position in range(MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        layout = data.get("layout")
        if layout not in rules.LAYOUTS:
            return data
        side_count, per_side = rules.LAYOUTS[layout]
        variant = data.get("variant") or Match.Variant.CASINO
        names = [data.get(f"seat_{seat}", "") for seat in range(MAX_SEATS)]
        asked = self._target_asked(data)
        self._add_problems(
            rules.setup_problems(
                variant,
                layout,
                names,
                first_dealer=data.get("first_dealer"),
                target=asked,
                options=self._options(data, variant),
                start_totals=[data.get(f"start_{position}") for position in range(side_count)],
            )
        )
        # Seats alternate sides, so seat s belongs to side s % sides (partners opposite).
        seat_count = side_count * per_side
        data["sides"] = rules.Lineup.from_seats(
            (seat, seat % side_count, name) for seat, name in enumerate(names[:seat_count])
        ).sides
        data["start_totals"] = [data.get(f"start_{p}") or 0 for p in range(side_count)]
        if not self.errors:
            data["rules"] = self._rules(data)
        return data


def _side_choice(
    label: StrOrPromise, required: StrOrPromise | None = None
) -> forms.TypedChoiceField:
    """A question of the hand form that a side answers (its choices: the sides, set per form);
    `required`: what to say when none is chosen, if one must be."""
    return forms.TypedChoiceField(
        label=label,
        coerce=int,
        required=required is not None,
        error_messages={"required": required} if required is not None else None,
        widget=forms.RadioSelect,
    )


def _card_choice(code: str) -> forms.TypedChoiceField:
    """Who took a special card (rules.CARDS[code]), named as in problems."""
    return _side_choice(gettext_lazy(rules.CARDS[code].name))


class HandForm(forms.Form):
    """One hand: each side's cards, spades and sweeps, and who took each of the six special cards.

    The last side's cards and spades may be left blank: they are what the deck leaves (52 - the
    others' cards, 13 - their spades), and a special card given to no one goes to the last side.
    Swedish Kasino asks who made the last capture; Spade Casino who took the J♠ (given to no
    one, it goes to the last side too).
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=matchdoc.MAX_HANDS)
    # Quick entry (RULES.md §7.1): who took most cards and spades instead of the counts.
    mode = forms.CharField(widget=forms.HiddenInput, required=False)
    most_cards = _side_choice(gettext_lazy("Most cards"))
    most_spades = _side_choice(gettext_lazy("Most spades"))
    last_capture = _side_choice(
        gettext_lazy("Last capture"), required=gettext_lazy("Who made the last capture?")
    )
    card_JS = _side_choice(gettext_lazy("Jack of spades (J♠)"))
    card_10D = _card_choice("10D")
    card_2S = _card_choice("2S")
    card_AS = _card_choice("AS")
    card_AC = _card_choice("AC")
    card_AH = _card_choice("AH")
    card_AD = _card_choice("AD")

    def __init__(
        self,
        *args: Any,
        side_names: Sequence[str],
        variant: str = rules.Variant.CASINO,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.side_names = list(side_names)
        self.variant = rules.Variant(variant)
        self.tallies: list[rules.Tally] = []
        self.last_side = str(len(self.side_names) - 1)  # a side question's choice left blank
        self.quick_possible = rules.quick_entry(self.variant, len(self.side_names))
        asked = (self.data if self.is_bound else self.initial).get("mode")
        self.quick = asked == rules.QUICK and self.quick_possible
        for name, asked_in in SIDE_QUESTIONS.items():
            if self.variant is not asked_in:
                del self.fields[name]
        if not self.quick:
            del self.fields["most_cards"], self.fields["most_spades"]
        # The sides' counts go before the special cards (the order errors are listed in).
        cards = {name: self.fields.pop(name) for name in CARD_FIELDS}
        for position, name in enumerate(self.side_names):
            last = position == len(side_names) - 1
            self.fields.update(_count_fields(position, name, last=last, quick=self.quick))
        self.fields.update(cards)
        choices = [(str(position), name) for position, name in enumerate(self.side_names)]
        for field in self.fields.values():
            if isinstance(field, forms.ChoiceField):
                field.choices = choices
        if self.quick:
            most_cards = self.fields["most_cards"]
            assert isinstance(most_cards, forms.ChoiceField)
            most_cards.choices = [*choices, (str(rules.TIE), _("Tie"))]

    @staticmethod
    def parse_step(step: str, sides: int) -> tuple[int, int] | None:
        """A sweep stepper's button without JavaScript, "<side>:+1" or "<side>:-1": (side, ±1)."""
        position, _sep, delta = step.partition(":")
        if not (position.isascii() and position.isdigit()) or delta not in ("+1", "-1"):
            return None
        if int(position) >= sides:
            return None
        return int(position), int(delta)

    @classmethod
    def for_match(
        cls, match: Match, data: Any = None, *, names: Sequence[str] | None = None, **kwargs: Any
    ) -> HandForm:
        """The hand form of `match`: its sides named (`names`, when the caller has them), its
        game's cards."""
        if names is None:
            names = seating.side_names(match)
        return cls(data, side_names=names, variant=match.variant, **kwargs)

    @classmethod
    def redrawn(
        cls,
        data: Any,
        *,
        side_names: Sequence[str],
        variant: str = rules.Variant.CASINO,
        number: int | None = None,
        step: tuple[int, int] | None = None,
    ) -> HandForm:
        """The form again, unbound, showing what was posted: under another hand number, or with
        one side's sweeps stepped. Nothing is checked yet, so no error is shown."""
        form = cls(side_names=side_names, variant=variant)
        initial = {name: data.get(name) for name in form.fields if data.get(name) not in (None, "")}
        if number is not None:
            initial["number"] = number
        if step is not None:
            position, delta = step
            try:
                sweeps = int(initial.get(f"sweeps_{position}", 0))
            except ValueError:
                sweeps = 0
            initial[f"sweeps_{position}"] = min(max(sweeps + delta, 0), rules.MAX_SWEEPS)
        form.initial = initial
        return form

    @classmethod
    def initial_for(
        cls,
        number: int,
        tallies: Sequence[rules.Tally],
        *,
        quick: bool = False,
        counted: bool = True,
    ) -> dict[str, Any]:
        """Initial values that show stored tallies in the form (for editing a hand); `quick`: as
        who took most (RULES.md §7.1); not `counted`: the counts left blank (a quick hand's
        stand for who took most only)."""
        initial: dict[str, Any] = {"number": number}
        if quick:
            initial["mode"] = rules.QUICK
            initial["most_cards"], initial["most_spades"] = map(str, rules.most_taps(tallies))
        for position, tally in enumerate(tallies):
            # The last side's cards and spades stay blank, as on the scoreboard: they follow
            # from the others' (52 - x, 13 - y).
            if position != len(tallies) - 1 and counted:
                initial[f"cards_{position}"] = tally.cards
                initial[f"spades_{position}"] = tally.spades
            initial[f"sweeps_{position}"] = tally.sweeps
            for card in rules.CARDS.values():
                if card.held(tally):
                    initial[f"card_{card.code}"] = str(position)
            if tally.last_capture:
                initial["last_capture"] = str(position)
        return initial

    def sides(self) -> list[SideFields]:
        """Per side, its fields in the order the form lays them out."""
        return [SideFields.of(self, position) for position in range(len(self.side_names))]

    def special_cards(self) -> list[tuple[rules.Card, forms.BoundField]]:
        """The six special cards and their fields (the card grid's columns)."""
        return [(card, self[f"card_{card.code}"]) for card in rules.SPECIAL_CARDS]

    def most_questions(self) -> list[forms.BoundField]:
        """Quick entry's questions: who took most cards (or a tie), who took most spades."""
        return [self[name] for name in ("most_cards", "most_spades") if name in self.fields]

    def side_questions(self) -> list[forms.BoundField]:
        """The variant's one-of-the-sides questions beyond the six special cards: Swedish
        Kasino's last capture, Spade Casino's J♠ (a row of chips each)."""
        return [self[name] for name in SIDE_QUESTIONS if name in self.fields]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        count = len(self.side_names)
        # The last side's blank counts are what the deck leaves; a card given to no one is its.
        self.tallies = rules.tallies_of(data, count, self.variant)
        return data

    def check_deck(self) -> bool:
        """Whether the counts read add up to a deck, each problem shown beside its field (where
        no save checks them: the points shown before saving)."""
        problems = rules.validate(self.tallies, len(self.side_names), self.variant)
        self.show_problems(problems)
        return not problems

    def show_problems(self, problems: Sequence[rules.Problem]) -> None:
        for problem in problems:
            field = _problem_field(problem)
            # Quick entry has no counts to show a count's problem beside: above the form.
            self.add_error(
                field if field in self.fields else None, problem.describe(self.side_names, _)
            )

    def show_refusal(self, refused: ValidationError) -> None:
        """What a save refused, on the form shown again: the deck's problems beside their
        fields, anything else above them."""
        problems = getattr(refused, "problems", ())
        if problems:
            self.show_problems(problems)
        else:
            self.add_error(None, refused)

    class Invalid(Exception):
        """The posted hand does not read (a field missing or out of range): the form says why."""

        def __init__(self, form: HandForm) -> None:
            super().__init__("hand form invalid")
            self.form = form

    @classmethod
    def entry(cls, data: Any, match: Match) -> tuple[int, list[rules.Tally], bool]:
        """The hand's number and tallies as posted for `match`'s table and game, and whether it
        was entered as who took most; or Invalid. Its labels are blanks: a form shown again is
        built again, named."""
        form = cls(data, side_names=[""] * match.table[0], variant=match.variant)
        if not form.is_valid():
            raise cls.Invalid(form)
        return form.cleaned_data["number"], form.tallies, form.quick


@dataclass(frozen=True)
class SideFields:
    """One side's fields in the hand form: a row of counts, and its toggle in each special
    card's radio group (the card, its field, the field's choice of this side)."""

    position: int
    name: str
    last: bool
    cards: forms.BoundField | None  # None in quick entry
    spades: forms.BoundField | None
    sweeps: forms.BoundField
    toggles: list[tuple[rules.Card, forms.BoundField, BoundWidget]]

    @classmethod
    def of(cls, form: HandForm, position: int) -> SideFields:
        """Side `position`'s fields in `form`."""
        cards, spades = (
            form[name] if name in form.fields else None
            for name in (f"cards_{position}", f"spades_{position}")
        )
        return cls(
            position,
            form.side_names[position],
            position == len(form.side_names) - 1,
            cards,
            spades,
            form[f"sweeps_{position}"],
            [(card, field, field[position]) for card, field in form.special_cards()],
        )


def _count_fields(
    position: int, name: str, *, last: bool, quick: bool = False
) -> dict[str, forms.Field]:
    """One side's cards, spades and sweeps (the last side's cards and spades may be blank); in
    quick entry its sweeps only."""
    counts = () if quick else (("cards", rules.PACK), ("spades", rules.SPADES))
    labels = {"cards": _("%(side)s: cards"), "spades": _("%(side)s: spades")}
    fields: dict[str, forms.Field] = {
        f"{kind}_{position}": forms.IntegerField(
            label=labels[kind] % {"side": name}, min_value=0, max_value=whole, required=not last
        )
        for kind, whole in counts
    }
    fields[f"sweeps_{position}"] = forms.IntegerField(
        label=_("%(side)s: sweeps") % {"side": name},
        min_value=0,
        max_value=rules.MAX_SWEEPS,
        required=False,
        initial=0,
    )
    return fields


def _problem_field(problem: rules.Problem) -> str | None:
    """The field a deck problem is shown next to."""
    side = problem.side if problem.side is not None else 0
    code = problem.code
    if code.startswith("last_capture"):
        return "last_capture"
    if code.startswith("card_"):
        return f"card_{problem.params['card']}"
    if code in ("cards_total", "cards_negative", "special_non_spades"):
        return f"cards_{side}"
    if code.startswith("spades") or code == "special_spades":
        return f"spades_{side}"
    if code.startswith("sweeps_") and code != "sweeps_total":
        return f"sweeps_{side}"
    return None
