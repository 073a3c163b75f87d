"""A review shown: a table for the terminal, an HTML page with the win-chance curve.

The page needs no script: the curve is an inline SVG drawn here, one line per player
through that player's chance to win after each of its moves, graded moves marked. All text
is escaped.
"""

from __future__ import annotations

from html import escape

from rich.table import Table

from tminus.core.registry import game_class
from tminus.review.grading import GRADES
from tminus.review.review import MoveReview, Review

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
MARKS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
WIDTH, HEIGHT, PAD = 720, 240, 32


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def value_text(move: MoveReview, which: str) -> str:
    estimate = getattr(move, which)
    if move.exact or estimate.error == 0:
        return percent(estimate.mean)
    return f"{percent(estimate.mean)} ± {100 * estimate.error:.1f}"


def terminal_table(review: Review) -> Table:
    table = Table(title=f"Review of {review.game}", caption=review.knowledge)
    for column in ("#", "player", "played", "before", "after", "best move", "loss", ""):
        table.add_column(column, justify="right" if column in ("#", "before", "after") else "left")
    for move in review.moves:
        table.add_row(
            str(move.index),
            review.names[move.seat],
            move.played_text,
            value_text(move, "before"),
            value_text(move, "after"),
            "—" if move.best == move.played else move.best_text,
            value_text(move, "loss"),
            move.grade or "",
        )
    return table


def summary(review: Review) -> list[str]:
    """Per player: decisions, graded moves by grade, and the mean loss."""
    lines = []
    for seat, name in enumerate(review.names):
        mine = [m for m in review.moves if m.seat == seat]
        if not mine:
            continue
        counts = ", ".join(f"{sum(m.grade == g for m in mine)} {g}s" for g, _ in GRADES)
        mean = sum(m.loss.mean for m in mine) / len(mine)
        lines.append(f"{name}: {len(mine)} decisions, {counts}; mean loss {percent(mean)}")
    return lines


def curve_svg(review: Review) -> str:
    """The chance to win of each player after each of its moves, along the game."""
    last = max((m.index for m in review.moves), default=1) or 1

    def x(index: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * index / last

    def y(value: float) -> float:
        return PAD + (HEIGHT - 2 * PAD) * (1 - value)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" class="curve" role="img" '
        'aria-label="chance to win through the game">',
        f'<rect x="{PAD}" y="{PAD}" width="{WIDTH - 2 * PAD}" height="{HEIGHT - 2 * PAD}" '
        'fill="#fafafa" stroke="#ccc"/>',
    ]
    for level in (0.0, 0.5, 1.0):
        parts.append(
            f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(level):.1f}" y2="{y(level):.1f}" '
            'stroke="#ddd"/>'
            f'<text x="4" y="{y(level) + 4:.1f}" font-size="11">{percent(level)}</text>'
        )
    for seat, name in enumerate(review.names):
        mine = [m for m in review.moves if m.seat == seat]
        if not mine:
            continue
        colour = COLOURS[seat % len(COLOURS)]
        points = " ".join(f"{x(m.index):.1f},{y(m.after.mean):.1f}" for m in mine)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}">'
            f"<title>{escape(name)}</title></polyline>"
        )
        for m in mine:
            if m.grade:
                parts.append(
                    f'<circle cx="{x(m.index):.1f}" cy="{y(m.after.mean):.1f}" r="4" '
                    f'fill="{colour}"><title>{escape(name)}: {escape(m.played_text)} '
                    f"({m.grade}, lost {percent(m.loss.mean)})</title></circle>"
                )
        parts.append(
            f'<text x="{WIDTH - PAD - 140}" y="{PAD + 14 + 14 * seat}" font-size="12" '
            f'fill="{colour}">{escape(name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def html_report(review: Review, back: str | None = None) -> str:
    """The review as one page (no script); ``back``: the address of the game's page."""
    rows = "".join(
        "<tr"
        + (f' class="{m.grade}"' if m.grade else "")
        + f"><td>{m.index}</td><td>{escape(review.names[m.seat])}</td>"
        f"<td>{escape(m.played_text)}{MARKS.get(m.grade or '', '')}</td>"
        f"<td>{escape(value_text(m, 'before'))}</td><td>{escape(value_text(m, 'after'))}</td>"
        f"<td>{'—' if m.best == m.played else escape(m.best_text)}</td>"
        f"<td>{escape(value_text(m, 'loss'))}</td><td>{m.grade or ''}</td></tr>"
        for m in review.moves
    )
    grades = ", ".join(f"{g}: a loss of at least {percent(t)}" for g, t in GRADES)
    items = "".join(f"<li>{escape(line)}</li>" for line in summary(review))
    judges = "".join(f"<li>{escape(j)}</li>" for j in review.judges)
    title = escape(game_class(review.game).title)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review of {title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1em auto; max-width: 60em; padding: 0 1em; }}
.curve {{ width: 100%; height: auto; }} .moves {{ overflow-x: auto; }}
table {{ border-collapse: collapse; }} td, th {{ padding: 2px 8px; border-bottom: 1px solid #eee; }}
tr.blunder {{ background: #fdd; }} tr.mistake {{ background: #fec; }}
tr.inaccuracy {{ background: #ffd; }}
</style></head><body>
{f'<p><a href="{escape(back)}">Back to the game</a></p>' if back else ""}
<h1>Review of {title}</h1>
<p>{escape(review.knowledge)}</p>
<h2>Chance to win</h2>
{curve_svg(review)}
<ul>{items}</ul>
<p>Values: each player's chance to win. Found by:</p><ul>{judges}</ul>
<p>Grades ({escape(grades)}; an estimate only when its loss is at least two standard
errors).</p>
<div class="moves" tabindex="0" role="region" aria-label="every move judged">
<table><thead><tr><th>#</th><th>player</th><th>played</th><th>before</th>
<th>after</th><th>best move</th><th>loss</th><th></th></tr></thead><tbody>{rows}</tbody>
</table></div>
</body></html>
"""
