"""What a newcomer reads first: every page's footer, the README and the package name all six
games, and the forms' help (the password rules are a list) is valid HTML."""

import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from scoring.models import Match

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
GAMES = [str(label) for label in Match.Variant.labels]


class Footer(HTMLParser):
    """The text of the page's <footer>."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.inside = self.inside or tag == "footer"

    def handle_endtag(self, tag: str) -> None:
        if tag == "footer":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text += data


# Elements a <p> cannot hold: the parser closes the paragraph before them, and what was meant as
# the paragraph's content (help text) ends up outside it, unstyled.
BLOCKS = {
    "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol",
    "p", "pre", "section", "table", "ul",
}  # fmt: skip


class BlocksInParagraphs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.paragraph: str | None = None
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.paragraph is not None and tag in BLOCKS:
            self.found.append(f"<{tag}> in {self.paragraph}")
        if tag == "p":
            self.paragraph = f"<p {dict(attrs)}>"

    def handle_endtag(self, tag: str) -> None:
        if tag == "p":
            self.paragraph = None


@pytest.mark.parametrize("route", ["scoring:home", "account_signup", "scoring:rules"])
def test_the_footer_names_every_game(client, route: str) -> None:
    assert len(GAMES) == 6, GAMES
    footer = Footer()
    footer.feed(client.get(reverse(route)).content.decode())
    missing = [game for game in GAMES if game not in footer.text]
    assert not missing, footer.text


def test_the_readme_and_the_package_name_every_game() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_paragraph = readme.split("\n\n")[1].replace("**", "").replace("\n", " ")
    assert [game for game in GAMES if game not in first_paragraph] == [], first_paragraph
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert [game for game in GAMES if game not in project["description"]] == []


def test_forms_help_is_never_a_block_inside_a_paragraph(client, user) -> None:
    routes = ["account_signup", "account_login", "account_reset_password", "scoring:home"]
    found = {route: _blocks_in_paragraphs(client, route) for route in routes}
    client.force_login(user)
    for route in ["scoring:player-list", "scoring:match-new", "scoring:circles"]:
        found[route] = _blocks_in_paragraphs(client, route)
    assert {route: blocks for route, blocks in found.items() if blocks} == {}


def _blocks_in_paragraphs(client, route: str) -> list[str]:
    response = client.get(reverse(route))
    assert response.status_code == 200, route
    parser = BlocksInParagraphs()
    parser.feed(response.content.decode())
    return parser.found
