"""Starting capital, centre order, players 2-6 (centres out of service, watcher, teams)."""

from tests.count_down.helpers import (
    FUNDING_100,
    RAMP,
    arrive,
    legal_strings,
    money,
    new_game,
    play,
    started,
)


def test_capital_is_the_roll_times_one_hundred_million():
    state = play(new_game(3), "ball 4", "ball 9", "ball 1")
    assert [state.observation(0)["centres"][c]["money"] for c in range(3)] == [900, 400, 100]


def test_the_highest_roll_takes_centre_one_and_plays_first():
    state = play(new_game(3), "ball 4", "ball 9", "ball 1")
    assert [state.observation(s)["centre"] for s in range(3)] == [2, 1, 3]
    assert state.seating.order == [1, 0, 2]
    assert state.observation(0)["positions"] == [RAMP[1], RAMP[0], RAMP[2]]
    assert state.observation(0)["mover"] == 1


def test_tied_rolls_roll_again_among_themselves_for_order_only():
    state = play(new_game(3), "ball 5", "ball 5", "ball 2")
    assert state.observation(0)["phase"] == "roll-off"
    play(state, "ball 3", "ball 8")  # seats 0 and 1 roll again: seat 1 wins
    assert [state.observation(s)["centre"] for s in range(3)] == [2, 1, 3]
    assert money(state, 1) == money(state, 2) == 500  # capital from the first roll only


def test_two_players_take_centres_out_of_service_away():
    state = started(2)
    obs = state.observation(0)
    assert [c["in_service"] for c in obs["centres"]] == [True, True, False, False]
    assert obs["stock"]["parts"] == {"stage 1": 2, "stage 2": 2, "stage 3": 2, "capsule": 2}
    # Docking with the LEM and Re-entry are on centre 3's card only: 2 copies - 1 removed.
    assert obs["stock"]["photos"]["Docking with the LEM"] == 1
    assert obs["stock"]["photos"]["Launch tower"] == 5 - 2
    assert obs["stock"]["photos"]["Radar"] == 3 - 1


def test_four_players_keep_every_card_and_part():
    obs = started(4).observation(0)
    assert obs["stock"]["parts"]["capsule"] == 4
    assert sum(obs["stock"]["photos"].values()) == 52


def test_five_players_four_play_and_the_fifth_watches():
    state = started(5)
    assert state.observation(4)["centre"] is None
    assert state.seating.order == [0, 1, 2, 3]
    for _ in range(40):  # the watcher is never asked to move
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            assert state.current_player() != 4
            state.apply_action(state.legal_actions()[0])


def test_six_players_play_as_three_teams_sharing_a_purse():
    state = started(6)
    obs = state.observation(0)
    assert [c["seats"] for c in obs["centres"]] == [[0, 3], [1, 4], [2, 5], []]
    assert money(state, 1) == 2400 and money(state, 3) == 2000
    assert obs["positions"] == [RAMP[0], RAMP[1], RAMP[2], RAMP[0], RAMP[1], RAMP[2]]
    # First partners of centres 1-3, then second partners.
    assert state.seating.order == [0, 1, 2, 3, 4, 5]
    state = arrive(state, FUNDING_100)  # seat 0 on funding 100: the team's purse grows
    assert money(state, 1) == 2500


def test_six_players_tied_teams_roll_again():
    state = play(new_game(6), "ball 6", "ball 6", "ball 10", "ball 2", "ball 1", "ball 1")
    # Teams 0 and 1 both have 12: they roll again, one roll each.
    assert state.observation(0)["phase"] == "roll-off"
    play(state, "ball 2", "ball 7")
    assert [c["seats"] for c in state.observation(0)["centres"][:3]] == [[1, 4], [0, 3], [2, 5]]


def test_a_player_who_is_not_ready_simply_rolls():
    state = started()
    assert state.is_chance_node() and legal_strings(state) == []


def test_each_control_card_lists_nine_photo_cards_differing_between_centres():
    cards = [c["control_card"] for c in started().observation(0)["centres"]]
    assert all(len(card) == len(set(card)) == 9 for card in cards)
    assert len({tuple(sorted(card)) for card in cards}) == 4
    # "player no. 1 must transport the rockets while player no. 2 looks after the radar"
    assert "Rocket transport" in cards[0] and "Radar" not in cards[0]
    assert "Radar" in cards[1] and "Rocket transport" not in cards[1]
    shared = set.intersection(*map(set, cards))
    assert {"Astronauts", "Moon exploration", "Launch tower", "In space"} <= shared
