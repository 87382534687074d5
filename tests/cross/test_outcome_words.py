"""Every outcome the engine can give has its words: every game × outcome kind × deciding category
`rules.outcomes` lists (read from the engine's own steps and conditions, so a new one is met here
first), in every language, on every page that shows a match: the board, the score sheet, the share
page, the big screen of an event table's match, the history row and the player page."""

from __future__ import annotations

import datetime
import itertools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db.models import F
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from helpers import built_once, tally
from test_engine_js import deal, make, random_options

from scoring.engine import rules
from scoring.engine.rules import Rules, SeveralReach, TwentyNeeds, Variant
from scoring.events import services as events
from scoring.matches import services
from scoring.models import EventTable, Match
from scoring.sharing import links
from scoring.templatetags import scoring_extras

LANGUAGES = [code for code, _ in settings.LANGUAGES]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def every_rules() -> Iterator[Rules]:
    """Each game with each value of every option that changes which outcomes it can give."""
    for variant in Variant:
        for several in SeveralReach:
            needs = TwentyNeeds if variant is Variant.DOMINICAN else [None]
            for twenty in needs:
                yield Rules.make(variant, several_reach=several, twenty_needs=twenty)


def decided() -> list[tuple[Rules, str, str | None]]:
    """(rules, kind, category) for every outcome with a winner the engine lists, once per game."""
    seen: set[tuple[Variant, str, str | None]] = set()
    found = []
    for match_rules in every_rules():
        for kind, category in sorted(rules.outcomes(match_rules), key=str):
            key = (match_rules.variant, kind, category)
            if kind != "tied" and key not in seen:
                seen.add(key)
                found.append((match_rules, kind, category))
    return found


DECIDED = decided()


def test_the_engine_lists_every_outcome_it_gives() -> None:
    """Random hands near the target, in every game with random options (tied before or not, time
    called or not): every outcome score_hand gives is one rules.outcomes lists for those rules."""
    rng = random.Random(20261202)
    given: set[tuple[str, str | None]] = set()
    scored = 0
    while scored < 6000:
        variant, options = random_options(rng)
        try:
            match_rules = Rules.make(variant, **options)
        except ValueError:
            continue
        sides = rng.choice((2, 2, 3, 4))
        tallies = make(deal(rng, variant, sides))
        target = match_rules.target
        before = [max(target - rng.randint(1, 12), 0) for _ in range(sides)]
        tied = rng.random() < 0.1
        if tied:
            before = [target + rng.randint(0, 2)] * sides
        outcome = rules.score_hand(
            match_rules, tallies, before, tied_before=tied, time_up=rng.random() < 0.1
        ).outcome
        scored += 1
        if outcome is not None:
            assert (outcome.kind, outcome.category) in rules.outcomes(match_rules), (
                match_rules,
                tallies,
                before,
                outcome,
            )
            assert outcome.kind in rules.OUTCOME_KINDS
            given.add((outcome.kind, outcome.category))
    # The walk meets the new kinds too, so the lists are not checked against nothing.
    kinds = {kind for kind, _category in given}
    assert {"count-out", "same-step", "condition", "conditions", "highest", "time"} <= kinds


def test_the_engine_names_each_tie_break() -> None:
    """Every way the engine breaks a tie names itself in the outcome, one example of each."""
    swedish = Rules.make("swedish")
    # 16–16: B took more spades in the hand.
    hand = (tally(30, 4, big=True, last=True), tally(22, 9, little=True, aces="SCHD"))
    outcome = rules.score_hand(swedish, hand, (12, 9)).outcome
    assert outcome == rules.Outcome("highest", 1, "spades", 16)
    # Finnish: both reach 16 with the point cards; the higher final total decides.
    finnish = (tally(22, 5, big=True), tally(30, 8, little=True, aces="SCHD"))
    outcome = rules.score_hand(Rules.make("finnish"), finnish, (15, 14)).outcome
    assert outcome is not None and (outcome.kind, outcome.category) == ("same-step", "point_cards")
    # Dominican: both restricted sides meet their condition; most cards comes first.
    dominican = (tally(27, 4), tally(25, 9, big=True, little=True, aces="SCHD"))
    outcome = rules.score_hand(Rules.make("dominican"), dominican, (18, 19)).outcome
    assert outcome == rules.Outcome("conditions", 0, "cards", 21)


def test_every_outcome_fits_the_columns_it_is_stored_in() -> None:
    kind_column = Match._meta.get_field("outcome_kind").max_length
    category_column = Match._meta.get_field("outcome_category").max_length
    assert kind_column and max(len(kind) for kind in rules.OUTCOME_KINDS) <= kind_column
    categories = {category or "" for _rules, _kind, category in DECIDED}
    assert category_column and max(len(category) for category in categories) <= category_column


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_outcome_has_its_sentence_in_every_language(code: str) -> None:
    offline = {}
    for match_rules, kind, category in DECIDED:
        sentence = scoring_extras.outcome_sentence(kind, category)
        with translation.override("en"):
            english = str(sentence)
        with translation.override(code):
            text = scoring_extras.outcome_text(kind, category or "", "Zed", 17, match_rules.target)
            said = str(sentence)
            if not offline:
                offline = scoring_extras.offline_phrases()
        assert "Zed" in text and "%(" not in text, (kind, category)
        if code != "en":
            assert said != english, f"{code}: {english!r} is not translated"
        # The category's words: said, and translated.
        if "%(what)s" in english:
            what = scoring_extras.CATEGORY_TAKEN[category or ""]
            with translation.override(code):
                assert str(what) in text
        # The phone's offline board has the same sentence for the same outcome.
        key = f"{kind}:{category}"
        phrase = offline["outcome"].get(key) or offline["outcome"][kind]
        assert phrase == said, (code, kind, category)
        for name in PLACEHOLDER.findall(phrase):
            assert name in {"name", "target", "total", "what", "before"}
        if "%(what)s" in phrase:
            assert category in offline["taken"]


def test_each_tie_break_is_said_as_what_decided() -> None:
    """The Swedish spade tie-break, several counting out at one step, several Dominican
    conditions: each sentence says what decided, not just "the highest total"."""
    with translation.override("en"):
        spades = scoring_extras.outcome_text("highest", "spades", "Ben", 16, 16)
        step = scoring_extras.outcome_text("same-step", "point_cards", "Ben", 22, 16)
        conditions = scoring_extras.outcome_text("conditions", "cards", "Ana", 21, 21)
    assert "spades" in spades and "16" in spades
    assert "same step" in step and "point cards" in step
    assert "first in the count-out order" in conditions and "most cards" in conditions


# --- every page, every outcome, every language ---------------------------------------------


def _winning_hand(variant: Variant) -> tuple[rules.Tally, ...]:
    return (
        tally(
            30,
            9,
            big=True,
            little=True,
            aces="SCHD",
            last=variant is Variant.SWEDISH,
            jack=variant is Variant.SPADE,
        ),
        tally(22, 4),
    )


@pytest.fixture(scope="module")
def built_tables(django_db_setup: None, django_db_blocker: Any) -> Iterator[tuple[Any, dict]]:
    """The tables, built once for the module's seven languages (rolled back after the last)."""
    with built_once(django_db_blocker):
        with django_db_blocker.unblock():
            user = get_user_model().objects.create_user(username="outcomes")
            made = _make_tables(user)
        yield user, made


@pytest.fixture
def tables(built_tables: tuple[Any, dict], client: Any) -> dict[Rules, dict[str, Any]]:
    """Ana logged in; her tables' pages drawn afresh (each test sets its own outcomes on the
    same matches, at the same versions: no fragment kept from the last test's may be reused)."""
    user, made = built_tables
    caches["fragments"].clear()
    client.force_login(user)
    return made


def _make_tables(user: Any) -> dict[Rules, dict[str, Any]]:
    """For every set of rules an event of Ana and Ben whose one table's match Ana has won, shared,
    on its big screen: each page that shows the match, by name."""
    circle = user.personal_circle
    ana, ben = (services.player_create(circle=circle, name=name) for name in ("Ana", "Ben"))
    made = {}
    for number, match_rules in enumerate(dict.fromkeys(r for r, _k, _c in DECIDED)):
        event = events.event_create(
            circle=circle,
            by=user,
            name=f"Night {number}",
            day=datetime.date(2026, 12, 4),
            fmt="swiss",
            rules=match_rules,
            players=[ana, ben],
        )
        events.round_pair(event=event, number=1)
        match = EventTable.objects.get(round__event=event, match__isnull=False).match
        for hand in itertools.count(1):
            match.refresh_from_db()
            if match.status == Match.Status.WON:
                break
            services.hand_record(
                match=match, number=hand, tallies=_winning_hand(match_rules.variant)
            )
        event = links.share_link_create(match=event)
        match = links.share_link_create(match=match)
        made[match_rules] = {
            "match": match,
            "board": reverse("scoring:match", args=[match.pk]),
            "sheet": reverse("scoring:match-sheet", args=[match.pk]),
            "share": reverse("scoring:shared-match", args=[match.share_token]),
            "big screen": reverse("scoring:event-screen", args=[event.share_token]),
            "history": reverse("scoring:match-list"),
            "player": reverse("scoring:player", args=[ana.pk]),
        }
    return made


def _rounds() -> list[dict[Rules, tuple[str, str | None]]]:
    """DECIDED dealt out in rounds: in each, every set of rules takes its next outcome, so the
    pages that list every match (the history, the player page) show many outcomes at once."""
    by_rules: dict[Rules, list[tuple[str, str | None]]] = {}
    for match_rules, kind, category in DECIDED:
        by_rules.setdefault(match_rules, []).append((kind, category))
    return [
        {r: outcomes[index] for r, outcomes in by_rules.items() if index < len(outcomes)}
        for index in range(max(len(outcomes) for outcomes in by_rules.values()))
    ]


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("code", LANGUAGES)  # a language a test: seven that run side by side
def test_every_page_shows_every_outcome_in_every_language(
    client: Any, tables: dict, code: str
) -> None:
    """The board and the share page say every outcome's sentence; the score sheet and the big
    screen render for every kind of each game, the history and the player page with every
    outcome among their matches (the pages that do not say why a match was won)."""
    shown: set[tuple[str, Rules, str]] = set()  # (language, rules, kind) of the sheet's renders
    for outcomes in _rounds():
        for match_rules, (kind, category) in outcomes.items():
            Match.objects.filter(pk=tables[match_rules]["match"].pk).update(
                outcome_kind=kind, outcome_category=category or "", version=F("version") + 1
            )
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
        urls = [(None, "history", tables[next(iter(tables))]["history"])]
        urls.append((None, "player", tables[next(iter(tables))]["player"]))
        for match_rules, (kind, _category) in outcomes.items():
            pages = tables[match_rules]
            urls += [
                (match_rules, "board", pages["board"]),
                (match_rules, "share", pages["share"]),
            ]
            if (code, match_rules, kind) not in shown:
                shown.add((code, match_rules, kind))
                urls += [(match_rules, page, pages[page]) for page in ("sheet", "big screen")]
        for match_rules, page, url in urls:
            response = client.get(url)
            where = (code, page, match_rules and outcomes[match_rules])
            assert response.status_code == 200, where
            assert response.headers["Content-Language"] == code, where
            if page in ("board", "share"):
                kind, category = outcomes[match_rules]
                with translation.override(code):
                    sentence = scoring_extras.outcome_text(
                        kind,
                        category or "",
                        "Ana",
                        _total(tables, match_rules),
                        match_rules.target,
                    )
                assert escape(sentence) in response.content.decode(), where


def _total(tables: dict, match_rules: Rules) -> int:
    return tables[match_rules]["match"].sides.get(position=0).total


# The file whose board answered 500: Finnish Kasino from 14–13, Ana reaches 16 first with the
# point cards.
FINNISH_POINT_CARDS = (
    '{"format":"casino-score/1","rules":{"variant":"finnish"},"sides":[{"players":["Ana"]},'
    '{"players":["Ben"]}],"start_totals":[14,13],"hands":[{"tallies":[{"cards":20,"spades":4,'
    '"big_casino":true,"little_casino":true,"aces":"SCHD","sweeps":0},{"cards":32,"spades":9,'
    '"big_casino":false,"little_casino":false,"aces":"","sweeps":0}]}]}'
)


@pytest.mark.django_db
def test_a_count_out_won_with_the_point_cards_is_said_on_its_board(user: Any, client: Any) -> None:
    from scoring.sharing import exchange

    (match,) = exchange.matches_import(
        circle=user.personal_circle, text=FINNISH_POINT_CARDS
    ).matches
    assert (match.outcome_kind, match.outcome_category) == ("count-out", "point_cards")
    client.force_login(user)
    response = client.get(reverse("scoring:match", args=[match.pk]))
    assert response.status_code == 200
    said = "Counting out, Ana reached 16 first (with the point cards (aces, 10♦ and 2♠))."
    assert said in response.content.decode()
    token = links.share_link_create(match=match).share_token
    shared = client.get(reverse("scoring:shared-match", args=[token]))
    assert shared.status_code == 200 and said in shared.content.decode()


@pytest.mark.django_db
def test_the_save_that_wins_by_the_pegged_step_answers_with_its_words(
    user: Any, client: Any
) -> None:
    """Spade Casino from 55–52: Ana pegs to 68, Ben to 60 and 63 with most cards; Ana wins at
    the pegged step, and the save's answer (htmx) says so."""
    circle = user.personal_circle
    ana, ben = (services.player_create(circle=circle, name=name) for name in ("Ana", "Ben"))
    match = services.match_start(
        circle=circle, rules=Rules.make("spade"), sides=[[ana], [ben]], start_totals=[55, 52]
    )
    client.force_login(user)
    fields = {
        "number": 1,
        "cards_0": 20,
        "spades_0": 9,
        "cards_1": 32,
        "spades_1": 4,
        "sweeps_0": 0,
        "sweeps_1": 0,
        "card_10D": 0,
        "card_2S": 1,
        "card_AS": 1,
        "card_AC": 1,
        "card_AH": 0,
        "card_AD": 0,
        "card_JS": 1,
    }
    response = client.post(
        reverse("scoring:hand-create", args=[match.pk]), fields, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200, response.content.decode()[:500]
    match.refresh_from_db()
    assert (match.outcome_kind, match.outcome_category) == ("count-out", "pegged")
    said = "Counting out, Ana reached 61 first (with the pegged points"
    assert said in response.content.decode()
    # The same save sent again (a phone that did not hear the answer) gets the board too.
    again = client.post(
        reverse("scoring:hand-create", args=[match.pk]), fields, headers={"HX-Request": "true"}
    )
    assert again.status_code == 200 and said in again.content.decode()
    assert match.hands.count() == 1


@pytest.mark.django_db
def test_swedish_equal_totals_decided_by_spades_say_so_on_the_board(user: Any, client: Any) -> None:
    circle = user.personal_circle
    ana, ben = (services.player_create(circle=circle, name=name) for name in ("Ana", "Ben"))
    match = services.match_start(
        circle=circle, rules=Rules.make("swedish"), sides=[[ana], [ben]], start_totals=[12, 9]
    )
    # Ana: most cards 1, 10♦ 2, last capture 1 -> 16. Ben: most spades 2, 2♠ 1, four aces -> 16.
    hand = (tally(30, 4, big=True, last=True), tally(22, 9, little=True, aces="SCHD"))
    services.hand_record(match=match, number=1, tallies=hand)
    client.force_login(user)
    body = client.get(reverse("scoring:match", args=[match.pk])).content.decode()
    assert "Ben wins!" in body
    assert (
        "Several sides reached 16 and share the highest total, 16: Ben took more spades in this "
        "hand, which decides."
    ) in body
