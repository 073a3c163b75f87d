"""HTML reports with matplotlib figures: who wins, from which seat, how long games take.

A report is one self-contained HTML file (figures inlined as PNG), so it can be mailed
or archived as it is. A game names its own figures in its manifest
(``GameManifest.figures``): functions of the results that return a ``Figure`` or None.
"""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tminus.core.manifest import resolve
from tminus.core.registry import game_class, manifest
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
        names = [str(i) if label == "seat" else str(i + 1) for i in range(players)]
        _wilson_bars(ax, names, wins, [games] * players)
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
        [r.elo for r in ratings][::-1],
        names,
        xerr=[r.elo - r.interval[0] for r in ratings][::-1],
        fmt="o",
        capsize=4,
    )
    ax.set_xlabel("rating, Elo scale (whiskers: 95% interval)")
    return Figure(
        "Ratings",
        "Plackett-Luce ratings fitted to all the games at once, best at the top; the agents' "
        "mean is 0, and 400 points are odds of 10 to 1.",
        _png(fig),
    )


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


def _groups(results: Sequence[GameResult]) -> tuple[list[str], Callable[[GameResult, int], str]]:
    """How per-player figures group seats: by seat when every game had the same lineup
    (a simulation), else by agent (a tournament, where agents move between seats)."""
    if len({r.agents for r in results}) == 1:
        agents = results[0].agents
        labels = [f"seat {s}\n{a}" for s, a in enumerate(agents)]
        return labels, lambda r, seat: labels[seat]
    return sorted({a for r in results for a in r.agents}), lambda r, seat: r.agents[seat]


def _wilson_bars(ax, names: list[str], hits: list[int], totals: list[int]) -> list:
    """Bars of hits / totals with 95% Wilson whiskers; returns the intervals."""
    rates = [h / t if t else 0.0 for h, t in zip(hits, totals, strict=True)]
    intervals = [wilson_interval(h, t) for h, t in zip(hits, totals, strict=True)]
    errors = [
        [rate - low for rate, (low, _) in zip(rates, intervals, strict=True)],
        [high - rate for rate, (_, high) in zip(rates, intervals, strict=True)],
    ]
    ax.bar(names, rates, yerr=errors, capsize=4, color="#3b7dd8")
    return intervals


def _share_bars(ax, labels: list[str], hits: dict[str, int], totals: dict[str, int]) -> None:
    """Bars of hits / totals per label with 95% Wilson whiskers, 'k of n' written above."""
    intervals = _wilson_bars(ax, labels, [hits[n] for n in labels], [totals[n] for n in labels])
    for x, name in enumerate(labels):
        ax.annotate(
            f"{hits[name]} of {totals[name]}",
            (x, intervals[x][1]),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )
    ax.set_ylim(0, 1.12)


def turn_bins(values: Sequence[int]) -> list[int]:
    """Bin edges for whole numbers: about sqrt(n) bins (8 to 30) of equal whole width,
    from the least value to past the greatest, so that every value falls in a bin."""
    low, high = min(values), max(values)
    count = min(30, max(8, round(len(values) ** 0.5)))
    width = -(-(high - low + 1) // count)  # ceiling division
    return list(range(low, high + width + 1, width))


def _step_histograms(ax, values: dict[str, list[int]], xlabel: str) -> None:
    """One step histogram per label on shared bins (so the groups compare)."""
    bins = turn_bins([v for vs in values.values() for v in vs])
    for name, vs in values.items():
        if vs:
            ax.hist(vs, bins=bins, histtype="step", linewidth=1.6, label=name.replace("\n", " "))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    ax.legend(fontsize=8)


@dataclass
class Readiness:
    """Count Down, per group of players (a seat, or an agent): the game turns at which
    players could first count down, how many ever could, and how many played."""

    turns: dict[str, list[int]]
    ready: dict[str, int]
    players: dict[str, int]


def count_down_readiness(results: Sequence[GameResult]) -> Readiness | None:
    """The data of the readiness figure, None unless every result has its facts."""
    if any(r.facts is None for r in results):
        return None
    labels, group = _groups(results)
    data = Readiness({n: [] for n in labels}, dict.fromkeys(labels, 0), dict.fromkeys(labels, 0))
    for r in results:
        facts = r.facts or {}
        for seat, turn in enumerate(facts["ready_turn"]):
            if not facts["playing"][seat]:
                continue  # the watching fifth seat
            name = group(r, seat)
            data.players[name] += 1
            if turn is not None:
                data.ready[name] += 1
                data.turns[name].append(turn)
    return data


def count_down_ready(results: Sequence[GameResult]) -> Figure | None:
    """Count Down: the game turn at which each player could first count down, and how
    many players never could."""
    data = count_down_readiness(results)
    if data is None:
        return None
    labels = [n for n, played in data.players.items() if played]
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), gridspec_kw={"width_ratios": [3, 2]})
    if any(data.turns.values()):
        turns = {n: data.turns[n] for n in labels}
        _step_histograms(axes[0], turns, "game turn (all players' turns)")
    else:
        axes[0].text(0.5, 0.5, "nobody was ever ready", ha="center", transform=axes[0].transAxes)
    axes[0].set_title("first turn with the countdown on offer", fontsize=10)
    _share_bars(axes[1], labels, data.ready, data.players)
    axes[1].set_ylabel("share of players (95% interval)")
    axes[1].set_title("players who ever got there", fontsize=10)
    players = sum(data.players.values())
    never = players - sum(data.ready.values())
    return Figure(
        "When players become ready for the countdown",
        "Left: the game turn at which a player could first count down (rocket complete and "
        "all 9 photo cards of the control card at the start of their turn). Right: the share "
        f"of players who ever could, with 95% Wilson intervals; {never} of {players} players "
        "never got there (a game ends at the first successful count, so a player may be "
        "beaten before getting there).",
        _png(fig),
    )


@dataclass
class Isolations:
    """Sputnik: per group of players (a seat, or an agent), in how many games its rocket
    was the first isolated and in how many it played; the same by place in the turn
    order ("1" moved first); the turns of those first isolations; games with none."""

    first: dict[str, int]
    games: dict[str, int]
    by_place: dict[str, int]
    when: dict[str, list[int]]
    nobody: int


def sputnik_isolations(results: Sequence[GameResult]) -> Isolations | None:
    """The data of the isolation figure, None unless every result has its facts."""
    if any(r.facts is None for r in results):
        return None
    labels, group = _groups(results)
    players = len(results[0].returns)
    data = Isolations(
        dict.fromkeys(labels, 0),
        dict.fromkeys(labels, 0),
        {str(p + 1): 0 for p in range(players)},
        {n: [] for n in labels},
        0,
    )
    for r in results:
        for name in {group(r, seat) for seat in range(players)}:
            data.games[name] += 1
        isolated = (r.facts or {})["isolated"]
        if not isolated:
            data.nobody += 1
            continue
        _, seat, turn = isolated[0]
        data.first[group(r, seat)] += 1
        data.by_place[str((seat - r.first_mover) % players + 1)] += 1
        data.when[group(r, seat)].append(turn)
    return data


def sputnik_isolated_first(results: Sequence[GameResult]) -> Figure | None:
    """Sputnik: who is isolated (left without a move, eliminated) first, and when."""
    data = sputnik_isolations(results)
    if data is None:
        return None
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), gridspec_kw={"width_ratios": [2, 2, 3]})
    _share_bars(axes[0], list(data.first), data.first, data.games)
    axes[0].set_ylabel("share of games (95% interval)")
    axes[0].set_title("isolated first, by player", fontsize=10)
    places = list(data.by_place)
    _share_bars(axes[1], places, data.by_place, dict.fromkeys(places, len(results)))
    axes[1].set_xlabel("place in turn order (1 = moved first)")
    axes[1].set_title("isolated first, by turn order", fontsize=10)
    # An even share per seat (an agent in a tournament may sit in several seats a game).
    by_seat = len({r.agents for r in results}) == 1
    for ax in axes[:2] if by_seat else axes[1:2]:
        ax.axhline(1 / len(places), color="grey", linestyle="--", linewidth=1)
    if data.nobody < len(results):
        _step_histograms(axes[2], data.when, "turn of the first isolation")
    axes[2].set_title("when, by who was isolated", fontsize=10)
    return Figure(
        "Who gets isolated first",
        "Left and middle: how often a player's rocket was the first left with no move (and "
        "so eliminated), by player and by place in the turn order, with 95% Wilson "
        "intervals (with several rockets each: the first rocket to go; dashed: an even "
        "share). Right: the turn "
        f"it happened. {data.nobody} of {len(results)} games ended with nobody isolated.",
        _png(fig),
    )


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
    for path in manifest(game).figures:
        if (figure := resolve(path)(results)) is not None:
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
