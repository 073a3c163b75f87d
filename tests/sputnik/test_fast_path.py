"""The engine's fast path against the rules: on every position of many random games the
legal actions (kept from bit masks updated move by move) equal those computed afresh from
the pure functions of ``rules.py`` on the same position, and so do ``is_legal``, the turn
after a step and the errors for illegal actions. A stale mask would show up here."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tminus
from tests.sputnik.helpers import arrange, clear, legal_strings, play, started
from tminus import IllegalActionError
from tminus.core.playout import possible_actions
from tminus.games.sputnik import rules
from tminus.games.sputnik.game import SputnikGame
from tminus.games.sputnik.rules import NOBODY, OUT

# Every configuration the game offers, and two other board sizes.
CONFIGURATIONS = [
    *SputnikGame.configurations(),
    {"players": 6, "radius": 2},  # cramped: rockets are stuck early, even on their bases
    {"players": 2, "radius": 5},
]


def reference_legal_actions(state) -> list[int]:
    """The legal actions straight from ``rules.py``, scanning the position's lists."""
    game = state.game
    board, at, pos, base, unmoved = state.position()
    neighbours = game.board.neighbours
    if state.phase() == "move":
        steps, helps = [], []
        for k, rocket in enumerate(game.rockets_of[state.current_player()]):
            cell = pos[rocket]
            if cell == OUT:
                continue
            for target in rules.step_targets(board, at, neighbours[cell], rocket):
                steps.append(k * game.cells + target)
            for target in rules.help_targets(board, neighbours[cell], cell, base[rocket]):
                helps.append(game.help_offset + k * game.cells + target)
        return steps + helps
    if state.phase() == "remove":
        restricted = rules.start_restricted(neighbours, pos, base, unmoved)
        return [game.remove_offset + c for c in rules.removable_galaxies(board, at, restricted)]
    return []


def removal_follows(state, action: int) -> bool:
    """Whether a galaxy may be taken after the step ``action``, by the rules: the step is
    made on copies of the lists and ``rules.removable_galaxies`` asked."""
    game = state.game
    board, at, pos, base, unmoved = (list(part) for part in state.position())
    k, cell = divmod(action, game.cells)
    rocket = game.rockets_of[state.current_player()][k]
    at[pos[rocket]], at[cell], pos[rocket], unmoved[rocket] = NOBODY, rocket, cell, False
    restricted = rules.start_restricted(game.board.neighbours, pos, base, unmoved)
    return bool(rules.removable_galaxies(board, at, restricted))


def check_position(state, rng: random.Random) -> None:
    game = state.game
    expected = reference_legal_actions(state)
    assert state.legal_actions() == expected
    assert expected == sorted(expected)
    if state.phase() == "remove":
        assert state.removable_galaxies() == [a - game.remove_offset for a in expected]
    assert state.start_restricted() == rules.start_restricted(
        game.board.neighbours, *state.position()[2:]
    )
    # A clone, and the same position with its masks rebuilt from the lists, answer the same.
    assert state.clone().legal_actions() == expected
    rebuilt = state.clone()
    rebuilt.rebuild_masks()
    assert rebuilt.legal_actions() == expected
    probes = [*range(-2, game.num_distinct_actions + 2), 10**20, -(10**20)]
    if not state.is_chance_node():
        assert [a for a in probes if state.is_legal(a)] == expected
    if state.phase() == "move":
        # The seat's rockets that could not move were eliminated as its turn came.
        board, at, pos, base, _ = state.position()
        for rocket in game.rockets_of[state.current_player()]:
            if pos[rocket] != OUT:
                around = game.board.neighbours[pos[rocket]]
                assert rules.can_move(board, at, around, rocket, pos[rocket], base[rocket])
    if expected and rng.random() < 0.3:
        illegal = rng.choice([a for a in probes if a not in expected])
        before = (str(state), state.history(), state.legal_actions())
        with pytest.raises(IllegalActionError, match="legal: "):
            state.apply_action(illegal)
        assert (str(state), state.history(), state.legal_actions()) == before


def play_and_check(state, pick, rng: random.Random) -> None:
    """Play to the end with ``pick(options)``, checking every position on the way."""
    while not state.is_terminal():
        check_position(state, rng)
        if state.is_chance_node():
            state.apply_action(pick(possible_actions(state)))
            continue
        legal = state.legal_actions()
        action = pick(legal)
        mover, stepping = state.current_player(), action < state.game.help_offset
        after_step = state.phase() == "move" and stepping
        expect_removal = after_step and removal_follows(state, action)
        state.apply_action(action)
        if after_step:
            removing = state.phase() == "remove" and state.current_player() == mover
            assert removing == expect_removal
    check_position(state, rng)
    assert state.legal_actions() == [] and not state.is_legal(0)


def helpful(rng: random.Random, help_offset: int, remove_offset: int):
    """A random pick that takes a base help whenever one is legal half the time, so that
    games meet many positions after base help."""

    def pick(options: list[int]) -> int:
        helps = [a for a in options if help_offset <= a < remove_offset]
        if helps and rng.random() < 0.5:
            return rng.choice(helps)
        return rng.choice(options)

    return pick


@pytest.mark.parametrize("params", CONFIGURATIONS, ids=lambda p: "-".join(map(str, p.values())))
def test_fast_legal_actions_equal_the_rules_on_every_position_of_random_games(params):
    game = tminus.load_game("sputnik", **params)
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_initial_state()
        if seed % 2:
            play_and_check(state, helpful(rng, game.help_offset, game.remove_offset), rng)
        else:
            play_and_check(state, rng.choice, rng)


def test_clones_keep_their_masks_apart():
    game = tminus.load_game("sputnik", players=2, rockets_per_player=2)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        copy = state.clone()
        options = possible_actions(copy)
        copy.apply_action(rng.choice(options))  # the original must not see this
        check_position(state, rng)
        options = possible_actions(state)
        state.apply_action(rng.choice(options))


def test_positions_set_up_by_hand_are_read_afresh():
    state = play(started(2), "move d2")
    clear(state, "a4")  # taken as if earlier: no longer removable
    assert "remove a4" not in [state.action_to_string(a) for a in state.legal_actions()]
    check_position(state, random.Random(0))
    state = arrange(2, ["d2", "d5"], "d3 e5", helped=(1,))
    check_position(state, random.Random(0))


def test_a_rocket_eliminated_first_frees_its_cell_for_the_seats_next_rocket():
    """The seat's rockets are checked in order (as ``rules.can_move`` on the lists, one
    after the other): d4 is stuck and leaves, and then d3 can fly onto d4."""
    state = arrange(
        2, ["d4", "g1", "d3", "a7"], "f1 f2 a6 b7", helped=(0, 2), rockets_per_player=2, first=1
    )
    play(state, "move g1-f1", "remove f2")
    assert state.eliminated() == [0] and state.current_player() == 0
    assert legal_strings(state) == ["move d3-d4"]


@settings(max_examples=100, deadline=None)
@given(
    params=st.sampled_from(SputnikGame.configurations()),
    choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=150),
)
def test_fast_path_property(params, choices):
    state = tminus.load_game("sputnik", **params).new_initial_state()
    rng = random.Random(0)
    for choice in choices:
        if state.is_terminal():
            break
        check_position(state, rng)
        options = possible_actions(state)
        state.apply_action(options[choice % len(options)])
