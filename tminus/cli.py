"""The `tminus` command: list games, read rules, play in the terminal, simulate, benchmark."""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from collections import Counter
from itertools import cycle, islice
from typing import Annotated, Any

import numpy as np
import typer
from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from tminus.agents.registry import make_agent
from tminus.agents.solvers import solver_report
from tminus.core.game import Game, IllegalActionError, State
from tminus.core.params import coerce_param
from tminus.core.playout import sample_chance
from tminus.core.registry import game_class, list_games, load_game, rules_text
from tminus.server.limits import Limits
from tminus.sim.bench import bench_game
from tminus.sim.simulate import simulate as run_simulation
from tminus.sim.tournament import tournament as run_tournament

app = typer.Typer(
    help="T-minus: play and study four countdown games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console()

GameArg = Annotated[str, typer.Argument(help="Game name (see `tminus games`).")]
PlayersOpt = Annotated[int | None, typer.Option("--players", help="Number of players.")]
ParamOpt = Annotated[
    list[str] | None,
    typer.Option("--param", "-p", help="A game parameter as name=value (repeatable)."),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed: the same seed, the same games.")]
LIMITS = Limits()  # the server's defaults (plain Python: no web extra needed to read them)


def fail(message: str) -> typer.Exit:
    # The message is plain text: "tminus[web]" must not be read as markup.
    console.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code=2)


def build_game(name: str, players: int | None, param_texts: list[str] | None) -> Game:
    """load_game from command-line strings; every mistake becomes a one-line error."""
    try:
        declared = game_class(name).parameters
        params: dict[str, Any] = {}
        for text in param_texts or []:
            key, sep, value = text.partition("=")
            if not sep:
                raise ValueError(f"a parameter is written name=value, not {text!r}")
            params[key] = coerce_param(declared[key], value) if key in declared else value
        if players is not None:
            params["players"] = players
        return load_game(name, **params)
    except ValueError as error:
        raise fail(str(error)) from None


def split_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


@app.command()
def games() -> None:
    """List the games and their parameters."""
    table = Table(title="T-minus games")
    for column in ("name", "game", "parameters (default)"):
        table.add_column(column)
    for name in list_games():
        cls = game_class(name)
        params = ", ".join(
            f"{key}={param.default} ({param.allowed()})" for key, param in cls.parameters.items()
        )
        table.add_row(name, cls.title, params)
    console.print(table)


@app.command()
def rules(game: GameArg) -> None:
    """Show a game's rules page, with the T-minus rulings."""
    try:
        text = rules_text(game)
    except ValueError as error:
        raise fail(str(error)) from None
    console.print(Markdown(text))


@app.command()
def play(
    game: GameArg,
    players: PlayersOpt = None,
    bots: Annotated[
        str, typer.Option(help="Bots for the other seats, comma-separated (cycled).")
    ] = "greedy",
    seat: Annotated[
        int, typer.Option(help="Your seat: 1 is the first, and seat order is play order.")
    ] = 1,
    name: Annotated[
        str | None, typer.Option(help="Your name in the log (default: Player and your seat).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for dice, cards and bots.")] = None,
    param: ParamOpt = None,
    pause: Annotated[
        float, typer.Option(help="Seconds a move you cannot choose is shown before it plays.")
    ] = 1.0,
) -> None:
    """Play a game in the terminal against bots."""
    bot_names = split_names(bots)
    if not bot_names:
        raise fail("name at least one bot, e.g. --bots greedy")
    if players is None and len(bot_names) > 1 and "players" in game_class_or_fail(game).parameters:
        players = len(bot_names) + 1  # one seat per bot named, and yours
    the_game = build_game(game, players, param)
    n = the_game.num_players
    if not 1 <= seat <= n:
        raise fail(f"seat {seat} does not exist: seats are 1 to {n}")
    me = seat - 1
    seed = seed if seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    rng = np.random.default_rng(seed)
    others = [s for s in range(n) if s != me]
    kinds = dict(zip(others, islice(cycle(bot_names), len(others)), strict=True))
    try:
        agents = {s: make_agent(kind, the_game, seed=[seed, s]) for s, kind in kinds.items()}
    except ValueError as error:
        raise fail(str(error)) from None
    names = [f"Bot {s + 1}" for s in range(n)]
    names[me] = name.strip() if name and name.strip() else f"Player {seat}"
    if names.count(names[me]) > 1:
        raise fail(f"{names[me]!r} is a bot's name here: choose another with --name")
    table = Table.grid(padding=(0, 1))
    table.add_row(Text(game_class(game).title, style="bold"), Text(f"seed {seed}", style="dim"))
    table.add_row("You are", Text(f"{names[me]} (seat {seat} of {n})", style="bold"))
    for s, agent in agents.items():
        table.add_row(Text(names[s]), Text(f"plays {agent.name}", style="dim"))
    console.print(table)
    console.print(
        "[dim]Type a move's number or its words (any case), + for more moves, "
        "a word to find moves, q or Ctrl-D to quit.[/]"
    )
    try:
        state = play_game(the_game, me, names, agents, rng, pause)
    except EOFError:  # q or Ctrl-D
        console.print("\n[dim]Game left.[/]")
        raise typer.Exit(code=0) from None
    except KeyboardInterrupt:  # Ctrl-C: left as well, and the shell is told so
        console.print("\n[dim]Game left.[/]")
        raise typer.Exit(code=130) from None
    console.print(Panel(state.render(me, names)))
    announce_result(state, names, me)


def play_game(
    game: Game, me: int, names: list[str], agents: dict, rng: np.random.Generator, pause: float
) -> State:
    """Play to the end: chance and bots move at once, the person is asked (EOFError: quit).

    Every move is told in the log as the person may know it, with everyone's names."""
    state = game.new_initial_state()
    chance_lines: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state.chance_outcomes(), rng.random())
            chance_lines.append(state.narrate(action, names, me))
            state.apply_action(action)
            continue
        print_chance_lines(chance_lines)
        chance_lines = []
        player = state.current_player()
        if player == me:
            action = your_move(state, names, pause)
            style = "bold"
        else:
            action = agents[player].step(state)
            style = "yellow"
        console.print(Text("  " + state.narrate(action, names, me), style=style))
        state.apply_action(action)
    print_chance_lines(chance_lines)
    return state


# A run of chance events longer than this (a deal) is folded: repeats counted, in columns.
FOLD_CHANCE_LINES = 8
PAGE_SIZE = 24  # moves listed at once; + shows the next ones


def print_chance_lines(lines: list[str]) -> None:
    if len(lines) <= FOLD_CHANCE_LINES:
        for line in lines:
            console.print(Text("  " + line, style="cyan"))
        return
    counts = Counter(lines)  # in the order first seen
    items = [Text(line + (f" ×{k}" if k > 1 else ""), style="cyan") for line, k in counts.items()]
    console.print(Padding(Columns(items, column_first=True, padding=(0, 3)), (0, 0, 0, 2)))


def your_move(state: State, names: list[str], pause: float) -> int:
    """The person's move: played at once when it is the only one, else asked for."""
    legal = state.legal_actions()
    if len(legal) == 1:
        label = state.move_label(legal[0], names)
        console.print(Text(f"  Only one move for you: {label}. It plays itself.", style="dim"))
        if pause > 0 and sys.stdin.isatty():
            time.sleep(pause)  # time to read the notice; never when input is piped
        return legal[0]
    me = state.current_player()
    console.print(Panel(state.render(me, names)))
    # A game may put a question to the person (Count Down's meetings: "Bot 3 asks you to
    # sell Radar (forced sale): a price of 50 to 100").
    question = state.prompt(me, names)
    if question:
        console.print(Text(question, style="bold"))
    return ask_move(state, names)


def ask_move(state: State, names: list[str]) -> int:
    """Read a move: its number, its words or its program name (any case and spacing);
    + pages the list, other text lists the moves that contain it."""
    legal = state.legal_actions()
    labels = [state.move_label(a, names) for a in legal]
    said = [
        {simple(label), simple(state.action_to_string(a))}
        for a, label in zip(legal, labels, strict=True)
    ]
    page = 0
    show_moves(labels, range(len(labels)), page)
    while True:
        answer = console.input("your move> ")
        text = simple(answer)
        if text in ("q", "quit", "exit"):
            raise EOFError
        if text in ("+", "more", ""):
            page = page + 1 if text and (page + 1) * PAGE_SIZE < len(legal) else 0
            show_moves(labels, range(len(labels)), page)
            continue
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        chosen = [a for a, words in zip(legal, said, strict=True) if text in words]
        if len(chosen) == 1:
            return chosen[0]
        try:
            return state.string_to_action(answer.strip())  # a game's own shorthand
        except IllegalActionError:
            pass
        found = [i for i, words in enumerate(said) if any(text in w for w in words)]
        if found:
            console.print(Text(f"Moves with {answer.strip()!r}:", style="dim"))
            show_moves(labels, found, 0, page_size=len(found))
            continue
        console.print(
            Text(
                f"{answer.strip()!r} is not a move here: type 1 to {len(legal)}, or words "
                "of a move.",
                style="red",
            )
        )


def simple(text: str) -> str:
    """Text as matched against moves: no case, single spaces."""
    return " ".join(text.casefold().split())


def show_moves(labels: list[str], which, page: int, page_size: int = PAGE_SIZE) -> None:
    """The moves (numbered as typed) in columns, a page at a time."""
    which = list(which)
    shown = which[page * page_size : (page + 1) * page_size]
    items = [Text.assemble((f"{i + 1:>2} ", "bold"), labels[i]) for i in shown]
    console.print(Padding(Columns(items, column_first=True, padding=(0, 3)), (0, 0, 0, 2)))
    if len(which) > len(shown):
        first = page * page_size + 1
        console.print(
            Text(
                f"  moves {first}–{first + len(shown) - 1} of {len(which)}: + shows more, "
                "or type a word to find a move",
                style="dim",
            )
        )


def game_class_or_fail(name: str) -> type[Game]:
    try:
        return game_class(name)
    except ValueError as error:
        raise fail(str(error)) from None


def announce_result(state: State, names: list[str], me: int) -> None:
    if state.ended_by_turn_cap():
        console.print("[bold]Draw[/]: the turn limit was reached.")
        return
    winners = state.winners()
    if not winners:
        console.print("[bold]Draw[/]: everyone finished level, so nobody won.")
        return
    said = ", ".join(names[s] for s in winners)
    verdict = "you win!" if me in winners else "you lose."
    console.print(Text.assemble(("Winner: ", "bold green"), (said, "bold green"), f" — {verdict}"))


BackendOpt = Annotated[
    str, typer.Option(help="local (a process pool on this machine) or ray (a Ray cluster).")
]
WorkersOpt = Annotated[
    int | None, typer.Option(help="Local processes (default: all cores; 1 plays in-process).")
]
AddressOpt = Annotated[
    str | None, typer.Option(help="Ray cluster address (default: start Ray locally).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
GamesOpt = Annotated[int, typer.Option("-n", "--games", min=1, help="How many games.")]


def seat_agents(game: str, agents: str, players: int | None, param: list[str] | None):
    """The game and the agent spec of every seat (cycled from the list given)."""
    names = split_names(agents)
    if not names:
        raise fail("name at least one agent, e.g. --agents greedy,random")
    if players is None and len(names) > 1 and "players" in game_class_or_fail(game).parameters:
        players = len(names)
    the_game = build_game(game, players, param)
    for spec in set(names):
        try:
            make_agent(spec, the_game, seed=0)
        except ValueError as error:
            raise fail(str(error)) from None
    return the_game, names


def progress_bar(label: str, total: int, hidden: bool) -> Progress:
    bar = Progress(
        "{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=console, transient=True, disable=hidden,
    )  # fmt: skip
    bar.add_task(label, total=total)
    return bar


def advance(bar: Progress):
    return lambda k: bar.advance(bar.task_ids[0], k)


@app.command()
def simulate(
    game: GameArg,
    games: GamesOpt = 1000,
    agents: Annotated[
        str, typer.Option(help="Agents by seat, comma-separated (cycled to fill the seats).")
    ] = "random",
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    param: ParamOpt = None,
    backend: BackendOpt = "local",
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    batch: Annotated[
        bool, typer.Option(help="Play thousands at a time on the batch engine (random, greedy).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Play many games between agents and report win rates and game lengths."""
    the_game, names = seat_agents(game, agents, players, param)
    seats = list(islice(cycle(names), the_game.num_players))
    with progress_bar(game, games, as_json) as bar:
        try:
            if batch:
                from tminus.batch.simulate import simulate_batch

                summary = simulate_batch(the_game, seats, games, seed, progress=advance(bar))
            else:
                summary = run_simulation(
                    the_game, seats, games, seed, advance(bar), backend, workers, address
                )
        except ValueError as error:
            raise fail(str(error)) from None
    if as_json:
        print(json.dumps(summary.to_dict(), indent=2))
        return
    table = Table(title=f"{game_class(game).title}: {games} games, seed {seed}")
    for column in ("seat", "agent", "wins", "win rate", "95% interval"):
        table.add_column(column, justify="right")
    for s in summary.seats:
        low, high = s.interval
        table.add_row(
            str(s.seat), s.agent, str(s.wins), f"{s.win_rate:.1%}", f"{low:.1%} – {high:.1%}"
        )
    console.print(table)
    console.print(
        f"moves per game: mean {summary.length_mean:.1f}, median {summary.length_median:.0f}, "
        f"95th percentile {summary.length_p95:.0f}"
    )
    console.print(f"draws: {summary.draws} (turn cap reached: {summary.turn_cap_draws})")


@app.command()
def tournament(
    game: GameArg,
    agents: Annotated[str, typer.Option(help="The agents, comma-separated.")],
    games: GamesOpt = 1000,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    param: ParamOpt = None,
    backend: BackendOpt = "local",
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every agent in every seat: openskill ratings and a head-to-head table."""
    if players is None and "players" in game_class_or_fail(game).parameters:
        players = game_class(game).parameters["players"].default
    the_game, names = seat_agents(game, agents, players, param)
    with progress_bar(game, games, as_json) as bar:
        try:
            result = run_tournament(
                the_game, names, games, seed, advance(bar), backend, workers, address
            )
        except ValueError as error:
            raise fail(str(error)) from None
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
        return
    print_tournament(result)


def print_tournament(result) -> None:
    ranking = Table(title=f"{game_class(result.game).title}: {result.games} games, ranking")
    for column in ("rank", "agent", "mu ± sigma", "mu - 3 sigma", "games", "win rate"):
        ranking.add_column(column, justify="right")
    for rank, r in enumerate(result.ratings, 1):
        ranking.add_row(
            str(rank), r.agent, f"{r.mu:.2f} ± {r.sigma:.2f}", f"{r.ordinal:.2f}",
            str(r.games), f"{r.win_rate:.1%}",
        )  # fmt: skip
    console.print(ranking)
    grid = Table(title="head to head: row finished above / below / level with column")
    grid.add_column("")
    for name in result.agents:
        grid.add_column(name, justify="right")
    for a in result.agents:
        cells = []
        for b in result.agents:
            w, lo, d = result.head_to_head[a].get(b, (0, 0, 0)) if a != b else (0, 0, 0)
            cells.append("—" if a == b else f"{w} / {lo} / {d}")
        grid.add_row(a, *cells)
    console.print(grid)


@app.command()
def report(
    game: GameArg,
    agents: Annotated[str, typer.Option(help="Agents, comma-separated.")] = "greedy,random",
    games: GamesOpt = 1000,
    out: Annotated[str, typer.Option(help="Where to write the HTML page.")] = "report.html",
    as_tournament: Annotated[
        bool, typer.Option("--tournament", help="Every agent in every seat, with ratings.")
    ] = False,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    param: ParamOpt = None,
    backend: BackendOpt = "local",
    workers: WorkersOpt = None,
    address: AddressOpt = None,
) -> None:
    """Run a simulation or tournament and write an HTML report with figures."""
    from tminus.sim.report import build_report

    try:  # before the games are played, not after
        import matplotlib  # noqa: F401
    except ImportError:
        raise fail("reports need matplotlib: pip install 'tminus[analysis]'") from None
    the_game, names = seat_agents(game, agents, players, param)
    title = f"{game_class(game).title}: {', '.join(names)}"
    # The per-game figures need facts read off each game's history (tminus.sim.facts).
    options = {"backend": backend, "workers": workers, "address": address, "facts": True}
    with progress_bar(game, games, False) as bar:
        try:
            if as_tournament:
                result = run_tournament(the_game, names, games, seed, advance(bar), **options)
                results, ratings = result.results, result.ratings
                rows = [
                    (f"#{i} {r.agent}", f"mu {r.mu:.2f} ± {r.sigma:.2f}, won {r.win_rate:.1%}")
                    for i, r in enumerate(ratings, 1)
                ]
            else:
                seats = list(islice(cycle(names), the_game.num_players))
                summary = run_simulation(the_game, seats, games, seed, advance(bar), **options)
                results, ratings = summary.results, None
                rows = []
                for s in summary.seats:
                    low, high = s.interval
                    rows.append(
                        (
                            f"seat {s.seat}: {s.agent}",
                            f"won {s.win_rate:.1%} ({low:.1%}–{high:.1%})",
                        )
                    )
        except ValueError as error:
            raise fail(str(error)) from None
    lengths = sorted(r.moves for r in results)
    rows.append(("median moves per game", str(lengths[len(lengths) // 2])))
    rows.append(("turn-cap draws", str(sum(r.turn_cap for r in results))))
    rows.append(("seed", str(seed)))
    try:
        page = build_report(game, dict(the_game.params), results, title, rows, ratings)
    except ValueError as error:
        raise fail(str(error)) from None
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(page)
    console.print(f"report written to [bold]{out}[/]")


@app.command()
def solve(game: GameArg) -> None:
    """Print what the exact solvers know about a game."""
    try:
        report = solver_report(game)
    except ValueError as error:
        raise fail(str(error)) from None
    console.print(Markdown(report))


@app.command()
def bench(
    names: Annotated[list[str] | None, typer.Argument(help="Games (default: all).")] = None,
    runs: Annotated[int, typer.Option(help="Runs per game; the median is shown.")] = 5,
    seconds: Annotated[float, typer.Option(help="Seconds per playout run.")] = 1.0,
    search: Annotated[bool, typer.Option(help="Also time MCTS at 100 simulations.")] = True,
    scaling: Annotated[bool, typer.Option(help="Also time simulation on 1 and 2 workers.")] = True,
    interop: Annotated[
        bool, typer.Option(help="Also race OpenSpiel's MCTSBot (needs the rl extra).")
    ] = True,
    batch: Annotated[
        bool, typer.Option(help="Time the batch engines against the reference engines.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Throughput: random playouts (one core), MCTS decisions, simulation scaling."""
    from tminus.sim.bench import bench_batch_report, bench_scaling, bench_search

    chosen = names or list_games()
    for name in chosen:
        game_class_or_fail(name)
    if runs < 1 or seconds <= 0:
        raise fail("--runs must be at least 1 and --seconds above 0")
    if batch:
        try:
            print(bench_batch_report(names, seconds, as_json))
        except ValueError as error:
            raise fail(str(error)) from None
        return
    playouts = [
        bench_game(load_game(name, **params), runs=runs, seconds=seconds)
        for name in chosen
        for params in bench_configurations(name)
    ]
    searches = [bench_search(load_game(name), runs=runs) for name in chosen] if search else []
    scalings = [bench_scaling(load_game(name)) for name in chosen] if scaling else []
    races = []
    if interop and importlib.util.find_spec("pyspiel") is not None:
        from tminus.sim.bench import bench_vs_openspiel

        races = [bench_vs_openspiel(load_game(name), runs=runs) for name in chosen]
    if as_json:
        print(
            json.dumps(
                {
                    "playouts": [r.__dict__ for r in playouts],
                    "search": [r.__dict__ for r in searches],
                    "scaling": [{**r.__dict__, "speedup": r.speedup} for r in scalings],
                    "openspiel": [{**r.__dict__, "ratio": r.ratio} for r in races],
                },
                indent=2,
            )
        )
        return
    table = Table(title=f"Random playouts, one core, median of {runs} runs of {seconds:g}s")
    for column in ("game", "parameters", "games/s", "actions/s", "actions/game"):
        table.add_column(column, justify="right")
    for r in playouts:
        params = ", ".join(f"{k}={v}" for k, v in r.params.items())
        table.add_row(
            r.game, params, f"{r.games_per_second:,.0f}", f"{r.actions_per_second:,.0f}",
            f"{r.actions_per_game:.0f}",
        )  # fmt: skip
    console.print(table)
    if searches:
        table = Table(title=f"Search at 100 simulations, median of {runs} runs")
        for column in ("game", "agent", "decisions/s"):
            table.add_column(column, justify="right")
        for r in searches:
            table.add_row(r.game, r.agent, f"{r.decisions_per_second:,.1f}")
        console.print(table)
    if scalings:
        table = Table(title="Simulation of random games, local processes")
        for column in ("game", "games", "1 worker games/s", "2 workers games/s", "ratio"):
            table.add_column(column, justify="right")
        for r in scalings:
            table.add_row(
                r.game, str(r.games), f"{r.games_per_second[1]:,.0f}",
                f"{r.games_per_second[2]:,.0f}", f"{r.speedup:.2f}",
            )  # fmt: skip
        console.print(table)
    if races:
        table = Table(title="MCTS, 100 simulations: T-minus against OpenSpiel's Python MCTSBot")
        columns = ("game", "ours", "ours decisions/CPU s", "OpenSpiel decisions/CPU s", "ratio")
        for column in columns:
            table.add_column(column, justify="right")
        for r in races:
            table.add_row(
                r.game, r.ours, f"{r.ours_per_second:,.1f}", f"{r.openspiel_per_second:,.1f}",
                f"{r.ratio:.1f}x",
            )  # fmt: skip
        console.print(table)
    if "sputnik" in chosen:
        print_endgame_figures()


def print_endgame_figures() -> None:
    """The solved Sputnik endgames: figures of the table on disk (building it takes minutes,
    so bench never does)."""
    from tminus.agents.solvers.sputnik_endgame import bench_figures

    figures = bench_figures(build_missing=False)
    if figures is None:
        console.print(
            "Sputnik endgame table: not built here "
            "(python -m tminus.agents.solvers.sputnik_endgame build)"
        )
        return
    console.print(
        f"Sputnik endgame table (2 players, radius {figures['radius']}): at most "
        f"{figures['max_galaxies']} galaxies left, {figures['positions']:,} positions, "
        f"{figures['megabytes']:.1f} MB, built in {figures['build_seconds']:,.0f} s, "
        f"{figures['lookups_per_second']:,.0f} lookups/s"
    )


def bench_configurations(name: str) -> list[dict[str, Any]]:
    """Default parameters, and the largest player count when the game has several."""
    players = game_class(name).parameters.get("players")
    if players is None or players.choices is None:
        return [{}]
    largest = max(players.choices)
    return [{}] if largest == players.default else [{}, {"players": largest}]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help="Database URL: a SQLite file (default; one process) or postgresql://... "
            "(any number of processes, on any machines)."
        ),
    ] = "sqlite:///tminus.db",
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before moving.")] = 0.6,
    max_body: Annotated[int, typer.Option(help="Bytes in an HTTP request body.")] = LIMITS.max_body,
    creates_per_minute: Annotated[
        float, typer.Option(help="Games one address may create a minute (0: no limit).")
    ] = LIMITS.creates_per_minute,
    max_bot_games: Annotated[
        int, typer.Option(help="Games whose bots think at once, server-wide.")
    ] = LIMITS.max_bot_games,
    max_search_bots: Annotated[
        int, typer.Option(help="Search bots among them, server-wide.")
    ] = LIMITS.max_search_bots,
    bot_budget: Annotated[
        float, typer.Option(help="CPU seconds a bot may spend on one move.")
    ] = LIMITS.bot_budget,
    bot_workers: Annotated[
        int, typer.Option(help="Processes bots think in (0: one fewer than the cores).")
    ] = LIMITS.bot_workers,
    sockets_per_client: Annotated[
        int, typer.Option(help="WebSockets open at once from one address.")
    ] = LIMITS.sockets_per_client,
    max_sockets: Annotated[int, typer.Option(help="WebSockets open at once.")] = LIMITS.max_sockets,
    sockets_per_game: Annotated[
        int, typer.Option(help="WebSockets on one game.")
    ] = LIMITS.sockets_per_game,
    hello_timeout: Annotated[
        float, typer.Option(help="Seconds a new socket has to say hello.")
    ] = LIMITS.hello_timeout,
    messages_per_second: Annotated[
        float, typer.Option(help="Messages one socket may send a second.")
    ] = LIMITS.messages_per_second,
    message_burst: Annotated[int, typer.Option(help="... and at once.")] = LIMITS.message_burst,
    send_queue: Annotated[
        int, typer.Option(help="Messages queued for a socket before it is closed.")
    ] = LIMITS.send_queue,
    send_timeout: Annotated[
        float, typer.Option(help="Seconds a message may take to reach a socket.")
    ] = LIMITS.send_timeout,
    cache_size: Annotated[
        int, typer.Option(help="Idle games kept in memory (others rebuilt when asked for).")
    ] = LIMITS.cache_size,
    replays_at_once: Annotated[
        int, typer.Option(help="Replays built at once.")
    ] = LIMITS.replays_at_once,
    busy_timeout: Annotated[
        float, typer.Option(help="Seconds a write waits for a locked SQLite file.")
    ] = LIMITS.busy_timeout,
    bot_lease: Annotated[
        float,
        typer.Option(
            help="Seconds a process keeps a game's bots unless it renews (then others may)."
        ),
    ] = LIMITS.bot_lease,
    waiting_expiry: Annotated[
        float,
        typer.Option(help="Seconds a game waits for its players before it expires (0: never)."),
    ] = LIMITS.waiting_expiry,
    pause_after: Annotated[
        float,
        typer.Option(help="Seconds a game in play waits with all its people away, then pauses."),
    ] = LIMITS.pause_after,
    away_after: Annotated[
        float,
        typer.Option(help="Seconds a person has no socket before their seat may go to a bot."),
    ] = LIMITS.away_after,
) -> None:
    """Play in the browser: start the server (needs the web extra) and print its address."""
    try:
        import asyncio

        import uvicorn
        from sqlalchemy.engine import make_url

        from tminus.server.app import create_app
        from tminus.server.serving import PipelinedMessages, PipelinedUpgrade
        from tminus.server.storage import Store, StoreError, hold_sqlite
    except ImportError:
        raise fail('the server needs the web extra: pip install "tminus[web]"') from None
    limits = Limits(
        max_body=max_body, creates_per_minute=creates_per_minute, max_bot_games=max_bot_games,
        max_search_bots=max_search_bots, bot_budget=bot_budget, bot_workers=bot_workers,
        sockets_per_client=sockets_per_client, max_sockets=max_sockets,
        sockets_per_game=sockets_per_game, hello_timeout=hello_timeout,
        messages_per_second=messages_per_second, message_burst=message_burst,
        send_queue=send_queue, send_timeout=send_timeout, cache_size=cache_size,
        replays_at_once=replays_at_once, busy_timeout=busy_timeout, bot_lease=bot_lease,
        waiting_expiry=waiting_expiry, away_after=away_after, pause_after=pause_after,
    )  # fmt: skip
    if bot_lease <= 0:
        raise fail("--bot-lease must be above 0 seconds")
    if pause_after <= 0:
        raise fail("--pause-after must be above 0 seconds")
    if away_after <= 0:
        raise fail("--away-after must be above 0 seconds")
    try:  # a damaged or unreachable database, or a SQLite file served already: one sentence
        hold_sqlite(db)
        asyncio.run(Store(db, busy_timeout).check())
    except StoreError as error:
        raise fail(str(error)) from None
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    stored_in = make_url(db).render_as_string(hide_password=True)  # (no password on screen)
    console.print(f"T-minus is at [bold]http://{shown}:{port}/[/]  (games stored in {stored_in})")
    uvicorn.run(
        create_app(db, bot_delay, limits), host=host, port=port, log_level="warning",
        ws_max_size=65536, http=PipelinedUpgrade, ws=PipelinedMessages,
    )  # fmt: skip


@app.command()
def verify(
    export: Annotated[str, typer.Argument(help="A game exported from the server (JSON).")],
) -> None:
    """Check a finished online game: the seed's commitment and every chance outcome."""
    from tminus.server.fairness import verify_export

    try:
        with open(export, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, json.JSONDecodeError) as error:
        raise fail(f"cannot read {export}: {error}") from None
    result = verify_export(data)
    for note in result.notes:
        console.print(f"[yellow]note:[/] {note}")
    if not result.ok:
        for problem in result.problems:
            console.print(f"[bold red]✗[/] {problem}")
        raise typer.Exit(code=1)
    console.print(
        f"[bold green]✓ verified[/]: the seed matches its commitment and all "
        f"{result.chance_checked} chance outcomes follow from it ({result.moves_checked} moves "
        "replayed)."
    )


@app.command()
def review(
    record: Annotated[str, typer.Argument(help="A finished game: an export (JSON) or a save.")],
    html: Annotated[
        str | None, typer.Option("--html", help="Also write an HTML report to this file.")
    ] = None,
    samples: Annotated[
        int, typer.Option("--samples", help="Playouts a move where no solver covers it.")
    ] = 32,
    seed: SeedOpt = 0,
) -> None:
    """Review a game: each move's chance to win before and after, the best move, the loss."""
    from tminus.review import read_record, review_game
    from tminus.review.report import html_report, summary, terminal_table

    try:
        with open(record, encoding="utf-8") as handle:
            game_record = read_record(json.load(handle))
        result = review_game(
            game_record.game, game_record.history, game_record.names, samples=samples, seed=seed
        )
    except (OSError, json.JSONDecodeError, ValueError) as error:
        raise fail(f"cannot review {record}: {error}") from None
    console.print(terminal_table(result))
    for line in summary(result):
        console.print(escape(line))
    if html:
        with open(html, "w", encoding="utf-8") as handle:
            handle.write(html_report(result))
        console.print(f"HTML report: {escape(html)}")


def main() -> None:  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
