"""Card terms in the catalogues are the words card players use at the table, not calques.

Thai says คาสิโนใหญ่ / คาสิโนเล็ก, Slovenian calls the dealer "delilec", and Russian calls a full
pass through the deck "раздача" (each four-card deal stays "сдача") and a capture "взятие", since
"взятка" is a trick in trick-taking games.
"""

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"

# "кон" in any case form as a word of its own; "конец", "контроль", "иконка" do not match.
# The horse forms (коня, коню, ...) are listed too: they are only ever a slip for "кон".
OLD_RU_HAND = r"(?<![а-яё])кон(а|у|ом|е|ы|ов|ам|ами|ах|я|ю|ём|ей|ям|ями|ях)?(?![а-яё])"

RETIRED = {
    "th": re.compile("บิ๊กคาสิโน|ลิตเติลคาสิโน"),
    "sl": re.compile(r"\b(delivec\b|delivc\w*)", re.IGNORECASE),
    "ru": re.compile(rf"{OLD_RU_HAND}|взятк", re.IGNORECASE),
}

WANTED = {
    "th": ["คาสิโนใหญ่", "คาสิโนเล็ก"],
    "sl": ["delilec"],
    "ru": ["раздач"],
}


def _translations(code: str) -> list[tuple[str, str]]:
    """Every (msgid, translated string) pair, one per plural form."""
    po = polib.pofile(str(LOCALE / code / "LC_MESSAGES" / "django.po"))
    pairs = []
    for entry in po:
        forms = [entry.msgstr, *entry.msgstr_plural.values()]
        pairs.extend((entry.msgid, form) for form in forms if form)
    return pairs


@pytest.mark.parametrize("code", sorted(RETIRED))
def test_retired_terms_are_gone(code):
    found = [
        f"{msgid!r}: {match.group(0)!r}"
        for msgid, text in _translations(code)
        for match in [RETIRED[code].search(text)]
        if match
    ]
    assert not found, f"{code} still uses a retired term in:\n" + "\n".join(found)


@pytest.mark.parametrize("code", sorted(WANTED))
def test_new_terms_are_used(code):
    texts = [text.lower() for _, text in _translations(code)]
    for term in WANTED[code]:
        assert any(term in text for text in texts), f"{code}: no translation uses {term!r}"


@pytest.mark.parametrize(
    ("text", "retired"),
    [
        ("Кон %(number)d сохранён.", True),
        ("Сыграно конов", True),
        ("в этом коне", True),
        ("Каждая чистка (взятка, после которой стол пуст)", True),
        ("Под конец игры", False),
        ("контроль, конечно, иконка, законный, кончится", False),
        ("Раздача %(number)d сохранена.", False),
    ],
)
def test_russian_pattern_matches_only_the_old_word(text, retired):
    assert bool(RETIRED["ru"].search(text)) is retired
