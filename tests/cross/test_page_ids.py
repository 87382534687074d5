"""Every page of the app, walked from the URL resolver without a browser: each id is given once
(what a <template> holds aside: it is not in the document), and each label names a control
that is there.

A label whose `for` names an id given twice focuses (and names) the first control of that id, not
its own: two forms on one page with a field of the same name ("player") did that.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from test_authorization_matrix import OWNER_MARK, World, all_pages, build_world

from scoring.models import Event

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


class Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.named: list[tuple[str, str]] = []  # ("label for", the id it names)
        self._templates = 0  # inside a <template>: inert, not in the document (until cloned)

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self._templates -= 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "template":
            self._templates += 1
        if self._templates:
            return
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.ids[values["id"]] += 1
        if tag == "label" and values.get("for"):
            self.named.append(("label for", values["for"]))


def id_problems(body: str) -> list[str]:
    parser = Ids()
    parser.feed(body)
    parser.close()
    problems = [
        f"id {name!r} given {count} times" for name, count in parser.ids.items() if count > 1
    ]
    problems += [
        f"{what}={named!r}: no such id" for what, named in parser.named if named not in parser.ids
    ]
    return problems


@pytest.fixture
def world(user: Any, other_user: Any) -> World:
    world = build_world(user, other_user, OWNER_MARK, "Yusuf")
    # Rounds left to pair: the event page shows every organiser's form (who leaves, a late
    # arrival, pair, time, abandon).
    Event.objects.filter(pk=world.event.pk).update(rounds=3)
    return world


def test_every_page_gives_each_id_once(world: World) -> None:
    owner = Client()
    owner.force_login(world.owner)
    anonymous = Client()
    problems: list[str] = []
    seen = 0
    for route, url in all_pages(world):
        for client in (owner, anonymous) if route.is_public else (owner,):
            response = client.get(url)
            if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
                continue
            seen += 1
            problems += [f"{url}: {problem}" for problem in id_problems(response.content.decode())]
    assert seen >= 20
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_label_that_names_a_doubled_id() -> None:
    page = (
        '<label for="id_player">Who</label><select id="id_player"></select>'
        '<label for="id_player">Player</label><select id="id_player"></select>'
        '<label for="gone">Gone</label><template><i id="kept"></i><i id="kept"></i></template>'
    )
    assert id_problems(page) == ["id 'id_player' given 2 times", "label for='gone': no such id"]
