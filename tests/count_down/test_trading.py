"""Meetings on a square: offers, exchanges, forced sales (ask, counter, midpoint), parts."""

import pytest

from tests.count_down.helpers import (
    ASTRONAUTS,
    FUNDING_100,
    SATURN_V,
    arrive,
    changed,
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
    take_part,
    take_turn,
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
    state = give_photo(state, 1, "Radar")
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
    state = give_photo(state, 1, "Radar")
    state = give_photo(state, 2, "Lunar orbit")
    play(state, "ball 4", "offer seat 1: Radar for Lunar orbit", "refuse")
    assert state.current_player() == 0 and photos(state, 1) == {"Radar": 1}
    play(state, "offer seat 1: Radar for Lunar orbit", "accept")
    assert photos(state, 1) == {"Lunar orbit": 1} and photos(state, 2) == {"Radar": 1}


def test_after_a_refusal_the_meeting_offers_what_it_offered_before():
    """The engine keeps the meeting's list across a refusal: it must be the list of now."""
    state = meeting()
    state = give_photo(state, 1, "Radar")
    state = give_photo(state, 2, "Lunar orbit")
    play(state, "ball 4")
    before = legal_strings(state)
    play(state, "offer seat 1: Radar for Lunar orbit", "refuse")
    assert legal_strings(state) == before
    assert legal_strings(changed(state)) == before  # a set-up lists them afresh
    play(state, "offer seat 1: Radar for 50", "accept")  # holdings change: a new list
    assert "offer seat 1: Radar for Lunar orbit" not in legal_strings(state)


def test_done_passes_the_say_and_the_last_done_ends_the_meeting():
    state = meeting()
    state = give_photo(state, 1, "Radar")
    play(state, "ball 4", "done")
    assert state.current_player() == 1 and state.observation(0)["mover"] == 0
    play(state, "done")
    assert state.observation(0)["mover"] == 1


def test_buying_needs_the_money():
    state = meeting()
    state = give_photo(state, 2, "Moon exploration")
    state = set_money(state, 1, 120)
    play(state, "ball 4")  # 220 in hand after the funding square
    offers = legal_strings(state)
    assert "offer seat 1: 220 for Moon exploration" in offers
    assert "offer seat 1: 300 for Moon exploration" not in offers


def test_parts_are_sold_only_at_their_original_price():
    state = meeting()
    state = give_part(state, 1, "capsule")
    play(state, "ball 4")
    part_offers = [o for o in legal_strings(state) if "capsule" in o]
    assert part_offers == ["offer seat 1: capsule for 300"]


def test_the_owner_of_a_duplicate_part_must_sell_it_at_the_fixed_price():
    state = meeting()
    state = give_part(state, 2, "stage 1", 2)
    play(state, "ball 4", "demand stage 1 from seat 1")
    assert parts(state, 1) == {"stage 1": 1} and parts(state, 2) == {"stage 1": 1}
    assert money(state, 1) == 1300 - 200 and money(state, 2) == 1100 + 200


def test_no_demand_for_a_part_the_other_holds_once():
    state = meeting()
    state = give_part(state, 2, "stage 1")
    play(state, "ball 4")
    assert "demand stage 1 from seat 1" not in legal_strings(state)


def forced_sale():
    """Centre 2 holds Astronauts twice; centre 1 lacks it and asks for one."""
    state = meeting()
    state = give_photo(state, 2, "Astronauts", 2)
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
    state = give_photo(state, 2, "Stage separation")  # on centre 1's card, not centre 2's
    play(state, "ball 4")
    assert "ask seat 1 for Stage separation" in legal_strings(state)


def test_a_card_the_holder_needs_once_cannot_be_forced():
    state = meeting()
    state = give_photo(state, 2, "Astronauts")
    play(state, "ball 4")
    assert "ask seat 1 for Astronauts" not in legal_strings(state)


def test_no_forced_sale_of_a_card_the_asker_does_not_need():
    state = meeting()
    state = give_photo(state, 2, "Radar", 2)  # Radar is not on centre 1's card
    play(state, "ball 4")
    assert "ask seat 1 for Radar" not in legal_strings(state)


def test_the_ask_is_never_above_what_the_buyer_has():
    # Ruling: "the seller asks a price between value and double value, never above what
    # the buyer has".
    state = meeting()
    state = give_photo(state, 2, "Astronauts", 2)
    state = set_money(state, 1, 60)
    play(state, "ball 4", "ask seat 1 for Astronauts")  # 160 after the funding square
    assert legal_strings(state) == ["ask 150", "ask 160"]
    play(state, "ask 160")
    assert legal_strings(state) == ["accept", "counter 150"]


def test_a_forced_sale_cannot_be_blocked():
    # "Boycotting is forbidden": whatever the seller asks and however they answer a counter,
    # a buyer who can pay the value gets the card.
    start = meeting()
    start = give_photo(start, 2, "Astronauts", 2)
    start = set_money(start, 1, 100)
    play(start, "ball 4", "ask seat 1 for Astronauts")  # 200 in hand, the value is 150
    for ask in legal_strings(start):
        state = play(start.clone(), ask)
        counters = [m for m in legal_strings(state) if m.startswith("counter")]
        if counters:
            play(state, counters[0], "refuse")
        else:
            play(state, "accept")
        assert photos(state, 1) == {"Astronauts": 1}, ask
        assert 150 <= 200 - money(state, 1) <= int(ask.split()[1]) and conserved(state)


def test_a_buyer_who_cannot_pay_the_value_gets_no_sale():
    # Ruling: "A buyer who cannot pay the value gets no sale." The claim is still made.
    state = meeting()
    state = give_photo(state, 2, "Astronauts", 2)
    state = give_photo(state, 2, "Radar")
    state = set_money(state, 1, 0)
    play(state, "ball 4", "ask seat 1 for Astronauts")  # 100 in hand, the value is 150
    assert photos(state, 1) == {} and money(state, 1) == 100
    assert state.current_player() == 0  # the meeting goes on: two proposals left
    assert state.observation(0)["meeting"]["offers_left"] == 2


# -- a meeting is a conversation: everyone met has a say ---------------------------------
def test_a_met_player_who_stays_put_may_claim_a_card_the_mover_does_not_need():
    # "if a player has a photo card they do not need, they are obliged to sell it to the
    # player who lacks it": Bob stays put and Ann, who arrives, holds the Radar he lacks.
    state = meeting()
    state = give_photo(state, 1, "Radar")  # on centre 2's control card, not centre 1's
    play(state, "ball 4")
    assert state.current_player() == 0  # the mover speaks first
    play(state, "done")
    assert state.current_player() == 1
    assert "ask seat 0 for Radar" in legal_strings(state)
    play(state, "ask seat 0 for Radar")
    assert state.current_player() == 0  # Ann, the seller, names her price
    assert legal_strings(state) == ["ask 50", "ask 60", "ask 70", "ask 80", "ask 90", "ask 100"]
    play(state, "ask 100", "counter 50", "refuse")
    assert photos(state, 2) == {"Radar": 1} and money(state, 2) == 1100 - 70
    assert money(state, 1) == 1300 + 70 and conserved(state)


def test_a_met_player_may_claim_a_spare_part_from_the_mover():
    state = meeting()
    state = give_part(state, 1, "stage 1", 2)
    play(state, "ball 4", "done", "demand stage 1 from seat 0")
    assert parts(state, 2) == {"stage 1": 1} and parts(state, 1) == {"stage 1": 1}
    assert money(state, 2) == 1100 - 200 and money(state, 1) == 1300 + 200


def test_a_player_with_nothing_to_propose_is_not_asked():
    state = meeting()
    state = give_photo(state, 1, "Radar")  # Bob needs it, but he has no money to buy it
    state = set_money(state, 2, 0)
    play(state, "ball 4")
    assert state.current_player() == 1  # Ann can offer nothing: Bob has the say at once
    assert legal_strings(state) == ["done", "ask seat 0 for Radar"]


def test_the_mover_speaks_first_then_the_others_in_turn_order():
    state = started()
    take_turn(take_turn(state))  # Ann and Bob move: Cy's turn
    state = give_photo(state, 3, "Radar")  # Cy (centre 3) holds a Radar the others may bid for
    state = place(state, 0, FUNDING_100)
    state = place(state, 3, FUNDING_100)
    state = place(state, 2, FUNDING_100 - 1)
    play(state, "ball 1")
    assert state.observation(0)["meeting"]["with"] == [3, 0]
    said = []
    while state.observation(0)["mover"] == 2:
        said.append(state.current_player())
        play(state, "done")
    assert said == [2, 3, 0]


def test_each_player_of_a_meeting_makes_at_most_three_proposals():
    state = meeting()
    state = give_photo(state, 1, "Radar")
    play(state, "ball 4")
    for _ in range(3):
        play(state, "offer seat 1: Radar for 50", "refuse")
    assert state.current_player() == 1  # Ann has had her three: Bob's say, three more
    for _ in range(3):
        play(state, "offer seat 0: 50 for Radar", "refuse")
    assert state.observation(0)["mover"] == 1  # the meeting and Ann's turn are over


def test_partners_do_not_trade_with_each_other():
    state = started(6)
    state = place(state, 3, FUNDING_100)
    state = give_photo(state, 1, "Radar")
    play(state, "ball 4")
    assert state.observation(0)["mover"] == 1


@pytest.mark.parametrize("players", [2, 5])
def test_several_players_on_a_square_can_all_be_offered(players):
    state = started(players)
    state = place(state, 1, ASTRONAUTS)
    state = give_photo(state, 1, "Radar")
    play(state, "ball 5", "decline")
    assert any(o.startswith("offer seat 1:") for o in legal_strings(state))


# -- rules v3: "Rockets may be sold only at their original price" ---------------------------
def whole_saturn_v_met():
    """Ann (centre 1, 1200) buys a complete Saturn V for 500 where Bob (centre 2, 1100)
    stands: the meeting opens with Ann's say, her rocket whole."""
    state = place(started(), 1, SATURN_V)
    return play(arrive(state, SATURN_V), "buy Saturn V")


def rocket_offers(state):
    return [o for o in legal_strings(state) if "Saturn V" in o or any(
        part in o for part in ("stage", "capsule"))]  # fmt: skip


def test_a_saturn_v_bought_whole_is_offered_whole_at_500_never_part_by_part():
    state = whole_saturn_v_met()
    assert state.current_player() == 0 and money(state, 1) == 700
    # Not stage 1 for 200 + stage 2 for 100 + stage 3 for 100 + capsule for 300 = 700.
    assert rocket_offers(state) == ["offer seat 1: Saturn V for 500"]
    play(state, "done")
    assert state.current_player() == 1
    assert rocket_offers(state) == ["offer seat 0: 500 for Saturn V"]


def test_a_saturn_v_sold_whole_to_a_player_changes_hands_at_500_and_stays_whole():
    state = whole_saturn_v_met()
    play(state, "offer seat 1: Saturn V for 500", "accept")
    assert parts(state, 1) == {} and money(state, 1) == 700 + 500
    assert parts(state, 2) == {"stage 1": 1, "stage 2": 1, "stage 3": 1, "capsule": 1}
    assert money(state, 2) == 1100 - 500 and conserved(state)
    centres = state.observation(0)["centres"]
    assert centres[0]["saturn_v_bought"] == 0 and centres[1]["saturn_v_bought"] == 1


def test_a_player_met_buys_a_saturn_v_whole_from_the_one_who_bought_it():
    state = whole_saturn_v_met()
    play(state, "done", "offer seat 0: 500 for Saturn V", "accept")
    assert money(state, 1) == 700 + 500 and money(state, 2) == 1100 - 500
    assert parts(state, 2) == {"stage 1": 1, "stage 2": 1, "stage 3": 1, "capsule": 1}
    assert conserved(state)


def test_no_saturn_v_offer_to_a_player_who_cannot_pay_500():
    state = set_money(place(started(), 1, SATURN_V), 2, 490)
    state = play(arrive(state, SATURN_V), "buy Saturn V")
    # Nothing to propose either way: no part of the whole rocket is for sale.
    assert state.observation(0)["mover"] == 1


def test_a_spare_part_beside_a_whole_saturn_v_is_sold_on_its_own():
    state = whole_saturn_v_met()
    state = give_part(state, 1, "stage 1")  # a second stage 1, got free
    assert rocket_offers(state) == [
        "offer seat 1: stage 1 for 200", "offer seat 1: Saturn V for 500"
    ]  # fmt: skip
    play(state, "done")
    assert rocket_offers(state) == [
        "offer seat 0: 200 for stage 1", "demand stage 1 from seat 0",
        "offer seat 0: 500 for Saturn V",
    ]  # fmt: skip


def test_a_saturn_v_that_lost_a_part_sells_its_parts_one_by_one():
    state = whole_saturn_v_met()
    state = take_part(state, 1, "capsule")  # say a sabotage sent the capsule back to stock
    state = changed(state, saturn_sets=[0, 0, 0, 0])
    assert rocket_offers(state) == [
        "offer seat 1: stage 1 for 200", "offer seat 1: stage 2 for 100",
        "offer seat 1: stage 3 for 100",
    ]  # fmt: skip


def test_parts_are_never_bartered_for_cards_or_other_parts():
    """Parts change hands only for their fixed price in money: no offer gives a part for a
    photo card or another part, or a photo card for a part."""
    space = started().game.space
    for seat in range(4):
        for t, _ in enumerate(space.templates):
            struct = space.struct(space.proposal(seat, t))
            if struct["kind"] != "offer":
                continue
            sides = (struct["give"], struct["get"])
            if any("part" in side or "rocket" in side for side in sides):
                assert any(set(side) == {"money"} for side in sides), struct
