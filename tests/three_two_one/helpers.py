"""Drive 3-2-1 Countdown through its readable action strings, as the table would."""

from __future__ import annotations

import re

import tminus
from tminus.games.three_two_one.game import ThreeTwoOneState

# A hand that can declare Countdown! at once: total 4 with 12 cards.
COUNTDOWN_HAND = [0] * 8 + [1] * 4
BLASTOFF_HAND = [5] * 12  # all twelve fives


def new_game(players: int = 2, **params) -> ThreeTwoOneState:
    return tminus.load_game("three_two_one", players=players, **params).new_initial_state()


def play(state: ThreeTwoOneState, *moves: str) -> ThreeTwoOneState:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def legal_strings(state: ThreeTwoOneState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def next_recipient(state: ThreeTwoOneState) -> int:
    """The seat the next dealt card goes to, read from the deal's action names."""
    name = state.action_to_string(state.chance_outcomes()[0][0])
    return int(re.fullmatch(r"deal \d+ to seat (\d+)", name).group(1))


def deal(
    state: ThreeTwoOneState, hands: dict[int, list[int]], left: int = 5, right: int = 5
) -> ThreeTwoOneState:
    """Deal each seat the given hand (card by card, in the deal's order), then turn up
    ``left`` and ``right`` to start the discard piles."""
    remaining = {seat: list(hand) for seat, hand in hands.items()}
    while state.observation(0)["phase"] == "deal":
        seat = next_recipient(state)
        play(state, f"deal {remaining[seat].pop(0)} to seat {seat}")
    assert all(not cards for cards in remaining.values()), remaining
    return play(state, f"turn up {left} left", f"turn up {right} right")


def discard_string(values: list[int], pile: str) -> str:
    return f"discard {','.join(map(str, values))} {pile}"


def turn(
    state: ThreeTwoOneState, discard: list[int], draw: int | str, pile: str = "left"
) -> ThreeTwoOneState:
    """One turn: discard ``discard`` onto ``pile``; then draw ``draw`` from the draw pile
    (a card value) or from the other discard pile ("left"/"right")."""
    seat = state.current_player()
    play(state, discard_string(discard, pile))
    if isinstance(draw, str):
        return play(state, f"draw {draw}")
    return play(state, "draw pile", f"seat {seat} draws {draw}")


def fill(core: list[int], *junk: int, size: int = 12) -> list[int]:
    """A hand: ``core`` plus sets of four of each ``junk`` value, ``size`` cards in all."""
    hand = core + [v for v in junk for _ in range(4)]
    assert len(hand) == size, hand
    return hand
