"""MCTS and IS-MCTS: seeded, sound on a forced win, and IS-MCTS blind to hidden cards."""

import pytest

import tminus
from tests.core.toy_game import ToyGame
from tests.four_way.helpers import legal_strings, play, started
from tminus.agents import make_agent
from tminus.core.registry import register_game, unregister_game
from tminus.sim import simulate


@pytest.fixture
def toy():
    register_game(ToyGame)
    yield ToyGame()
    unregister_game("toy")


def nine_keys_and_eleven():
    """Seat 0 has every key but 1 up and rolls eleven: flip 1 wins, an attack does not."""
    state = started()
    flips = [("dice 1,1", "flip 2"), ("dice 1,2", "flip 3"), ("dice 1,3", "flip 4"),
             ("dice 1,4", "flip 5"), ("dice 1,5", "flip 6"), ("dice 1,6", "flip 7"),
             ("dice 2,4", "flip 8"), ("dice 3,3", "flip 9"), ("dice 4,6", "flip 10")]  # fmt: skip
    for roll, flip in flips:
        play(state, roll, flip, "dice 6,6", "reset")
    return play(state, "dice 5,6")


def test_mcts_takes_the_winning_flip():
    state = nine_keys_and_eleven()
    assert legal_strings(state) == ["flip 1", "attack seat 1"]
    agent = make_agent("mcts:simulations=50", state.game, seed=1)
    assert state.action_to_string(agent.step(state)) == "flip 1"


def test_mcts_is_deterministic_under_a_seed():
    game = tminus.load_game("four_way", players=3)
    a = simulate(game, ["mcts:simulations=20", "random", "greedy"], games=4, seed=9)
    b = simulate(game, ["mcts:simulations=20", "random", "greedy"], games=4, seed=9)
    assert a.to_dict() == b.to_dict()
    assert [r.moves_by_seat for r in a.results] == [r.moves_by_seat for r in b.results]


def test_mcts_with_a_time_budget_still_moves():
    state = nine_keys_and_eleven()
    agent = make_agent("mcts:seconds=0.05", state.game, seed=1)
    assert agent.step(state) in state.legal_actions()


def test_mcts_refuses_a_hidden_information_game(toy):
    with pytest.raises(ValueError, match="cheat"):
        make_agent("mcts", toy)


def test_bad_agent_options_are_clear_errors():
    game = tminus.load_game("four_way")
    with pytest.raises(ValueError, match="at least one simulation"):
        make_agent("mcts:simulations=0", game)
    with pytest.raises(ValueError, match="not name=value"):
        make_agent("mcts:fast", game)
    with pytest.raises(ValueError, match="colour"):
        make_agent("mcts:colour=red", game)


def toy_after_deal(my_card: int, their_card: int):
    """Seat 0 holds ``my_card``; seat 1 holds ``their_card`` (hidden from seat 0)."""
    state = ToyGame().new_initial_state()
    state.apply_action(my_card - 1)
    state.apply_action(their_card - 1)
    state.apply_action(3)  # seat 0 rolls a 4
    return state


@pytest.mark.parametrize("seed", range(6))
def test_ismcts_decides_the_same_whatever_the_hidden_cards(toy, seed):
    decisions = set()
    for their_card in (1, 2, 3):
        state = toy_after_deal(2, their_card)
        assert state.observation(0) == toy_after_deal(2, 1).observation(0)
        agent = make_agent("ismcts:simulations=60", toy, seed=seed)
        decisions.add(agent.step(state))
    assert len(decisions) == 1


def test_ismcts_is_listed_only_for_hidden_information_games(toy):
    from tminus.agents import list_agents

    assert "ismcts" in list_agents("toy") and "mcts" not in list_agents("toy")
    assert "mcts" in list_agents("four_way") and "ismcts" not in list_agents("four_way")


def test_rollouts_use_the_games_greedy_player_unless_told(toy):
    sputnik = tminus.load_game("sputnik")
    assert make_agent("mcts", sputnik).rollout == "greedy"
    assert make_agent("mcts:rollout=random", sputnik).rollout == "random"
    assert make_agent("ismcts", toy).rollout == "random"  # the toy game has no greedy player
    with pytest.raises(ValueError, match="unknown agent 'sage'"):
        make_agent("mcts:rollout=sage", sputnik)
