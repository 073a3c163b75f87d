"""Common random numbers by stream: a playout's draws of one stream of luck do not depend
on how often another stream was drawn from."""

import random

from tminus.core.playout import ChanceStreams, sample_chance
from tminus.core.registry import load_game

TWELVE = [(face, 1 / 12) for face in range(1, 13)]


class Node:
    """A chance node of a given stream with a uniform ball of twelve faces."""

    def __init__(self, stream):
        self.stream = stream

    def chance_stream(self):
        return self.stream

    def chance_outcomes(self):
        return TWELVE


def test_one_stream_is_the_seeds_own_random_numbers():
    streams, plain = ChanceStreams(7), random.Random(7)
    drawn = [streams.draw(Node(None)) for _ in range(50)]
    assert drawn == [sample_chance(TWELVE, plain.random()) for _ in range(50)]


def test_a_streams_draws_are_the_same_however_often_another_was_drawn():
    plain, busy = ChanceStreams("s"), ChanceStreams("s")
    rolls_plain = [plain.draw(Node("ball")) for _ in range(40)]
    rolls_busy = []
    for i in range(40):
        for _ in range(i % 3):  # a card drawn now and then, in one playout only
            busy.draw(Node("cards"))
        rolls_busy.append(busy.draw(Node("ball")))
    assert rolls_busy == rolls_plain
    # ... and the streams are not one sequence under two names.
    assert [ChanceStreams("s").draw(Node("cards")) for _ in range(40)] != rolls_plain


def test_count_down_gives_each_seats_rolls_and_each_pile_a_stream():
    game = load_game("count_down", players=3)
    rng = random.Random(2)
    state = game.new_initial_state()
    keys = {}
    for _ in range(20000):
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            phase = state.phase()
            who = state.mover() if "roll" in phase and phase != "roll-off" else None
            if phase == "agent draw":
                who = "green" if state.position_dict()["draw_green"] else "red"
            keys.setdefault(state.chance_stream(), set()).add((phase, who))
            state.apply_action(sample_chance(state.chance_outcomes(), rng.random()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    # One kind of draw, and one seat's rolls, for each stream; every seat's move rolls seen.
    assert all(len(kinds) == 1 for kinds in keys.values()), keys
    kinds = {kind for kinds in keys.values() for kind in kinds}
    assert {who for phase, who in kinds if phase == "roll"} == {0, 1, 2}
    assert {who for phase, who in kinds if phase == "agent draw"} == {"green", "red"}
