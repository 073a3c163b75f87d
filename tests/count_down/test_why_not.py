"""Why can't I? The rule that forbids a Count Down move, said to the player, who is told
nothing of the agent cards they cannot see."""

import json

import numpy as np
import pytest

import tminus
from tests.core.why_not_checks import action_named, reasons_agree_with_legality, sampled_states
from tests.count_down.helpers import (
    FORBIDDEN,
    FUNDING_100,
    RADAR,
    SATURN_V,
    TRAINING,
    arrive,
    changed,
    give_agent,
    give_part,
    give_photo,
    make_ready,
    new_game,
    place,
    play,
    set_money,
    started,
)
from tminus.games.count_down import phases

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def why(state, move: str) -> str:
    return state.why_not(action_named(state, move), NAMES[: state.game.num_players])


def meeting(state=None):
    """Ann (centre 1) stops on Funding 100 where Bob (centre 2) stands, holding a Radar
    card to offer him: her say in the meeting."""
    state = place(state or started(), 1, FUNDING_100)
    state = give_photo(state, 1, "Radar")
    play(state, "ball 4")
    assert state.phase() == "meeting" and state.current_player() == 0
    return state


def visit(state=None, agents=()):
    """Ann stops in centre 2's forbidden zone holding the given agent cards."""
    state = place(state or started(), 0, FORBIDDEN[1] - 3)
    names = state.game.board.agent_names
    for name in agents:
        state = give_agent(state, 1, names.index(name))
    return play(state, "ball 3")


# -- the squares ------------------------------------------------------------------------------
def test_a_complete_saturn_v_costs_more_than_the_player_has():
    state = arrive(started(), SATURN_V)
    assert state.phase() == "Saturn V"
    state = set_money(state, 1, 300)
    assert why(state, "buy Saturn V") == "You have only 300 and a complete Saturn V costs 500."


def test_single_stages_only_when_no_complete_rocket_is_left():
    state = arrive(started(), SATURN_V)
    assert why(state, "buy stage 1") == (
        "A complete rocket is still in stock: it is sold whole, for 500; single stages only "
        "when no complete rocket is left."
    )
    broken = arrive(set_money(changed(started(), part_stock=[0, 4, 4, 4]), 1, 150), SATURN_V)
    assert why(broken, "buy Saturn V") == (
        "No complete rocket is left in stock: buy the stages that remain, one by one."
    )
    assert why(broken, "buy stage 1") == "No stage 1 is left in stock."
    assert why(broken, "buy capsule") == "You have only 150 and a capsule costs 300."


def test_on_a_photo_square_only_its_card():
    state = arrive(started(), RADAR)
    assert why(state, "buy photo Launch tower") == (
        "On this square you can buy only the Radar card (for 50)."
    )


def test_a_decision_of_another_moment_says_when_it_is_made_and_what_is_asked_now():
    state = arrive(started(), RADAR)
    assert why(state, "accept") == (
        "Accept and Refuse answer an offer, a price or a counter-offer made to you; "
        "now buy the Radar card or not."
    )
    assert why(state, "squats") == (
        "Squats or the fine are for the Astronaut training square, when you stop there; "
        "now buy the Radar card or not."
    )
    assert why(state, "bid 50").startswith("A price is named in a forced sale (ask or counter)")
    assert why(state, "forward").startswith(
        "You choose forward or backward only when the ball stops on 10, 11 or 12"
    )


def test_the_countdown_needs_a_complete_rocket_and_every_photo_card():
    state = arrive(give_part(started(), 1, "stage 1"), RADAR)
    assert why(state, "count down") == (
        "You may begin the COUNTDOWN only with your rocket complete and all the photo cards "
        "of your control card; you still lack a stage 2, a stage 3, a capsule and nine of "
        "its photo cards."
    )
    ready = arrive(make_ready(started(), 1), RADAR)
    assert why(ready, "count down") == (
        "The COUNTDOWN begins at the start of your turn, instead of rolling to move; "
        "now buy the Radar card or not."
    )


def test_debts_are_paid_by_selling_what_you_hold():
    state = give_photo(set_money(started(), 1, 0), 1, "Radar")
    state = play(arrive(state, TRAINING), "pay 10")
    assert state.phase() == "debt"
    assert why(state, "sell photo Launch tower") == "You hold no Launch tower card to sell."
    assert why(state, "sell Saturn V") == (
        "You hold no Saturn V bought complete: its parts go back one by one."
    )


# -- meetings -----------------------------------------------------------------------------
def test_offers_go_to_players_met():
    state = meeting()
    assert why(state, "offer seat 2: Radar for 50") == (
        "Cy is not in this meeting: deals are made with players on the same square or in "
        "their forbidden zone (you meet Bob)."
    )
    assert why(state, "offer seat 0: Radar for 50") == "You cannot make an offer to yourself."


def test_both_must_hold_what_they_give():
    state = meeting()
    assert why(state, "offer seat 1: 50 for Launch tower") == "Bob holds no Launch tower card."
    assert why(state, "offer seat 1: Launch tower for 50") == "You hold no Launch tower card."
    poor = meeting(set_money(started(), 2, 60))
    assert why(poor, "offer seat 1: Radar for 70") == (
        "Bob has only 60, and the price is 70: no money, no sale."
    )


def test_three_proposals_a_say():
    state = changed(meeting(), proposals_left=0)
    assert why(state, "offer seat 1: Radar for 50") == (
        "You have made your three proposals in this meeting: say you are done."
    )


def test_the_players_met_propose_to_the_one_who_arrived():
    state = place(started(), 2, FUNDING_100)
    state = give_photo(state, 2, "Launch tower")  # Bob has something to offer Ann
    state = meeting(state)
    play(state, "done")
    assert state.current_player() == 1
    assert why(state, "offer seat 2: Launch tower for 50") == (
        "In a meeting the players met propose only to the one who arrived, Ann."
    )


def test_a_forced_sale_is_of_a_card_one_needs_from_one_who_does_not():
    state = meeting(give_photo(give_photo(started(), 2, "Launch tower"), 1, "Launch tower"))
    assert why(state, "ask seat 1 for Radar") == (
        "The Radar is not on your control card: a forced sale is only of a card you need."
    )
    assert why(state, "ask seat 1 for Launch tower") == (
        "You already hold the Launch tower card: a forced sale is only of a card you lack."
    )
    assert why(state, "ask seat 1 for Astronauts") == "Bob holds no Astronauts card."
    needed = meeting(give_photo(started(), 2, "Astronauts"))
    assert why(needed, "ask seat 1 for Astronauts") == (
        "Bob needs their only Astronauts card (it is on their control card): only a card its "
        "holder does not need must be sold."
    )


def test_a_forced_sale_cannot_be_refused():
    state = meeting(give_photo(started(), 2, "Rocket transport"))  # not on Bob's card
    play(state, "ask seat 1 for Rocket transport")
    assert state.current_player() == 1
    assert why(state, "refuse") == (
        "Ann claims a card you do not need: you are obliged to sell it (“Boycotting is "
        "forbidden”); name a price from 50 to 100."
    )
    assert why(state, "ask 150") == (
        "The price asked is between the card's value (50) and double it (100), and never "
        "more than Ann has (1300): ask 50 to 100."
    )
    play(state, "ask 100")
    assert why(state, "refuse") == (
        "A forced sale cannot be refused (“Boycotting is forbidden”): accept the 100 asked or "
        "counter with a lower price."
    )
    assert why(state, "counter 100") == (
        "A counter-offer is lower than the 100 asked and at least the card's value (50)."
    )


def test_a_part_of_a_saturn_v_bought_whole_is_sold_only_with_it():
    state = place(started(), 1, FUNDING_100)
    state = changed(give_part(state, 1, "stage 1"), saturn_sets=[0, 1, 0, 0])
    for part in ("stage 1", "stage 2", "stage 3", "capsule"):
        state = give_part(state, 2, part)
    state = play(state, "ball 4")
    assert why(state, "offer seat 1: 100 for stage 2") == (
        "The stage 2 is part of Bob's complete Saturn V: “rockets may be sold only at their "
        "original price”, so it goes only with the whole rocket, for 500."
    )
    assert why(state, "demand stage 1 from seat 1") == (
        "You already have a stage 1: a spare part is claimed only by a player who lacks it."
    )
    assert why(state, "demand stage 2 from seat 1") == (
        "Bob has no spare stage 2: only a second copy must be sold."
    )


# -- forbidden zones and agents -------------------------------------------------------------
def test_a_mission_needs_its_card_and_a_forbidden_zone():
    state = visit(give_photo(started(), 1, "Radar"))
    assert state.phase() == "meeting" and state.current_player() == 0
    assert why(state, "mission Strike") == "You hold no Strike card."
    assert why(meeting(), "mission Strike") == (
        "A mission is carried out only in an opponent's forbidden zone, and this is not one."
    )


def test_the_ransom_is_paid_with_money_in_hand():
    state = visit(agents=["Strike"])
    state = play(state, "mission Strike", "ball 1")
    state = set_money(state, 1, 100)
    assert why(state, "pay 300") == (
        "You have only 100 and the ransom is 300: it is paid only with money in hand, so you "
        "sit out three turns."
    )


def test_what_a_mission_hits():
    state = give_part(give_photo(started(), 2, "Radar"), 2, "capsule")
    state = play(visit(state, agents=["Stolen plans"]), "mission Stolen plans", "ball 12")
    assert state.phase() == "target"
    assert why(state, "target capsule") == (
        "A Stolen plans mission hits photo cards, not rocket parts."
    )
    assert why(state, "target photo Moon landing") == "Bob has no Moon landing card."


# -- the auction ------------------------------------------------------------------------------
def test_bids_open_at_half_value_and_go_up_to_double():
    state = started()
    radar = state.game.board.photo_names.index("Radar")
    state = changed(
        state,
        phase=phases.CODES["bid"],
        player=0,
        mover=0,
        lots=[radar],
        bidders=[0, 1, 2, 3],
        bid_at=0,
        lot_price=0,
        lot_high=-1,
        auction_done=True,
    )
    assert why(state, "bid 10") == "The bidding opens at half the card's value: bid 20 or more."
    assert why(state, "bid 110") == "Bids go up to double the card's value: 100 at most."
    raised = changed(state, lot_price=60, lot_high=3)
    assert (
        why(raised, "bid 60") == "Each bid is at least 10 more than the last (60): bid 70 or more."
    )
    poor = set_money(state, 1, 30)
    assert why(poor, "bid 40") == "You have only 30: bid 30 at most."


# -- chance and the end -----------------------------------------------------------------------
def test_while_the_ball_rolls():
    assert new_game().why_not(0) == (
        "Nobody moves yet: each player rolls the ball for money and order of play."
    )
    assert started().why_not(0) == "The ball is rolled first: nobody moves before the roll."


# -- every move, and nothing hidden -------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_reason_exactly_for_each_move_that_is_not_legal(players):
    game = tminus.load_game("count_down", players=players, max_turns=60)
    for state in sampled_states(game, 60, seed=players, rate=0.1):
        reasons_agree_with_legality(state)


@pytest.mark.parametrize("players", [2, 4, 5, 6])
def test_no_reason_names_an_agent_card_the_player_cannot_see(players):
    """A reason names an agent card only where the player to move sees it (their own, or
    a mission under way), or where the move asked about names it; and the reasons are the
    same in every state the player cannot tell from this one (agent cards redrawn)."""
    game = tminus.load_game("count_down", players=players, max_turns=60)
    agents = game.board.agent_names
    rng = np.random.default_rng(players)
    checked = 0
    for state in sampled_states(game, 60, seed=20 + players, rate=0.1):
        seat = state.current_player()
        if seat < 0:
            continue
        seen = json.dumps(state.observation(seat))
        reasons = reasons_agree_with_legality(state)
        for action, reason in reasons.items():
            move = state.action_to_string(action)
            for card in agents:
                assert card not in reason or card in seen or card in move, (move, reason)
        other = state.resample_hidden(seat, rng)
        assert {a: other.why_not(a) for a in reasons} == reasons
        checked += 1
    assert checked > 20
