"""Marks drawn by the style sheet (the ✓ on a chosen chip, on a success message) are decoration:
screen readers must read "Ana", not "✓ Ana". CSS generated content is part of an element's
accessible name unless it carries empty alternative text (`content: "✓" / ""`).

tests/browser/test_accessible_names.py checks the name Chromium actually computes."""

from __future__ import annotations

import re
from pathlib import Path

APP_CSS = Path(__file__).resolve().parents[2] / "scoring" / "static" / "scoring" / "app.css"
CHECK_MARK = "✓"


def _content_declarations(css: str) -> list[tuple[str, list[str]]]:
    """(selector, values of its `content` declarations in order) for every rule that has any."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    rules = []
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        values = [
            value.strip()
            for name, value in (
                declaration.split(":", 1) for declaration in body.split(";") if ":" in declaration
            )
            if name.strip() == "content"
        ]
        if values:
            rules.append((" ".join(selector.split()), values))
    return rules


def _alt_text(value: str) -> str | None:
    """The alternative text of a `content` value ("✓ " / "" gives ""), None when it has none."""
    match = re.fullmatch(r'(?:"[^"]*"|\'[^\']*\')\s*/\s*("[^"]*"|\'[^\']*\')', value)
    return match.group(1)[1:-1] if match else None


def test_the_parser_tells_a_spoken_mark_from_a_silent_one() -> None:
    rules = dict(_content_declarations('a::before { content: "✓ "; }\nb::after{content:"✓" / ""}'))
    assert _alt_text(rules["a::before"][-1]) is None
    assert _alt_text(rules["b::after"][-1]) == ""


def test_every_check_mark_in_the_style_sheet_is_silent() -> None:
    rules = [
        (selector, values)
        for selector, values in _content_declarations(APP_CSS.read_text(encoding="utf-8"))
        if any(CHECK_MARK in value for value in values)
    ]
    selectors = [selector for selector, _ in rules]
    assert any(".chip" in selector and ":checked" in selector for selector in selectors), selectors
    for selector, values in rules:
        # Browsers without the `/ alt` syntax drop the last declaration and keep an earlier one;
        # every browser that has it uses the last one, which must say nothing.
        assert _alt_text(values[-1]) == "", f"{selector}: {values[-1]} is read aloud"
