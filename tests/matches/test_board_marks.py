"""The board's marks at the end of a match and while it is played: the deciding hand marks its
winner (not the side that ends higher), a team's win takes the plural, and "plays first" (the
turn) and "ahead" (the score) are two words, in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation
from helpers import FIRST_8, FIRST_11, HX, app_url, tally

from scoring.engine.rules import Rules
from scoring.matches import selectors, services
from scoring.sharing import links
from scoring.templatetags import scoring_extras

pytestmark = pytest.mark.django_db
LANGUAGES = [code for code, _ in settings.LANGUAGES]
# Royal Casino from 18–19: Ana reaches 21 first on most cards; Ben ends higher, 25 to 23.
COUNT_OUT_WIN = (tally(27, 5, aces="HD"), tally(25, 8, big=True, little=True, aces="SC"))


def _last_row(body: str) -> str:
    rows = re.findall(r'<tr class="hand-row">.*?</tr>', body, flags=re.S)
    return rows[-1]


def _count_out_won(user: Any, players: list[Any], hands_before: int = 0) -> Any:
    ana, ben = players[:2]
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("royal"),
        sides=[[ana], [ben]],
        start_totals=[18 - 4 * hands_before, 19 - 4 * hands_before],
    )
    for number in range(1, hands_before + 1):
        # 4 points each: 26–26 cards, spades 6–7: Ana 2♠ A♠ A♣ A♥ = 4; Ben spades 1, 10♦ 2, A♦ 1.
        services.hand_record(
            match=match,
            number=number,
            tallies=(
                tally(26, 6, little=True, aces="SCH"),
                tally(26, 7, big=True, aces="D"),
            ),
        )
    services.hand_record(match=match, number=hands_before + 1, tallies=COUNT_OUT_WIN)
    match.refresh_from_db()
    assert match.outcome_kind == "count-out" and match.winner_position == 0
    assert list(match.sides.order_by("position").values_list("total", flat=True)) == [23, 25]
    return match


def test_the_deciding_hand_marks_its_winner_not_the_higher_total(
    user_client: Any, user: Any, players: list[Any]
) -> None:
    match = _count_out_won(user, players)
    token = links.share_link_create(match=match).share_token
    for url in (app_url("match", match), app_url("shared-match", token)):
        row = _last_row(user_client.get(url).content.decode())
        assert "▲" not in row, url  # Ben ends on 25 but lost: he is not marked ahead
        winner_cell = re.search(r'<td class="side-0[^"]*">.*?</td>', row, flags=re.S)
        assert winner_cell and "★" in winner_cell.group() and "winner" in winner_cell.group()
    rows = selectors.match_board(match).hands
    assert rows[-1].winner == 0 and rows[-1].leader is None


def test_the_save_that_decides_appends_its_row_with_the_winner_marked(
    user_client: Any, user: Any, players: list[Any]
) -> None:
    """The save's answer (htmx) adds the deciding hand's row to the sheet: ★ on the winner."""
    ana, ben = players[:2]
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("royal"),
        sides=[[ana], [ben]],
        start_totals=[14, 15],
    )
    services.hand_record(
        match=match,
        number=1,
        tallies=(tally(26, 6, little=True, aces="SCH"), tally(26, 7, big=True, aces="D")),
    )
    # Hand 2, from 18–19, as COUNT_OUT_WIN: Ana has 27 cards, 5 spades, A♥ A♦.
    data = {"number": "2", "cards_0": "27", "spades_0": "5", "card_10D": "1", "card_2S": "1"}
    data.update({"card_AS": "1", "card_AC": "1", "card_AH": "0", "card_AD": "0"})
    body = user_client.post(app_url("hand-create", match), data, headers=HX).content.decode()
    match.refresh_from_db()
    assert match.outcome_kind == "count-out" and match.winner_position == 0
    row = _last_row(body)
    assert "▲" not in row and "★" in row


def test_while_playing_the_side_ahead_is_marked_ahead(user_client: Any, casino_match: Any) -> None:
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    body = user_client.get(app_url("match", casino_match)).content.decode()
    assert '<span class="badge">▲ ahead</span>' in body
    assert '▲<span class="visually-hidden"> ahead</span>' in _last_row(body)
    assert "Plays first:</span> <strong>Ana</strong>" in body
    assert not re.search(r"\b[Ll]eads\b", body)  # one word for two things no more


@pytest.mark.parametrize("code", LANGUAGES)
def test_plays_first_and_ahead_are_two_words_in_every_language(code: str) -> None:
    with translation.override(code):
        ahead = translation.gettext("ahead")
        first = translation.gettext("Plays first:").rstrip(": ")
        words = scoring_extras.offline_phrases()
    assert ahead and first and ahead != first
    assert words["ahead"] == ahead and words["plays_first_label"].startswith(first)


@pytest.mark.parametrize(
    ("code", "one", "team"),
    [
        ("en", "Ana wins!", "Ana & Cy win!"),
        ("sl", "Ana zmaga!", "Ana & Cy zmagata!"),  # the dual
        ("es", "¡Gana Ana!", "¡Ganan Ana & Cy!"),
        ("bg", "Ana печели!", "Ana & Cy печелят!"),
        ("ru", "Ana побеждает!", "Ana & Cy побеждают!"),
        ("uk", "Ana перемагає!", "Ana & Cy перемагають!"),
        ("th", "Ana ชนะ!", "Ana & Cy ชนะ!"),
    ],
)
def test_a_team_takes_the_plural(
    client: Any, user: Any, players: list[Any], code: str, one: str, team: str
) -> None:
    ana, ben, cy, dee = players
    circle = user.personal_circle
    alone = services.match_start(circle=circle, rules=Rules.make("casino"), sides=[[ana], [ben]])
    teams = services.match_start(
        circle=circle, rules=Rules.make("casino"), sides=[[ana, cy], [ben, dee]]
    )
    for match in (alone, teams):
        for number in (1, 2):
            services.hand_record(match=match, number=number, tallies=FIRST_11)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    for match, said in ((alone, one), (teams, team)):
        body = client.get(app_url("match", match)).content.decode()
        assert f"<h2>{said.replace('&', '&amp;')}</h2>" in body, (code, said)
