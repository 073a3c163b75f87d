"""The per-game report figures: Count Down readiness for the countdown, Sputnik's first
isolation. Their facts are read off each game's replayed history in the workers; here
they are recomputed independently from the same histories, by other means."""

import random
from dataclasses import replace

import numpy as np
import pytest

import tminus
from tminus.games.sputnik.rules import OUT
from tminus.sim.backends import run_batch
from tminus.sim.facts import game_facts
from tminus.sim.report import (
    build_report,
    count_down_readiness,
    sputnik_isolations,
    turn_bins,
)
from tminus.sim.runner import Batch, GameResult
from tminus.sim.simulate import simulate
from tminus.sim.tournament import tournament

COUNT_DOWN = [
    Batch("count_down", {"players": 2}, (("greedy", "random"),), seed=3, keep_history=True),
    Batch("count_down", {"players": 5}, (("greedy",) * 5,), seed=4, keep_history=True),
]
SPUTNIK = [
    Batch("sputnik", {"players": 4}, (("greedy", "random") * 2,), seed=5, keep_history=True),
    Batch("sputnik", {"players": 2, "rockets_per_player": 2}, (("random",) * 2,), 6, True),
]


def with_facts(batch: Batch, games: int, **how):
    return run_batch(replace(batch, facts=True), games, **how)


def replay(game, history):
    """Each state along the game (after each action) with the action that led to it."""
    state = game.new_initial_state()
    for action in history:
        before = state.clone()
        state.apply_action(action)
        yield before, action, state


# -- Count Down ----------------------------------------------------------------------------
def count_down_facts_recomputed(game, history):
    """Readiness seen as the offer of "count down" to the player to move, cross-checked
    against the rule: a complete rocket and every photo card of the control card."""
    ready = [None] * game.num_players
    attempts = [0] * game.num_players
    for before, action, _ in replay(game, history):
        seat = before.current_player()
        if seat < 0:
            continue
        offered = "count down" in [before.action_to_string(a) for a in before.legal_actions()]
        centre = before.centre_of(seat)
        photos = before.photo_counts(centre)
        holds_all = all(before.part_counts(centre)) and all(
            photos[p] for p in game.board.control[centre]
        )
        if offered:
            assert holds_all
            if ready[seat] is None:
                ready[seat] = before.public_observation()["turn"]
        attempts[seat] += before.action_to_string(action) == "count down"
    return ready, attempts


@pytest.mark.parametrize("batch", COUNT_DOWN, ids=lambda b: f"{b.params['players']}p")
def test_count_down_readiness_matches_a_recomputation(batch):
    game = tminus.load_game("count_down", **batch.params)
    results = with_facts(batch, 3, workers=1)
    for r in results:
        ready, attempts = count_down_facts_recomputed(game, r.history)
        assert r.facts["ready_turn"] == ready
        assert r.facts["attempts"] == attempts
        assert r.facts["playing"] == [game.num_players != 5 or s != 4 for s in range(len(ready))]
        # A game won at the countdown: the winner was ready and tried at least once.
        for seat in r.winners:
            assert ready[seat] is not None and attempts[seat] >= 1
        assert all(turn is None or turn <= r.facts["turns"] for turn in ready)


def test_the_readiness_figure_counts_every_playing_seat_once():
    batch = COUNT_DOWN[1]  # five players: seat 4 watches
    game = tminus.load_game("count_down", **batch.params)
    results = with_facts(batch, 3, workers=1)
    data = count_down_readiness(results)
    labels = [f"seat {s}\ngreedy" for s in range(5)]
    recomputed = [count_down_facts_recomputed(game, r.history)[0] for r in results]
    for seat, label in enumerate(labels[:4]):
        turns = [ready[seat] for ready in recomputed if ready[seat] is not None]
        assert data.players[label] == 3
        assert data.ready[label] == len(turns)
        assert data.turns[label] == turns
    assert data.players[labels[4]] == 0 and data.turns[labels[4]] == []


# -- Sputnik -------------------------------------------------------------------------------
def isolations_recomputed(game, history):
    """(rocket, seat, turn) for each rocket as it goes off the board, seen in the rockets'
    cells; rockets going in one action sorted by number."""
    out = []
    for before, _, after in replay(game, history):
        gone = [
            k
            for k, (a, b) in enumerate(zip(before.position()[2], after.position()[2], strict=True))
            if a != OUT and b == OUT
        ]
        out += [(k, game.rocket_owner[k], after.turn()) for k in gone]
    return out


@pytest.mark.parametrize("batch", SPUTNIK, ids=lambda b: str(b.params))
def test_sputnik_isolations_match_a_recomputation(batch):
    game = tminus.load_game("sputnik", **batch.params)
    for r in with_facts(batch, 6, workers=1):
        isolated = [tuple(entry) for entry in r.facts["isolated"]]
        expected = isolations_recomputed(game, r.history)
        assert sorted(isolated) == sorted(expected)
        if expected:
            first_turn = expected[0][2]
            assert isolated[0] in [e for e in expected if e[2] == first_turn]
        # The last rocket standing wins: the losers all went off the board.
        if r.winners and not r.turn_cap:
            losers = {seat for _, seat, _ in isolated} - set(r.winners)
            assert losers == set(range(game.num_players)) - set(r.winners)


# A game of three on the radius-2 board, turn by turn (seat 0 won the lot): seat 1 helps
# itself onto e1 and is walled in, then finds no move when its turn comes (turn 7).
SEAT_1_ISOLATED = [
    ["move c2", "remove d1"],
    ["move e2", "remove d3"],
    ["move b5", "remove c5"],
    ["move c3", "remove e1"],
    ["help e1"],
    ["help c5"],
    ["move d2", "remove e2"],
]


def test_a_hand_built_sputnik_game_where_seat_1_is_isolated_first():
    game = tminus.load_game("sputnik", players=3, radius=2)
    state = game.new_initial_state()
    state.apply_action(0)  # the lot: seat 0 starts
    for turn in SEAT_1_ISOLATED:
        for move in turn:
            state.apply_action(state.string_to_action(move))
    assert not state.is_terminal() and state.current_player() == 2
    facts = game_facts(game, state.history())
    assert facts == {"isolated": [[1, 1, len(SEAT_1_ISOLATED)]]}
    # The figure's data: seat 1 first, and the place of seat 1 in the turn order is 2.
    result = GameResult(
        seed=(0,),
        agents=("random",) * 3,
        returns=[0.0] * 3,
        winners=[],
        moves=len(state.history()) - 1,
        moves_by_seat=[5, 4, 4],
        first_mover=0,
        turn_cap=False,
        facts=facts,
    )
    data = sputnik_isolations([result])
    assert data.first == {"seat 0\nrandom": 0, "seat 1\nrandom": 1, "seat 2\nrandom": 0}
    assert data.by_place == {"1": 0, "2": 1, "3": 0}
    assert data.when["seat 1\nrandom"] == [7] and data.nobody == 0


def test_the_isolation_figure_groups_by_agent_in_a_tournament():
    game = tminus.load_game("sputnik", players=2)
    result = tournament(game, ["greedy", "random"], games=8, seed=2, facts=True)
    data = sputnik_isolations(result.results)
    firsts = [r.agents[r.facts["isolated"][0][1]] for r in result.results]
    assert data.first == {"greedy": firsts.count("greedy"), "random": firsts.count("random")}
    assert data.games == {"greedy": 8, "random": 8}
    # Two players: the rocket isolated first is the loser's.
    assert all(r.facts["isolated"][0][1] not in r.winners for r in result.results)


# -- the same facts on every backend, and the page ---------------------------------------
def fingerprint(results):
    return [(r.seed, r.facts) for r in results]


def test_facts_do_not_depend_on_the_backend():
    for batch in (COUNT_DOWN[0], SPUTNIK[0]):
        serial = with_facts(batch, 8, workers=1)
        pooled = with_facts(batch, 8, workers=2, chunk_size=3)
        assert fingerprint(serial) == fingerprint(pooled)
        assert all(r.facts is not None for r in serial)


def test_without_facts_nothing_is_replayed_and_facts_keep_no_history_unasked():
    plain = replace(SPUTNIK[1], keep_history=False)
    assert plain.play(0).facts is None and plain.play(0).history is None
    assert with_facts(plain, 1, workers=1)[0].history is None


@pytest.mark.parametrize(
    ("name", "params", "title"),
    [
        ("count_down", {"players": 2}, "When players become ready for the countdown"),
        ("sputnik", {"players": 3}, "Who gets isolated first"),
    ],
)
def test_the_page_has_the_games_own_figure(name, params, title):
    game = tminus.load_game(name, **params)
    agents = ["greedy", "random", "greedy"][: game.num_players]
    summary = simulate(game, agents, games=6, seed=1, facts=True)
    page = build_report(name, params, summary.results, "t", [])
    assert page.count("data:image/png;base64,") == 3 and title in page
    # Without the facts (a plain simulation) the figure is left out, not drawn wrong.
    plain = simulate(game, agents, games=6, seed=1)
    page = build_report(name, params, plain.results, "t", [])
    assert page.count("data:image/png;base64,") == 2 and title not in page


def test_turn_bins_hold_every_value_in_whole_turns():
    rng = random.Random(0)
    samples = [[96, 494], [5], [7, 7, 7], list(range(1000))]
    samples += [[rng.randrange(1, 600) for _ in range(rng.randrange(1, 300))] for _ in range(50)]
    for values in samples:
        bins = turn_bins(values)
        counts, _ = np.histogram(values, bins)
        assert counts.sum() == len(values)  # the greatest value too
        widths = set(np.diff(bins).tolist())
        assert len(widths) == 1 and widths.pop() >= 1 and 1 <= len(bins) - 1 <= 30
