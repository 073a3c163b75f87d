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
from tminus.review.playouts import Z95
from tminus.review.review import MoveReview, Review

# The players' colours of the table (app.css's --seat0.. --seat3, then two more).
COLOURS = ("#ffb347", "#6ec6ff", "#c792ff", "#7dff9b", "#ff5c7a", "#f5f5a0")
MARKS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
WIDTH, HEIGHT, PAD, LEFT = 480, 220, 16, 52


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def value_text(move: MoveReview, which: str) -> str:
    """A value, with its 95% interval when it is an estimate: "47.1% ± 2.8"."""
    estimate = getattr(move, which)
    if move.exact or estimate.error == 0:
        return percent(estimate.mean)
    return f"{percent(estimate.mean)} ± {100 * Z95 * estimate.error:.1f}"


def terminal_table(review: Review) -> Table:
    table = Table(title=f"Review of {review.game}", caption=knowledge(review))
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


def counted(n: int, noun: str) -> str:
    """ "1 blunder", "0 inaccuracies", "2 mistakes"."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun[:-1]}ies" if noun.endswith("y") else f"{n} {noun}s"


def knowledge(review: Review) -> str:
    """What the review knew, in words: a game with nothing hidden says so."""
    if game_class(review.game).game_type.information == "perfect":
        return "Nothing is hidden in this game: the review sees what every player saw."
    return review.knowledge


def inline_code(text: str) -> str:
    """Escaped text whose `quoted` names are shown as code (the judges' descriptions)."""
    parts = escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def summary(review: Review) -> list[str]:
    """Per player: decisions, graded moves by grade, and the mean loss."""
    lines = []
    for seat, name in enumerate(review.names):
        mine = [m for m in review.moves if m.seat == seat]
        if not mine:
            continue
        counts = ", ".join(counted(sum(m.grade == g for m in mine), g) for g, _ in GRADES)
        mean = sum(m.loss.mean for m in mine) / len(mine)
        lines.append(f"{name}: {len(mine)} decisions, {counts}; mean loss {percent(mean)}")
    return lines


def curve_svg(review: Review) -> str:
    """The chance to win of each player after each of its moves, along the game. Drawn small
    (its words stay readable when a phone shrinks it); the legend is the list below it."""
    last = max((m.index for m in review.moves), default=1) or 1

    def x(index: int) -> float:
        return LEFT + (WIDTH - LEFT - PAD) * index / last

    def y(value: float) -> float:
        return PAD + (HEIGHT - 2 * PAD) * (1 - value)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'class="curve" role="img" aria-label="chance to win through the game">',
        f'<rect x="{LEFT}" y="{PAD}" width="{WIDTH - LEFT - PAD}" height="{HEIGHT - 2 * PAD}" '
        'class="plot"/>',
    ]
    for level in (0.0, 0.5, 1.0):
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - PAD}" y1="{y(level):.1f}" y2="{y(level):.1f}" '
            'class="grid"/>'
            f'<text x="{LEFT - 6}" y="{y(level) + 5:.1f}" text-anchor="end" '
            f'class="axis">{100 * level:.0f}%</text>'
        )
    parts.append(
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - 6}" text-anchor="end" class="axis">'
        f"move {last}</text>"
    )
    for seat, name in enumerate(review.names):
        mine = [m for m in review.moves if m.seat == seat]
        if not mine:
            continue
        colour = COLOURS[seat % len(COLOURS)]
        points = " ".join(f"{x(m.index):.1f},{y(m.after.mean):.1f}" for m in mine)
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{points}">'
            f"<title>{escape(name)}</title></polyline>"
        )
        for m in mine:
            if m.grade:
                parts.append(
                    f'<circle cx="{x(m.index):.1f}" cy="{y(m.after.mean):.1f}" r="5" '
                    f'fill="{colour}"><title>{escape(name)}: {escape(m.played_text)} '
                    f"({m.grade}, lost {percent(m.loss.mean)})</title></circle>"
                )
    parts.append("</svg>")
    return "".join(parts)


def legend(review: Review) -> str:
    """Each player's colour in the curve, as a list beside it (never over the lines)."""
    items = "".join(
        f'<li><span class="swatch" style="background:{COLOURS[seat % len(COLOURS)]}"></span>'
        f"{escape(name)}</li>"
        for seat, name in enumerate(review.names)
        if any(m.seat == seat for m in review.moves)
    )
    return f'<ul class="legend">{items}</ul>'


# The page's look: the table's night sky (app.css), kept inline so that a review saved to a
# file (`tminus review --html`) looks the same.
STYLE = """
:root { color-scheme: dark; --bg: #0b1020; --panel: #161f3d; --line: #2a3763;
  --text: #e8ecff; --muted: #8d97c2; --mint: #4dffc3; }
body { font-family: "Inter", "Segoe UI", system-ui, sans-serif; margin: 0; color: var(--text);
  background: var(--bg); line-height: 1.45; }
main { max-width: 52rem; margin: 0 auto; padding: 0.5rem 1rem 2rem; }
a { color: var(--mint); } code { font-family: ui-monospace, monospace; }
nav { display: flex; gap: 1.5rem; padding: 0.75rem 0; flex-wrap: wrap; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; } h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
.muted { color: var(--muted); }
.curve { display: block; width: 100%; max-width: 36rem; height: auto; }
.curve .plot { fill: var(--panel); stroke: var(--line); } .curve .grid { stroke: var(--line); }
.curve .axis { fill: var(--muted); font-size: 15px; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; }
.swatch { display: inline-block; width: 1.4em; height: 0.35em; margin-right: 0.4em;
  vertical-align: middle; border-radius: 2px; }
.moves { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
th { text-align: left; color: var(--muted); font-weight: 600; }
td, th { padding: 4px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
td.words { white-space: normal; min-width: 6rem; }  /* (Count Down's moves run long) */
tr.blunder { background: #4a1626; } tr.mistake { background: #4a3216; }
tr.inaccuracy { background: #3d3d18; }
progress { width: 100%; max-width: 36rem; height: 1rem; accent-color: var(--mint); }
"""


def html_report(
    review: Review,
    back: str | None = None,
    waiting: tuple[str, tuple[int, int] | None] | None = None,
) -> str:
    """The review as one page (no script); ``back``: the address of the game's page;
    ``waiting``: the review is being made (what it has judged so far is shown): the words
    and the (done, all) of its progress bar; the page then asks again every 2 s."""
    rows = "".join(
        "<tr"
        + (f' class="{m.grade}"' if m.grade else "")
        + f"><td>{m.index}</td><td class=words>{escape(review.names[m.seat])}</td>"
        f"<td class=words>{escape(m.played_text)}{MARKS.get(m.grade or '', '')}</td>"
        f"<td>{escape(value_text(m, 'before'))}</td><td>{escape(value_text(m, 'after'))}</td>"
        f"<td class=words>{'—' if m.best == m.played else escape(m.best_text)}</td>"
        f"<td>{escape(value_text(m, 'loss'))}</td><td>{m.grade or ''}</td></tr>"
        for m in review.moves
    )
    grades = ", ".join(f"{g}: a loss of at least {percent(t)}" for g, t in GRADES)
    items = "".join(f"<li>{escape(line)}</li>" for line in summary(review))
    judges = "".join(f"<li>{inline_code(j)}</li>" for j in review.judges)
    title = escape(game_class(review.game).title)
    links = '<a href="/">T-minus lobby</a>'
    if back:
        links += f'<a href="{escape(back)}">Back to the game</a>'
    reload, status = "", ""
    if waiting is not None:
        words, meter = waiting
        reload = '<meta http-equiv="refresh" content="2">'
        status = f'<p role="status">{escape(words)}</p>'
        if meter:
            status += (
                f'<progress value="{meter[0]}" max="{max(meter[1], 1)}" '
                f'aria-label="decisions judged">{meter[0]} of {meter[1]}</progress>'
            )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">{reload}
<title>Review of {title} · T-minus</title>
<link rel="icon" href="/static/favicon.svg">
<style>{STYLE}</style></head><body><main>
<nav>{links}</nav>
<h1>Review of {title}</h1>{status}
<p class="muted">{escape(knowledge(review))}</p>
<h2>Chance to win</h2>
{curve_svg(review)}
{legend(review)}
<ul>{items}</ul>
<p>Values: each player's chance to win. Found by:</p><ul>{judges}</ul>
<p class="muted">Grades: {escape(grades)}. An estimated loss earns a grade only when it
passes that grade's threshold by more than two standard errors of the difference (best move
less move played, on the same worlds and luck); where the evidence cannot tell, the move is
not labelled. A loss near a threshold is sampled on until it is clearly on one side (or the time
runs out), so that another review would most likely grade it alike. Estimates are shown with their
95% interval (± 1.96 standard errors).</p>
<div class="moves" tabindex="0" role="region" aria-label="every move judged">
<table><thead><tr><th>#</th><th>player</th><th>played</th><th>before</th>
<th>after</th><th>best move</th><th>loss</th><th></th></tr></thead><tbody>{rows}</tbody>
</table></div>
</main></body></html>
"""
