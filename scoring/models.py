"""Stored matches. Derived numbers (points, totals, status) are written only by services.rescore."""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine import rules
from scoring.engine.rating import DEFAULT_MU, DEFAULT_SIGMA

PROVISIONAL_BELOW = 5  # finished matches before a rating counts as settled


class Circle(models.Model):
    """A group of friends who share their players, matches and statistics. Every account has a
    personal one (`personal_for`), made with the account and deleted with it."""

    name = models.CharField(_("name"), max_length=60)
    personal_for = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="personal_circle",
        verbose_name=_("personal circle of"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("circle")
        verbose_name_plural = _("circles")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """An account in a circle, with its role and (optionally) the player who is them."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("admin")
        MEMBER = "member", _("member")

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices, default=Role.MEMBER)
    # "This is me": the circle's player who is this account (one account per player).
    player = models.OneToOneField(
        "Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="membership",
        verbose_name=_("player"),
    )
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["circle", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["circle", "user"], name="membership_once_per_circle"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.circle} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role == self.Role.ADMIN


class Invite(models.Model):
    """A link that lets whoever holds it join a circle (with an account), until it expires, is
    used up or is revoked."""

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    max_uses = models.PositiveIntegerField(_("uses allowed"), null=True, blank=True)  # None: any
    uses = models.PositiveIntegerField(_("times used"), default=0)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("invite")
        verbose_name_plural = _("invites")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.circle} ({self.token[:6]}…)"


class Removal(models.Model):
    """An account an admin took out of a circle, and when: invites made before then no longer
    let it back in (an admin who wants it back makes a new one)."""

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    removed_at = models.DateTimeField(_("removed"))

    class Meta:
        verbose_name = _("removal")
        verbose_name_plural = _("removals")
        constraints = [
            models.UniqueConstraint(fields=["circle", "user"], name="removal_once_per_circle"),
        ]

    def __str__(self) -> str:
        return f"{self.circle} / {self.user_id}"


class Player(models.Model):
    """A person at the table (not a login), in the roster of a circle."""

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    # casefold() of the name: SQLite's LOWER() only folds ASCII, and "Аня" and "аня" are one player.
    name_key = models.CharField(max_length=60, editable=False, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Current skill rating (openskill Plackett-Luce), kept by services from the rated history.
    rating_mu = models.FloatField(_("rating mean"), default=DEFAULT_MU)
    rating_sigma = models.FloatField(_("rating uncertainty"), default=DEFAULT_SIGMA)
    rating = models.FloatField(_("rating"), default=0.0)  # mu - 3 sigma, what is shown
    rated_matches = models.PositiveIntegerField(_("rated matches"), default=0)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(
                fields=["circle", "name_key"], name="player_name_unique_per_circle"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        if kwargs.get("update_fields") and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)


def name_key(name: str) -> str:
    """How player names are compared: trimmed and case-folded (any script)."""
    return name.strip().casefold()


class GameRules(models.Model):
    """A game and every option of it: a match's rules, and an event's for all its tables."""

    class Variant(models.TextChoices):
        CASINO = rules.Variant.CASINO, _("Casino")
        ROYAL = rules.Variant.ROYAL, _("Royal Casino")
        DOMINICAN = rules.Variant.DOMINICAN, _("Dominican Royal Casino")
        SWEDISH = rules.Variant.SWEDISH, _("Swedish Kasino")
        FINNISH = rules.Variant.FINNISH, _("Finnish Kasino")
        SPADE = rules.Variant.SPADE, _("Spade Casino")

    class Sweeps(models.TextChoices):
        OFF = rules.SweepRule.OFF, _("not counted")
        COUNT = rules.SweepRule.COUNT, _("1 point each")
        CANCEL = rules.SweepRule.CANCEL, _("opposing sweeps cancel")

    class SeveralReach(models.TextChoices):
        HIGHEST = rules.SeveralReach.HIGHEST, _("higher total wins")
        COUNT_OUT = rules.SeveralReach.COUNT_OUT, _("count out: first to reach the target wins")

    class Scoring(models.TextChoices):
        CUMULATIVE = rules.Scoring.CUMULATIVE, _("every side scores its points")
        DIFFERENCE = rules.Scoring.DIFFERENCE, _("only the difference counts")

    class TwentyNeeds(models.TextChoices):
        LITTLE_CASINO = rules.TwentyNeeds.LITTLE_CASINO, _("the little casino")
        MOST_SPADES = rules.TwentyNeeds.MOST_SPADES, _("most spades")

    class Ties(models.TextChoices):
        CARRY = rules.Ties.CARRY, _("carried over in a pot to the next outright win")
        NONE = rules.Ties.NONE, _("nobody scores, nothing carries over")

    class SweepFreeze(models.TextChoices):
        TEN = rules.SweepFreeze.TEN, _("sweeps stop scoring once a side has 10")
        OFF = rules.SweepFreeze.OFF, _("sweeps always score")

    variant = models.CharField(_("variant"), max_length=12, choices=Variant.choices)
    target = models.PositiveSmallIntegerField(_("target"), default=rules.DEFAULT_TARGET)
    sweeps = models.CharField(_("sweeps"), max_length=8, choices=Sweeps.choices)
    several_reach = models.CharField(
        _("several reach the target"), max_length=10, choices=SeveralReach.choices
    )
    scoring = models.CharField(_("scoring"), max_length=12, choices=Scoring.choices)
    twenty_needs = models.CharField(
        _("at 20 a side needs"), max_length=14, choices=TwentyNeeds.choices
    )
    # Finnish Kasino only (the others keep the defaults):
    ties = models.CharField(_("ties"), max_length=5, choices=Ties.choices, default=Ties.CARRY)
    sweep_freeze = models.CharField(
        _("sweeps near the target"), max_length=3, choices=SweepFreeze.choices, default="10"
    )

    class Meta:
        abstract = True

    @staticmethod
    def rules_fields(match_rules: rules.Rules) -> dict[str, Any]:
        """The fields that store `match_rules` (the inverse of the `rules` property)."""
        return {
            "variant": match_rules.variant,
            "target": match_rules.target,
            "sweeps": match_rules.sweeps,
            "several_reach": match_rules.several_reach,
            "scoring": match_rules.scoring,
            "twenty_needs": match_rules.twenty_needs,
            "ties": match_rules.ties,
            "sweep_freeze": match_rules.sweep_freeze,
        }

    @property
    def rules(self) -> rules.Rules:
        """The rules the fields store (built once for each set of values: a save reads them
        several times)."""
        return _rules_made(
            self.variant,
            target=self.target,
            sweeps=self.sweeps,
            several_reach=self.several_reach,
            scoring=self.scoring,
            twenty_needs=self.twenty_needs,
            ties=self.ties,
            sweep_freeze=self.sweep_freeze,
        )


# Rules are immutable and a circle plays few sets of options: one Rules per set of field values,
# shared by every match and event of it. Kept off the instances, so a field changed on one is
# never read stale, and a model's fields (vars) are only its fields.
_rules_made = functools.lru_cache(maxsize=256)(rules.Rules.make)


class Match(GameRules):
    """One match at one table, in a circle (of an event's round, when `event` is set)."""

    class Status(models.TextChoices):
        PLAYING = rules.Status.PLAYING, pgettext_lazy("match status", "playing")
        TIED = rules.Status.TIED, pgettext_lazy("match status", "tied")
        WON = rules.Status.WON, pgettext_lazy("match status", "won")
        ABANDONED = "abandoned", pgettext_lazy("match status", "abandoned")

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="matches")
    # Who started it (the match stays with the circle when that account goes).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="matches_started",
        verbose_name=_("started by"),
    )

    class Layout(models.TextChoices):
        TWO = "2", _("2 players")
        THREE = "3", _("3 players")
        FOUR = "4", _("4 players")
        TEAMS = "teams", _("2 teams of 2")

    layout = models.CharField(_("players"), max_length=5, choices=Layout.choices, default="2")
    first_dealer_seat = models.PositiveSmallIntegerField(_("first dealer's seat"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    winner_position = models.PositiveSmallIntegerField(_("winning side"), null=True, blank=True)
    outcome_kind = models.CharField(_("how it was decided"), max_length=10, blank=True)
    outcome_category = models.CharField(_("deciding category"), max_length=14, blank=True)
    hand_count = models.PositiveSmallIntegerField(_("hands"), default=0)
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Read-only share link: an unguessable token, or null when the link is revoked/never made.
    share_token = models.CharField(
        _("share token"), max_length=64, null=True, blank=True, unique=True
    )
    # Scoring link: whoever holds it may record, undo and fix this match's hands while it is
    # open (scoring/access.py LinkScope); null when turned off or never made.
    scoring_token = models.CharField(
        _("scoring token"), max_length=64, null=True, blank=True, unique=True
    )
    # Bumped by every change that a scoreboard shows (hands, totals, status), so that an open
    # board asks "anything new since version N?" and gets a bodiless answer when not.
    version = models.PositiveIntegerField(_("version"), default=0)
    # A match started on a phone without signal (outbox.js) names itself with an id of its own,
    # so that a resend of it starts nothing twice.
    client_id = models.CharField(max_length=64, blank=True, default="")
    # A table of a club night (its round and number: `event_table`); a save bumps the event's
    # version too, so that its big screen's poll sees the change.
    event = models.ForeignKey(
        "Event", on_delete=models.SET_NULL, null=True, blank=True, related_name="matches"
    )
    # Time was called in the event's round during this hand (docs/RULES.md, "Time"): after it,
    # and after every later hand until one side alone is ahead, the side ahead wins.
    last_hand = models.PositiveSmallIntegerField(_("last hand (time)"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["circle", "client_id"],
                condition=~models.Q(client_id=""),
                name="match_client_id_unique",
            ),
        ]
        indexes = [
            models.Index(fields=["circle", "-created_at"], name="match_circle_newest"),
            models.Index(fields=["circle", "status", "finished_at"], name="match_circle_finished"),
            # The history filtered by status, newest first (a rare status is not searched for
            # through every match).
            models.Index(fields=["circle", "status", "-created_at"], name="match_status_newest"),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("scoring:match", args=[self.pk])

    @staticmethod
    def layout_for(sides: int, per_side: int) -> str:
        """The layout of `sides` sides of `per_side` players: "2", "3", "4" or "teams"."""
        return rules.layout_name(sides, per_side)

    @property
    def table(self) -> tuple[int, int]:
        """(sides, players per side), read from the layout: no query."""
        return rules.LAYOUTS[self.layout]

    @property
    def is_open(self) -> bool:
        """A hand can still be recorded (not won, not abandoned)."""
        return self.status in (self.Status.PLAYING, self.Status.TIED)

    @property
    def on_paper(self) -> bool:
        """Played on paper: its result was entered from a score sheet instead of its hands."""
        return self.outcome_kind == rules.PAPER


class Side(models.Model):
    """One player, or a partnership of two, in a match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sides")
    position = models.PositiveSmallIntegerField(_("position"))
    start_total = models.PositiveIntegerField(_("start total"), default=0)
    total = models.PositiveIntegerField(_("total"), default=0)

    class Meta:
        verbose_name = _("side")
        verbose_name_plural = _("sides")
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="side_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match} / {self.position + 1}"


class Seat(models.Model):
    """Where a player sits: seats are numbered clockwise from 0; partners sit opposite."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seat_unique_per_match"),
            models.UniqueConstraint(fields=["match", "player"], name="player_once_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.seat + 1})"


class Hand(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("number"))
    dealer_seat = models.PositiveSmallIntegerField(_("dealer's seat"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("last changed by"),
    )
    changed_at = models.DateTimeField(_("last changed"), null=True, blank=True)
    # Derived (services.rescore), Finnish Kasino: the points waiting in the most-cards and
    # most-spades pots after this hand (a tie puts its points there).
    pot_cards = models.PositiveSmallIntegerField(default=0)
    pot_spades = models.PositiveSmallIntegerField(default=0)
    # The id a phone gave the hand when it was saved without signal (its outbox): a resend of it
    # is the same hand.
    client_id = models.CharField(max_length=64, blank=True, default="")
    # Entered, or last changed, through the match's scoring link (the sheet marks it).
    via_link = models.BooleanField(_("through the scoring link"), default=False)
    # Entered as who took most cards and spades (RULES.md §7.1): the counts stand for just that.
    quick = models.BooleanField(_("quick entry"), default=False)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_unique"),
            models.UniqueConstraint(
                fields=["match", "client_id"],
                condition=~models.Q(client_id=""),
                name="hand_client_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} / {self.number}"


class Tally(models.Model):
    """One side's captures in one hand, as entered, plus the points derived from them."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="tallies")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="tallies")
    cards = models.PositiveSmallIntegerField(_("cards"))
    spades = models.PositiveSmallIntegerField(_("spades"))
    big_casino = models.BooleanField(_("big casino"), default=False)
    little_casino = models.BooleanField(_("little casino"), default=False)
    aces = models.CharField(_("aces"), max_length=4, blank=True)
    sweeps = models.PositiveSmallIntegerField(_("sweeps"), default=0)
    last_capture = models.BooleanField(_("last capture"), default=False)  # Swedish Kasino
    jack_of_spades = models.BooleanField(_("jack of spades"), default=False)  # Spade Casino
    # Derived (services.rescore):
    cards_points = models.PositiveSmallIntegerField(default=0)
    spades_points = models.PositiveSmallIntegerField(default=0)
    big_casino_points = models.PositiveSmallIntegerField(default=0)
    little_casino_points = models.PositiveSmallIntegerField(default=0)
    aces_points = models.PositiveSmallIntegerField(default=0)
    sweeps_points = models.PositiveSmallIntegerField(default=0)
    last_capture_points = models.PositiveSmallIntegerField(default=0)
    jack_of_spades_points = models.PositiveSmallIntegerField(default=0)
    points = models.PositiveSmallIntegerField(_("points"), default=0)
    total_after = models.PositiveIntegerField(_("total after the hand"), default=0)

    class Meta:
        verbose_name = _("tally")
        verbose_name_plural = _("tallies")
        ordering = ["hand", "side__position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "side"], name="tally_unique_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.hand} / {self.side.position + 1}"

    def as_rules_tally(self) -> rules.Tally:
        return rules.Tally(
            self.cards,
            self.spades,
            self.big_casino,
            self.little_casino,
            self.aces,
            self.sweeps,
            self.last_capture,
            self.jack_of_spades,
        )


class HandRevision(models.Model):
    """A hand's tallies as they were before a change: the hand's edit history."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="revisions")
    # One list item per side, in side order: the tally fields as entered (matchdoc's tally JSON).
    tallies = models.JSONField()
    # They were entered as who took most (RULES.md §7.1): shown as that, not as counts.
    quick = models.BooleanField(default=False)
    # Who had entered (or last changed) these tallies, and when.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField()
    replaced_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    replaced_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("hand revision")
        verbose_name_plural = _("hand revisions")
        ordering = ["hand", "pk"]

    def __str__(self) -> str:
        return f"{self.hand} @ {self.replaced_at:%Y-%m-%d %H:%M}"


class PlayerRating(models.Model):
    """A player's rating after a finished match, in the order the matches were rated (the trend)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(_("rating"))

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        ordering = ["player", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="rating_once_per_match"),
        ]
        # The player page's trend: a player's latest ratings, however long the history.
        indexes = [models.Index(fields=["player", "-id"], name="rating_latest_first")]

    def __str__(self) -> str:
        return f"{self.player} {self.rating:.1f}"


class Profile(models.Model):
    """What a signed-in user chose for themselves (the language of the app), and what the app
    has asked them once (to add an e-mail address: scoring/accounts/prompts.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    language = models.CharField(_("language"), max_length=10, blank=True)
    email_invited_at = models.DateTimeField(
        _("asked to add an e-mail address"), null=True, blank=True
    )
    # Made by "Start a match" without signing up (scoring/accounts/guests.py): kept until
    # claimed by a sign-up, or deleted settings.CASINO_GUEST_DAYS after it was made.
    is_guest = models.BooleanField(_("guest"), default=False)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)


class FormSubmission(models.Model):
    """A creating form's submission, kept a day so that a resend (a double tap, a retry after a
    lost reply) gets the first reply instead of creating again. See scoring/web/once.py."""

    key = models.CharField(max_length=64, unique=True)  # the form's token, user, path and data
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    status = models.PositiveSmallIntegerField(default=0)
    headers = models.JSONField(default=dict)
    body = models.TextField(blank=True)

    class Meta:
        verbose_name = _("form submission")
        verbose_name_plural = _("form submissions")

    def __str__(self) -> str:
        return f"{self.key[:12]} ({self.status})"


# --- statistics kept up to date (scoring/matches/stats.py) -----------------------------------------------
# The player and head-to-head pages read these instead of aggregating a whole history per request.
# Only scoring/matches/stats.py writes them: `player_summaries_refresh(matches)` after any change to a
# match, `player_summaries_rebuild()` to start over.


class PlayerMatchStat(models.Model):
    """What one match counts for one of its players: a copy of the match's state and the sums of
    the player's side's tallies (in a partnership, both partners count the team's captures)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="match_stats")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="player_stats")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="player_stats")
    variant = models.CharField(max_length=12)
    layout = models.CharField(max_length=5)
    status = models.CharField(max_length=10)
    won = models.BooleanField(default=False)  # the match is won, by the player's side
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    gained = models.IntegerField(default=0)  # the side's total minus its start total
    hands = models.PositiveIntegerField(default=0)
    points = models.PositiveIntegerField(default=0)
    most_cards = models.PositiveIntegerField(default=0)  # hands with points for cards
    most_spades = models.PositiveIntegerField(default=0)  # hands with points for spades
    big_casino = models.PositiveIntegerField(default=0)  # hands the big casino was taken
    little_casino = models.PositiveIntegerField(default=0)
    aces_points = models.PositiveIntegerField(default=0)
    sweeps = models.PositiveIntegerField(default=0)  # as entered (before cancelling)
    swedish_hands = models.PositiveIntegerField(default=0)
    last_capture = models.PositiveIntegerField(default=0)  # Swedish hands with the last capture
    spade_hands = models.PositiveIntegerField(default=0)
    jack_of_spades = models.PositiveIntegerField(default=0)  # Spade Casino hands with the J♠

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="match_stat_once_per_player"),
        ]
        indexes = [
            # History filtered by player and head to head: newest first, walked by keyset.
            models.Index(fields=["player", "-created_at", "-match"], name="match_stat_newest"),
            models.Index(
                fields=["player", "status", "-created_at", "-match"],
                name="match_stat_status_newest",
            ),
            # Winning streaks: finished matches in the order they finished.
            models.Index(
                fields=["player", "status", "finished_at", "match"], name="match_stat_finished"
            ),
            # Best match: the most points gained in a won match.
            models.Index(
                fields=["player", "-gained", "-finished_at", "-match"],
                condition=models.Q(won=True),
                name="match_stat_best",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} / {self.match}"


class PlayerStat(models.Model):
    """A player's totals over all their matches (hands of any match; streaks of finished ones)."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="stat"
    )
    in_progress = models.PositiveIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    points = models.PositiveIntegerField(default=0)
    most_cards = models.PositiveIntegerField(default=0)
    most_spades = models.PositiveIntegerField(default=0)
    big_casino = models.PositiveIntegerField(default=0)
    little_casino = models.PositiveIntegerField(default=0)
    aces_points = models.PositiveIntegerField(default=0)
    sweeps = models.PositiveIntegerField(default=0)
    swedish_hands = models.PositiveIntegerField(default=0)
    last_capture = models.PositiveIntegerField(default=0)
    spade_hands = models.PositiveIntegerField(default=0)
    jack_of_spades = models.PositiveIntegerField(default=0)
    longest_streak = models.PositiveIntegerField(default=0)
    current_streak = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return str(self.player)


class PlayerRecordStat(models.Model):
    """A player's finished matches and wins in one variant at one table layout."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="record_stats")
    variant = models.CharField(max_length=12)
    layout = models.CharField(max_length=5)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "variant", "layout"], name="record_stat_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.variant} {self.layout}"


class PlayerPairStat(models.Model):
    """How `player` fared with `other`: as partners, and against each other."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pair_stats")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    partner_played = models.PositiveIntegerField(default=0)  # finished, on the same side
    partner_won = models.PositiveIntegerField(default=0)
    opposed = models.PositiveIntegerField(default=0)  # matches of any status, on other sides
    against_played = models.PositiveIntegerField(default=0)  # finished, on other sides
    against_won = models.PositiveIntegerField(default=0)  # ... and won by `player`

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "other"], name="pair_stat_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} / {self.other}"


# --- club nights (scoring/events/) ---------------------------------------------------------------


class Event(GameRules):
    """A club night: several tables of one game, paired round by round and ranked live."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        SWISS = "swiss", _("Swiss")
        PARTNERS = "partners", _("partners (2 v 2)")

    class Seeding(models.TextChoices):
        RATING = "rating", _("by rating")
        RANDOM = "random", _("at random")

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="events")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events_started",
        verbose_name=_("organiser"),
    )
    name = models.CharField(_("name"), max_length=80)
    date = models.DateField(_("date"))
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    seeding = models.CharField(
        _("round 1"), max_length=8, choices=Seeding.choices, default=Seeding.RATING
    )
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    round_minutes = models.PositiveSmallIntegerField(
        _("round time (minutes)"), null=True, blank=True
    )
    share_token = models.CharField(
        _("share token"), max_length=64, null=True, blank=True, unique=True
    )
    # Bumped by any change the event page or big screen shows (a hand at any table, a round
    # paired, time called, a player in or out): their poll's "anything new since version N?".
    version = models.PositiveIntegerField(_("version"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-date", "-pk"]
        indexes = [models.Index(fields=["circle", "-date"], name="event_circle_newest")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("scoring:event", args=[self.pk])

    @property
    def per_side(self) -> int:
        return 2 if self.format == self.Format.PARTNERS else 1

    @property
    def is_swiss(self) -> bool:
        return self.format == self.Format.SWISS


class EventPlayer(models.Model):
    """A player of an event: from the round they joined, until the round they left (not paired
    from then on; their results stay)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    order = models.PositiveSmallIntegerField(_("entry order"))
    joined_round = models.PositiveSmallIntegerField(_("from round"), default=1)
    left_round = models.PositiveSmallIntegerField(_("left before round"), null=True, blank=True)

    class Meta:
        verbose_name = _("event player")
        verbose_name_plural = _("event players")
        ordering = ["event", "order"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="event_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.player}"


class EventRound(models.Model):
    """One paired round of an event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    # The countdown's end (round time), and when the organiser called time.
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    time_called_at = models.DateTimeField(_("time called"), null=True, blank=True)
    # The results of the earlier rounds this round was paired from ({"results": a digest of
    # every table's status and winner}), to tell the organiser when an edit changed one of them
    # afterwards.
    paired_from = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("event round")
        verbose_name_plural = _("event rounds")
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_round_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.number}"


class EventTable(models.Model):
    """A table of a round (its match), or a player's bye in that round (no match)."""

    round = models.ForeignKey(EventRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="event_table"
    )
    bye = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="event_byes"
    )

    class Meta:
        verbose_name = _("event table")
        verbose_name_plural = _("event tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="event_table_once"),
            models.CheckConstraint(
                condition=models.Q(match__isnull=True) ^ models.Q(bye__isnull=True),
                name="event_table_match_or_bye",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"
