"""The 4-Way CountDown greedy agent: hardest key first, attacks the leader, beats random."""

import pytest

import tminus
from tests.four_way.helpers import legal_strings, play, started
from tminus.agents import make_agent
from tminus.agents.greedy.four_way import chance_to_get
from tminus.sim import simulate


def greedy(state):
    return make_agent("greedy", state.game, seed=0)


def test_adult_key_chances_count_the_rolls_that_offer_each_key():
    chances = chance_to_get(junior=False)
    # Key 7 only as a sum: 1+6, 2+5, 3+4, each two ways.
    assert chances[7] == pytest.approx(6 / 36)
    assert min(chances, key=chances.get) in (7, 9, 10)


def test_prefers_the_key_hardest_to_get_later():
    state = play(started(), "dice 1,6")  # 7, 5, 6: key 7 is the rarest
    assert state.action_to_string(greedy(state).step(state)) == "flip 7"


def test_junior_weighs_two_easy_keys_against_one_hard_key():
    # 1 and 2 together are worth more than key 3; key 8 alone is worth more than 3 and 5.
    state = play(started(2, "junior"), "dice 1,2")
    assert state.action_to_string(greedy(state).step(state)) == "flip 1+2"
    state = play(started(2, "junior"), "dice 3,5")
    assert state.action_to_string(greedy(state).step(state)) == "flip 8"


def test_attacks_the_leader_on_eleven():
    state = play(
        started(3),
        "dice 1,1", "flip 1", "dice 2,4", "flip 8", "dice 3,5", "flip 2",
        "dice 1,2", "flip 3", "dice 1,1", "flip 2", "dice 1,2", "flip 3",
        "dice 5,6",
    )  # fmt: skip
    # Seats 1 and 2 lead with two keys each; seat 1 plays sooner, so it is the threat.
    assert state.observation(0)["keys"] == [[1, 3], [2, 8], [2, 3]]
    assert state.action_to_string(greedy(state).step(state)) == "attack seat 1"


def test_takes_key_one_rather_than_attack_a_player_with_one_key():
    state = play(started(2), "dice 1,2", "flip 3", "dice 1,2", "flip 3", "dice 5,6")
    assert legal_strings(state) == ["flip 1", "attack seat 1"]
    assert state.action_to_string(greedy(state).step(state)) == "flip 1"


@pytest.mark.parametrize("variant", ["adult", "junior"])
def test_beats_random_clearly(variant):
    game = tminus.load_game("four_way", players=2, variant=variant)
    summary = simulate(game, ["greedy", "random"], games=1000, seed=7)
    low, _ = summary.seats[0].interval
    assert low > 0.5, summary.seats[0]
