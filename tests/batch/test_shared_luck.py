"""Luck shared between rows (common random numbers, ``BatchEnv.share_luck``): rows of one
stream meet the same draws, rows of different streams do not, and a batch that shares no
luck draws exactly as before."""

from __future__ import annotations

import copy
import hashlib

import numpy as np
import pytest

from tminus import load_game
from tminus.batch import batch_class
from tminus.batch.agents import make_batch_agent
from tminus.review.batch_playouts import SPLIT_ROWS, play_out_batch, split_rows

ROWS = 64


def a_decision(players: int = 3):
    """A 3-2-1 position at a seat's decision, a few moves in."""
    game = load_game("three_two_one", players=players)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    while state.is_chance_node() or len(state.history()) < 30:
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


def played_out(streams: np.ndarray | None, seed: int = 7) -> list[list[int]]:
    """Every row loaded with one position, played to the end by the shedder; the actions
    each row played after it."""
    game, state = a_decision()
    env = batch_class(game.name)(ROWS, seed=seed, deal=False, **dict(game.params))
    env.load(np.arange(ROWS), state)
    if streams is not None:
        env.share_luck(streams)
    player = make_batch_agent("shedder", env, seed=seed)
    while not env.terminal().all():
        env.step(player.act(), check=False)
    return [env.history(row) for row in range(ROWS)]


def test_rows_of_one_stream_meet_the_same_luck_and_other_streams_other_luck():
    games = played_out(np.arange(ROWS) % 4)  # four streams, sixteen rows each
    for row in range(4, ROWS):
        assert games[row] == games[row % 4]  # the same position and luck: the same game
    assert len({tuple(games[s]) for s in range(4)}) == 4


def test_a_reviews_playouts_play_each_move_of_a_world_on_its_luck():
    """The same move entered twice for one world is the same game twice: the review's
    candidates of a world share their luck (``play_out_batch``); other worlds differ."""
    game, state = a_decision()
    move = state.legal_actions()[0]
    worlds = [state] * 32
    (shares,) = play_out_batch(game, [(worlds, [move, move], state.current_player())], 4, "shedder")
    assert shares.shape == (2, 32)
    assert np.array_equal(shares[0], shares[1])
    assert len(set(shares[0].tolist())) > 1  # (the worlds' luck is not all alike)


# The histories of 32 seeded 3-player games by the shedder, before shared luck existed
# (commit 8bfda3e): a batch that shares no luck must still play exactly these.
GAMES_BEFORE = "a8113036899da9b24f286a29de48b9f1b00911dc8fbe6955f2f9763ebd8e515b"


def test_a_batch_that_shares_no_luck_draws_from_its_generator_as_before():
    env = batch_class("three_two_one")(8, seed=11, players=3)
    expected = copy.deepcopy(env.rng)
    assert np.array_equal(env.uniforms(np.arange(8)), expected.random(8))
    env = batch_class("three_two_one")(32, seed=11, players=3)
    player = make_batch_agent("shedder", env, seed=11)
    while not env.terminal().all():
        env.step(player.act())
    games = repr([env.history(i) for i in range(32)]).encode()
    assert hashlib.sha256(games).hexdigest() == GAMES_BEFORE


def test_a_large_round_is_played_in_two_batches_in_the_order_of_its_blocks():
    """Over ``SPLIT_ROWS`` rows, a round is cut in two, played on two threads; each block's
    shares come back in its place, a move entered twice still alike, with or without a
    seed."""
    game, state = a_decision()
    moves = state.legal_actions()[:2]
    worlds = SPLIT_ROWS // 4 + 8
    blocks = [([state] * worlds, [moves[0], moves[0]], seat) for seat in range(3)]
    blocks.append(([state] * 16, moves, 0))
    assert len(split_rows(blocks, 2)) == 2 and split_rows(blocks[3:], 2) == [blocks[3:]]
    for seed in (4, None):
        found = play_out_batch(game, blocks, seed, "shedder")
        assert [shares.shape for shares in found] == [(2, worlds)] * 3 + [(2, 16)]
        for shares in found[:3]:
            assert np.array_equal(shares[0], shares[1])
        assert not np.array_equal(found[0][0], found[1][0])  # another seat's share


def test_bad_streams_are_refused():
    env = batch_class("three_two_one")(4, seed=0, players=3)
    for bad in ([0, 1, 2], [0, 1, 2, -1], [0.5, 1, 2, 3]):
        with pytest.raises(ValueError, match="stream"):
            env.share_luck(bad)
    expected = copy.deepcopy(env.rng)  # (still the batch's own luck: nothing changed)
    assert np.array_equal(env.uniforms(np.arange(4)), expected.random(4))
