"""A chart of a match: cumulative winnings of each bot with its 95% band, as SVG text.

No plotting library is needed: the chart is a few SVG paths. The line is the bot's cumulative
winnings in big blinds after each deal; the band is ``+- 1.96 sd sqrt(t)`` around it (``sd``
the standard deviation of one deal's winnings, ``t`` the deals so far), so a bot whose band
stays above zero at the end wins with 95% confidence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

__all__ = ["svg_chart"]

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf")
_WIDTH, _HEIGHT, _MARGIN = 800, 450, 60


def svg_chart(names: Sequence[str], rows: Sequence[Sequence[int]], big_blind: int,
              hands_per_deal: int, title: str = "Cumulative winnings (big blinds)") -> str:
    """The SVG document for *rows* (one row per deal: each bot's winnings in chips)."""
    deals = len(rows)
    series = []
    for i in range(len(names)):
        values = [row[i] / big_blind for row in rows]
        mean = sum(values) / deals if deals else 0.0
        sd = (math.sqrt(sum((v - mean) ** 2 for v in values) / (deals - 1))
              if deals > 1 else 0.0)
        total = 0.0
        line = [0.0]
        for v in values:
            total += v
            line.append(total)
        half = [1.96 * sd * math.sqrt(t) for t in range(deals + 1)]
        series.append((line, half))
    top = max([1.0] + [v + h for line, half in series for v, h in zip(line, half, strict=True)])
    low = min([-1.0] + [v - h for line, half in series
                        for v, h in zip(line, half, strict=True)])

    def x(t: int) -> float:
        return _MARGIN + (_WIDTH - 2 * _MARGIN) * t / max(deals, 1)

    def y(v: float) -> float:
        return _HEIGHT - _MARGIN - (_HEIGHT - 2 * _MARGIN) * (v - low) / (top - low)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
             f'viewBox="0 0 {_WIDTH} {_HEIGHT}" font-family="sans-serif" font-size="12">',
             f'<rect width="{_WIDTH}" height="{_HEIGHT}" fill="white"/>',
             f'<text x="{_WIDTH / 2}" y="24" text-anchor="middle" font-size="15">'
             f'{escape(title)}</text>',
             f'<line x1="{_MARGIN}" y1="{y(0):.1f}" x2="{_WIDTH - _MARGIN}" y2="{y(0):.1f}" '
             f'stroke="#999" stroke-dasharray="4 3"/>',
             f'<text x="{_MARGIN - 6}" y="{y(top):.1f}" text-anchor="end">{top:.0f}</text>',
             f'<text x="{_MARGIN - 6}" y="{y(low):.1f}" text-anchor="end">{low:.0f}</text>',
             f'<text x="{_MARGIN - 6}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>',
             f'<text x="{_WIDTH - _MARGIN}" y="{_HEIGHT - _MARGIN + 18}" text-anchor="end">'
             f'{deals * hands_per_deal} hands</text>']
    step = max(1, deals // 400)  # at most ~400 points a line
    points = list(range(0, deals + 1, step))
    if points[-1] != deals:
        points.append(deals)
    for i, (name, (line, half)) in enumerate(zip(names, series, strict=True)):
        colour = _COLOURS[i % len(_COLOURS)]
        upper = " ".join(f"{x(t):.1f},{y(line[t] + half[t]):.1f}" for t in points)
        lower = " ".join(f"{x(t):.1f},{y(line[t] - half[t]):.1f}" for t in reversed(points))
        parts.append(f'<polygon points="{upper} {lower}" fill="{colour}" fill-opacity="0.15" '
                     f'stroke="none"/>')
        path = " ".join(f"{x(t):.1f},{y(line[t]):.1f}" for t in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                     f'stroke-width="2"/>')
        parts.append(f'<text x="{_MARGIN + 10}" y="{44 + 16 * i}" fill="{colour}">'
                     f'{escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
