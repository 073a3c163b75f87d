"""The levels measured: every level of a game against every other in every seat
(``levels_tournament``), and the README's tables of it. The levels themselves are
``tminus.agents.levels``.

    python -m tminus.sim.levels GAME GAMES [--seed S] [--players P] [--workers W]
    python -m tminus.sim.levels GAME --pool RUN.json [--pool RUN.json ...]
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tminus.agents.levels import NAMES, level_table
from tminus.core.registry import load_game
from tminus.sim.stats import wilson_interval
from tminus.sim.tournament import load_tournament, pool, tournament


def levels_tournament(
    game_name: str,
    games: int,
    seed: int = 0,
    players: int | None = None,
    workers: int | None = 1,
    progress: Any = None,
    candidates: tuple[str, ...] = (),
    duplicate: bool = False,
) -> Any:
    """Every level against every other, every seat (``tminus.sim.tournament``); with
    ``candidates``, specs that might replace the expert play in it too (listed last); with
    ``duplicate``, in deals on the same luck, for the paired edges."""
    game = load_game(game_name, **({"players": players} if players else {}))
    specs = [level.spec for level in level_table(game_name, game.num_players)]
    specs += [spec for spec in candidates if spec not in specs]
    return tournament(
        game, specs, games, seed=seed, workers=workers, progress=progress, duplicate=duplicate
    )


def pooled_levels(game_name: str, runs: list[Any]) -> tuple[Any, list[str]]:
    """Saved tournaments of ``game_name``'s levels (``TournamentResult``s, say one per pair
    of neighbouring levels) pooled, with their agents in level order, and each agent's
    level name ("candidate" past the levels)."""
    result = pool(runs)
    if result.game != game_name:
        raise ValueError(f"these are tournaments of {result.game}, not {game_name}")
    table = level_table(game_name, result.params.get("players"))
    order = [level.spec for level in table if level.spec in result.agents]
    order += [agent for agent in result.agents if agent not in order]
    names = [level.name for level in table if level.spec in result.agents]
    return replace(result, agents=order), names


def level_name(names: list[str], index: int) -> str:
    """The level at ``index`` of a tournament's agents; past the levels, a candidate."""
    return names[index] if index < len(names) else "candidate"


def format_levels_table(result: Any, names: list[str] | None = None) -> str:
    """A Markdown table: each level's rating (``tminus.sim.tournament.rate``), games won and
    its score against the level below it (wins / decided games), each with its 95%
    interval, weakest level first."""
    names = names or list(NAMES)
    by_spec = {r.agent: r for r in result.ratings}
    lines = [
        f"{result.game} {result.params}, {result.games} games, "
        + ("seed " if len(result.seeds) == 1 else "seeds ")
        + ", ".join(map(str, result.seeds)),
        "",
        "| level | agent | rating (95% interval) | games won (95% interval) | against the level "
        "below: won / decided (95% interval) |",
        "|---|---|---|---|---|",
    ]
    for index, spec in enumerate(result.agents):
        rating = by_spec[spec]
        low, high = wilson_interval(rating.wins, rating.games)
        won = f"{rating.win_rate:.3f} ({low:.3f}–{high:.3f}) of {rating.games}"
        below = "—"
        if index:
            wins, losses, _ = result.head_to_head[spec][result.agents[index - 1]]
            decided = wins + losses
            if decided:
                lo, hi = wilson_interval(wins, decided)
                below = f"{wins}/{decided} = {wins / decided:.3f} ({lo:.3f}–{hi:.3f})"
        label = level_name(names, index)
        lines.append(f"| {label} | `{spec}` | {rating.elo_text()} | {won} | {below} |")
    if result.paired:
        lines += ["", format_paired_edges(result, names)]
    return "\n".join(lines)


def format_paired_edges(result: Any, names: list[str] | None = None) -> str:
    """A Markdown table of a duplicate tournament: each level's paired edge over the level
    below, on the same luck (``tminus.sim.tournament.PairedEdge``)."""
    names = names or list(NAMES)
    lines = [
        "| level | paired edge over the level below (95% interval) | deals |",
        "|---|---|---|",
    ]
    for index in range(1, len(result.agents)):
        spec, below = result.agents[index], result.agents[index - 1]
        edge = result.paired[spec][below]
        label = level_name(names, index)
        if not edge.deals:  # pooled runs in which these two never met
            lines.append(f"| {label} | not met | 0 |")
            continue
        lines.append(
            f"| {label} | {edge.edge:+.3f} ({edge.low:+.3f} to {edge.high:+.3f}) | {edge.deals} |"
        )
    return "\n".join(lines)


def format_head_to_head(result: Any, names: list[str] | None = None) -> str:
    """A Markdown table: each row's level against each column's, games won of the games
    decided between them (wins / decided), weakest first."""
    names = names or list(NAMES)
    labels = [level_name(names, i) for i in range(len(result.agents))]
    lines = ["| won / decided | " + " | ".join(labels) + " |"]
    lines.append("|---" * (len(labels) + 1) + "|")
    for row, spec in zip(labels, result.agents, strict=True):
        cells = []
        for other in result.agents:
            if other == spec:
                cells.append("—")
                continue
            wins, losses, level = result.head_to_head[spec][other]
            met = wins + losses + level
            cells.append(f"{wins}/{wins + losses}" if met else "not met")  # (pooled runs)
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(arguments: list[str] | None = None) -> None:
    """The levels tournament, printed as the README's table:

    python -m tminus.sim.levels GAME GAMES [--seed S] [--players P] [--workers W]
        [--candidate SPEC ...] [--duplicate]

    or the table of tournaments saved before (``tminus tournament --save``), pooled:

    python -m tminus.sim.levels GAME --pool RUN.json [--pool RUN.json ...]
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m tminus.sim.levels")
    parser.add_argument("game")
    parser.add_argument(
        "games", type=int, nargs="?", help="games in all, spread over every seating"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--candidate", action="append", default=[], help="play it too")
    parser.add_argument(
        "--duplicate", action="store_true", help="deals on the same luck, with paired edges"
    )
    parser.add_argument(
        "--pool", action="append", default=[], metavar="RUN", help="a saved tournament"
    )
    options = parser.parse_args(arguments)
    if options.pool:
        try:
            runs = [load_tournament(path) for path in options.pool]
            result, names = pooled_levels(options.game, runs)
        except ValueError as error:
            parser.error(str(error))
        print(format_levels_table(result, names))
        print()
        print(format_head_to_head(result, names))
        return
    if options.games is None:
        parser.error("give the number of games, or --pool saved tournaments")
    played = 0

    def progress(count: int) -> None:
        nonlocal played
        played += count
        print(f"{played} of {options.games} games", file=sys.stderr, flush=True)

    result = levels_tournament(
        options.game,
        options.games,
        options.seed,
        options.players,
        options.workers,
        progress,
        tuple(options.candidate),
        options.duplicate,
    )
    print(format_levels_table(result))
    print()
    print(format_head_to_head(result))


if __name__ == "__main__":
    main()
