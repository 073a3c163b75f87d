"""MCTS and IS-MCTS: seeded, sound on a forced win, and IS-MCTS blind to hidden cards."""

import random

import pytest

import tminus
from tests.core.toy_game import ToyGame
from tests.four_way.helpers import legal_strings, play, started
from tminus.agents import make_agent, mcts
from tminus.core.playout import possible_actions, sample_chance
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


@pytest.mark.parametrize(
    "spec, message",
    [
        ("mcts:simulations=0", "at least one simulation"),
        ("mcts:fast", "not name=value"),
        ("mcts:colour=red", "colour"),
        ("mcts:root=wide", "root must be one of uct, halving"),
        ("mcts:horizon=turn", "horizon must be one of game, round"),
        ("mcts:horizon=round", "not played in rounds"),
        ("mcts:root=halving:seconds=1", "give simulations, not seconds"),
    ],
)
def test_bad_agent_options_are_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, tminus.load_game("four_way"))


def toy_after_deal(my_card: int, their_card: int):
    """Seat 0 holds ``my_card``; seat 1 holds ``their_card`` (hidden from seat 0)."""
    state = ToyGame().new_initial_state()
    state.apply_action(my_card - 1)
    state.apply_action(their_card - 1)
    state.apply_action(3)  # seat 0 rolls a 4
    return state


@pytest.mark.parametrize("root", ["uct", "halving"])
@pytest.mark.parametrize("seed", range(6))
def test_ismcts_decides_the_same_whatever_the_hidden_cards(toy, root, seed):
    decisions = set()
    for their_card in (1, 2, 3):
        state = toy_after_deal(2, their_card)
        assert state.observation(0) == toy_after_deal(2, 1).observation(0)
        agent = make_agent(f"ismcts:root={root}:simulations=60", toy, seed=seed)
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


def test_a_rollout_player_anchors_a_halving_root_and_rounds_end_simulations(toy):
    sputnik = tminus.load_game("sputnik")
    assert make_agent("mcts", sputnik).root == "halving"
    assert make_agent("mcts:rollout=random", sputnik).root == "uct"
    assert make_agent("mcts:seconds=0.1", sputnik).root == "uct"
    assert make_agent("ismcts", toy).root == "uct"
    assert make_agent("mcts", sputnik).horizon == "game"
    assert make_agent("ismcts", tminus.load_game("three_two_one")).horizon == "round"
    assert make_agent("ismcts", tminus.load_game("count_down")).horizon == "game"


# -- root=halving: sequential halving on common random numbers ---------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_halving_overrules_a_rollout_agent_that_misses_the_win(seed):
    """Random rollouts pick the attack half the time; the paired comparison sees the win."""
    state = nine_keys_and_eleven()
    agent = make_agent("mcts:root=halving:rollout=random:simulations=200", state.game, seed=seed)
    assert state.action_to_string(agent.step(state)) == "flip 1"


def test_halving_keeps_the_rollout_agents_move_without_clear_evidence():
    game = tminus.load_game("four_way", players=2)
    stubborn = make_agent("mcts:root=halving:simulations=20:margin=1e9", game, seed=3)
    greedy = make_agent("greedy", game, seed=3)
    state, rng, compared = game.new_initial_state(), random.Random(5), 0
    while not state.is_terminal() and compared < 12:
        if state.is_chance_node():
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
            continue
        if len(state.legal_actions()) > 1:
            assert stubborn.step(state) == greedy.step(state)
            compared += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared == 12


def test_halving_is_deterministic_under_a_seed():
    game = tminus.load_game("four_way", players=2)
    spec = "mcts:root=halving:simulations=16"
    a = simulate(game, [spec, "greedy"], games=3, seed=4)
    b = simulate(game, [spec, "greedy"], games=3, seed=4)
    assert [r.moves_by_seat for r in a.results] == [r.moves_by_seat for r in b.results]


@pytest.mark.parametrize("simulations", [20, 200, 1000])
def test_halving_spends_about_its_simulations_and_keeps_the_anchor_on_a_tie(simulations):
    game = tminus.load_game("sputnik", players=2)
    state, rng = game.new_initial_state(), random.Random(0)
    while len(state.legal_actions()) <= 20:  # the roll-off, then a move of a rocket
        state.apply_action(rng.choice(possible_actions(state)))
    agent = make_agent(f"mcts:simulations={simulations}", game, seed=1)
    calls, anchors = [], []
    agent._paired_simulation = lambda state, action, me, seed: calls.append(action) or 0.5
    rollout_step = agent._rollout.step  # the rollout agent's own choice is the anchor
    agent._rollout.step = lambda state: anchors.append(rollout_step(state)) or anchors[-1]
    moves = len(state.legal_actions())
    assert moves > 20
    choice = agent.step(state)
    # Every phase spends about the same, and at least one seed for each move still in it
    # (about twice the moves in all); the last has at least 8 seeds for each of two moves.
    assert len(calls) <= max(simulations, 2 * moves + 2 * mcts.FINAL_SEEDS)
    assert len(calls) >= 0.7 * simulations
    # The last phase plays the anchor and one challenger on each seed; every value tied,
    # so the anchor is kept.
    anchor, challenger = calls[-2], calls[-1]
    assert anchors == [anchor] and anchor != challenger
    assert calls[-2 * mcts.FINAL_SEEDS :] == [anchor, challenger] * mcts.FINAL_SEEDS
    assert choice == anchor


# -- horizon=round: a simulation ends when the round is scored --------------------------------
def test_a_round_horizon_stops_the_rollout_at_the_rounds_end():
    game = tminus.load_game("three_two_one", players=2)
    agent = make_agent("ismcts:horizon=round:simulations=1", game, seed=2)
    agent._round_limit = 0  # as step() sets it in the first round
    world = game.new_initial_state()
    values = agent._rollout_returns(world, random.Random(7), agent._rollout)
    assert world.rounds_finished() == 1 and not world.is_terminal()
    assert values == [(r + 1) / 2 for r in world.round_returns()]


def test_a_round_that_ends_the_game_counts_as_the_game():
    from tests.three_two_one.test_game_end import quick_round

    game = tminus.load_game("three_two_one", players=4, rounds=1)
    agent = make_agent("ismcts:simulations=1", game, seed=2)
    agent._round_limit = 0
    state = quick_round(game.new_initial_state())  # seat 0 wins the only round and the game
    assert state.is_terminal()
    values = agent._rollout_returns(state, random.Random(1), agent._rollout)
    assert values == pytest.approx([(r + 1 / 3) / (4 / 3) for r in state.returns()])
    assert state.round_returns() != state.returns()


@pytest.mark.parametrize("root", ["halving", "uct"])
def test_mcts_says_how_likely_its_move_wins(root):
    # Flip 1 wins at once: every simulation of it is a win, whatever the root does.
    state = nine_keys_and_eleven()
    agent = make_agent(f"mcts:simulations=60:root={root}", state.game, seed=2)
    assert state.action_to_string(agent.step(state)) == "flip 1"
    assert agent.estimate == 1.0
    # A forced move is no judgement at all.
    forced = play(started(), "dice 6,6")  # only the reset
    assert len(forced.legal_actions()) == 1
    agent.step(forced)
    assert agent.estimate is None


def test_the_estimate_of_an_opening_move_is_a_chance_near_one_half():
    state = play(started(), "dice 3,4")
    agent = make_agent("mcts:simulations=200:root=uct", state.game, seed=3)
    agent.step(state)
    assert 0.3 < agent.estimate < 0.7
