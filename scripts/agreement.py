"""How often agents choose the same move: a cheap look at whether a stronger level plays
differently at all, before hours of games try to measure by how much.

    nice python scripts/agreement.py GAME AGENT AGENT ... [--positions 48] [--players N]
        [--every 0.08] [--seed 0]

Positions are sampled from greedy self-play (each decision with more than one legal move
is taken with chance ``--every``); at each, every agent chooses, and a second copy of the
first agent (another seed) chooses too, so that its disagreement with itself, the search's
own noise, stands beside theirs. Prints the share of positions each pair agrees on, and
the kinds of decision sampled.
"""

from __future__ import annotations

import argparse
from collections import Counter
from itertools import combinations

import numpy as np

from tminus.agents.registry import make_agent
from tminus.core.playout import sample_chance
from tminus.core.registry import load_game


def agreement(
    game_name: str,
    specs: list[str],
    positions: int,
    players: int | None = None,
    every: float = 0.08,
    seed: int = 0,
) -> tuple[dict[tuple[str, str], float], Counter[str]]:
    """Each pair of ``specs`` (and the first against itself, "SPEC (again)"): the share of
    sampled positions where both chose the same move; and the kinds of move sampled."""
    game = load_game(game_name) if players is None else load_game(game_name, players=players)
    rng = np.random.default_rng(seed)
    names = [*specs, f"{specs[0]} (again)"]
    same: Counter[tuple[str, str]] = Counter()
    kinds: Counter[str] = Counter()
    sampled, played = 0, 0
    while sampled < positions:
        greedy = [
            make_agent("greedy", game, seed=[seed, played, s]) for s in range(game.num_players)
        ]
        state = game.new_initial_state()
        while not state.is_terminal() and sampled < positions:
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
                continue
            if len(state.legal_actions()) > 1 and rng.random() < every:
                key = [seed, played, sampled]
                chosen = [
                    make_agent(s, game, seed=[*key, i]).step(state) for i, s in enumerate(specs)
                ]
                chosen.append(make_agent(specs[0], game, seed=[*key, len(specs)]).step(state))
                for (a, x), (b, y) in combinations(zip(names, chosen, strict=True), 2):
                    same[a, b] += x == y
                kinds[state.action_to_struct(chosen[0])["kind"]] += 1
                sampled += 1
            state.apply_action(greedy[state.current_player()].step(state))
        played += 1
    shares = {pair: same[pair] / positions for pair in combinations(names, 2)}
    return shares, kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("agents", nargs="+")
    parser.add_argument("--positions", type=int, default=48)
    parser.add_argument("--players", type=int)
    parser.add_argument("--every", type=float, default=0.08)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    shares, kinds = agreement(
        args.game, args.agents, args.positions, args.players, args.every, args.seed
    )
    print(f"{args.game}: {args.positions} positions from greedy self-play")
    print("| agent | agent | same move |")
    print("|---|---|---|")
    for (a, b), share in shares.items():
        print(f"| `{a}` | `{b}` | {share:.2f} |")
    print("kinds of move:", ", ".join(f"{kind} {n}" for kind, n in kinds.most_common()))


if __name__ == "__main__":
    main()
