"""The Count Down greedy agent: buys what it needs, trades, counts down well, beats random."""

from importlib.resources import files

import tminus
from tests.count_down.helpers import (
    ASTRONAUTS,
    FORBIDDEN,
    FUNDING_100,
    RADAR,
    SATURN_V,
    STAGE_1,
    arrive,
    changed,
    give_agent,
    give_part,
    give_photo,
    legal_strings,
    make_ready,
    place,
    play,
    reopen_turn,
    set_money,
    started,
)
from tminus.agents import make_agent
from tminus.agents.solvers.count_down import solve_countdown
from tminus.games.count_down import phases
from tminus.sim import simulate


def move(state):
    agent = make_agent("greedy", state.game, seed=0)
    return state.action_to_string(agent.step(state))


def countdown_choice(state, roll_number: int, face: int) -> str:
    """The greedy's choice when roll number ``roll_number`` of its countdown shows ``face``
    (it waited on the rolls before)."""
    state = reopen_turn(make_ready(state, 1))
    play(state, "count down")
    for _ in range(roll_number - 1):
        play(state, "ball 1", "wait")
    play(state, f"ball {face}")
    assert legal_strings(state) == ["start count", "wait"]
    return move(state)


def choices_by_roll(params: dict, roll_numbers: range) -> dict[int, list[int]]:
    """For each roll number, the faces on which the greedy starts counting."""
    return {
        k: [f for f in range(1, 13) if countdown_choice(started(**params), k, f) == "start count"]
        for k in roll_numbers
    }


def test_starts_counting_exactly_when_the_solved_countdown_rule_says_so():
    solution = solve_countdown()  # the default board: 25 in three rolls, start by the 4th
    expected = {k: [f for f in range(1, 13) if solution.should_start(k, f)] for k in (1, 2, 3)}
    assert choices_by_roll({}, range(1, 4)) == expected
    assert expected == {1: [10, 11, 12], 2: [9, 10, 11, 12], 3: [8, 9, 10, 11, 12]}


def test_on_a_board_with_a_later_last_start_it_plays_that_boards_solution(tmp_path):
    default = files("tminus.games.count_down").joinpath("board.toml").read_text()
    assert "latest_start = 4 " in default
    own = tmp_path / "patient.toml"
    own.write_text(default.replace("latest_start = 4 ", "latest_start = 6 "))
    solution = solve_countdown(last_roll=6)
    expected = {k: [f for f in range(1, 13) if solution.should_start(k, f)] for k in range(1, 6)}
    assert choices_by_roll({"board": str(own)}, range(1, 6)) == expected
    assert [v[0] for v in expected.values()] == [11, 10, 10, 9, 8]  # pickier than the default


def test_counts_down_when_ready_and_starts_on_a_high_number_only():
    state = started()
    state = reopen_turn(make_ready(state, 1))
    assert move(state) == "count down"
    play(state, "count down", "ball 5")
    assert move(state) == "wait"
    play(state, "wait", "ball 12")
    assert move(state) == "start count"


def test_on_the_third_roll_it_settles_for_less():
    state = started()
    state = reopen_turn(make_ready(state, 1))
    play(state, "count down", "ball 2", "wait", "ball 3", "wait", "ball 9")
    assert move(state) == "start count"


def test_buys_what_its_control_card_needs_and_declines_the_rest():
    assert move(arrive(started(), ASTRONAUTS)) == "buy photo Astronauts"
    assert move(arrive(started(), RADAR)) == "decline"


def test_asks_for_a_card_it_lacks_that_another_does_not_need():
    state = place(started(), 1, FUNDING_100)
    state = give_photo(state, 2, "Astronauts", 2)
    play(state, "ball 4")
    assert move(state) == "ask seat 1 for Astronauts"


def test_as_the_forced_seller_it_asks_double_and_as_buyer_it_counters_low():
    state = place(started(), 1, FUNDING_100)
    state = give_photo(state, 2, "Astronauts", 2)
    play(state, "ball 4", "ask seat 1 for Astronauts")
    assert move(state) == "ask 300"
    play(state, "ask 300")
    assert move(state) == "counter 150"


def test_as_a_player_met_it_claims_the_card_the_mover_does_not_need():
    state = place(started(), 1, FUNDING_100)
    state = give_photo(state, 1, "Radar")  # on Bob's control card, not Ann's
    play(state, "ball 4", "done")
    assert state.current_player() == 1
    assert move(state) == "ask seat 0 for Radar"
    play(state, "ask seat 0 for Radar")
    assert move(state) == "ask 100"  # Ann, the greedy seller, asks double


def test_it_claims_no_card_it_cannot_pay_for():
    state = place(started(), 1, FUNDING_100)
    state = give_photo(state, 2, "Astronauts", 2)
    state = set_money(state, 1, 0)
    play(state, "ball 4")  # 100 in hand: less than the value, 150
    assert "ask seat 1 for Astronauts" in legal_strings(state)
    assert move(state) == "done"


def test_in_a_forbidden_zone_a_claim_it_cannot_pay_still_saves_the_visit():
    state = started()
    state = give_photo(state, 2, "Astronauts", 2)
    state = set_money(state, 1, 0)
    state = arrive(state, FORBIDDEN[1], 3)
    assert move(state) == "ask seat 1 for Astronauts"


def test_it_sells_a_saturn_v_bought_whole_only_when_nothing_else_is_left():
    state = started()
    state = set_money(state, 1, 500)
    state = play(arrive(state, SATURN_V), "buy Saturn V")
    state = give_photo(state, 1, "Radar")
    state = changed(state, debts=[[0, -1, 100]], phase=phases.DEBT, player=0)
    assert legal_strings(state) == ["sell photo Radar", "sell Saturn V"]
    assert move(state) == "sell photo Radar"


def test_chooses_the_direction_towards_a_part_it_lacks():
    state = place(started(), 0, (STAGE_1 + 11) % 64)
    play(state, "ball 11")
    assert legal_strings(state) == ["forward", "backward"]
    assert move(state) == "backward"


def test_sends_its_agent_against_the_owner_of_the_zone():
    state = started()
    state = give_agent(state, 1, 0)
    state = arrive(state, FORBIDDEN[1], 3)
    assert move(state) == "mission Stolen plans"


def test_bids_for_a_card_it_needs_up_to_its_value():
    state = started()
    state = give_part(state, 2, "stage 1")
    lot = state.game.board.photo_names.index("Astronauts")
    state = changed(state, auction_done=True, lots=[lot], bidders=[0, 1, 2, 3], bid_at=0)
    state = changed(state, lot_price=0, lot_high=-1, phase=phases.BID, player=0)
    assert move(state) == "bid 70"


def test_beats_three_random_players_clearly():
    game = tminus.load_game("count_down", players=4)
    summary = simulate(game, ["greedy", "random", "random", "random"], games=100, seed=3)
    low, _ = summary.seats[0].interval
    assert low > 0.8, summary.seats[0]
    assert summary.turn_cap_draws == 0
