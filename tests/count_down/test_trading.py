"""Meetings on a square: offers, exchanges, forced sales (ask, counter, midpoint), parts."""

import pytest

from tests.count_down.helpers import (
    ASTRONAUTS,
    FUNDING_100,
    conserved,
    give_part,
    give_photo,
    legal_strings,
    money,
    parts,
    photos,
    place,
    play,
    set_money,
    started,
)


def meeting(players=4):
    """Seat 0 rolls 4 onto the funding square (100) where seat 1 stands."""
    state = place(started(players), 1, FUNDING_100)
    return state


def test_no_meeting_when_nobody_is_on_the_square():
    state = play(started(), "ball 4")
    assert state.observation(0)["mover"] == 1


def test_meeting_a_player_with_nothing_to_trade_offers_only_done():
    state = play(meeting(), "ball 4")
    # Both hold money only: nothing to offer, so the turn simply ends.
    assert state.observation(0)["mover"] == 1


def test_an_offer_accepted_moves_the_card_and_the_money():
    state = meeting()
    give_photo(state, 1, "Radar")
    play(state, "ball 4")
    assert state.current_player() == 0
    offers = legal_strings(state)
    radar = [o for o in offers if o.startswith("offer seat 1: Radar for")]
    # The value, 1.5 times (rounded down to 10) and double: never more than double.
    assert radar == ["offer seat 1: Radar for 50", "offer seat 1: Radar for 70",
                     "offer seat 1: Radar for 100"]  # fmt: skip
    play(state, "offer seat 1: Radar for 70")
    assert state.current_player() == 1 and legal_strings(state) == ["accept", "refuse"]
    play(state, "accept")
    assert photos(state, 2) == {"Radar": 1} and money(state, 2) == 1100 - 70
    assert money(state, 1) == 1300 + 70 and conserved(state)


def test_an_offer_refused_changes_nothing_and_the_meeting_goes_on():
    state = meeting()
    give_photo(state, 1, "Radar")
    give_photo(state, 2, "Lunar orbit")
    play(state, "ball 4", "offer seat 1: Radar for Lunar orbit", "refuse")
    assert state.current_player() == 0 and photos(state, 1) == {"Radar": 1}
    play(state, "offer seat 1: Radar for Lunar orbit", "accept")
    assert photos(state, 1) == {"Lunar orbit": 1} and photos(state, 2) == {"Radar": 1}


def test_after_a_refusal_the_meeting_offers_what_it_offered_before():
    """The engine keeps the meeting's list across a refusal: it must be the list of now."""
    state = meeting()
    give_photo(state, 1, "Radar")
    give_photo(state, 2, "Lunar orbit")
    play(state, "ball 4")
    before = legal_strings(state)
    play(state, "offer seat 1: Radar for Lunar orbit", "refuse")
    assert legal_strings(state) == before
    state._legal = None  # listed afresh from the holdings
    assert legal_strings(state) == before
    play(state, "offer seat 1: Radar for 50", "accept")  # holdings change: a new list
    assert "offer seat 1: Radar for Lunar orbit" not in legal_strings(state)


def test_at_most_three_offers_per_meeting():
    state = meeting()
    give_photo(state, 1, "Radar")
    play(state, "ball 4")
    for _ in range(3):
        play(state, "offer seat 1: Radar for 50", "refuse")
    assert state.observation(0)["mover"] == 1  # nothing left but leaving: the turn ends


def test_done_ends_the_meeting():
    state = meeting()
    give_photo(state, 1, "Radar")
    play(state, "ball 4", "done")
    assert state.observation(0)["mover"] == 1


def test_buying_needs_the_money():
    state = meeting()
    give_photo(state, 2, "Moon exploration")
    set_money(state, 1, 120)
    play(state, "ball 4")  # 220 in hand after the funding square
    offers = legal_strings(state)
    assert "offer seat 1: 220 for Moon exploration" in offers
    assert "offer seat 1: 300 for Moon exploration" not in offers


def test_parts_are_sold_only_at_their_original_price():
    state = meeting()
    give_part(state, 1, "capsule")
    play(state, "ball 4")
    part_offers = [o for o in legal_strings(state) if "capsule" in o]
    assert part_offers == ["offer seat 1: capsule for 300"]


def test_the_owner_of_a_duplicate_part_must_sell_it_at_the_fixed_price():
    state = meeting()
    give_part(state, 2, "stage 1", 2)
    play(state, "ball 4", "demand stage 1 from seat 1")
    assert parts(state, 1) == {"stage 1": 1} and parts(state, 2) == {"stage 1": 1}
    assert money(state, 1) == 1300 - 200 and money(state, 2) == 1100 + 200


def test_no_demand_for_a_part_the_other_holds_once():
    state = meeting()
    give_part(state, 2, "stage 1")
    play(state, "ball 4")
    assert "demand stage 1 from seat 1" not in legal_strings(state)


def forced_sale():
    """Centre 2 holds Astronauts twice; centre 1 lacks it and asks for one."""
    state = meeting()
    give_photo(state, 2, "Astronauts", 2)
    play(state, "ball 4", "ask seat 1 for Astronauts")
    return state


def test_a_card_held_twice_must_be_sold_to_a_player_who_lacks_it():
    state = forced_sale()
    assert state.current_player() == 1
    asks = legal_strings(state)
    assert asks[0] == "ask 150" and asks[-1] == "ask 300" and len(asks) == 16


def test_the_buyer_accepts_the_ask():
    state = play(forced_sale(), "ask 250")
    assert state.current_player() == 0
    assert legal_strings(state)[:3] == ["accept", "counter 150", "counter 160"]
    assert legal_strings(state)[-1] == "counter 240"
    play(state, "accept")
    assert photos(state, 1) == {"Astronauts": 1} and money(state, 1) == 1300 - 250
    assert money(state, 2) == 1100 + 250 and conserved(state)


def test_the_seller_accepts_the_counter():
    state = play(forced_sale(), "ask 300", "counter 200", "accept")
    assert money(state, 1) == 1300 - 200


def test_a_refused_counter_settles_at_the_midpoint_rounded_down_to_ten():
    state = play(forced_sale(), "ask 280", "counter 150", "refuse")
    assert money(state, 1) == 1300 - 210  # (280 + 150) / 2 = 215 -> 210
    assert photos(state, 2) == {"Astronauts": 1}


def test_a_card_not_on_the_holders_control_card_must_be_sold():
    state = place(started(), 1, FUNDING_100)
    give_photo(state, 2, "Stage separation")  # on centre 1's card, not centre 2's
    play(state, "ball 4")
    assert "ask seat 1 for Stage separation" in legal_strings(state)


def test_a_card_the_holder_needs_once_cannot_be_forced():
    state = meeting()
    give_photo(state, 2, "Astronauts")
    play(state, "ball 4")
    assert "ask seat 1 for Astronauts" not in legal_strings(state)


def test_no_forced_sale_of_a_card_the_asker_does_not_need():
    state = meeting()
    give_photo(state, 2, "Radar", 2)  # Radar is not on centre 1's card
    play(state, "ball 4")
    assert "ask seat 1 for Radar" not in legal_strings(state)


def test_no_money_no_sale():
    state = meeting()
    give_photo(state, 2, "Astronauts", 2)
    set_money(state, 1, 60)
    play(state, "ball 4")  # 160 after funding
    play(state, "ask seat 1 for Astronauts", "ask 300")
    assert legal_strings(state) == ["counter 150", "counter 160"]
    play(state, "counter 150")
    set_money(state, 1, 0)  # the money is gone before the sale settles
    play(state, "accept")
    assert photos(state, 1) == {} and photos(state, 2) == {"Astronauts": 2}


def test_partners_do_not_trade_with_each_other():
    state = started(6)
    place(state, 3, FUNDING_100)
    give_photo(state, 1, "Radar")
    play(state, "ball 4")
    assert state.observation(0)["mover"] == 1


@pytest.mark.parametrize("players", [2, 5])
def test_several_players_on_a_square_can_all_be_offered(players):
    state = started(players)
    place(state, 1, ASTRONAUTS)
    give_photo(state, 1, "Radar")
    play(state, "ball 5", "decline")
    assert any(o.startswith("offer seat 1:") for o in legal_strings(state))
