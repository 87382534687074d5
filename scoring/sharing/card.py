"""The result card: a finished match's (or club night's) result as an image, made on the server,
to send to a group chat and to preview a shared link (Open Graph).

`draw` knows nothing of matches: it lays out a `Card` (a heading, a line under it, up to four
rows of a name and a number, the winner's marked) on 1200 x 630 pixels, the size chat apps
preview, and answers a PNG. `match_card` and `event_card` say what a match's and an event's
card show (the event's podium comes from the events room, above this one).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext
from PIL import Image, ImageDraw, ImageFont

from scoring.matches.selectors import SideView, match_board
from scoring.models import Event, Match

WIDTH, HEIGHT = 1200, 630
MARGIN = 72
GREEN, WHITE, PALE, GOLD = "#0b6b3a", "#ffffff", "#cfe8d9", "#ffd75e"
MAX_ROWS = 4

# Fonts with Latin, Cyrillic and Greek letters, in the order tried (Debian's fonts-dejavu-core,
# then fonts-liberation, which Chromium brings); Pillow's own font (Latin only) when none is there.
FONTS = {
    False: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    ),
    True: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    ),
}


@dataclass(frozen=True)
class Row:
    name: str
    number: str
    winner: bool = False


@dataclass(frozen=True)
class Card:
    heading: str  # "Ana wins!"
    line: str  # the game, the date
    rows: tuple[Row, ...]
    footer: str

    @property
    def text(self) -> str:
        """The card in words: its image's alternative text and the shared message."""
        rows = ", ".join(f"{row.name} {row.number}" for row in self.rows)
        return f"{self.heading} {rows} · {self.line}"


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=16)
def _font(size: int, bold: bool = False) -> Font:
    for path in FONTS[bold]:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def _fit(text: str, font: Font, width: int) -> str:
    """`text`, cut with an ellipsis where it is wider than `width` pixels."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw(card: Card) -> bytes:
    """The card as a PNG of WIDTH x HEIGHT pixels."""
    image = Image.new("RGB", (WIDTH, HEIGHT), GREEN)
    pen = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    heading, line, footer = _font(64, True), _font(34), _font(28)
    pen.text((MARGIN, 56), _fit(card.heading, heading, inner), font=heading, fill=WHITE)
    pen.text((MARGIN, 140), _fit(card.line, line, inner), font=line, fill=PALE)
    rows = card.rows[:MAX_ROWS]
    step = min(110, 330 // max(1, len(rows)))
    for index, row in enumerate(rows):
        y = 210 + index * step
        size = min(60, step - 20)
        name_font, number_font = _font(size, row.winner), _font(size, True)
        colour = GOLD if row.winner else WHITE
        number_width = int(number_font.getlength(row.number))
        mark = "★ " if row.winner else ""
        name = _fit(mark + row.name, name_font, inner - number_width - 40)
        pen.text((MARGIN, y), name, font=name_font, fill=colour)
        pen.text((WIDTH - MARGIN - number_width, y), row.number, font=number_font, fill=colour)
    pen.line((MARGIN, HEIGHT - 96, WIDTH - MARGIN, HEIGHT - 96), fill=PALE, width=2)
    pen.text((MARGIN, HEIGHT - 76), _fit(card.footer, footer, inner), font=footer, fill=PALE)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _date(moment: Any) -> str:
    """A date (or a moment, in the local time zone) as the reader's language writes dates."""
    if moment is None:
        return ""
    if isinstance(moment, datetime):
        moment = timezone.localtime(moment)
    return formats.date_format(moment, "DATE_FORMAT")


def match_card(match: Match, sides: Sequence[SideView]) -> Card | None:
    """A won match's card (None for one still open, tied or abandoned): who won, each side's
    name and total (the board's `sides`, the winner's marked), the game and the date."""
    winner = next((side for side in sides if side.is_winner), None)
    if match.status != Match.Status.WON or winner is None:
        return None
    heading = ngettext("%(name)s wins!", "%(name)s win!", len(winner.players)) % {
        "name": winner.name
    }
    game = f"{match.get_variant_display()} " + gettext("to %(target)s") % {"target": match.target}
    return Card(
        heading=heading,
        line=" · ".join(part for part in (game, _date(match.finished_at)) if part),
        rows=tuple(Row(side.name, str(side.total), side.is_winner) for side in sides),
        footer=gettext("Casino Scorekeeper"),
    )


def event_card(event: Event, podium: Sequence[tuple[str, int]]) -> Card:
    """A club night's card: its name, the date and its first places with their match points."""
    rows = tuple(
        Row(
            f"{place}. {name}",
            f"{points} " + gettext("MP"),
            winner=place == 1,
        )
        for place, (name, points) in enumerate(podium[:3], start=1)
    )
    return Card(
        heading=event.name,
        line=" · ".join((gettext("Club night"), _date(event.date))),
        rows=rows,
        footer=gettext("Casino Scorekeeper"),
    )


def for_match(match: Match) -> Card | None:
    """The card of `match` as its board shows it, None unless it was won."""
    return match_card(match, match_board(match).sides)


def match_png(match: Match) -> bytes | None:
    found = for_match(match)
    return None if found is None else draw(found)


def event_png(event: Event, podium: Sequence[tuple[str, int]] | None) -> bytes | None:
    """The card of a club night, from its podium (events.selectors.EventPage.podium: None while
    the night is not over)."""
    return None if podium is None else draw(event_card(event, podium))
