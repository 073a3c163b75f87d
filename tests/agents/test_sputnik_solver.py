"""The Sputnik solver: its kernel equals the engine, its reductions are sound, its search exact.

The full solve of radius 2 (about 15 s) runs once, in the test that plays its answer;
``python -m tminus.cli solve sputnik`` prints it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import tminus
from tminus.agents import make_agent
from tminus.agents.solvers import games_with_solvers
from tminus.agents.solvers.sputnik import (
    OutOfBudget,
    Solver,
    SputnikSolverAgent,
    report,
    shared_solver,
    solve_first_player,
)
from tminus.agents.solvers.sputnik_kernel import kernel
from tminus.games.sputnik.game import SputnikState


def started(radius: int, first: int = 0) -> SputnikState:
    state = tminus.load_game("sputnik", players=2, radius=radius).new_initial_state()
    state.apply_action(first)  # the lot
    return state


def play_random_turn(state: SputnikState, rng: random.Random, help_bias: float) -> None:
    """One whole turn (a move, then its removal if any); base help chosen with priority
    ``help_bias`` when it is legal, so that games use it often."""
    actions = state.legal_actions()
    helps = [a for a in actions if a >= state.game.help_offset]
    pool = helps if helps and rng.random() < help_bias else actions
    state.apply_action(rng.choice(pool))
    if not state.is_terminal() and state.phase() == "remove":
        state.apply_action(rng.choice(state.legal_actions()))


def random_turn_starts(radius: int, games: int, seed: int, help_bias: float = 0.3):
    """Every turn start (an engine state) of ``games`` random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = started(radius, rng.randrange(2))
        while not state.is_terminal():
            yield state.clone()
            play_random_turn(state, rng, help_bias)


def engine_turns(state: SputnikState) -> list[SputnikState]:
    """The states after every whole turn the player to move can play, through the engine."""
    after = []
    for move in state.legal_actions():
        moved = state.clone()
        moved.apply_action(move)
        if moved.is_terminal() or moved.phase() != "remove":
            after.append(moved)
            continue
        for removal in moved.legal_actions():
            removed = moved.clone()
            removed.apply_action(removal)
            after.append(removed)
    return after


def kernel_view(k, key: int, mover: int) -> object:
    """A kernel position as the engine would show it after the turn: the position, or the
    win of the player who just moved when the next one cannot move."""
    return key if k.can_move(key) else ("won by", mover)


def engine_view(k, state: SputnikState) -> object:
    if state.is_terminal():
        return ("won by", *state.winners())
    return k.position_of(state)


# -- the kernel equals the engine -----------------------------------------------------------
@pytest.mark.parametrize(
    ("radius", "games", "help_bias"), [(2, 500, 0.3), (2, 200, 0.9), (3, 60, 0.5)]
)
def test_kernel_turns_equal_engine_turns_along_random_games(radius, games, help_bias):
    k = kernel(radius)
    helps = ends = 0
    for state in random_turn_starts(radius, games, seed=radius * 1000 + games, help_bias=help_bias):
        key = k.position_of(state)
        mover = state.current_player()
        assert k.can_move(key)  # the engine eliminates a stuck player before its turn
        engine = Counter(engine_view(k, after) for after in engine_turns(state))
        ours = Counter(kernel_view(k, child, mover) for child in k.successors(key))
        assert ours == engine, str(state)
        helps += k.helps(key) != 0
        ends += ("won by", mover) in ours
    assert helps > 50 and ends > 50  # base help and the end of the game were exercised


def test_kernel_start_is_the_engines_first_turn():
    for radius in (2, 3):
        k = kernel(radius)
        assert k.position_of(started(radius, 0)) == k.start()
        # With seat 1 drawn to start, the first position is the start turned by half a turn.
        assert k.position_of(started(radius, 1)) == k.transform(k.start(), k.half_turn_cells)


def test_pack_and_unpack_are_inverse():
    k = kernel(3)
    for state in random_turn_starts(3, 5, seed=7):
        key = k.position_of(state)
        assert k.pack(*k.unpack(key)) == key


def test_games_end_long_before_the_turn_cap():
    """A step with nothing to remove is never followed by another, once both rockets have
    left their bases: so a game lasts fewer than 2 (N + 4) turns (N cells)."""
    for radius in (2, 3):
        k = kernel(radius)
        for state in random_turn_starts(radius, 40, seed=radius, help_bias=0.5):
            if state.turn() < 2:
                continue
            key = k.position_of(state)
            galaxies = k.unpack(key)[0]
            for child in k.successors(key):
                if k.unpack(child)[0] == galaxies:  # no removal (and no help)
                    for grandchild in k.successors(child):
                        assert k.unpack(grandchild)[0] != k.unpack(child)[0]
        game = started(radius).game
        assert 2 * (game.cells + 4) < game.max_turns


# -- the reductions ---------------------------------------------------------------------------
@pytest.mark.parametrize("radius", [2, 3])
def test_the_mirror_through_both_bases_is_a_symmetry_of_the_rules(radius):
    k = kernel(radius)
    cells, _ = k.mirror_cells
    # It keeps adjacency and both bases.
    for a in range(k.cells):
        assert {cells[b] for b in k.board.neighbours[a]} == set(k.board.neighbours[cells[a]])
    assert [cells[c] for c in k.corners] == k.corners
    assert k.mirror(k.start()) == k.start()
    # It commutes with the turns: the turns of the mirror image are the mirror images.
    for state in random_turn_starts(radius, 30, seed=11, help_bias=0.5):
        key = k.position_of(state)
        image = k.mirror(key)
        assert k.mirror(image) == key
        assert sorted(k.successors(image)) == sorted(k.mirror(c) for c in k.successors(key))
        assert k.can_move(image) == k.can_move(key)


def test_the_half_turn_is_a_symmetry_of_the_rules():
    k = kernel(2)
    for state in random_turn_starts(2, 30, seed=12, help_bias=0.5):
        key = k.position_of(state)
        image = k.transform(key, k.half_turn_cells)
        turned = sorted(k.transform(c, k.half_turn_cells) for c in k.successors(key))
        assert sorted(k.successors(image)) == turned


def random_positions(radius: int, count: int, seed: int):
    """Turn starts of random games with galaxies randomly added or taken away (so that the
    shortcut meets odd positions too: empty cells next to rockets, trapped rockets)."""
    k = kernel(radius)
    rng = random.Random(seed)
    for state in random_turn_starts(radius, count, seed, help_bias=0.5):
        key = k.position_of(state)
        yield key
        galaxies, mover, opponent = k.unpack(key)
        occupied = {mover[0], opponent[0], mover[1], opponent[1]}
        for cell in rng.sample(range(k.cells), 3):
            if cell not in occupied:
                galaxies ^= 1 << cell
        yield k.pack(galaxies, mover, opponent)


@pytest.mark.parametrize("radius", [2, 3])
def test_win_at_once_shortcut_equals_its_definition(radius):
    k = kernel(radius)
    wins = 0
    for key in random_positions(radius, 60, seed=radius):
        expected = any(not k.can_move(child) for child in k.successors(key))
        assert k.wins_at_once(key) == expected, k.unpack(key)
        wins += expected
    assert wins > 20


# -- the search is exact ----------------------------------------------------------------------
def engine_minimax(state: SputnikState, seat: int) -> float:
    """Plain exhaustive minimax through the engine: seat's result with perfect play."""
    if state.is_terminal():
        return state.returns()[seat]
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(engine_minimax(child, seat))
    return max(values) if state.current_player() == seat else min(values)


def kernel_negamax(k, key: int) -> bool:
    """The kernel's game without any reduction: no table, no mirror, no shortcut."""
    return any(not kernel_negamax(k, child) for child in k.successors(key))


def endgames(radius: int, galaxies: int, count: int, seed: int) -> list[SputnikState]:
    """Turn starts of random games once no more than ``galaxies`` galaxies are left."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = started(radius, rng.randrange(2))
        while not state.is_terminal():
            if sum(1 for c in state.position()[0] if c == 1) <= galaxies:
                found.append(state)
                break
            play_random_turn(state, rng, help_bias=0.2)
    return found


def test_solver_equals_exhaustive_engine_minimax_on_small_endgames():
    k = kernel(2)
    results = Counter()
    for state in endgames(2, galaxies=6, count=40, seed=3):
        mover = state.current_player()
        exact = engine_minimax(state, mover)
        assert exact in (1.0, -1.0)  # no draws with one rocket each
        won = Solver(2).wins(k.position_of(state))
        assert won == (exact == 1.0), str(state)
        results[won] += 1
    assert results[True] and results[False]


def test_solver_reductions_do_not_change_results_a_few_plies_from_the_end():
    k = kernel(2)
    results = Counter()
    solver = Solver(2)  # one table shared by all the positions, as in the real solve
    for state in endgames(2, galaxies=9, count=30, seed=5):
        key = k.position_of(state)
        won = solver.wins(key)
        assert won == kernel_negamax(k, key)
        assert Solver(2).wins(k.mirror(key)) == won
        results[won] += 1
    assert results[True] and results[False]


def test_solver_values_are_consistent_on_radius_2_positions_a_few_turns_deep():
    """Every stored result obeys the rule of the search: won iff some turn leads to a
    position lost for the opponent (the children read from the table or solved)."""
    k = kernel(2)
    solver = Solver(2, max_nodes=400_000)
    for state in endgames(2, galaxies=11, count=6, seed=9):
        key = k.position_of(state)
        won = solver.wins(key)
        assert won == any(not solver.wins(child) for child in k.successors(key))


def test_a_budget_stops_the_search():
    with pytest.raises(OutOfBudget):
        Solver(2, max_nodes=1000).wins(kernel(2).start())
    solution = solve_first_player(2, max_nodes=1000)
    assert solution.first_player_wins is None and solution.nodes > 1000
    assert "not solved" in report(2, max_seconds=0.01)


def test_describe_turn_names_the_engine_turn():
    k = kernel(2)
    for state in random_turn_starts(2, 30, seed=4, help_bias=0.5):
        key = k.position_of(state)
        for child in k.successors(key):
            verb, cell, removed = k.describe_turn(key, child)
            after = state.clone()
            name = state.game.board.names
            after.apply_action(after.string_to_action(f"{verb} {name[cell]}"))
            if removed is not None:
                after.apply_action(after.string_to_action(f"remove {name[removed]}"))
            assert after.is_terminal() or after.phase() == "move"
            assert engine_view(k, after) == kernel_view(k, child, state.current_player())


def test_solve_command_knows_sputnik():
    assert "sputnik" in games_with_solvers()


def test_radius_2_is_a_first_player_win_that_the_solver_agent_wins_in_play():
    solver = shared_solver(2)
    assert solver.wins(kernel(2).start())  # the full solve
    game = tminus.load_game("sputnik", players=2, radius=2)
    first = SputnikSolverAgent(game, max_seconds=None)
    for opponent, games in (("random", 12), ("greedy", 12), ("alphabeta", 3)):
        for seed in range(games):
            second = make_agent(opponent, game, seed=seed)
            state = game.new_initial_state()
            state.apply_action(0)  # the lot: seat 0 starts
            while not state.is_terminal():
                agent = first if state.current_player() == 0 else second
                state.apply_action(agent.step(state))
            assert state.winners() == [0], (opponent, seed)


def test_solver_agent_is_for_two_players_with_one_rocket_each():
    with pytest.raises(ValueError, match="2-player games with one rocket"):
        SputnikSolverAgent(tminus.load_game("sputnik", players=3, radius=2))
