"""Invariants over random games (Hypothesis): rockets never share a cell, stand only on a
galaxy or their own base, and each action changes the board only as its rule says."""

from hypothesis import given, settings
from hypothesis import strategies as st

import tminus
from tminus.core.playout import possible_actions

VARIANTS = [
    {"players": 2},
    {"players": 3},
    {"players": 6},
    {"players": 2, "rockets_per_player": 3},
    {"players": 4, "teams": True},
]


@settings(max_examples=150, deadline=None)
@given(
    params=st.sampled_from(VARIANTS),
    choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=120),
)
def test_rockets_stay_on_their_cells_and_actions_change_only_what_they_say(params, choices):
    state = tminus.load_game("sputnik", **params).new_initial_state()
    for choice in choices:
        if state.is_terminal():
            break
        options = possible_actions(state)
        action = options[choice % len(options)]
        name = state.action_to_string(action)
        before = state.observation(0)
        state.apply_action(action)
        after = state.observation(0)
        cells = [r["cell"] for r in after["rockets"] if r["cell"] is not None]
        assert len(cells) == len(set(cells))
        names = after["cell_names"]
        for rocket in after["rockets"]:
            if rocket["cell"] is not None:
                kind = after["cells"][names.index(rocket["cell"])]
                assert kind in ("galaxy", f"base of seat {rocket['seat']}")
        kinds_before, kinds_after = before["cells"], after["cells"]
        pairs = zip(kinds_before, kinds_after, strict=True)
        changed = [i for i, (was, now) in enumerate(pairs) if was != now]
        if name.startswith("remove"):
            assert [kinds_after[i] for i in changed] == ["empty"]
            assert kinds_before[changed[0]] == "galaxy"
        elif name.startswith("help"):
            # the base's old cell becomes empty, the empty target a galaxy
            assert sorted(kinds_after[i] for i in changed) == ["empty", "galaxy"]
        else:
            assert changed == []  # a move or the lot changes no cell
        bases_left = [r["base"] for r in after["rockets"]]
        for was, now in zip([r["base"] for r in before["rockets"]], bases_left, strict=True):
            assert now in (was, None) and not (was is None and now is not None)
    if state.is_terminal() and not state.ended_by_turn_cap():
        game = state.game
        sides = {game.side_of_seat[r["seat"]] for r in state.observation(0)["rockets"] if r["cell"]}
        assert len(sides) == 1 and state.winners()
