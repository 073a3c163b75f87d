"""Count Down in words: every kind of move by name, the ball explained by the squares it
leads to, and an agent card named only to those who see the centre's cards."""

import pytest

import tminus
from tests.count_down.helpers import (
    ASTRONAUTS,
    ESPIONAGE,
    FORBIDDEN,
    FUNDING_100,
    LAUNCH_TOWER,
    SABOTAGE,
    SATURN_V,
    STAGE_1,
    SURPRISE,
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
    reopen_turn,
    set_money,
    started,
)
from tests.count_down.test_auction import eleven_left
from tminus.games.count_down import words
from tminus.games.count_down.game import CountDownGame
from tminus.games.count_down.phases import CODES
from tminus.games.words_check import (
    WordsError,
    check_chance_lines_hide_what_observations_hide,
    check_words,
)

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]


def names(state):
    return NAMES[: state.game.num_players]


def line(state, move, viewer=None, reveal=False):
    return state.narrate(state.string_to_action(move), names(state), viewer, reveal=reveal)


def labels(state):
    return [state.move_label(a, names(state)) for a in state.legal_actions()]


def test_the_start_roll_gives_capital_and_settles_the_centres():
    state = new_game(4)
    assert line(state, "ball 7") == "Ann rolls 7: 700 million to start with"
    play(state, "ball 12", "ball 11", "ball 10")
    assert line(state, "ball 9") == (
        "Dee rolls 9: 900 million to start with; the centres go to Ann centre 1, Bob centre 2, "
        "Cy centre 3 and Dee centre 4"
    )


def test_tied_rolls_roll_again_and_a_team_rolls_for_its_purse():
    state = play(new_game(2), "ball 5")
    assert line(state, "ball 5") == (
        "Bob rolls 5: 500 million to start with; Ann and Bob tie and roll again"
    )
    play(state, "ball 5")
    assert line(state, "ball 3") == "Ann rolls 3 to break the tie for the order of play"
    team = new_game(6)
    assert line(team, "ball 12") == "Ann rolls 12: 1200 million to start with for the team"
    assert "the centres go to Ann and Dee centre 1" in line(
        play(team, "ball 12", "ball 12", "ball 11", "ball 11", "ball 10"), "ball 10"
    )


def test_the_ball_says_where_the_rocket_goes():
    state = started()  # Ann on launch ramp 1 (square 0)
    assert line(state, "ball 5") == "Ann rolls 5 and moves to Astronauts"
    assert line(state, "ball 11") == (
        "Ann rolls 11: forward to Stage separation or back to Lunar orbit"
    )
    play(state, "ball 11")
    assert labels(state) == ["Forward to Stage separation", "Back to Lunar orbit"]
    assert line(state, "backward") == "Ann moves back 11 to Lunar orbit"
    assert line(state, "forward") == "Ann moves forward 11 to Stage separation"


def test_once_the_surprise_pile_is_known_the_ball_says_which_card_waits():
    state = started()
    state = changed(state, surprise_unseen=[], surprise_queue=list(range(15)))
    assert line(state, "ball 6") == (
        "Ann rolls 6 and moves to Surprise (the top surprise card is Government grant)"
    )


@pytest.mark.parametrize(
    ("card", "effect"),
    [
        ("Government grant", ": the leader pays 200"),
        ("Budget overrun", ": pay 100 to the leader"),
        ("Press conference", ": each other centre pays 20"),
        ("Open day for the other centres", ": pay 20 to each other centre"),
        ("Photographer on the tower", ": a free Launch tower card"),
        ("Spare stage delivered", ": a free stage 3"),
        ("Visit to the Saturn V hangar", ": go to Saturn V"),
        ("Recalled to your launch ramp", ": back to Launch ramp 1"),
        ("Good weather: play once more", ""),  # the card says it already
        ("Strike at your centre", ": the next turn is lost"),
    ],
)
def test_each_surprise_card_says_what_it_does(card, effect):
    state = arrive(started(), SURPRISE)
    assert line(state, f"surprise: {card}") == f"Ann draws a surprise card, {card}{effect}"


def test_a_free_card_no_longer_in_stock_says_so():
    state = started()
    state = give_photo(state, 2, "Launch tower", 5)
    assert line(arrive(state, SURPRISE), "surprise: Photographer on the tower").endswith(
        "a free Launch tower card, but none is left"
    )


def test_an_agent_card_is_named_only_to_those_who_see_the_centres_cards():
    state = arrive(started(), ESPIONAGE)
    named = "Ann draws a green (espionage) card: Stolen plans"
    assert line(state, "green card: Stolen plans", viewer=0) == named
    assert line(state, "green card: Stolen plans", viewer=1) == "Ann draws a green (espionage) card"
    assert line(state, "green card: Stolen plans") == "Ann draws a green (espionage) card"
    assert line(state, "green card: Stolen plans", reveal=True) == named
    watched = arrive(started(5), ESPIONAGE)
    assert line(watched, "green card: Stolen plans", viewer=4) == named  # the watching seat
    assert line(watched, "green card: Stolen plans", viewer=3).endswith("card")
    team = arrive(started(6), ESPIONAGE)
    assert line(team, "green card: Stolen plans", viewer=3) == named  # Ann's partner


def test_the_checks_catch_an_agent_card_shown_to_everyone(monkeypatch):
    state = arrive(started(), SABOTAGE)  # three kinds of red card
    check_chance_lines_hide_what_observations_hide(state, names(state), "drawn")
    monkeypatch.setattr(words, "agent_card", lambda s, card, who, viewer, reveal: f"{who} {card}")
    with pytest.raises(WordsError, match="look alike"):
        check_chance_lines_hide_what_observations_hide(state, names(state), "drawn")


def test_buying_photo_cards_parts_and_the_saturn_v():
    state = arrive(started(), ASTRONAUTS)
    assert labels(state) == ["Don't buy", "Buy Astronauts for 150"]
    assert line(state, "buy photo Astronauts") == "Ann buys the Astronauts card for 150"
    assert line(state, "decline") == "Ann does not buy the Astronauts card"
    state = arrive(started(), SATURN_V)
    assert labels(state) == ["Leave the Saturn V", "Buy a complete Saturn V for 500"]
    assert line(state, "buy Saturn V") == "Ann buys a complete Saturn V rocket for 500"
    assert line(state, "decline") == "Ann leaves the Saturn V"
    state = started()
    state = give_part(state, 2, "capsule", 4)
    state = arrive(state, SATURN_V)
    assert labels(state)[1] == "Buy a stage 1 for 200"
    assert line(state, "buy stage 1") == "Ann buys a stage 1 for 200"


def test_training_and_playing_once_more():
    state = arrive(started(), TRAINING)
    assert labels(state) == ["Do ten squats", "Pay the 10 fine"]
    assert line(state, "squats") == "Ann does ten squats"
    assert line(state, "pay 10") == "Ann pays a 10 fine instead of doing the squats"
    state = started()
    state = give_part(state, 2, "stage 1", 4)
    state = arrive(state, STAGE_1)  # no stage 1 left: play once more
    assert labels(state) == ["Play once more", "End the turn"]
    assert line(state, "play once more") == "Ann plays once more"
    assert line(state, "end turn") == "Ann ends the turn"


def test_selling_to_the_leader_to_pay_a_debt():
    state = started()
    state = set_money(state, 1, 40)
    state = give_photo(state, 1, "Radar")
    state = give_part(state, 1, "stage 1")
    state = play(arrive(state, SURPRISE), "surprise: Fuel leak repairs")
    assert labels(state) == [
        "Sell the Radar card to the leader for 50",
        "Sell a stage 1 to the leader for 200",
    ]
    assert line(state, "sell photo Radar") == (
        "Ann sells the Radar card back to the leader for 50 to pay a debt"
    )


def meeting():
    """Ann rolls 4 onto the funding square where Bob stands."""
    return place(started(), 1, FUNDING_100)


def test_offers_by_name_and_their_answers():
    state = meeting()
    state = give_photo(state, 1, "Radar")
    state = give_photo(state, 2, "Launch tower")
    state = give_part(state, 2, "capsule")
    play(state, "ball 4")
    offers = labels(state)
    assert "Offer Bob 50 for the Launch tower" in offers
    assert "Offer Bob the Radar for 70" in offers
    assert "Offer Bob the Radar for the Launch tower" in offers
    assert "Offer Bob 300 for a capsule" in offers
    assert offers[0] == "Done"
    assert line(state, "offer seat 1: 50 for Launch tower") == (
        "Ann offers Bob 50 for the Launch tower"
    )
    play(state, "offer seat 1: Radar for 70")
    assert labels(state) == ["Accept", "Refuse"]
    assert line(state, "accept") == "Bob accepts the Radar for 70 from Ann"
    assert line(state, "refuse") == "Bob refuses the Radar for 70 from Ann"
    play(state, "refuse")
    assert line(state, "done") == "Ann is done: Bob has the say"
    play(state, "done")
    assert "Offer Ann 50 for the Radar" in labels(state)  # Bob proposes to Ann
    assert line(state, "offer seat 0: 50 for Radar") == "Bob offers Ann 50 for the Radar"
    assert line(state, "done") == "Bob ends the meeting"


def test_forced_sales_of_a_photo_card_and_of_a_spare_part():
    state = meeting()
    state = give_photo(state, 2, "Astronauts", 2)
    state = give_part(state, 2, "stage 1", 2)
    play(state, "ball 4")
    assert "Claim the Astronauts from Bob (forced sale)" in labels(state)
    assert "Claim the spare stage 1 from Bob for 200" in labels(state)
    assert line(state, "demand stage 1 from seat 1") == (
        "Ann claims the spare stage 1 from Bob for 200"
    )
    assert line(state, "ask seat 1 for Astronauts") == (
        "Ann claims the Astronauts from Bob in a forced sale"
    )
    play(state, "ask seat 1 for Astronauts")
    assert labels(state)[0] == "Ask 150" and labels(state)[-1] == "Ask 300"
    assert line(state, "ask 280") == "Bob asks 280 for the Astronauts"
    play(state, "ask 280")
    assert labels(state)[:2] == ["Accept 280", "Counter with 150"]
    assert line(state, "accept") == "Ann pays the 280 asked for the Astronauts"
    assert line(state, "counter 150") == "Ann offers 150 instead"
    play(state, "counter 150")
    assert line(state, "accept") == "Bob accepts 150 for the Astronauts"
    assert line(state, "refuse") == "Bob refuses 150: the price settles at 210"


def visit(agents=(), **photos):
    """Ann stops in Bob's forbidden zone holding the agent cards named."""
    state = started()
    for name, copies in photos.items():
        state = give_photo(state, 2, name.replace("_", " "), copies)
    state = place(state, 0, FORBIDDEN[1] - 3)
    for name in agents:
        state = give_agent(state, 1, state.game.board.agent_names.index(name))
    return play(state, "ball 3")


def test_a_visit_to_a_forbidden_zone_must_be_justified():
    state = started()
    state = give_photo(state, 1, "Radar")
    state = place(state, 0, FORBIDDEN[1] - 3)
    play(state, "ball 3")
    assert labels(state)[0] == "Leave (back to Launch ramp 1)"
    assert line(state, "done") == "Ann is done: Bob has the say"
    play(state, "offer seat 1: Radar for 100")
    assert line(state, "refuse") == "Bob refuses the Radar for 100 from Ann"
    play(state, "refuse")  # Ann's say is over; Bob's is his
    assert labels(state)[0] == "Done"
    assert line(state, "done") == "Bob ends the meeting; Ann is sent back to Launch ramp 1"


def test_a_met_player_claims_from_the_mover_and_is_asked_by_name():
    state = meeting()
    state = give_photo(state, 1, "Radar")  # Bob needs it; Ann does not
    play(state, "ball 4", "done")
    assert "Claim the Radar from Ann (forced sale)" in labels(state)
    assert line(state, "ask seat 0 for Radar") == "Bob claims the Radar from Ann in a forced sale"
    assert state.prompt(1, names(state)) == "Ann came to the square: your say"
    assert "Ann came to the square: Bob's say" in state.render(1, names(state))
    play(state, "ask seat 0 for Radar")
    asked = "Bob asks you to sell Radar (forced sale): a price of 50 to 100"
    assert state.prompt(0, names(state)) == asked
    assert "Bob asks Ann to sell Radar" in state.render(0, names(state))  # boards: by name
    assert "seat 1 asks you to sell Radar" in state.render(0)  # without names: "you"
    assert line(state, "ask 80") == "Ann asks 80 for the Radar"
    play(state, "ask 80")
    assert state.prompt(1, names(state)) == "Ann asks 80 for the Radar: accept or counter"
    play(state, "counter 50")
    assert state.prompt(0, names(state)) == (
        "Bob counters with 50 for the Radar: accept, or the price settles at 60"
    )
    assert state.render(2).count("seat 1 counters with 50") == 1


def test_a_claim_the_buyer_cannot_pay_says_there_is_no_sale():
    state = meeting()
    state = give_photo(state, 2, "Astronauts", 2)
    state = give_part(state, 2, "stage 1", 2)
    state = set_money(state, 1, 0)
    play(state, "ball 4")  # 100 in hand
    assert line(state, "ask seat 1 for Astronauts") == (
        "Ann claims the Astronauts from Bob in a forced sale, but cannot pay its value (150): "
        "no sale"
    )
    assert line(state, "demand stage 1 from seat 1") == (
        "Ann claims the spare stage 1 from Bob for 200, but cannot pay: no sale"
    )


def test_a_saturn_v_bought_whole_is_sold_back_whole():
    state = started()
    state = set_money(state, 1, 500)
    state = play(arrive(state, SATURN_V), "buy Saturn V")
    state = changed(state, debts=[[0, -1, 100]], phase=CODES["debt"], player=0)  # owe 100
    assert labels(state) == ["Sell the complete Saturn V to the leader for 500"]
    assert line(state, "sell Saturn V") == (
        "Ann sells the complete Saturn V back to the leader for 500 to pay a debt"
    )


def test_missions_arrests_and_what_a_successful_agent_takes():
    state = visit(agents=["Strike"])
    assert "Mission: Strike" in labels(state)
    assert line(state, "mission Strike") == "Ann shows a Strike card: a mission against Bob"
    play(state, "mission Strike")
    assert line(state, "ball 3") == "Bob rolls 3 for an arrest: Ann is arrested"
    assert line(state, "ball 4") == "Bob rolls 4 for an arrest: the mission of Ann goes ahead"
    play(state, "ball 3")
    assert labels(state) == ["Sit out three turns", "Pay the 300 ransom"]
    assert line(state, "sit out") == "Ann sits out the next three turns"
    assert line(state, "pay 300") == "Ann pays a ransom of 300 to Bob"
    state = play(visit(agents=["Stolen plans"], Moon_landing=1), "mission Stolen plans", "ball 12")
    assert labels(state) == ["Take a copy of the Moon landing of Bob from the leader"]
    assert line(state, "target photo Moon landing") == (
        "Ann uses the mission to take a copy of the Moon landing of Bob from the leader"
    )
    state = play(visit(agents=["Burnt film"], Radar=1), "mission Burnt film", "ball 12")
    assert line(state, "target photo Radar") == (
        "Ann uses the mission to send the Radar of Bob back to the leader"
    )


def test_sabotage_sends_a_part_back_to_stock():
    state = started()
    state = give_part(state, 2, "capsule")
    state = give_agent(state, 1, state.game.board.agent_names.index("Sabotaged stage"))
    state = place(state, 0, FORBIDDEN[1] - 3)
    play(state, "ball 3", "mission Sabotaged stage", "ball 12")
    assert labels(state) == ["Send the capsule of Bob back to stock"]
    assert line(state, "target capsule") == (
        "Ann uses the mission to send the capsule of Bob back to stock"
    )


def ready():
    """Ann is ready for the COUNTDOWN and it is her turn."""
    state = started()
    return reopen_turn(make_ready(state, 1))  # Ann's turn again, now that she is ready


def test_the_countdown_roll_by_roll():
    state = ready()
    assert labels(state) == ["Roll and move", "Start the COUNTDOWN"]
    assert line(state, "roll") == "Ann rolls to move (not to count down)"
    assert line(state, "count down") == "Ann starts the COUNTDOWN"
    play(state, "count down")
    assert line(state, "ball 11") == "Ann rolls 11 for the COUNTDOWN: count from it or wait"
    play(state, "ball 11")
    assert labels(state) == ["Count from this 11", "Wait"]
    assert line(state, "start count") == "Ann counts from this 11"
    assert line(state, "wait") == "Ann waits for a higher roll"
    play(state, "start count")
    assert line(state, "ball 8") == "Ann rolls 8: 19 after two rolls"
    play(state, "ball 8")
    assert line(state, "ball 6") == "Ann rolls 6: 25 in three rolls, lift-off; Ann wins the game"
    assert line(state, "ball 5") == (
        "Ann rolls 5: 24 in three rolls, short of 25; the COUNTDOWN fails this turn"
    )


def test_the_fourth_countdown_roll_must_start_the_count():
    state = play(ready(), "count down", "ball 1", "wait", "ball 2", "wait", "ball 3", "wait")
    assert line(state, "ball 12") == (
        "Ann rolls 12 for the COUNTDOWN on the fourth roll: the count must start with it (12 of 25)"
    )


def test_the_auction_opens_and_each_lot_is_sold_or_not():
    state = arrive(eleven_left(), LAUNCH_TOWER)
    assert line(state, "buy photo Launch tower") == (
        "Ann buys the Launch tower card for 50; the leader auctions five photo cards, one at a "
        "time: Moon exploration, Moon exploration, Launch tower, Lunar orbit, Launch tower"
    )
    play(state, "buy photo Launch tower")
    assert labels(state)[:2] == ["Pass", "Bid 70"]
    assert line(state, "bid 150") == "Ann bids 150 for the Moon exploration"
    play(state, "bid 150", "pass", "pass")
    assert line(state, "pass") == (
        "Dee passes on the Moon exploration; Ann buys the Moon exploration for 150"
    )
    play(state, "pass", "pass", "pass", "pass")
    assert (
        line(state, "pass")
        == "Dee passes on the Moon exploration; nobody buys the Moon exploration"
    )


def test_a_roll_off_at_the_turn_limit_ends_in_a_draw():
    state = play(new_game(2, max_turns=2), "ball 5", "ball 5", "ball 5")
    assert line(state, "ball 5") == (
        "Bob rolls 5 to break the tie for the order of play; the turn limit ends the game in a draw"
    )


@pytest.mark.parametrize("params", CountDownGame.configurations())
def test_random_games_read_well_and_hide_the_agent_cards(params):
    game = tminus.load_game("count_down", **params)
    assert check_words(game, [1], max_steps=150) > 100


def test_the_status_line_says_what_the_mover_does_not_the_engines_phase_name():
    """A first-time player read "Alice's turn · turn start": the program's name for the
    phase. Every phase has words for players; the observation carries them and the terminal
    shows them."""
    from tminus.games.count_down import phases
    from tminus.games.count_down.views import observe, render_state

    assert len(phases.DOING) == len(phases.NAMES)
    for doing, name in zip(phases.DOING, phases.NAMES, strict=True):
        assert doing and doing != name
    state = reopen_turn(make_ready(started(), 1))
    assert state.phase() == "turn start"
    assert observe(state, 0)["doing"] == "count down or roll"
    header = render_state(state, 0).splitlines()[0]
    assert "count down or roll" in header and "turn start" not in header
