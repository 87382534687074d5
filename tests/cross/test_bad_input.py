"""Bad input: hypothesis throws arbitrary field values at the hand-entry view and the match-setup
view (negative, huge, non-numeric, missing, extra fields, another user's or no match, the wrong
hand number). Never a server error; a refused submission changes nothing in the database; an
accepted one is stored exactly as submitted.

The oracle reads a submission the way the forms document it (Django's IntegerField, ChoiceField
and CharField rules; with two sides, side 2 gets what side 1 did not take) and leaves the deck
arithmetic to rules.validate, which tests/engine/test_rules.py pins down rule by rule.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse
from helpers import examples
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase
from test_authorization_matrix import FIRST_8

from scoring.engine import rules
from scoring.engine.matchdoc import MAX_HANDS
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.matches.forms import SPECIAL_CARDS
from scoring.models import Hand, Match, Player

pytestmark = pytest.mark.slow  # left out of make test-fast; make test runs it

INVALID = object()
FORM = "application/x-www-form-urlencoded"  # any field name or value survives the trip
BAD_INPUT = settings(max_examples=examples(120))
JUNK = st.one_of(
    st.sampled_from(
        [
            *["", " ", "7.0", "7.5", "1e3", "0x1f", "NaN", "inf", "-0", "+3", " 7 ", "٣", "1_0"],
            *["-1", "53", "14", "25", "9" * 40, "9" * 5000, "3\x00", "<script>", "null", "[]"],
        ]
    ),
    st.integers().map(str),
    st.text(max_size=12),
)
EXTRA_FIELDS = st.dictionaries(st.text(min_size=1, max_size=12), st.text(max_size=12), max_size=2)
SPADE_CARDS = 13  # the first 13 cards of the deck below are the spades, 2♠ and A♠ among them
DECK_SPECIALS = {"2S": 0, "AS": 1, "10D": 13, "AC": 14, "AH": 15, "AD": 16}


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of the scoring app and every user: what a refused submission must not change."""
    tables = {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in apps.get_app_config("scoring").get_models()
    }
    tables["users"] = list(get_user_model().objects.order_by("pk").values("pk", "username"))
    return tables


def _int(raw: str | None, low: int, high: int, required: bool) -> Any:
    """Django's IntegerField: blank is None (or missing when required), "7.0" is 7."""
    if raw is None or raw == "":
        return INVALID if required else None
    try:
        value = int(re.sub(r"\.0*\s*$", "", raw))
    except ValueError:
        return INVALID
    return value if low <= value <= high else INVALID


def _choice(raw: str | None, choices: list[str], required: bool) -> Any:
    """Django's ChoiceField: the exact string of a choice, or blank when not required."""
    if raw is None or raw == "":
        return INVALID if required else ""
    return raw if raw in choices else INVALID


# --- hand entry ----------------------------------------------------------------------------------


def expected_hand(data: dict[str, str], sides: int) -> tuple[int, list[rules.Tally]] | None:
    """(number, tallies) the hand form accepts for `data`, or None when it refuses it."""
    last = sides - 1
    number = _int(data.get("number"), 1, MAX_HANDS, True)
    counts = []
    for position in range(sides):
        required = position != last
        counts.append(
            [
                _int(data.get(f"cards_{position}"), 0, rules.PACK, required),
                _int(data.get(f"spades_{position}"), 0, rules.SPADES, required),
                _int(data.get(f"sweeps_{position}"), 0, rules.MAX_SWEEPS, False),
            ]
        )
    positions = [str(position) for position in range(sides)]
    holders = {card: _choice(data.get(f"card_{card}"), positions, False) for card in SPECIAL_CARDS}
    values = [number, *(value for side in counts for value in side), *holders.values()]
    if any(value is INVALID for value in values):
        return None
    if counts[last][0] is None:
        counts[last][0] = rules.PACK - sum(side[0] for side in counts[:last])
    if counts[last][1] is None:
        counts[last][1] = rules.SPADES - sum(side[1] for side in counts[:last])
    held = {card: int(holder) if holder != "" else last for card, holder in holders.items()}
    tallies = [
        rules.Tally.make(
            cards=cards,
            spades=spades,
            big_casino=held["10D"] == position,
            little_casino=held["2S"] == position,
            aces=[suit for suit in rules.ACE_SUITS if held["A" + suit] == position],
            sweeps=sweeps or 0,
        )
        for position, (cards, spades, sweeps) in enumerate(counts)
    ]
    if rules.validate(tallies, sides):
        return None
    return number, tallies


def _dealt_fields(owners: list[int], sides: int) -> dict[str, str]:
    """The form filled in from a real deal: card i of the deck went to side owners[i]."""
    data = {}
    for position in range(sides):
        mine = [index for index, owner in enumerate(owners) if owner == position]
        data[f"cards_{position}"] = str(len(mine))
        data[f"spades_{position}"] = str(sum(index < SPADE_CARDS for index in mine))
    for card, index in DECK_SPECIALS.items():
        data[f"card_{card}"] = str(owners[index])
    return data


def _spoil(draw: st.DrawFn, data: dict[str, str], *, at_most: int) -> dict[str, str]:
    """Drop or garble up to `at_most` fields, and add a few that the form does not know."""
    for name in draw(st.lists(st.sampled_from(sorted(data)), max_size=at_most, unique=True)):
        if draw(st.booleans()):
            del data[name]
        else:
            data[name] = draw(JUNK)
    data.update(draw(EXTRA_FIELDS))
    return data


@st.composite
def hand_posts(draw: st.DrawFn, sides: int, next_number: int) -> dict[str, str]:
    owners = draw(st.lists(st.integers(0, sides - 1), min_size=52, max_size=52))
    data = _dealt_fields(owners, sides)
    numbers = [next_number] * 4 + [next_number - 1, next_number + 1, 0, 999]
    data["number"] = str(draw(st.sampled_from(numbers)))
    for position in range(sides):
        data[f"sweeps_{position}"] = str(draw(st.integers(0, 3)))
    if draw(st.booleans()):  # the phone leaves the last side to the deck
        last = sides - 1
        del data[f"cards_{last}"], data[f"spades_{last}"]
        for card in SPECIAL_CARDS:
            if data[f"card_{card}"] == str(last):
                del data[f"card_{card}"]
    return _spoil(draw, data, at_most=3)


class HandEntryBadInput(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        users = get_user_model().objects
        cls.owner = users.create_user(username="ana", password="casino-pass-1")
        stranger = users.create_user(username="mallory", password="casino-pass-2")
        ana, ben, cy = (
            services.player_create(circle=cls.owner.personal_circle, name=n)
            for n in ("Ana", "Ben", "Cy")
        )
        cls.two = services.match_start(
            circle=cls.owner.personal_circle, rules=Rules.make("casino"), sides=[[ana], [ben]]
        )
        services.hand_record(match=cls.two, number=1, tallies=FIRST_8)
        cls.three = services.match_start(
            circle=cls.owner.personal_circle, rules=Rules.make("royal"), sides=[[ana], [ben], [cy]]
        )
        eve = services.player_create(circle=stranger.personal_circle, name="Eve")
        dan = services.player_create(circle=stranger.personal_circle, name="Dan")
        cls.strangers = services.match_start(
            circle=stranger.personal_circle, rules=Rules.make("casino"), sides=[[eve], [dan]]
        )

    @BAD_INPUT
    @given(
        which=st.sampled_from(
            ["two sides", "three sides"] * 3 + ["another user's", "no such match"]
        ),
        htmx=st.booleans(),
        data=st.data(),
    )
    def test_hand_entry_survives_any_submission(self, which: str, htmx: bool, data: Any) -> None:
        match = {"two sides": self.two, "three sides": self.three}.get(which, self.strangers)
        sides = 3 if which == "three sides" else 2
        match.refresh_from_db()
        next_number = match.hand_count + 1
        post = data.draw(hand_posts(sides, next_number), label="post")
        pk = 999_999 if which == "no such match" else match.pk
        self.client.force_login(self.owner)
        before = snapshot()
        response = self.client.post(
            reverse("scoring:hand-create", args=[pk]),
            urlencode(post),
            content_type=FORM,
            headers={"HX-Request": "true"} if htmx else {},
        )
        assert response.status_code < 500
        if which in ("another user's", "no such match"):
            assert response.status_code == 404
            assert snapshot() == before
            return
        expected = expected_hand(post, sides)
        if expected is None or post.get("preview") or expected[0] != next_number:
            event("hand refused")
            # 200: a preview; 400: refused; 409: the number is taken (or a resend of that hand).
            assert response.status_code in (200, 302, 400, 409)
            assert snapshot() == before, "a refused hand changed the database"
            return
        event("hand stored")
        assert response.status_code == (200 if htmx else 302)
        hand = Hand.objects.get(match=match, number=next_number)
        stored = [tally.as_rules_tally() for tally in hand.tallies.order_by("side__position")]
        assert stored == expected[1]
        match.refresh_from_db()
        assert match.hand_count == next_number
        totals = list(match.sides.order_by("position").values_list("total", flat=True))
        hands = [
            [t.as_rules_tally() for t in h.tallies.order_by("side__position")]
            for h in match.hands.order_by("number")
        ]
        assert totals == list(rules.score_match(match.rules, hands, [0] * sides).totals)


# --- match setup ---------------------------------------------------------------------------------

LAYOUTS = {"2": (2, 1), "3": (3, 1), "4": (4, 1), "teams": (2, 2)}
TARGETS = ["usual", "21", "11", "16", "other"]


def expected_match(data: dict[str, str]) -> dict[str, Any] | None:
    """What the match form accepts for `data` (seat names, options), or None when it refuses."""
    fields = {
        "variant": _choice(data.get("variant"), list(Match.Variant.values), True),
        "layout": _choice(data.get("layout"), list(LAYOUTS), True),
        "first_dealer": _choice(data.get("first_dealer"), ["0", "1", "2", "3"], True),
        "target": _choice(data.get("target"), TARGETS, True),
        "target_other": _int(data.get("target_other"), 1, 999, False),
        "sweeps": _choice(data.get("sweeps"), list(Match.Sweeps.values), False),
        "several_reach": _choice(data.get("several_reach"), list(Match.SeveralReach.values), False),
        "scoring": _choice(data.get("scoring"), [Match.Scoring.DIFFERENCE.value], False),
        "twenty_needs": _choice(data.get("twenty_needs"), list(Match.TwentyNeeds.values), False),
    }
    seats = [(data.get(f"seat_{seat}") or "").strip() for seat in range(4)]
    starts = [_int(data.get(f"start_{position}"), 0, 999, False) for position in range(4)]
    if any(value is INVALID for value in [*fields.values(), *starts]):
        return None
    # NUL, and "\ufffd" (what the server makes of bytes that are not UTF-8), are not names; nor
    # is one whose case-folded key ("ß" is "ss") is longer than 60.
    if any(len(name) > 60 or "\x00" in name or "\ufffd" in name for name in seats):
        return None
    if any(len(name.casefold()) > 60 for name in seats):
        return None
    side_count, per_side = LAYOUTS[fields["layout"]]
    names = seats[: side_count * per_side]
    folded = [name.casefold() for name in names]
    if "" in names or len(set(folded)) != len(folded):
        return None
    if int(fields["first_dealer"]) >= len(names):
        return None
    if fields["target"] == "other":
        if fields["target_other"] is None:
            return None
        target = fields["target_other"]
    elif fields["target"] == "usual":
        target = rules.variant_defaults(fields["variant"]).target
    else:
        target = int(fields["target"])
    if fields["variant"] == Match.Variant.FINNISH and fields["sweeps"] not in ("", "cancel"):
        return None
    if fields["variant"] == Match.Variant.DOMINICAN and target < 4:
        return None
    if fields["scoring"] == Match.Scoring.DIFFERENCE and side_count != 2:
        return None
    start = [starts[position] or 0 for position in range(side_count)]
    # One side alone on top at or past the target has already won; sharing that top starts tied.
    top = max(start)
    if top >= target and start.count(top) == 1:
        return None
    status = "tied" if top >= target else "playing"
    return {**fields, "names": names, "target": target, "start": start, "status": status}


NAME_LETTERS = st.sampled_from(list("AbZz é<>\"'&ßİi"))
SEAT_NAMES = st.one_of(
    # Usually four different names, as a person would type them; sometimes anything at all.
    st.lists(
        st.text(NAME_LETTERS, min_size=1, max_size=8).filter(str.strip),
        min_size=4,
        max_size=4,
        unique_by=lambda name: name.strip().casefold(),
    ),
    st.lists(st.text(max_size=70), min_size=4, max_size=4),
)


@st.composite
def match_posts(draw: st.DrawFn) -> dict[str, str]:
    layout = draw(st.sampled_from(list(LAYOUTS)))
    seat_count = LAYOUTS[layout][0] * LAYOUTS[layout][1]
    options = {
        "variant": st.sampled_from(list(Match.Variant.values)),
        "first_dealer": st.integers(0, seat_count).map(str),
        "target": st.sampled_from(TARGETS),
        "target_other": st.one_of(st.integers(13, 999), st.integers(1, 12)).map(str),
        "sweeps": st.sampled_from(["", *Match.Sweeps.values]),
        "several_reach": st.sampled_from(["", *Match.SeveralReach.values]),
        "scoring": st.sampled_from(["", Match.Scoring.DIFFERENCE.value]),
        "twenty_needs": st.sampled_from(["", *Match.TwentyNeeds.values]),
    }
    data = {"layout": layout} | {name: draw(strategy) for name, strategy in options.items()}
    names = draw(SEAT_NAMES)
    for seat in range(seat_count):
        data[f"seat_{seat}"] = names[seat]
    for position in range(4):
        data[f"start_{position}"] = str(draw(st.integers(0, 12)))
    return _spoil(draw, data, at_most=2)


class MatchSetupBadInput(TestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        users = get_user_model().objects
        cls.owner = users.create_user(username="ana", password="casino-pass-1")

    @BAD_INPUT
    @given(post=match_posts())
    def test_match_setup_survives_any_submission(self, post: dict[str, str]) -> None:
        self.client.force_login(self.owner)
        before = snapshot()
        response = self.client.post(
            reverse("scoring:match-new"), urlencode(post), content_type=FORM
        )
        assert response.status_code < 500
        expected = expected_match(post)
        if expected is None:
            event("match refused")
            assert response.status_code in (200, 400)
            assert snapshot() == before, "a refused match changed the database"
            return
        event("match stored")
        match = Match.objects.get(circle=self.owner.personal_circle)
        assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
        made = rules.Rules.make(
            expected["variant"],
            target=expected["target"],
            sweeps=expected["sweeps"] or None,
            several_reach=expected["several_reach"] or None,
            scoring=expected["scoring"] or None,
            twenty_needs=expected["twenty_needs"] or None,
        )
        assert (match.variant, match.layout, match.target) == (
            expected["variant"],
            expected["layout"],
            expected["target"],
        )
        assert (match.sweeps, match.several_reach, match.scoring, match.twenty_needs) == (
            made.sweeps,
            made.several_reach,
            made.scoring,
            made.twenty_needs,
        )
        assert match.first_dealer_seat == int(expected["first_dealer"])
        seats = match.seats.select_related("player").order_by("seat")
        assert [seat.player.name for seat in seats] == expected["names"]
        assert Player.objects.filter(circle=self.owner.personal_circle).count() == len(
            expected["names"]
        )
        starts = list(match.sides.order_by("position").values_list("start_total", flat=True))
        assert starts == expected["start"]
        assert match.status == expected["status"]


# --- the inputs that crashed somewhere, at every form --------------------------------------------

BIG = "9" * 5000  # more digits than Python turns into an int by default
# Percent-encoded as a browser would send them: a lone surrogate's bytes (not UTF-8; the server
# reads them as "\ufffd"), a NUL, a number too long to convert, "ßH" ("ß".upper() is "SS").
SURROGATE = "A%ED%A0%80na"
NUL = "A%00na"
NOT_READ = "This text holds characters that could not be read (�): type it again."
NULL_CHARS = "Null characters are not allowed."
WHOLE = "Enter a whole number."
FOLDED = "This name is too long: with ß counted as ss it has %d characters, and at most 60 fit."
CHOICE = "Select a valid choice."
OUT_OF_DATE = "This form is out of date: reload the page and enter the hand again."
# Radio buttons that a browser only sends with the values offered: the page does not print
# these fields' own errors, so the form's message is looked for in the form itself.
LOGIN_REFUSED = "The username and/or password you specified are not correct."
UNPRINTED = {("match-new", "variant"), ("match-new", "layout"), ("match-new", "target")}


def _web_probes() -> list[tuple[str, str, str, str]]:
    """(form, field, percent-encoded value, the message the refusal shows)."""
    probes = []
    for form, field in [
        ("match-new", "seat_0"),
        ("players", "name"),
        ("rename", "name"),
    ]:
        probes += [(form, field, SURROGATE, NOT_READ), (form, field, NUL, NULL_CHARS)]
        probes += [(form, field, quote("ßH") + "%00", NULL_CHARS)]
        # 40 letters, but 80 once case-folded for comparing names: more than the column holds.
        probes += [(form, field, quote("ß" * 40), FOLDED % 80)]
    probes += [("match-new", "seat_0", BIG, "Ensure this value has at most 60 characters")]
    for field in ("target_other", "start_0"):
        probes += [("match-new", field, value, WHOLE) for value in (BIG, SURROGATE, NUL, "ßH")]
    for field in ("first_dealer", "target", "variant", "layout"):
        probes += [("match-new", field, value, CHOICE) for value in (BIG, SURROGATE, NUL, "ßH")]
    for form in ("hand", "edit"):
        for field in ("cards_0", "spades_0", "sweeps_0"):
            probes += [(form, field, value, WHOLE) for value in (BIG, SURROGATE, NUL, "ßH")]
        probes += [(form, "number", value, OUT_OF_DATE) for value in (BIG, SURROGATE, NUL, "ßH")]
        probes += [(form, "card_AH", value, CHOICE) for value in (BIG, SURROGATE, NUL, "ßH")]
    probes += [("merge", "target", value, CHOICE) for value in (BIG, SURROGATE, "ßH")]
    probes += [("merge", "target", NUL, NULL_CHARS)]
    username = "Enter a valid username."
    probes += [("signup", "username", SURROGATE, username), ("signup", "username", NUL, NULL_CHARS)]
    probes += [("signup", "username", BIG, "Ensure this value has at most 150 characters")]
    probes += [("signup", "password1", NUL, NULL_CHARS)]
    email = "Enter a valid email address."
    for form in ("signup", "reset"):
        probes += [(form, "email", value, email) for value in (SURROGATE, BIG, "ßH")]
        probes += [(form, "email", NUL, NULL_CHARS)]
    probes += [("login", field, NUL, NULL_CHARS) for field in ("login", "password")]
    probes += [("login", "login", SURROGATE, LOGIN_REFUSED), ("login", "login", BIG, LOGIN_REFUSED)]
    return probes


def quote(text: str) -> str:
    from urllib.parse import quote as url_quote

    return url_quote(text, safe="")


WEB_PROBES = _web_probes()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("form", "field", "value", "message"),
    WEB_PROBES,
    ids=[f"{form}-{field}-{index}" for index, (form, field, _v, _m) in enumerate(WEB_PROBES)],
)
@pytest.mark.parametrize("once", [False, True], ids=["plain", "with-form-token"])
def test_form_refuses_crashing_input_with_its_message(
    client, user, players, casino_match, form, field, value, message, once
):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    ana, _ben, cy, _dee = players
    dealt = "cards_0=29&spades_0=8&card_10D=0&card_AS=0&card_AH=0"
    posts = {
        "match-new": (
            reverse("scoring:match-new"),
            "variant=casino&layout=2&first_dealer=0&target=other&target_other=21"
            "&seat_0=Eve&seat_1=Fay&start_0=0&start_1=0",
        ),
        "hand": (reverse("scoring:hand-create", args=[casino_match.pk]), f"number=2&{dealt}"),
        "edit": (reverse("scoring:hand-edit", args=[casino_match.pk, 1]), f"number=1&{dealt}"),
        "players": (reverse("scoring:player-list"), "name=Zed"),
        "rename": (reverse("scoring:player", args=[ana.pk]), "name=Zed"),
        "merge": (reverse("scoring:player-merge", args=[ana.pk]), f"target={cy.pk}&confirm=1"),
        "signup": (
            reverse("account_signup"),
            "username=newbie&email=newbie%40example.com"
            "&password1=Zq9-kxcd-long-pass&password2=Zq9-kxcd-long-pass",
        ),
        "login": (reverse("account_login"), "login=ana&password=casino-pass-1"),
        "reset": (reverse("account_reset_password"), "email=ana%40example.com"),
    }
    url, body = posts[form]
    # The valid submission with one field spoilt.
    fields = [part for part in body.split("&") if not part.startswith(f"{field}=")]
    body = "&".join([*fields, f"{field}={value}"])
    if once:
        body += "&form_once=probe-token-1"
    if form not in ("signup", "login", "reset"):
        client.force_login(user)
    before = {name: rows for name, rows in snapshot().items() if name != "FormSubmission"}
    response = client.generic("POST", url, body.encode(), content_type=FORM)
    after = {name: rows for name, rows in snapshot().items() if name != "FormSubmission"}
    assert response.status_code in (200, 400), response.status_code
    assert after == before, "a refused submission changed the database"
    if (form, field) in UNPRINTED:
        assert any(message in error for error in response.context["form"].errors[field])
    else:
        assert message in response.content.decode()
