"""Every language is complete, compiled, and actually shown on every page."""

import html
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth.password_validation import password_validators_help_texts
from django.urls import reverse
from django.utils import translation
from helpers import FIRST_8, FIRST_11

from scoring.engine import rules
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Profile
from scoring.sharing import links

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _catalogue(code: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / code / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("code", LANGUAGES)
def test_catalogue_is_complete_without_fuzzy_entries(code):
    po = _catalogue(code)
    assert "fuzzy" not in po.metadata_as_entry().flags
    assert po.metadata["Language"] == code
    missing = [entry.msgid for entry in po if not entry.translated()]
    fuzzy = [entry.msgid for entry in po if entry.fuzzy]
    assert not missing and not fuzzy
    assert po.percent_translated() == 100


@pytest.mark.parametrize("code", LANGUAGES)
def test_translations_keep_every_placeholder(code):
    for entry in _catalogue(code):
        wanted = set(PLACEHOLDER.findall(entry.msgid))
        if entry.msgid_plural:
            wanted |= set(PLACEHOLDER.findall(entry.msgid_plural))
            for form in entry.msgstr_plural.values():
                assert set(PLACEHOLDER.findall(form)) <= wanted, entry.msgid
        else:
            assert set(PLACEHOLDER.findall(entry.msgstr)) == wanted, entry.msgid


@pytest.mark.parametrize("code", LANGUAGES)
def test_compiled_catalogue_is_current(code):
    """The committed .mo holds exactly what the .po says (make messages rebuilds it)."""
    po = _catalogue(code)
    mo = polib.mofile(str(LOCALE / code / "LC_MESSAGES" / "django.mo"))
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in mo}
    for entry in po:
        plural = {int(k): v for k, v in entry.msgstr_plural.items()}
        got = compiled.get((entry.msgctxt, entry.msgid))
        assert got is not None, f"{code}: {entry.msgid!r} is not in django.mo; run make messages"
        assert got[0] == entry.msgstr and {int(k): v for k, v in got[1].items()} == plural


@pytest.mark.parametrize("code", LANGUAGES)
def test_engine_messages_are_rendered_in_the_language(code):
    problem = rules.validate(
        [rules.Tally.make(cards=25, spades=6), rules.Tally.make(cards=25, spades=7)]
    )[0]
    with translation.override(code):
        text = problem.describe(["Ana", "Ben"], translation.gettext)
    assert "50" in text and text != "cards add up to 50, not 52"


# --- every page, every language ----------------------------------------------------------


def _english_strings(code: str) -> set[str]:
    """Our English msgids (without placeholders) that `code` translates into other words.

    A msgid that the language keeps (Spanish "Casino") or uses inside a translation is skipped:
    finding it on the page would prove nothing.
    """
    po = _catalogue(code)
    translations = " ".join(entry.msgstr for entry in po)
    strings = set()
    for entry in po:
        if PLACEHOLDER.search(entry.msgid) or entry.msgid_plural or len(entry.msgid) < 4:
            continue
        if not re.search(r"[A-Za-z]{3}", entry.msgid) or entry.msgid in translations:
            continue
        strings.add(entry.msgid)
    return strings


def _visible_text(body: str) -> str:
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    return re.sub(r"\s+", " ", html.unescape(body))


@pytest.fixture
def all_pages(user, players, client):
    ana, ben, cy, dee = players
    won = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[ana], [ben]]
    )
    for number in (1, 2):
        services.hand_record(match=won, number=number, tallies=FIRST_11)
    dominican = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("dominican"),
        sides=[[ana, cy], [ben, dee]],
        start_totals=[18, 19],
    )
    open_match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("royal"), sides=[[cy], [dee]]
    )
    services.hand_record(match=open_match, number=1, tallies=FIRST_8)
    token = links.share_link_create(match=open_match).share_token
    client.force_login(user)
    return [
        reverse("scoring:home"),
        reverse("scoring:match-list"),
        reverse("scoring:match-new"),
        reverse("scoring:player-list"),
        reverse("scoring:match", args=[won.pk]),
        reverse("scoring:match", args=[dominican.pk]),
        reverse("scoring:match", args=[open_match.pk]),
        reverse("scoring:match-sheet", args=[won.pk]),
        reverse("scoring:hand-edit", args=[open_match.pk, 1]),
        reverse("scoring:player", args=[ana.pk]),
        reverse("scoring:head-to-head", args=[ana.pk, ben.pk]),
        reverse("scoring:leaderboard"),
        reverse("scoring:rules-variant", args=["casino"]),
        reverse("scoring:rules-variant", args=["royal"]),
        reverse("scoring:rules-variant", args=["dominican"]),
        reverse("scoring:match-import"),
        reverse("scoring:outbox"),
        reverse("scoring:shared-match", args=[token]),
    ]


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("code", LANGUAGES)
def test_every_page_is_fully_translated(client, all_pages, code):
    english = _english_strings(code)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    for url in all_pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Content-Language"] == code, url
        text = _visible_text(response.content.decode())
        leftovers = sorted(s for s in english if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text))
        assert not leftovers, f"{code} {url}: untranslated {leftovers[:5]}"


def _allauth_strings(code: str) -> set[str]:
    """django-allauth's English msgids (without placeholders) that `code` translates into other
    words: the accounts' pages show allauth's own wording, translated by its catalogue."""
    import allauth

    path = Path(allauth.__file__).parent / "locale" / code / "LC_MESSAGES" / "django.po"
    po = polib.pofile(str(path))
    translations = " ".join(entry.msgstr for entry in po)
    return {
        entry.msgid
        for entry in po
        if entry.translated()
        and not entry.fuzzy
        and len(entry.msgid) >= 4
        and "%" not in entry.msgid
        and "{" not in entry.msgid
        and re.search(r"[A-Za-z]{3}", entry.msgid)
        and entry.msgid not in translations
        and entry.msgid != entry.msgstr
    }


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("code", LANGUAGES)
def test_logged_out_pages_are_translated(client, code):
    """The pages of someone without an account, or who forgot the password: our strings by our
    catalogue, allauth's by its own."""
    english = _english_strings(code) | _allauth_strings(code)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    pages = [
        reverse("login"),
        reverse("account_signup"),
        reverse("account_reset_password"),
        reverse("account_reset_password_done"),
        reverse("account_email_verification_sent"),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        text = _visible_text(response.content.decode())
        with translation.override(code):
            # Django's password rules, in the words Django's own catalogue has (Thai lacks some).
            djangos_own = [html.unescape(t) for t in password_validators_help_texts()]
        for pending in djangos_own:
            text = text.replace(pending, " ")
        leftovers = sorted(s for s in english if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text))
        assert not leftovers, f"{code} {url}: untranslated {leftovers[:5]}"
    signup = _visible_text(client.get(reverse("scoring:signup"), follow=True).content.decode())
    assert "Sign up" not in signup and "Password" not in signup


# --- choosing the language ---------------------------------------------------------------


@pytest.mark.django_db
def test_first_visit_follows_the_browser(client):
    response = client.get(reverse("scoring:home"), headers={"Accept-Language": "th,en;q=0.5"})
    assert response.headers["Content-Language"] == "th"


@pytest.mark.django_db
def test_footer_choice_is_remembered_in_a_cookie(client):
    response = client.post(reverse("scoring:language"), {"language": "sl", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert client.get(reverse("scoring:home")).headers["Content-Language"] == "sl"


@pytest.mark.django_db
def test_language_choice_refuses_foreign_redirects_and_unknown_languages(client):
    response = client.post(
        reverse("scoring:language"), {"language": "xx", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("scoring:home")
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert client.get(reverse("scoring:language")).status_code == 405


@pytest.mark.django_db
def test_signed_in_choice_is_kept_on_the_account(client, user, django_user_model):
    client.force_login(user)
    client.post(reverse("scoring:language"), {"language": "ru", "next": "/"})
    assert Profile.objects.get(user=user).language == "ru"
    other_device = type(client)()
    other_device.force_login(user)
    response = other_device.get(reverse("scoring:match-list"), headers={"Accept-Language": "es"})
    assert response.headers["Content-Language"] == "ru"


@pytest.mark.django_db
def test_numbers_and_dates_follow_the_locale(client, user, players):
    match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[players[0]], [players[1]]]
    )
    services.hand_record(match=match, number=1, tallies=FIRST_8)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    body = client.get(reverse("scoring:player", args=[players[0].pk])).content.decode()
    assert "8,0" in body  # points per hand with a decimal comma
