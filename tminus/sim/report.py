"""HTML reports with matplotlib figures: who wins, from which seat, how long games take.

A report is one self-contained HTML file (figures inlined as PNG), so it can be mailed
or archived as it is. Per-game figures are registered in ``GAME_FIGURES``.
"""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tminus.core.registry import game_class
from tminus.sim.runner import GameResult
from tminus.sim.stats import wilson_interval
from tminus.sim.tournament import Rating


@dataclass
class Figure:
    title: str
    caption: str
    png: bytes


def _pyplot():
    try:
        import matplotlib
    except ImportError:  # pragma: no cover - depends on the extra being installed
        raise ValueError("reports need matplotlib: pip install 'tminus[analysis]'") from None

    matplotlib.use("Agg")  # no screen needed
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    _pyplot().close(fig)
    return buffer.getvalue()


def win_rate_by_position(results: Sequence[GameResult], players: int) -> Figure:
    """Win rate by seat and by place in the turn order (first-player advantage)."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    games = len(results)
    by_seat = [sum(s in r.winners for r in results) for s in range(players)]
    by_order = [0] * players
    for r in results:
        for seat in r.winners:
            by_order[(seat - r.first_mover) % players] += 1
    for ax, wins, label in (
        (axes[0], by_seat, "seat"),
        (axes[1], by_order, "place in turn order (1 = moved first)"),
    ):
        rates = [w / games for w in wins]
        intervals = [wilson_interval(w, games) for w in wins]
        errors = [
            [rate - low for rate, (low, _) in zip(rates, intervals, strict=True)],
            [high - rate for rate, (_, high) in zip(rates, intervals, strict=True)],
        ]
        names = [str(i) if label == "seat" else str(i + 1) for i in range(players)]
        ax.bar(names, rates, yerr=errors, capsize=4, color="#3b7dd8")
        ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel(label)
    axes[0].set_ylabel("win rate (95% interval)")
    return Figure(
        "Win rate by seat and by turn order",
        "Bars: share of games won; whiskers: 95% Wilson intervals; dashed: an even share.",
        _png(fig),
    )


def game_lengths(results: Sequence[GameResult]) -> Figure:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.hist([r.moves for r in results], bins=40, color="#e07b39")
    ax.set_xlabel("moves by players per game")
    ax.set_ylabel("games")
    return Figure("Game length", "Decisions taken by players (chance not counted).", _png(fig))


def ratings_figure(ratings: Sequence[Rating]) -> Figure:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.5 * len(ratings)))
    names = [r.agent for r in ratings][::-1]
    ax.errorbar(
        [r.mu for r in ratings][::-1],
        names,
        xerr=[3 * r.sigma for r in ratings][::-1],
        fmt="o",
        capsize=4,
    )
    ax.set_xlabel("openskill mu (whiskers: ± 3 sigma)")
    return Figure("Ratings", "Plackett-Luce ratings after every game, best at the top.", _png(fig))


def four_way_turns_to_finish(results: Sequence[GameResult]) -> Figure | None:
    """4-Way CountDown: how many turns the winner took, by the winner's strategy."""
    turns = defaultdict(list)
    for r in results:
        for seat in r.winners:
            turns[r.agents[seat]].append(r.moves_by_seat[seat])
    if not turns:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.4))
    names = sorted(turns)
    ax.boxplot([turns[n] for n in names], showfliers=False)
    ax.set_xticks(range(1, len(names) + 1), names)
    ax.set_ylabel("winner's own turns")
    return Figure(
        "Turns to finish, by strategy",
        "Turns the winner took to flip all ten keys (boxes: quartiles; whiskers: 1.5 IQR).",
        _png(fig),
    )


GAME_FIGURES: dict[str, Callable[[Sequence[GameResult]], Figure | None]] = {
    "four_way": four_way_turns_to_finish,
}


def build_report(
    game: str,
    params: dict,
    results: Sequence[GameResult],
    title: str,
    summary_rows: list[tuple[str, str]],
    ratings: Sequence[Rating] | None = None,
) -> str:
    """The whole report as one HTML page."""
    players = len(results[0].returns)
    figures = [win_rate_by_position(results, players), game_lengths(results)]
    if ratings:
        figures.append(ratings_figure(ratings))
    extra = GAME_FIGURES.get(game)
    if extra is not None and (figure := extra(results)) is not None:
        figures.append(figure)
    rows = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in summary_rows
    )
    parameters = ", ".join(f"{k}={v}" for k, v in params.items())
    sections = "".join(
        f"<section><h2>{html.escape(f.title)}</h2>"
        f'<img alt="{html.escape(f.title)}" src="data:image/png;base64,'
        f'{base64.b64encode(f.png).decode()}"><p>{html.escape(f.caption)}</p></section>'
        for f in figures
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }}
table {{ border-collapse: collapse; }} th, td {{ text-align: left; padding: .2rem .8rem; }}
th {{ color: #555; font-weight: 600; }} img {{ max-width: 100%; }}
section {{ margin: 2rem 0; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>{html.escape(game_class(game).title)} · {html.escape(parameters)} · {len(results)} games</p>
<table>{rows}</table>
{sections}
</body></html>
"""
