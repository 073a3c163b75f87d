"""Bots that answer in microseconds think in the server's process (``bot_quick``): the same
moves as a worker would play, no round trip to a worker, and a failure played as a random
move, as in a worker."""

from __future__ import annotations

import random

import pytest

from tminus.agents.base import is_instant
from tminus.agents.registry import make_agent
from tminus.core.playout import sample_chance
from tminus.core.registry import list_games, load_game
from tminus.server.bot_quick import QuickBots
from tminus.server.bot_thinking import Turn, think

from .test_api import PERSON, app_client, create, play_to_the_end

SEARCH = {"kind": "bot", "bot": "mcts:simulations=800"}


def decisions(game, seed: int, limit: int = 120):
    """The states of one game where a seat decides, played by random moves."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", list_games())
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_a_quick_bot_plays_what_a_worker_would(name, spec):
    game = load_game(name, players=2 if name == "sputnik" else 3)
    quick, compared = QuickBots(), 0
    for state in decisions(game, seed=len(name)):
        seat, seed = state.current_player(), 1000 + state.current_player()
        here = quick.think("g1", game, state, seat, spec, seed, "Bot")
        turn = Turn("g1", type(game), dict(game.params), tuple(state.history()), seat, spec, seed)
        there = think(turn, budget=10.0)
        assert there is not None and here.action == there[0] and here.problem is None
        compared += 1
    assert compared >= 20


def test_a_take_back_starts_the_quick_bot_afresh_as_a_worker_does():
    game = load_game("four_way", players=2)
    states = [s.clone() for s in decisions(game, seed=3)]
    quick = QuickBots()
    for state in states[:6]:
        quick.think("g1", game, state, state.current_player(), "random", 7, "Bot")
    earlier = states[2]  # the game went back (a take-back): a new agent, as a worker makes
    agent_before = quick.agents.kept[("g1", earlier.current_player())][1]
    quick.think("g1", game, earlier, earlier.current_player(), "random", 7, "Bot")
    assert quick.agents.kept[("g1", earlier.current_player())][1] is not agent_before


def test_only_random_and_greedy_players_call_themselves_instant():
    game = load_game("four_way", players=2)
    quick = QuickBots()
    assert quick.instant(game, "random") and quick.instant(game, "greedy")
    assert not quick.instant(game, "mcts:simulations=10")
    assert not quick.instant(game, "no such bot")  # (fails in a worker, where it is told)
    assert not is_instant(make_agent("mcts:simulations=10", game, seed=0))


def test_a_quick_bot_that_fails_plays_a_random_move_and_says_so(monkeypatch):
    game = load_game("four_way", players=2)
    state = next(decisions(game, seed=1))
    quick = QuickBots()

    def trip(self, state):
        raise RuntimeError("tripped")

    monkeypatch.setattr(type(make_agent("greedy", game, seed=0)), "step", trip)
    thought = quick.think("g1", game, state, state.current_player(), "greedy", 1, "Greedy")
    assert thought.action in state.legal_actions()
    assert thought.problem == "Greedy failed and played a random move."


def test_a_game_of_greedy_bots_asks_no_worker(tmp_path):
    with app_client(tmp_path / "games.db") as client:
        pool = client.app.state.bots.pool
        asked, ask = [], pool.think

        async def counted(turn, legal, name):
            asked.append(turn.spec)
            return await ask(turn, legal, name)

        pool.think = counted
        greedy = {"kind": "bot", "bot": "greedy"}
        game = create(client, [PERSON, greedy, greedy, greedy], players=4)
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            final = play_to_the_end(ws, game)
        assert final["status"] == "finished" and asked == []
        searching = create(client, [PERSON, SEARCH], players=2)
        with client.websocket_connect(f"/ws/games/{searching['id']}") as ws:
            play_to_the_end(ws, searching)
        assert asked and set(asked) == {SEARCH["bot"]}  # a search still thinks in a worker


def test_a_seats_memory_follows_the_game_and_keeps_the_most_recent():
    from tminus.server.bot_thinking import SeatMemory

    memory = SeatMemory(size=2)
    memory.keep(("g1", 0), [1, 2], "agent")
    assert memory.recall(("g1", 0), (1, 2, 3)) == ([1, 2], "agent")  # the game went on
    assert memory.recall(("g1", 0), (1, 2, 3)) is None  # taken out until kept again
    memory.keep(("g1", 0), [1, 2], "agent")
    assert memory.recall(("g1", 0), [1, 5]) is None  # went another way (a take-back)
    for game in ("g1", "g2", "g3"):
        memory.keep((game, 0), [], game)
    assert memory.recall(("g1", 0), []) is None  # the least recently used left
    memory.forget("g2")
    assert memory.recall(("g2", 0), []) is None and memory.recall(("g3", 0), []) == ([], "g3")
