"""Recorded games and exact duel values, shared by the review's tests."""

from tminus import load_game
from tminus.sim.runner import make_agents, play_game


def recorded(name, agents, seed=1, **params):
    game = load_game(name, **params)
    return game, play_game(game, make_agents(agents, game, [seed]), [seed]).history


def duel_chance_after(state, action, duel):
    """The mover's chance to win after ``action``, read straight from the duel table."""
    me = state.current_player()
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal():
        return 1.0
    return 1.0 - duel[after.keys_mask(1 - me), after.keys_mask(me)]
