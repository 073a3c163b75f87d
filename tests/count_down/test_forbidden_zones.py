"""Forbidden zones: justify your presence by an offer or a mission; arrest and ransom;
espionage and sabotage."""

import numpy as np
import pytest

from tests.count_down.helpers import (
    FORBIDDEN,
    RAMP,
    arrive,
    conserved,
    end_meeting,
    give_agent,
    give_part,
    give_photo,
    legal_strings,
    money,
    new_game,
    parts,
    photos,
    place,
    play,
    set_money,
    started,
    take_turn,
)


def visit(state=None, agents=()):
    """Seat 0 (centre 1) stops in centre 2's forbidden zone, holding the given agent cards."""
    state = state or started()
    state = place(state, 0, FORBIDDEN[1] - 3)
    names = state.game.board.agent_names
    for name in agents:
        state = give_agent(state, 1, names.index(name))
    return play(state, "ball 3")


def position(state, seat=0):
    return state.observation(0)["positions"][seat]


def test_the_owner_in_their_own_forbidden_zone_need_not_justify():
    state = place(started(), 1, FORBIDDEN[1] - 3)
    play(state, "ball 1", "decline", "ball 3")
    assert position(state, 1) == FORBIDDEN[1] and state.observation(0)["mover"] == 2


def test_no_offer_and_no_mission_sends_the_visitor_home():
    state = visit()
    assert position(state) == RAMP[0] and state.observation(0)["mover"] == 1


def test_leaving_without_a_deal_sends_the_visitor_home():
    state = started()
    state = give_photo(state, 1, "Radar")
    state = visit(state)
    assert state.current_player() == 0
    end_meeting(state)
    assert position(state) == RAMP[0]


def test_an_offer_the_owner_refuses_sends_the_visitor_home():
    state = started()
    state = give_photo(state, 1, "Radar")
    state = visit(state)
    play(state, "offer seat 1: Radar for 100", "refuse")
    assert state.current_player() == 1  # Ann's say is over; Bob still has his
    end_meeting(state)
    assert position(state) == RAMP[0] and state.observation(0)["mover"] == 1


def test_an_offer_the_owner_accepts_lets_the_visitor_stay():
    state = started()
    state = give_photo(state, 1, "Radar")
    state = visit(state)
    end_meeting(play(state, "offer seat 1: Radar for 100", "accept"))
    assert position(state) == FORBIDDEN[1] and photos(state, 2) == {"Radar": 1}


def test_the_owner_answers_even_when_not_on_the_square():
    state = started()
    state = give_photo(state, 1, "Radar")
    state = visit(state)
    play(state, "offer seat 1: Radar for 100")
    assert state.current_player() == 1
    assert state.observation(0)["positions"][1] == RAMP[1]


def test_a_forced_sale_in_a_forbidden_zone_justifies_the_visit():
    state = started()
    state = give_photo(state, 2, "Astronauts", 2)
    state = visit(state)
    end_meeting(play(state, "ask seat 1 for Astronauts", "ask 200", "accept"))
    assert position(state) == FORBIDDEN[1] and photos(state, 1) == {"Astronauts": 1}


def test_anyone_standing_in_a_forbidden_zone_meets_the_visitor():
    # Ruling: "Everyone on that square meets the arriving player (in a forbidden zone: the
    # owner, and anyone standing there)."
    state = place(started(), 2, FORBIDDEN[1])
    state = give_photo(state, 3, "Radar")
    state = visit(state)
    assert state.observation(0)["meeting"]["with"] == [1, 2]
    assert any(m.startswith("offer seat 2:") for m in legal_strings(state))
    play(state, "done")
    assert state.current_player() == 2  # Cy, standing there, has a say too
    assert "offer seat 0: 50 for Radar" not in legal_strings(state)  # Cy proposes to Ann
    assert any(m.startswith("offer seat 0:") for m in legal_strings(state))


def test_a_deal_with_a_third_player_does_not_justify_the_visit():
    state = place(started(), 2, FORBIDDEN[1])
    state = give_photo(state, 1, "Radar")
    state = visit(state)
    play(state, "offer seat 2: Radar for 50", "accept")
    end_meeting(state)
    assert photos(state, 3) == {"Radar": 1}
    assert position(state) == RAMP[0]  # no deal with the owner: sent home


def test_a_claim_the_visitor_cannot_pay_still_justifies_the_visit():
    # Ruling: "A buyer who cannot pay the value gets no sale, and in a forbidden zone that
    # demand still justifies their presence."
    state = started()
    state = give_photo(state, 2, "Astronauts", 2)
    state = set_money(state, 1, 100)
    state = visit(state)
    end_meeting(play(state, "ask seat 1 for Astronauts"))
    assert photos(state, 1) == {} and position(state) == FORBIDDEN[1]


def test_the_owner_may_claim_a_card_from_a_visitor_who_is_then_sent_home():
    state = started()
    state = give_photo(state, 1, "Radar")  # on centre 2's card, not centre 1's
    state = visit(state)
    play(state, "done")  # Ann proposes nothing: she will go home after the meeting
    assert state.current_player() == 1
    play(state, "ask seat 0 for Radar", "ask 50", "accept")
    end_meeting(state)
    assert photos(state, 2) == {"Radar": 1} and position(state) == RAMP[0]


def test_out_of_service_forbidden_zones_are_plain_squares():
    state = place(started(2), 0, FORBIDDEN[2] - 3)
    play(state, "ball 3")
    assert position(state) == FORBIDDEN[2] and state.observation(0)["mover"] == 1


def test_a_mission_card_is_offered_only_in_a_forbidden_zone():
    state = visit(agents=["Stolen plans"])
    assert "mission Stolen plans" in legal_strings(state)


def test_the_owner_rolls_one_to_three_to_arrest_the_agent():
    state = play(visit(agents=["Strike"]), "mission Strike")
    assert state.is_chance_node() and len(state.chance_outcomes()) == 12
    play(state, "ball 3")
    assert legal_strings(state) == ["sit out", "pay 300"]
    assert state.observation(0)["centres"][0]["red_cards"] == 0  # the card went back


def test_an_arrested_agent_sits_out_three_turns():
    state = play(visit(agents=["Strike"]), "mission Strike", "ball 1", "sit out")
    assert state.observation(0)["turns_to_sit_out"][0] == 3
    assert position(state) == FORBIDDEN[1]
    for _ in range(3):  # three rounds of the others, seat 0 never moves
        take_turn(take_turn(take_turn(state)))
        assert position(state) == FORBIDDEN[1]
    assert state.observation(0)["mover"] == 1
    take_turn(take_turn(take_turn(state)))
    assert state.observation(0)["mover"] == 0


def test_an_arrested_agent_may_pay_300_to_the_owner():
    state = play(visit(agents=["Strike"]), "mission Strike", "ball 2", "pay 300")
    assert money(state, 1) == 1200 - 300 and money(state, 2) == 1100 + 300
    assert state.observation(0)["turns_to_sit_out"][0] == 0 and conserved(state)


def test_the_arrest_threshold_is_a_parameter():
    state = visit(started(arrest_max=0), agents=["Strike"])
    play(state, "mission Strike", "ball 1")
    assert state.observation(0)["mover"] == 2  # not arrested: seat 1 lost its turn


def test_strike_makes_the_target_lose_a_turn():
    state = play(visit(agents=["Strike"]), "mission Strike", "ball 4")
    assert position(state) == FORBIDDEN[1]
    assert state.observation(0)["mover"] == 2  # seat 1's turn is lost
    assert state.observation(0)["centres"][0]["red_cards"] == 0


def test_stolen_plans_copy_a_card_of_the_target_from_the_leaders_stock():
    state = started()
    state = give_photo(state, 2, "Radar")
    state = give_photo(state, 2, "Moon landing")
    state = visit(state, agents=["Stolen plans"])
    play(state, "mission Stolen plans", "ball 12")
    assert legal_strings(state) == ["target photo Radar", "target photo Moon landing"]
    play(state, "target photo Moon landing")
    assert photos(state, 1) == {"Moon landing": 1}
    assert photos(state, 2) == {"Radar": 1, "Moon landing": 1}
    assert conserved(state)


def test_stolen_plans_get_nothing_when_the_stock_is_out():
    state = started()
    state = give_photo(state, 2, "Moon landing", 2)
    state = visit(state, agents=["Stolen plans"])
    play(state, "mission Stolen plans", "ball 12")
    assert state.current_player() == 1  # the mission is Ann's say; then Bob's
    end_meeting(state)
    assert photos(state, 1) == {} and state.observation(0)["mover"] == 1


def test_burnt_film_sends_a_photo_card_back_to_the_leader():
    state = started()
    state = give_photo(state, 2, "Radar")
    state = visit(state, agents=["Burnt film"])
    play(state, "mission Burnt film", "ball 12", "target photo Radar")
    assert photos(state, 2) == {} and state.observation(0)["stock"]["photos"]["Radar"] == 3


def test_sabotaged_stage_sends_a_part_back_to_stock():
    state = started()
    state = give_part(state, 2, "capsule")
    state = visit(state, agents=["Sabotaged stage"])
    play(state, "mission Sabotaged stage", "ball 12", "target capsule")
    assert parts(state, 2) == {} and state.observation(0)["stock"]["parts"]["capsule"] == 4


def test_a_mission_justifies_the_visit_and_ends_it():
    state = play(visit(agents=["Strike"]), "mission Strike", "ball 12")
    assert position(state) == FORBIDDEN[1]


def test_agent_cards_are_hidden_from_others_but_not_the_watching_fifth_seat():
    state = visit(started(5), agents=["Strike"])
    assert state.observation(0)["centres"][0]["agent_cards"] == {"Strike": 1}
    assert "agent_cards" not in state.observation(1)["centres"][0]
    assert state.observation(4)["centres"][0]["agent_cards"] == {"Strike": 1}
    assert "agent_cards" not in state.public_observation()["centres"][0]


def test_resample_hidden_keeps_what_a_seat_sees_and_redraws_the_rest():
    state = started()
    names = state.game.board.agent_names
    for centre, name in ((1, "Strike"), (2, "Burnt film"), (3, "Sabotaged stage")):
        state = give_agent(state, centre, names.index(name))
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(50):
        other = state.resample_hidden(0, rng)
        assert other.observation(0) == state.observation(0)
        assert other.holdings[0].agents == state.holdings[0].agents
        seen.add(tuple(other.holdings[1].agents))
        assert conserved(other)
    assert len(seen) > 1


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_seat_has_a_forbidden_zone_and_returns_home(players):
    state = new_game(players)
    assert len(state.game.board.ramp) == 4


def test_a_strike_on_a_team_costs_each_partner_a_turn():
    state = started(6)
    state = give_agent(state, 1, state.game.board.agent_names.index("Strike"))
    state = arrive(state, FORBIDDEN[1], 3)
    play(state, "mission Strike", "ball 12")
    assert state.observation(0)["turns_to_sit_out"] == [0, 0, 0, 0, 1, 0]
    assert state.observation(0)["mover"] == 2  # seat 1 (centre 2) lost its turn


def test_a_partner_in_the_teams_own_forbidden_zone_need_not_justify():
    state = started(6)
    state = place(state, 0, FORBIDDEN[0] - 3)
    play(state, "ball 3")
    assert state.observation(0)["positions"][0] == FORBIDDEN[0]
    assert state.observation(0)["mover"] == 1


def test_after_a_refusal_a_resampled_state_lists_the_missions_it_holds():
    # Cy, standing in Bob's forbidden zone, refuses Ann's offer: in a world where Ann's
    # agent card is another, her say goes on with that card's mission.
    state = place(started(), 2, FORBIDDEN[1])
    state = give_photo(state, 1, "Radar")
    state = give_agent(state, 1, state.game.board.agent_names.index("Strike"))
    state = visit(state)
    play(state, "offer seat 2: Radar for 50")
    seen = set()
    for seed in range(20):
        other = state.resample_hidden(1, np.random.default_rng(seed))
        play(other, "refuse")
        missions = {m for m in legal_strings(other) if m.startswith("mission")}
        held = other.observation(0)["centres"][0]["agent_cards"]
        assert missions == {f"mission {name}" for name in held}
        seen |= missions
    assert len(seen) > 1


def test_resampled_states_recompute_the_movers_missions():
    state = started()
    state = give_agent(state, 1, state.game.board.agent_names.index("Strike"))
    state = arrive(state, FORBIDDEN[1], 3)
    assert "mission Strike" in legal_strings(state)
    other = state.resample_hidden(0, np.random.default_rng(1))
    assert legal_strings(other) == legal_strings(state)
