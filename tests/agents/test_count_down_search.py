"""IS-MCTS in Count Down's meeting: a player met has a say of its own, and the search uses it."""

from tests.count_down.helpers import FUNDING_100, give_photo, place, play, started
from tminus.agents import make_agent


def test_ismcts_as_a_player_met_claims_the_card_the_mover_does_not_need():
    # Ann (seat 0) stops on Bob's square holding a Radar she does not need; Bob lacks it.
    # Once Ann is done, Bob has the say: the forced sale is his ("obliged to sell it to
    # the player who lacks it"), and a search that sees the meeting through Bob's eyes
    # (resampled hidden cards) makes the claim.
    state = place(started(), 1, FUNDING_100)
    state = give_photo(state, 1, "Radar")
    play(state, "ball 4", "done")
    assert state.current_player() == 1
    agent = make_agent("ismcts:simulations=24", state.game, seed=3)
    assert state.action_to_string(agent.step(state)) == "ask seat 0 for Radar"
