#!/usr/bin/env python3
"""Draws docs/stats/skill.svg from the `torite arena --json` reports of docs/STATS.md's "How much
skill decides each ruleset?": for each ruleset, the stronger bot's share of games won (against
parity) and the share of the score variance explained by who plays, per deal and per game, each
with its 95% interval. Standard library only.

    python3 docs/stats/skill_plot.py DIR [OUT.svg]

DIR holds games-PRESET.json and deals-PRESET.json for each preset below.
"""
import json
import sys
from pathlib import Path

PRESETS = [
    ("mini-misere-4", "4 players, current"),
    ("mini-misere-4-1989", "4 players, 1989"),
    ("mini-misere-5", "5 players, current"),
    ("mini-misere-5-1989", "5 players, 1989"),
]
PANELS = [
    ("games won by the stronger bot", "games", lambda d: (d["bots"][0]["win_rate"], d["bots"][0]["win_ci95"])),
    ("variance explained, whole games", "games", lambda d: (d["explained_variance"]["share"], d["explained_variance"]["ci95"])),
    ("variance explained, single deals", "deals", lambda d: (d["explained_variance"]["share"], d["explained_variance"]["ci95"])),
]
COLOURS = ["#3b6fb6", "#9cc0ea", "#c4522f", "#f0a98c"]


def nice_step(top: float) -> float:
    """A tick step of 1, 2 or 5 times a power of ten giving at most five steps up to `top`."""
    step = 0.001
    while True:
        for m in (1, 2, 5):
            if top / (step * m) <= 5:
                return step * m
        step *= 10


def main() -> None:
    src = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("skill.svg")
    width, height, top, bottom, left = 900, 420, 60, 70, 50
    panel_w = (width - left - 20) / len(PANELS)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="16">Mini Misère: how much '
        f'skill decides (ismcts:1000 among heuristic players)</text>',
    ]
    for p, (title, unit, value) in enumerate(PANELS):
        x0 = left + p * panel_w
        values = []
        for preset, _ in PRESETS:
            data = json.loads((src / f"{unit}-{preset}.json").read_text())
            values.append(value(data))
        step = nice_step(max(v + c for v, c in values) * 1.1)
        ticks = int(max(v + c for v, c in values) * 1.1 / step) + 1
        scale_top = step * ticks
        plot_h = height - top - bottom
        y = lambda v: top + plot_h * (1 - v / scale_top)
        parts.append(f'<text x="{x0 + panel_w / 2}" y="{top - 12}" text-anchor="middle">{title}</text>')
        parts.append(f'<line x1="{x0 + 30}" y1="{y(0)}" x2="{x0 + panel_w - 10}" y2="{y(0)}" stroke="black"/>')
        for tick in range(ticks + 1):
            v = step * tick
            parts.append(f'<text x="{x0 + 26}" y="{y(v) + 4}" text-anchor="end" font-size="10">{v * 100:g}%</text>')
            parts.append(f'<line x1="{x0 + 30}" y1="{y(v)}" x2="{x0 + panel_w - 10}" y2="{y(v)}" stroke="#ddd"/>')
        bar_w = (panel_w - 50) / len(PRESETS)
        for i, ((v, ci), colour) in enumerate(zip(values, COLOURS)):
            bx = x0 + 36 + i * bar_w
            parts.append(f'<rect x="{bx}" y="{y(v)}" width="{bar_w - 8}" height="{y(0) - y(v)}" fill="{colour}"/>')
            cx = bx + (bar_w - 8) / 2
            parts.append(f'<line x1="{cx}" y1="{y(v + ci)}" x2="{cx}" y2="{y(max(v - ci, 0))}" stroke="black"/>')
            parts.append(f'<text x="{cx}" y="{y(v + ci) - 4}" text-anchor="middle" font-size="10">{v * 100:.1f}</text>')
        if p == 0:
            for i, parity in enumerate([0.25, 0.25, 0.2, 0.2]):
                bx = x0 + 36 + i * bar_w
                parts.append(f'<line x1="{bx - 2}" y1="{y(parity)}" x2="{bx + bar_w - 6}" y2="{y(parity)}" '
                             f'stroke="black" stroke-dasharray="4 3"/>')
    for i, ((_, label), colour) in enumerate(zip(PRESETS, COLOURS)):
        lx = left + 40 + i * 200
        parts.append(f'<rect x="{lx}" y="{height - 36}" width="14" height="14" fill="{colour}"/>')
        parts.append(f'<text x="{lx + 20}" y="{height - 24}">{label}</text>')
    parts.append(f'<text x="{width / 2}" y="{height - 6}" text-anchor="middle" font-size="10">'
                 'dashed: the share of games an equal player wins; bars: 95% intervals</text>')
    parts.append("</svg>")
    out.write_text("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
