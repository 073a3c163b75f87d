"""4-Way CountDown on JAX: the rules as pure functions of one game, ``jax.vmap``-ed over
the batch and ``jax.jit``-compiled (so the same code runs on a GPU when there is one).

The tables (what a roll allows, by roll and keys) are the NumPy engine's, built from the
reference engine's rules. Chance comes from JAX's keys, split from the batch's seed.
The batch API (``BatchEnv``) is the same as the NumPy engine's; the history log is kept
on the host from the chance outcomes each step returns.
"""

from __future__ import annotations

from functools import cache, partial

import jax
import jax.numpy as jnp
import numpy as np

from tminus.batch.four_way import DICE_OF_36, ELEVEN, KEY_BITS, ROLLS, move_tables
from tminus.batch.jax_base import JaxBatch, Move, Observe, Query, Sample, StartGames
from tminus.core.game import TERMINAL
from tminus.games.four_way import game as ref
from tminus.games.four_way.actions import ATTACK, NUM_ACTIONS, PASS, RESET, SCORE_KEYS, SCORE_MASKS
from tminus.games.four_way.rules import ALL_KEYS_UP

ROLL_OFF, MOVE, OVER = ref.ROLL_OFF, ref.MOVE, ref.OVER
# Roll-off rounds recorded for the history; more would need a tie 64 times running
# (probability below 1e-30), and such a game's history is refused rather than wrong.
MAX_ROLL_OFF_ROUNDS = 64
# The keys a flip or SCORE KEYS action puts up (0 for the other actions).
FLIPPED = np.array(
    [1 << a if a < SCORE_KEYS else SCORE_MASKS[a - SCORE_KEYS] if a < ATTACK else 0
     for a in range(NUM_ACTIONS)],
    dtype=np.int32,
)  # fmt: skip


def roll_off(players: int, max_turns: int, key):
    """One game's roll-off: (faces, rolled) per round and seat, how many rounds, the first
    mover, the dice rolled (turns), and whether the turn cap ended the game."""

    def one_round(carry):
        r, contenders, done, mover, turns, capped, faces, rolled = carry
        face = jax.random.randint(jax.random.fold_in(key, r), (players,), 1, 7)
        rolling = contenders & ~done
        # The turn cap counts every die, in seat order: the game ends at the die reaching it.
        rolling = rolling & (turns + jnp.cumsum(rolling) <= max_turns)
        turns = turns + rolling.sum()
        capped = capped | (~done & (turns >= max_turns))
        shown = jnp.where(rolling, face, 0)
        tied = rolling & (shown == shown.max())
        single = ~done & (tied.sum() == 1)
        mover = jnp.where(single, jnp.argmax(tied), mover)
        kept = r < MAX_ROLL_OFF_ROUNDS
        row = jnp.minimum(r, MAX_ROLL_OFF_ROUNDS - 1)
        faces = jnp.where(kept, faces.at[row].set(face), faces)
        rolled = jnp.where(kept, rolled.at[row].set(rolling), rolled)
        return r + 1, tied, done | single | capped, mover, turns, capped, faces, rolled

    start = (
        0, jnp.ones(players, bool), False, 0, 0, False,
        jnp.zeros((MAX_ROLL_OFF_ROUNDS, players), jnp.int32),
        jnp.zeros((MAX_ROLL_OFF_ROUNDS, players), bool),
    )  # fmt: skip
    rounds, _, _, mover, turns, capped, faces, rolled = jax.lax.while_loop(
        lambda carry: ~carry[2], one_round, start
    )
    return faces - 1, rolled, rounds, mover, turns, capped


def start_game(players: int, max_turns: int, key):
    """A new game: keys down, the roll-off, the first roll (unless the cap came first);
    with its chance outcomes (the roll-off's dice, the first roll) for the history."""
    off, dice = jax.random.split(key)
    faces, rolled, rounds, mover, turns, capped = roll_off(players, max_turns, off)
    roll = jnp.asarray(DICE_OF_36)[jax.random.randint(dice, (), 0, 36)]
    state = {
        "keys": jnp.zeros(players, jnp.int32),
        "mover": mover.astype(jnp.int32),
        "roll": jnp.where(capped, -1, roll).astype(jnp.int32),
        "phase": jnp.where(capped, OVER, MOVE).astype(jnp.int32),
        "turns": (turns + ~capped).astype(jnp.int32),
        "winner": jnp.int32(-1),
        "rounds": rounds.astype(jnp.int32),
    }
    block = jnp.concatenate([faces.ravel(), roll[None]])
    valid = jnp.concatenate([rolled.ravel(), ~capped[None]])
    return state, block, valid


def move(players: int, max_turns: int, state, action, active, roll):
    """One move of the mover (when ``active``), then the next player's roll (``roll``, drawn
    for the whole batch at once)."""
    keys, mover = state["keys"], state["mover"]
    own = (keys[mover] | jnp.asarray(FLIPPED)[action]) * (action != RESET)
    keys = keys.at[mover].set(jnp.where(active, own, keys[mover]))
    # "make any opponent of his choice flip all of his keys back down"
    attack = active & (action >= ATTACK) & (action < PASS)
    target = jnp.clip(action - ATTACK, 0, players - 1)
    keys = keys.at[target].set(jnp.where(attack, 0, keys[target]))
    won = active & (keys[mover] == ALL_KEYS_UP)
    stop = won | (active & (state["turns"] >= max_turns))
    going_on = active & ~stop
    new = {
        "keys": keys,
        "mover": jnp.where(going_on, (mover + 1) % players, mover),
        "roll": jnp.where(going_on, roll, state["roll"]),
        "phase": jnp.where(stop, OVER, state["phase"]),
        "turns": state["turns"] + going_on,
        "winner": jnp.where(won, mover, state["winner"]),
        "rounds": state["rounds"],
    }
    return new, jnp.where(going_on, roll, -1)


def table_index(state):
    return jnp.maximum(state["roll"], 0) << KEY_BITS | state["keys"][state["mover"]]


def legal_bits(bits, attack_bits, state):
    found = bits[table_index(state)]
    found = jnp.where(state["roll"] == ELEVEN, found | attack_bits[state["mover"]], found)
    return jnp.where(state["phase"] == MOVE, found, 0)


def sample(counts, moves, players, state, uniform):
    index = table_index(state)
    flips = counts[index]
    count = flips + (state["roll"] == ELEVEN) * (players - 1)
    pick = (uniform * count).astype(jnp.int32)
    flip = moves[index * 4 + jnp.minimum(pick, 3)]
    j = pick - flips
    return jnp.where(pick < flips, flip, ATTACK + j + (j >= state["mover"]))


def observe(players: int, state, seat):
    n = players
    keys = jnp.roll(state["keys"], -seat)
    bits = (keys[:, None] >> jnp.arange(KEY_BITS)) & 1
    mover = jax.nn.one_hot((state["mover"] - seat) % n, n) * (state["phase"] == MOVE)
    dice = jax.nn.one_hot(state["roll"], ROLLS) * (state["roll"] >= 0)
    phase = jax.nn.one_hot(state["phase"], len(ref.PHASES))
    parts = [bits.ravel().astype(jnp.float32), mover, dice, phase]
    return jnp.concatenate([p.astype(jnp.float32) for p in parts])


@cache
def compiled(
    n: int, max_turns: int, junior: bool
) -> tuple[StartGames, Move, Query, Sample, Observe]:
    """The jitted functions for one set of parameters, shared by every batch that has
    them (a compilation takes seconds)."""
    bits, counts, moves = move_tables(junior)
    game = ref.FourWayGame(players=n)
    attack = [sum(1 << a for a in game.attacks_by_seat[s]) for s in range(n)]
    tables = jnp.asarray(bits, jnp.int32), jnp.asarray(attack, jnp.int32)
    rules = jax.vmap(partial(move, n, max_turns))
    dice = jnp.asarray(DICE_OF_36)

    def move_all(state, actions, active, key):
        rolls = dice[jax.random.randint(key, actions.shape, 0, 36)]  # one call for all
        return rules(state, actions, active, rolls)

    sample_tables = jnp.asarray(counts, jnp.int32), jnp.asarray(moves, jnp.int32)
    return (
        jax.jit(jax.vmap(partial(start_game, n, max_turns))),
        jax.jit(move_all),
        jax.jit(jax.vmap(partial(legal_bits, *tables))),
        jax.jit(jax.vmap(partial(sample, *sample_tables, n))),
        jax.jit(jax.vmap(partial(observe, n), in_axes=(0, None))),
    )


class FourWayJax(JaxBatch[ref.FourWayGame]):
    """``tminus.batch.make("four_way", size, backend="jax")``."""

    name = "four_way"
    game_class = ref.FourWayGame
    _legal_bits: Query  # (bit a of a game: action a is legal), in place of ``_legal_sets``

    def _allocate(self) -> None:
        functions = compiled(self.num_players, self.game.max_turns, self.game.junior)
        self._start_games, self._move, self._legal_bits, self._sample, self._observe = functions
        self._setup_jax()

    def history(self, game: int, start: int = 0) -> list[int]:
        if 0 <= game < self.batch_size and self._host("rounds")[game] > MAX_ROLL_OFF_ROUNDS:
            raise ValueError(f"game {game}'s roll-off was too long to record")
        return super().history(game, start)

    def current_player(self) -> np.ndarray:
        return np.where(self._host("phase") == MOVE, self._host("mover"), TERMINAL)

    def terminal(self) -> np.ndarray:
        return self._host("phase") == OVER

    def _legal_mask(self) -> np.ndarray:
        bits = np.asarray(self._legal_bits(self.state)).astype(np.int64)
        return (bits[:, None] >> np.arange(NUM_ACTIONS) & 1).astype(bool)

    def returns(self) -> np.ndarray:
        n = self.num_players
        winner = self._host("winner")
        won = winner >= 0
        out = np.zeros((self.batch_size, n))
        out[won] = -1.0 / (n - 1)
        out[np.flatnonzero(won), winner[won]] = 1.0
        return out

    def ended_by_turn_cap(self) -> np.ndarray:
        return self.terminal() & (self._host("winner") < 0)
