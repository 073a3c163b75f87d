"""The auction: when the leader holds ten photo cards, five go up at half their value."""

from tests.count_down.helpers import (
    ASTRONAUTS,
    LAUNCH_TOWER,
    RADAR,
    arrive,
    conserved,
    give_photo,
    legal_strings,
    money,
    photos,
    play,
    set_money,
    started,
)

LEFT = {
    "Astronauts": 2,
    "Radar": 1,
    "Moon exploration": 2,
    "Lunar orbit": 1,
    "Launch tower": 3,
    "Stage separation": 2,
}  # 11 cards


def eleven_left(players=4):
    """Every photo card but the 11 above is with centre 4 (or the last centre)."""
    state = started(players)
    holder = len(state.centres_in_play())
    for p, name in enumerate(state.game.board.photo_names):
        extra = state.photo_stock()[p] - LEFT.get(name, 0)
        if extra:
            state = give_photo(state, holder, name, extra)
    return state


def test_no_auction_while_the_leader_holds_more_than_ten():
    state = play(arrive(eleven_left(), ASTRONAUTS), "decline")
    assert state.observation(0)["phase"] == "roll"


def test_the_auction_opens_when_the_leader_holds_ten():
    state = play(arrive(eleven_left(), LAUNCH_TOWER), "buy photo Launch tower")
    obs = state.observation(0)
    assert obs["phase"] == "bid" and state.current_player() == 0
    # Most needed first, ties by value; never the astronaut cards.
    assert obs["auction"]["lots"] == [
        "Moon exploration", "Moon exploration", "Launch tower", "Lunar orbit", "Launch tower",
    ]  # fmt: skip
    assert "Astronauts" not in obs["auction"]["lots"]


def test_each_lot_opens_at_half_value_and_bids_go_up_by_ten_to_double():
    state = play(arrive(eleven_left(), LAUNCH_TOWER), "buy photo Launch tower")
    bids = legal_strings(state)
    assert bids[0] == "pass" and bids[1] == "bid 70" and bids[-1] == "bid 300"
    play(state, "bid 150")
    assert state.current_player() == 1
    assert legal_strings(state)[1] == "bid 160"


def test_the_last_bidder_left_buys_the_lot():
    state = play(
        arrive(eleven_left(), LAUNCH_TOWER), "buy photo Launch tower", "bid 150", "bid 200"
    )
    play(state, "pass", "pass")  # seats 2 and 3 pass
    assert state.current_player() == 0  # back to the first bidder
    play(state, "pass")
    assert photos(state, 2)["Moon exploration"] == 1
    assert money(state, 2) == 1100 - 200 and conserved(state)
    assert state.observation(0)["auction"]["lots"][0] == "Moon exploration"


def test_a_lot_nobody_bids_for_stays_with_the_leader():
    state = play(arrive(eleven_left(), LAUNCH_TOWER), "buy photo Launch tower")
    play(state, "pass", "pass", "pass", "pass")
    assert state.observation(0)["stock"]["photos"]["Moon exploration"] == 2
    assert state.observation(0)["auction"]["lots"][0] == "Moon exploration"
    assert len(state.observation(0)["auction"]["lots"]) == 4


def test_after_five_lots_the_game_goes_on_and_there_is_no_second_auction():
    state = play(arrive(eleven_left(), LAUNCH_TOWER), "buy photo Launch tower")
    for _ in range(5):
        play(state, "pass", "pass", "pass", "pass")
    obs = state.observation(0)
    assert obs["phase"] == "roll" and obs["mover"] == 1 and obs["auction"]["done"]
    state = play(arrive(state, RADAR), "buy photo Radar")
    assert state.observation(0)["phase"] == "roll"


def test_a_bidder_without_the_money_can_only_pass():
    state = play(arrive(eleven_left(), LAUNCH_TOWER), "buy photo Launch tower")
    state = set_money(state, 1, 60)
    assert legal_strings(state) == ["pass"]


def test_teams_bid_once_per_centre():
    state = eleven_left(6)
    state = play(arrive(state, LAUNCH_TOWER), "buy photo Launch tower")
    assert state.observation(0)["auction"]["bidders"] == [1, 2, 3]


def test_an_auction_opened_on_a_clone_leaves_the_original_as_it_was():
    # Outside the bidding a state and its clones share the auction's record.
    state = arrive(eleven_left(), LAUNCH_TOWER)
    copy = state.clone()
    play(copy, "buy photo Launch tower", "bid 150")
    assert copy.observation(0)["auction"]["done"]
    assert not state.observation(0)["auction"]["done"] and state.auction.lots == []
