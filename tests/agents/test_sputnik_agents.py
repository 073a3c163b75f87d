"""The Sputnik agents: greedy (keep your room, cut theirs) and the generic alpha-beta search."""

import pytest

import tminus
from tests.sputnik.helpers import arrange, legal_strings, play, started
from tminus.agents import make_agent
from tminus.agents.evaluation.sputnik import evaluate, order_actions, side_distances
from tminus.agents.search.alphabeta import WIN, AlphaBetaAgent
from tminus.sim import play_game, simulate


def chosen(agent, state):
    return state.action_to_string(agent.step(state))


def greedy(state, seed=0):
    return make_agent("greedy", state.game, seed=seed)


def test_greedy_moves_to_the_roomiest_cell():
    # From d2: c2 and e1 lie on the rim, d3 has the most galaxies around it.
    state = play(started(2), "move d2", "remove a4", "move d6", "remove a5")
    assert chosen(greedy(state), state) in ("move d3", "move c3", "move e2")
    assert chosen(greedy(state), state) != "move d1"


def test_greedy_cuts_the_opponent_with_the_fewest_steps():
    # Seat 1 on d5 has two galaxies left next to it: e5 and c6; cutting either hurts.
    state = arrange(2, ["b3", "d5"], "b4 c3 e5 c6 f1 g1", helped=(1,))
    play(state, "move b4")
    assert chosen(greedy(state), state) in ("remove e5", "remove c6")


def test_greedy_does_not_cut_its_own_room_when_it_can_help_it():
    state = arrange(2, ["b3", "f2"], "b4 c3 f1 g1 g2 e3", helped=())
    play(state, "move c3")
    assert chosen(greedy(state), state) not in ("remove b4", "remove b3", "remove c4")


def test_greedy_keeps_base_help_for_when_there_is_no_step():
    state = play(started(2), "move d2", "remove a4", "move d6", "remove d3")
    assert "help d3" in legal_strings(state)
    assert not chosen(greedy(state), state).startswith("help")


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 2, "rockets_per_player": 2}])
def test_greedy_beats_random_clearly(params):
    game = tminus.load_game("sputnik", **params)
    summary = simulate(game, ["greedy", "random"], games=300, seed=3)
    low, _ = summary.seats[0].interval
    assert low > 0.8, summary.seats[0]


def test_evaluation_counts_reachable_area_and_mobility():
    state = started(2)
    assert evaluate(state, 0) == pytest.approx(0.0)  # a symmetric start
    # Seat 1 walled into the bottom corner: seat 0 owns the board.
    walled = arrange(2, ["d2", "d6"], "d3 d4 e1 e2 f2 c7 e6", helped=(1,))
    assert evaluate(walled, 0) > 0 > evaluate(walled, 1)
    d6 = walled.game.board.by_name["d6"]
    assert side_distances(walled, 1)[d6] == 0
    assert side_distances(walled, 1)[walled.game.board.by_name["c7"]] == 1


def test_ordering_puts_cuts_next_to_the_opponent_first():
    state = arrange(2, ["b3", "d5"], "b4 c3 e5 c6 f1 g1", helped=(1,))
    play(state, "move b4")
    first_two = [state.action_to_string(a) for a in order_actions(state, state.legal_actions())]
    assert set(first_two[:2]) == {"remove e5", "remove c6"}


def alphabeta(state, **options):
    return AlphaBetaAgent(state.game, seed=0, **options)


def test_alphabeta_takes_the_last_galaxy_of_a_trapped_rocket():
    state = arrange(2, ["d2", "d5"], "d3 e5 g1 g2", helped=(1,))
    agent = alphabeta(state)
    play(state, chosen(agent, state))
    assert chosen(agent, state) == "remove e5"


def test_alphabeta_finishes_off_a_rocket_with_less_room():
    # Seat 1 (d5, help used) has only e4, e5 and f4; seat 0 has the west of the board.
    state = arrange(2, ["a4", "d5"], "b4 c4 b5 a5 a6 b3 e4 e5 f4", helped=(1,))
    agent = make_agent("alphabeta", state.game, seed=1)
    opponent = greedy(state)
    while not state.is_terminal():
        player = agent if state.current_player() == 0 else opponent
        state.apply_action(player.step(state))
    assert state.winners() == [0]


def test_alphabeta_sees_a_lost_position_for_what_it_is():
    # Seat 0's only room is c2, c3 and its base; seat 1 outlasts it whatever it does.
    state = arrange(2, ["c2", "d5"], "c3 e4 e5 g1 g2 f1", helped=(1,))
    agent = alphabeta(state, max_nodes=5000)
    agent.step(state)
    assert agent.last_value <= -WIN


def test_alphabeta_keeps_to_its_node_budget_and_is_reproducible():
    state = play(started(2), "move d2", "remove a4", "move d6", "remove a5")
    agent = alphabeta(state, max_nodes=300)
    action = agent.step(state)
    assert agent.nodes <= 301 and agent.depth_reached >= 2
    assert alphabeta(state, max_nodes=300).step(state) == action
    assert action in state.legal_actions()


def test_alphabeta_with_a_time_budget_still_answers():
    state = started(3)
    agent = alphabeta(state, max_nodes=10**9, max_seconds=0.05)
    assert agent.step(state) in state.legal_actions()


@pytest.mark.parametrize("mode", ["paranoid", "maxn"])
@pytest.mark.parametrize("params", [{"players": 3}, {"players": 4, "teams": True}])
def test_alphabeta_plays_many_player_games_to_the_end(mode, params):
    game = tminus.load_game("sputnik", **params)
    agents = [AlphaBetaAgent(game, seed=s, max_nodes=150, mode=mode) for s in range(2)]
    agents += [make_agent("greedy", game, seed=s) for s in range(game.num_players - 2)]
    result = play_game(game, agents, seed=5)
    assert result.winners and not result.turn_cap


def test_alphabeta_treats_a_partner_as_an_ally():
    state = started(4, teams=True)
    agent = alphabeta(state, max_nodes=50)
    agent.step(state)
    assert agent._allies == {0, 2}


def test_alphabeta_needs_an_evaluation_and_a_known_mode():
    with pytest.raises(ValueError, match="no evaluation for four_way"):
        AlphaBetaAgent(tminus.load_game("four_way"))
    with pytest.raises(ValueError, match="'paranoid' or 'maxn'"):
        AlphaBetaAgent(tminus.load_game("sputnik"), mode="minimax")


def test_alphabeta_beats_greedy_with_seats_swapped():
    game = tminus.load_game("sputnik", players=2)
    wins = 0
    for index in range(12):
        seats = [
            AlphaBetaAgent(game, seed=[index], max_nodes=400),
            make_agent("greedy", game, seed=[index]),
        ]
        if index % 2:
            seats.reverse()
        result = play_game(game, seats, seed=[9, index])
        wins += result.winners == [index % 2]
    assert wins >= 9
