import html
import re
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from helpers import FIRST_11, HX

from scoring.engine.rules import Rules
from scoring.history import selectors as history
from scoring.matches import demo, services, stats
from scoring.models import Match, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def won_match(casino_match):
    for number in (1, 2):
        services.hand_record(match=casino_match, number=number, tallies=FIRST_11)
    casino_match.refresh_from_db()
    return casino_match


def _pages(match: Match, first: Player, second: Player) -> list[str]:
    return [
        reverse("scoring:match-list"),
        reverse("scoring:match-sheet", args=[match.pk]),
        reverse("scoring:player", args=[first.pk]),
        reverse("scoring:head-to-head", args=[first.pk, second.pk]),
        reverse("scoring:leaderboard"),
    ]


def test_history_pages_render_for_the_owner(user_client, won_match, players):
    for url in _pages(won_match, players[0], players[1]):
        response = user_client.get(url)
        assert response.status_code == 200, url
        assert user_client.get(url, headers=HX).status_code == 200, url


def test_history_pages_refuse_post_except_player_page(user_client, won_match, players):
    pages = _pages(won_match, players[0], players[1])
    for url in pages[:2] + pages[3:]:
        assert user_client.post(url).status_code == 405, url


def test_history_pages_of_another_user_are_404(client, other_user, won_match, players):
    client.force_login(other_user)
    for url in _pages(won_match, players[0], players[1])[1:4]:
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("scoring:player-merge", args=[players[0].pk])).status_code == 404


def test_history_lists_final_score_winner_and_filters(user_client, won_match, players, user):
    royal = services.match_start(
        circle=user.personal_circle, rules=Rules.make("royal"), sides=[[players[2]], [players[3]]]
    )
    body = user_client.get(reverse("scoring:match-list")).content.decode()
    assert "Ana 22" in body and "★" in body and "Royal Casino" in body
    filtered = user_client.get(reverse("scoring:match-list"), {"variant": "royal"}).content.decode()
    assert royal.get_absolute_url() in filtered
    assert reverse("scoring:match-sheet", args=[won_match.pk]) not in filtered
    by_player = user_client.get(reverse("scoring:match-list"), {"player": players[0].pk})
    assert royal.get_absolute_url() not in by_player.content.decode()
    by_status = user_client.get(reverse("scoring:match-list"), {"status": "won"}).content.decode()
    assert royal.get_absolute_url() not in by_status


def test_history_load_more_returns_rows_only(user_client, user, players):
    for _ in range(25):
        services.match_start(
            circle=user.personal_circle,
            rules=Rules.make("casino"),
            sides=[[players[0]], [players[1]]],
        )
    first = user_client.get(reverse("scoring:match-list")).content.decode()
    assert first.count('class="variant"') == 20 and "page=2" in first
    more = user_client.get(reverse("scoring:match-list"), {"page": 2}, headers=HX).content.decode()
    assert more.count('class="variant"') == 5 and "<html" not in more and "Load more" not in more
    plain = user_client.get(reverse("scoring:match-list"), {"page": 2}).content.decode()
    assert "<html" in plain and plain.count('class="variant"') == 5


def test_score_sheet_has_chart_and_text_alternative(user_client, won_match):
    body = user_client.get(reverse("scoring:match-sheet", args=[won_match.pk])).content.decode()
    assert "<svg" in body and 'role="img"' in body and "<desc" in body
    assert "Ana: 22." in body  # the chart's description
    assert "<table" in body and "<strong>22</strong>" in body


def test_player_page_rename(user_client, players):
    url = reverse("scoring:player", args=[players[0].pk])
    assert user_client.post(url, {"name": "Anna"}).status_code == 302
    assert Player.objects.get(pk=players[0].pk).name == "Anna"
    response = user_client.post(url, {"name": "ben"})
    assert "You already have a player called ben." in response.content.decode()


def test_merge_is_previewed_then_done(user_client, players, user):
    twin = services.player_create(circle=user.personal_circle, name="Ana B.")
    url = reverse("scoring:player-merge", args=[twin.pk])
    preview = user_client.post(url, {"target": players[0].pk})
    assert "will move to Ana" in preview.content.decode()
    assert Player.objects.filter(pk=twin.pk).exists()
    done = user_client.post(url, {"target": players[0].pk, "confirm": "1"})
    assert done.status_code == 302 and not Player.objects.filter(pk=twin.pk).exists()


@pytest.mark.slow
def test_page_queries_do_not_grow_with_history(user_client, user, django_assert_max_num_queries):
    """The same number of queries with 10 matches and with 200: stats come from aggregates."""
    demo.seed(user.personal_circle, 10, seed=3)
    first, second = Player.objects.filter(circle=user.personal_circle).order_by("pk")[:2]
    urls = _pages(
        Match.objects.filter(circle=user.personal_circle, status="won").first(), first, second
    )
    counts = []
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            assert user_client.get(url).status_code == 200
        counts.append(len(queries))
    demo.seed(user.personal_circle, 190, seed=4)
    assert Match.objects.filter(circle=user.personal_circle).count() == 200
    for url, count in zip(urls, counts, strict=True):
        with django_assert_max_num_queries(count):
            assert user_client.get(url).status_code == 200


def test_seed_demo_command_plays_valid_matches(django_user_model):
    call_command("seed_demo", "--matches", "3", "--owner", "demo")
    owner = django_user_model.objects.get(username="demo")
    matches = Match.objects.filter(circle=owner.personal_circle)
    assert matches.count() == 3
    assert all(m.status in ("won", "abandoned") and m.hand_count >= 1 for m in matches)


def _leaderboard_sections(body: str) -> tuple[list[str], list[str]]:
    """Player names in the ranked table, and in the "not rated yet" list, in page order."""
    table = body.split('<table class="stats-table leaderboard">', 1)
    ranked = table[1].split("</table>", 1)[0] if len(table) == 2 else ""
    rest = table[1].split("</table>", 1)[1] if len(table) == 2 else body
    unrated = rest.split('<ul class="unrated">', 1)
    waiting = unrated[1].split("</ul>", 1)[0] if len(unrated) == 2 else ""

    def names(html: str) -> list[str]:
        return re.findall(r'<a href="/players/\d+/">([^<]*)</a>', html)

    return names(ranked), names(waiting)


def test_leaderboard_ranks_unrated_players_below_every_rated_one(user_client, user, players):
    # One rated player below zero (a loss), four with a rating above, five never rated.
    Player.objects.filter(pk=players[0].pk).update(rating=-1.8, rated_matches=1)
    for rank, player in enumerate(players[1:], start=1):
        Player.objects.filter(pk=player.pk).update(rating=10.0 - rank, rated_matches=rank)
    for name in ("Eve", "Fay", "Gus", "Hal", "Ivy"):
        services.player_create(circle=user.personal_circle, name=name)  # rating 0.0, no rated match

    board = [(p.name, p.rated) for p in history.leaderboard(user.personal_circle)]
    assert board == [
        ("Ben", True),
        ("Cy", True),
        ("Dee", True),
        ("Ana", True),
        *((name, False) for name in ("Eve", "Fay", "Gus", "Hal", "Ivy")),
    ]

    body = user_client.get(reverse("scoring:leaderboard")).content.decode()
    ranked, waiting = _leaderboard_sections(body)
    assert ranked == ["Ben", "Cy", "Dee", "Ana"]
    assert waiting == ["Eve", "Fay", "Gus", "Hal", "Ivy"]
    assert "Not rated yet" in body
    assert "0.0" not in body.split("</table>", 1)[1]  # no made-up rating for the unrated


def test_leaderboard_with_nobody_rated_lists_everyone_as_not_rated_yet(user_client, players):
    body = user_client.get(reverse("scoring:leaderboard")).content.decode()
    ranked, waiting = _leaderboard_sections(body)
    assert ranked == [] and "<table" not in body
    assert waiting == ["Ana", "Ben", "Cy", "Dee"]


# --- history pages by keyset: "Load more" carries where the page ended ---------------------------

LIST = reverse("scoring:match-list")


def _history(user, players, count=47):
    """`count` matches, some created at the same instant (the pk tells them apart), a few
    abandoned; their statistics rows refreshed (the player filter reads them)."""
    ana, ben, cy, dee = players
    tables = [[[ana], [ben]], [[cy], [dee]], [[ana, cy], [ben, dee]], [[ben], [cy]]]
    matches = [
        services.match_start(
            circle=user.personal_circle,
            rules=Rules.make(("casino", "royal")[i % 2]),
            sides=tables[i % 4],
        )
        for i in range(count)
    ]
    start = timezone.now() - timedelta(days=count)
    for index, match in enumerate(matches):
        Match.objects.filter(pk=match.pk).update(created_at=start + timedelta(days=index // 3))
    for match in matches[::5]:
        services.match_abandon(match=match)
    stats.player_summaries_refresh(matches)
    return matches


def _walk(client, query="", htmx=False):
    """Follow "Load more" from the first page to the last: the matches listed, in order, and
    the number of pages."""
    url, listed, pages = f"{LIST}?{query}", [], 0
    while url:
        body = client.get(url, headers=HX if htmx and pages else {}).content.decode()
        rows = body.split('id="match-rows">', 1)[-1].split("</ul>", 1)[0]
        listed += [int(pk) for pk in re.findall(r'<li>\s*<a href="/matches/(\d+)/', rows)]
        more = re.search(r'<li class="load-more".*?(?:hx-get|href)="([^"]+)"', rows, re.S)
        if htmx and more:
            more = re.search(r'hx-get="([^"]+)"', rows)
        pages += 1
        if more:
            link = html.unescape(more.group(1))
            url = link if link.startswith("/") else f"{LIST}{link}"
        else:
            url = None
    return listed, pages


@pytest.mark.slow
def test_load_more_walks_every_match_once_newest_first(user_client, user, players):
    _history(user, players)
    newest_first = list(
        Match.objects.filter(circle=user.personal_circle)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
    )
    assert _walk(user_client) == (newest_first, 3)
    assert _walk(user_client, htmx=True) == (newest_first, 3)


@pytest.mark.parametrize(
    "filters",
    [
        {"player": 0},
        {"player": 2, "variant": "royal"},
        {"status": "abandoned"},
        {"variant": "casino"},
    ],
)
def test_load_more_keeps_the_filters(user_client, user, players, filters):
    _history(user, players)
    query = {**filters}
    expected = Match.objects.filter(circle=user.personal_circle)
    if "player" in filters:
        query["player"] = players[filters["player"]].pk
        expected = expected.filter(seats__player=players[filters["player"]])
    expected = expected.filter(**{k: v for k, v in filters.items() if k != "player"})
    newest_first = list(expected.order_by("-created_at", "-pk").values_list("pk", flat=True))
    listed, pages = _walk(user_client, urlencode(query))
    assert listed == newest_first and pages == max(1, -(-len(newest_first) // 20))


def test_load_more_link_names_the_last_match_shown(user_client, user, players):
    _history(user, players, count=25)
    body = user_client.get(LIST).content.decode()
    twentieth = Match.objects.filter(circle=user.personal_circle).order_by("-created_at", "-pk")[19]
    cursor = history.history_cursor(twentieth.created_at, twentieth.pk)
    assert f"page=2&amp;after={cursor}" in body
    more = user_client.get(LIST, {"page": 2, "after": cursor}, headers=HX).content.decode()
    assert more.count('class="variant"') == 5 and "Load more" not in more


def test_old_and_spoilt_page_links_still_show_a_page(user_client, user, players):
    _history(user, players, count=25)
    first = user_client.get(LIST).content.decode()
    for params in ({"page": 99}, {"after": "x_y"}, {"after": "99999999999999999999999_1"}):
        body = user_client.get(LIST, params).content.decode()
        assert body.count('class="variant"') == 20, params
        assert re.findall(r"/matches/\d+/", body) == re.findall(r"/matches/\d+/", first)


@pytest.mark.slow
def test_a_deep_page_costs_what_the_first_page_costs(user_client, user, players):
    _history(user, players)
    cursor = ""
    for _ in range(2):
        cursor = history.match_history(user.personal_circle, after=cursor).next_cursor
    user_client.get(LIST)  # the session's first request saves it
    with CaptureQueriesContext(connection) as first:
        user_client.get(LIST)
    with CaptureQueriesContext(connection) as deep:
        assert user_client.get(LIST, {"page": 3, "after": cursor}).status_code == 200
    assert len(deep) == len(first)
    assert not any("OFFSET" in query["sql"].upper() for query in deep.captured_queries)
