"""Server-rendered SVG charts: geometry only (pure Python); the markup is in the templates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Lines differ by dash pattern and marker shape as well as colour, so colour is never the only cue.
STYLES = (
    ("", "circle"),
    ("6 4", "square"),
    ("2 3", "triangle"),
    ("10 3 2 3", "diamond"),
)


@dataclass(frozen=True)
class Series:
    name: str
    index: int
    points: str  # "x,y x,y ..." for <polyline>
    markers: list[tuple[float, float]]
    dash: str
    marker: str
    last: tuple[float, float]
    final: int
    label_y: float = 0.0


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    bottom: float
    series: list[Series]
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, int]]
    target_y: float | None
    target: int


@dataclass(frozen=True)
class _Frame:
    """The plot area inside a chart's margins, and how hands and totals map onto it."""

    left: int
    top: int
    width: int
    height: int
    hands: int  # hands along the x axis (at least 1)
    top_value: int  # the total at the top of the y axis (at least 1)

    def x(self, hand: int) -> float:
        return round(self.left + self.width * hand / self.hands, 1)

    def y(self, value: int) -> float:
        return round(self.top + self.height * (1 - value / self.top_value), 1)


def running_totals_chart(
    names: Sequence[str],
    totals: Sequence[Sequence[int]],
    target: int,
    *,
    width: int = 340,
    height: int = 220,
) -> Chart:
    """A line per side of its running total, hand by hand.

    `totals[i]` lists the totals after hand i, with index 0 holding the start totals.
    """
    left, right, top, bottom_margin = 30, 70, 10, 24
    frame = _Frame(
        left=left,
        top=top,
        width=width - left - right,
        height=height - top - bottom_margin,
        hands=max(len(totals) - 1, 1),
        top_value=max([target, *(t for row in totals for t in row)]) or 1,
    )
    series = _series(frame, names, totals)
    _place_end_labels(series)
    return Chart(
        width=width,
        height=height,
        left=left,
        bottom=float(top + frame.height),
        series=series,
        y_ticks=_y_ticks(frame),
        x_ticks=_x_ticks(frame, len(totals)),
        target_y=frame.y(target),
        target=target,
    )


def _series(frame: _Frame, names: Sequence[str], totals: Sequence[Sequence[int]]) -> list[Series]:
    """One line per side, each with its own dash pattern and marker shape."""
    series = []
    for index, name in enumerate(names):
        coords = [(frame.x(hand), frame.y(row[index])) for hand, row in enumerate(totals)]
        dash, marker = STYLES[index % len(STYLES)]
        series.append(
            Series(
                name=name,
                index=index,
                points=" ".join(f"{cx},{cy}" for cx, cy in coords),
                markers=coords,
                dash=dash,
                marker=marker,
                last=coords[-1],
                final=totals[-1][index],
            )
        )
    return series


def _place_end_labels(series: Sequence[Series]) -> None:
    """Set each line's end label height, keeping labels at least a line apart when totals end
    close together."""
    placed: list[float] = []
    for line in sorted(series, key=lambda line: line.last[1]):
        label_y = line.last[1] + 4
        if placed and label_y - placed[-1] < 13:
            label_y = placed[-1] + 13
        placed.append(label_y)
        object.__setattr__(line, "label_y", label_y)


def _y_ticks(frame: _Frame) -> list[tuple[float, int]]:
    """About four steps from 0 up to the top of the axis: (height, total)."""
    step = max(1, round(frame.top_value / 4))
    return [(frame.y(value), value) for value in range(0, frame.top_value + 1, step)]


def _x_ticks(frame: _Frame, rows: int) -> list[tuple[float, int]]:
    """At most about eight hand numbers along the axis: (position, hand)."""
    x_step = max(1, frame.hands // 8 + (1 if frame.hands % 8 else 0))
    return [(frame.x(hand), hand) for hand in range(0, rows, x_step)]


@dataclass(frozen=True)
class Sparkline:
    width: int
    height: int
    points: str
    last: tuple[float, float]


def sparkline(values: Sequence[float], *, width: int = 200, height: int = 40) -> Sparkline:
    """A small trend line of `values` (at least one), scaled to fill the box."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    steps = max(len(values) - 1, 1)
    coords = [
        (
            round(2 + (width - 4) * i / steps, 1),
            round(height - 3 - (height - 6) * (v - low) / span, 1),
        )
        for i, v in enumerate(values)
    ]
    return Sparkline(width, height, " ".join(f"{x},{y}" for x, y in coords), coords[-1])
