"""Invariants over random games (Hypothesis): keys stay within 1-10, moves change little."""

from hypothesis import given, settings
from hypothesis import strategies as st

import tminus
from tminus.core.playout import possible_actions
from tminus.games.four_way.game import ATTACK, PASS, RESET


@settings(max_examples=200, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    variant=st.sampled_from(["adult", "junior"]),
    choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=400),
)
def test_keys_stay_in_range_and_each_move_changes_only_what_it_says(players, variant, choices):
    state = tminus.load_game("four_way", players=players, variant=variant).new_initial_state()
    for choice in choices:
        if state.is_terminal():
            break
        options = possible_actions(state)
        action = options[choice % len(options)]
        before = state.observation(0)["keys"]
        mover = state.current_player()
        state.apply_action(action)
        after = state.observation(0)["keys"]
        for keys in after:
            assert keys == sorted(set(keys)) and all(1 <= k <= 10 for k in keys)
        if mover < 0:
            assert after == before  # dice change no keys
            continue
        for seat in range(players):
            if (action == RESET and seat == mover) or action == ATTACK + seat:
                assert after[seat] == []
            elif seat == mover and action not in (PASS,) and action < ATTACK:
                gained = set(after[seat]) - set(before[seat])
                assert set(before[seat]) <= set(after[seat]) and 1 <= len(gained) <= 2
            else:
                assert after[seat] == before[seat]
    if state.is_terminal() and not state.ended_by_turn_cap():
        assert len(state.observation(0)["keys"][state.winners()[0]]) == 10
