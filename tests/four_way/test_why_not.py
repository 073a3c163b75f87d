"""Why can't I? The rule that forbids a 4-Way CountDown move, said to the player."""

import pytest

import tminus
from tests.core.why_not_checks import action_named, reasons_agree_with_legality, sampled_states
from tests.four_way.helpers import new_game, play, started, with_keys

NAMES = ["Ann", "Bob", "Cy", "Di"]


def rolled(dice: str, variant: str = "adult", players: int = 2, *keys: int):
    """Ann (seat 0) to move after the roll ``dice`` ("3,5"), with each seat's keys up
    (10-bit masks) as given."""
    state = started(players, variant)
    if keys:
        state = with_keys(state, *keys)
    return play(state, f"dice {dice}")


def up(*keys: int) -> int:
    return sum(1 << (k - 1) for k in keys)


def why(state, move: str, names=None) -> str:
    return state.why_not(action_named(state, move), names)


def test_a_key_already_up():
    state = rolled("3,5", "adult", 2, up(8), 0)
    assert why(state, "flip 8") == (
        "Key 8 is already up: only a key that is still down can be flipped."
    )


def test_a_key_the_dice_do_not_make():
    # "If a player rolls a 5 and 3 there are only two options": 8 and 2.
    state = rolled("3,5")
    assert why(state, "flip 6") == (
        "The dice show 3 and 5: they allow key 2 (5 − 3) or key 8 (3 + 5), not key 6."
    )


def test_the_ways_listed_are_the_rulebooks_four():
    state = rolled("2,4")
    reason = why(state, "flip 5")
    for way in ("2 (4 − 2)", "6 (2 + 4)", "8 (2 × 4)"):
        assert way in reason
    assert "4 ÷ 2" not in reason  # 2 is said once, by its first way


def test_a_double_six_allows_nothing_but_every_key_down():
    state = rolled("6,6")
    for move in ("flip 1", "attack seat 1", "pass"):
        assert why(state, move).startswith("A double six means you must flip all your keys back")


def test_every_key_down_only_on_a_double_six():
    assert why(rolled("3,5"), "reset") == (
        "All your keys go back down only on a double six; the dice show 3 and 5."
    )


def test_an_attack_needs_an_eleven():
    state = rolled("3,5")
    assert why(state, "attack seat 1", NAMES[:2]) == (
        "An attack needs an eleven (a 6 and a 5); the dice show 3 and 5, so Bob cannot be attacked."
    )


def test_nobody_attacks_themself_or_an_empty_seat():
    state = rolled("5,6")
    assert why(state, "attack seat 0").startswith("You cannot attack yourself")
    assert why(state, "attack seat 3") == (
        "This game has 2 players: there is no one to attack there."
    )


def test_eleven_names_the_attack_among_its_options():
    assert why(rolled("5,6"), "flip 6") == (
        "The dice show 5 and 6: they allow key 1 (6 − 5) or an attack on an opponent "
        "(eleven), not key 6."
    )


def test_no_pass_with_an_option():
    assert why(rolled("3,5"), "pass").startswith("A player with an option must take one")


def test_junior_both_numbers_must_be_used():
    # "if a 3 and a 5 are rolled and the player has already flipped over the 8 and 3 key
    # ... the player cannot flip the 5 key on that turn because both dice must be used."
    state = rolled("3,5", "junior", 2, up(3, 8), 0)
    assert state.legal_actions() == [action_named(state, "pass")]
    assert why(state, "flip 5") == (
        "Both numbers must be used (junior rules): with 3 and 5 flip key 8 (3 + 5) or keys "
        "3 and 5 together, never key 5 alone."
    )
    assert why(state, "flip 3+5") == (
        "Both numbers must be used: key 3 is already up, so 3 and 5 cannot be flipped."
    )


def test_junior_has_no_subtraction():
    assert why(rolled("2,4", "junior"), "flip 2").startswith("Both numbers must be used")
    assert why(rolled("2,4", "junior"), "flip 8") == (
        "The dice show 2 and 4: they allow key 6 (2 + 4) or keys 2 and 4 together, not key 8."
    )


def test_junior_score_keys_are_the_dice_s_own():
    assert "not keys 1 and 2" in why(rolled("3,5", "junior"), "flip 1+2")
    assert why(rolled("5,5", "junior"), "flip 1+2") == (
        "A double is used as one number: two 5s flip key 5 (double 5) or key 10 (5 + 5), "
        "not two keys."
    )


def test_score_keys_are_not_adult_rules():
    assert why(rolled("3,5"), "flip 3+5").startswith("Flipping two keys at once is the junior")


def test_before_the_roll_and_after_the_end():
    state = new_game()
    assert state.why_not(0) == "Nobody moves yet: each player rolls one die to see who starts."
    state = started()
    assert state.why_not(0) == "The dice are rolled first: nobody moves before the roll."
    state = with_keys(started(), up(*range(1, 10)), 0)
    play(state, "dice 4,6", "flip 10")
    assert state.is_terminal()
    assert state.why_not(0) == "The game is over: no more moves can be made."


@pytest.mark.parametrize("variant", ["adult", "junior"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_reason_exactly_for_each_move_that_is_not_legal(players, variant):
    game = tminus.load_game("four_way", players=players, variant=variant)
    for state in sampled_states(game, 150, seed=players):
        reasons = reasons_agree_with_legality(state)
        if state.current_player() >= 0:
            assert all(reason.endswith(".") for reason in reasons.values())
