"""3-2-1's start of a round in the batch engines, as the reference (and RULINGS) say: seat 0
starts the first round, then the start passes on from the last round's starter to the next
seat that plays the round; in extra rounds that is among the tied players only.

Found by the full differential run (10,000 games of 5 players, one round): two players
tied, seats 3 and 4, played two extra rounds; the batch engine started the second from the
round number (seat 3 again) instead of from the last starter (seat 4)."""

import numpy as np
import pytest

import tminus.batch as tb


def starts(starter: int, playing: list[int], **params) -> int:
    """Who starts a round played by ``playing`` after a round that ``starter`` started."""
    env = tb.make("three_two_one", 1, seed=0, **params)
    games = np.array([0])
    env.round[games] = 2
    env.starter[games] = starter
    env._start_round(games, np.array([sum(1 << s for s in playing)]))
    return int(env.mover[0])


@pytest.mark.parametrize(
    ("starter", "playing", "expected"),
    [(3, [3, 4], 4), (4, [3, 4], 3), (0, [3, 4], 3), (1, [0, 2, 4], 2), (4, [0, 2, 4], 0),
     (2, [0, 1, 2, 3, 4], 3)],
)  # fmt: skip
def test_the_start_passes_on_from_the_last_starter_to_the_next_seat_that_plays(
    starter, playing, expected
):
    assert starts(starter, playing, players=5, rounds=1) == expected


def test_seat_0_starts_the_first_round_and_then_each_seat_in_turn():
    env = tb.make("three_two_one", 4, seed=1, players=3)
    assert env.mover.tolist() == [0, 0, 0, 0] and env.starter.tolist() == [0, 0, 0, 0]
    games = np.arange(4)
    for expected in (1, 2, 0, 1):
        env._start_round(games, np.full(4, 0b111))
        assert env.mover.tolist() == [expected] * 4


def test_the_jax_engine_passes_the_start_on_alike():
    jax = pytest.importorskip("jax")
    from tminus.batch.jax_three_two_one import Table, deal, new_game

    table = Table(5, 1, 300)
    for starter, playing, expected in [(3, [3, 4], 4), (4, [0, 2, 4], 0), (1, [0, 2, 4], 2)]:
        state = new_game(table)
        state["round"], state["starter"] = 2, starter
        state["playing"] = np.isin(np.arange(5), playing)
        dealt, _, _ = deal(table, state, jax.random.PRNGKey(0))
        assert int(dealt["mover"]) == int(dealt["starter"]) == expected
    first, _, _ = deal(table, new_game(table), jax.random.PRNGKey(0))
    assert int(first["mover"]) == 0  # the first round: seat 0
