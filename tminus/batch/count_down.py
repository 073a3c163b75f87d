"""Count Down, thousands of games at once: one row of integers a game, the rules compiled.

The rules are ``count_down_rules``: the reference engine's rules, function by function, over a
row of int32 (its fields there) and the board's tables (``tables`` below), compiled by
Numba. This class adds the batch contract: chance drawn inside from each row's own stream
(or its shared one after ``share_luck``) at the reference's odds, the history log, legal
masks, observation tensors, returns, loads of reference positions and row copies.

Why compiled rows and not whole-batch NumPy operations, as the other games' engines: under
random play half of Count Down's decisions at 4-6 players are meetings (offers of a menu of
hundreds, forced sales with ask and counter, missions), each a chain of rules whose path
differs game to game. Written per game and compiled, each rule reads as the reference's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from tminus.batch import count_down_rules as rules
except ImportError as error:  # (Numba comes with the extra "numba"; "dev" has it too)
    raise ValueError(
        f"Count Down's batch engine needs Numba ({error}): "
        'pip install -c constraints.txt -e ".[numba]"'
    ) from None

from tminus.batch.base import BatchEnv
from tminus.core.game import CHANCE, TERMINAL
from tminus.games.count_down import phases, setup
from tminus.games.count_down.actions import BUY, SELL
from tminus.games.count_down.data import SQUARE_KINDS, SURPRISE_KINDS
from tminus.games.count_down.game import CountDownGame, CountDownState


def tables(game: CountDownGame) -> tuple[np.ndarray, np.ndarray]:
    """The board, cards, prices and action numbering of ``game`` as the compiled rules read
    them: one int64 array (each entry at its offset in ``rules.TABLES``), and the ball's
    cumulative odds of the faces 1 to 12."""
    board, space = game.board, game.space
    photos, agents = len(board.photo_names), len(board.agent_names)
    for what, count, most in (
        ("photo cards", photos, rules.MAX_PHOTOS),
        ("agent card types", agents, rules.MAX_AGENTS),
        ("surprise cards", len(board.surprises), rules.MAX_SURPRISES),
        ("auction lots", board.auction_lots, rules.MAX_LOTS),
    ):
        if count > most:
            raise ValueError(f"the Count Down batch engine plays boards of at most {most} {what}")
    check_money_fits(game)
    ints = lambda values: np.asarray(values, dtype=np.int64)  # noqa: E731
    units = setup.units_for(game.num_players)
    unit_seats = np.zeros((4, 2), dtype=np.int64)
    for u, seats in enumerate(units):
        unit_seats[u, : len(seats)] = seats
    weights = np.asarray(game.ball_weights, dtype=np.float64)
    cumulative = np.cumsum(weights) / weights.sum()
    ids = space.offer_templates  # template indices by what they trade
    widest = max(len(row) for row in ids.sells)
    offer_prices = np.zeros((photos, widest), dtype=np.int64)
    sell_t = np.zeros((photos, widest), dtype=np.int64)
    buy_t = np.zeros((photos, widest), dtype=np.int64)
    for p in range(photos):
        k = len(ids.sells[p])
        offer_prices[p, :k], sell_t[p, :k], buy_t[p, :k] = (
            ids.sell_prices[p],
            ids.sells[p],
            ids.buys[p],
        )
        assert ids.buy_prices[p] == ids.sell_prices[p]
    templates = space.templates
    fields: dict[str, Any] = {
        "players": game.num_players,
        "units": len(units),
        "photos": photos,
        "agents": agents,
        "surprises": len(board.surprises),
        "track_len": board.track_len,
        "max_turns": game.max_turns,
        "arrest_max": game.arrest_max,
        "capital_per_pip": board.capital_per_pip,
        "saturn_price": board.saturn_price,
        "ransom": board.ransom,
        "turns_out": board.turns_out,
        "squat_fine": board.squat_fine,
        "countdown_target": board.countdown_target,
        "countdown_rolls": board.countdown_rolls,
        "latest_start": board.latest_start,
        "auction_threshold": board.auction_threshold,
        "auction_lots": board.auction_lots,
        "offers_per_meeting": board.offers_per_meeting,
        "step": board.step,
        "once_more_for_unneeded": game.once_more_for_unneeded,
        "initial_parts": sum(game.in_service),
        "last_face": int(np.flatnonzero(weights)[-1]),
        "phases": len(phases.NAMES),
        "menu": space.menu,
        "propose": space.propose,
        "offer_saturn": space.offer_saturn,
        "sell_saturn": space.sell_saturn,
        "money": space.money,
        "buy_photo": space.buy_photo,
        "buy_part": space.buy_part,
        "sell_photo": space.sell_photo,
        "sell_part": space.sell_part,
        "mission": space.mission,
        "take_photo": space.take_photo,
        "take_part": space.take_part,
        "in_service": ints(game.in_service),
        "initial_stock": ints(setup.initial_stock(board, list(game.in_service))[0]),
        "agent_copies": ints(board.agent_copies),
        "agent_green": np.asarray(board.agent_green, dtype=bool),
        "agent_kind": ints([rules.AGENT_KINDS.index(k) for k in board.agent_kinds]),
        "unit_size": ints([len(u) for u in units] + [0] * (4 - len(units))),
        "unit_seats": unit_seats,
        "ramp": ints(board.ramp),
        "zone_of": ints(board.forbidden_zone_of),
        "square_kind": ints([SQUARE_KINDS.index(k) for k in board.kinds]),
        "square_arg": ints(board.args),
        "photo_values": ints(board.photo_values),
        "part_prices": ints(board.part_prices),
        "needed_in_play": np.asarray(game.needed_in_play, dtype=bool),
        "astronaut": np.asarray(board.astronaut, dtype=bool),
        "control_bits": ints([sum(1 << p for p in set(c)) for c in board.control]),
        "surprise_kind": ints([SURPRISE_KINDS.index(c[1]) for c in board.surprises]),
        "surprise_amount": ints([c[2] for c in board.surprises]),
        "surprise_photo": ints([c[3] for c in board.surprises]),
        "surprise_part": ints([c[4] for c in board.surprises]),
        "surprise_square": ints([c[5] for c in board.surprises]),
        "price_count": ints([len(row) for row in ids.sells]),
        "offer_prices": offer_prices,
        "sell_t": sell_t,
        "buy_t": buy_t,
        "swap_t": ints(ids.swaps),
        "part_sell_t": ints(ids.part_sells),
        "part_buy_t": ints(ids.part_buys),
        "ask_t": ints(ids.asks),
        "demand_t": ints(ids.demands),
        "template_kind": ints([t[0] for t in templates]),
        "template_a": ints([t[1] for t in templates]),
        "template_b": ints([t[2] for t in templates]),
    }
    table = np.zeros(rules.TABLE, dtype=np.int64)
    for name, values in fields.items():
        offset, size, width = rules.TABLES[name]
        flat = np.asarray(values, dtype=np.int64)
        if width:  # (a table of rows: each row padded to the width the rules read)
            padded = np.zeros((size // width, width), dtype=np.int64)
            padded[: flat.shape[0], : flat.shape[1]] = flat
            flat = padded
        flat = flat.ravel()
        if len(flat) > size:
            raise ValueError(f"the Count Down batch engine has no room for this board's {name}")
        table[offset : offset + len(flat)] = flat
    return table, cumulative


def check_money_fits(game: CountDownGame) -> None:
    """The row keeps money in 32 bits. A turn moves at most a few of the board's amounts
    (a square's, a surprise card's from each centre, a sale, a ransom): refuse a board and
    turn limit whose money could pass 2**31 (the default board's limit is 223,000 turns)."""
    board, space = game.board, game.space
    amounts = [
        board.capital_per_pip * 12 * 2,  # (a team's two rolls for capital)
        board.saturn_price, board.ransom, board.squat_fine, *board.part_prices,
        *(c for kind, _, c in space.templates if kind in (SELL, BUY)),
        *(arg for kind, arg in zip(board.kinds, board.args, strict=True) if kind == "funding"),
        *(3 * abs(card[2]) for card in board.surprises),
    ]  # fmt: skip
    most = 4 * max(amounts) * (game.max_turns + 24)
    if most >= 2**31:
        raise ValueError(
            "the Count Down batch engine keeps money in 32 bits: with amounts up to "
            f"{max(amounts)} over {game.max_turns} turns it could pass 2**31; "
            "play fewer turns (max_turns) on the batch engine, or use the reference engine"
        )


class CountDownBatch(BatchEnv[CountDownGame]):
    name = "count_down"
    game_class = CountDownGame

    def _allocate(self) -> None:
        self.K, self.ball = tables(self.game)
        self.rows = aligned_rows(self.batch_size)
        self.rows[:, rules.PLAYER] = TERMINAL  # (a row not yet dealt or loaded: no game,
        self.rows[:, rules.WINNER] = -1  # no winner, nobody seated)
        self.rows[:, rules.CENTRE : rules.CENTRE + rules.SEATS] = -1
        self.player = np.full(self.batch_size, TERMINAL, dtype=np.int64)  # (rows' PLAYER)
        # Each row's own stream of chance (``uniform``): a key, and the numbers drawn so far.
        self._keys = self.rng.integers(1 << 63, size=self.batch_size, dtype=np.uint64)
        self._count = np.zeros(self.batch_size, dtype=np.uint64)
        self._no_log = np.zeros((self.batch_size, 0), dtype=np.int16)
        self._no_length = np.zeros(self.batch_size, dtype=np.int64)
        self._moves = np.zeros(self.num_distinct_actions, dtype=np.int64)  # (one game's)

    @classmethod
    def compiled(cls) -> bool:
        """Whether the engine and its greedy player are compiled and on disk (Numba's cache
        holds a build of each function called from Python): a process then loads them in a
        second or two, where compiling them takes half a minute of a core. (About 1 ms.)"""
        from tminus.batch.count_down_greedy import greedy_moves

        # (``resume_chance`` too is called from Python, but only when a history's log fills
        # in the middle of chance: compiled then, and not by ``main``.)
        called_from_python = [
            rules.start_games, rules.step_games, rules.legal_masks, rules.sample_actions,
            rules.observation_tensors, greedy_moves,
        ]  # fmt: skip
        return all(map(cached, called_from_python))

    def state_arrays(self) -> dict[str, np.ndarray]:
        return {"rows": self.rows, "player": self.player}

    # -- chance and the log, as the compiled rules take them ---------------------------------
    def _luck(self) -> tuple[np.ndarray, np.ndarray]:
        if self._stream_keys is not None:
            return self._stream_keys, self._drawn
        return self._keys, self._count

    def _log(self, room: int) -> tuple[np.ndarray, np.ndarray]:
        if self.log is None:
            return self._no_log, self._no_length
        self.log._room(int(self.log.length.max()) + room)
        return self.log.actions, self.log.length

    def _play_chance_left(self) -> None:
        """Rows whose log filled up during a chance sequence: more room, and on."""
        while (self.player == CHANCE).any():
            self.actions_applied += rules.resume_chance(
                self.rows, self.K, self.ball, *self._luck(), *self._log(256), self.player
            )

    def _start(self, games: np.ndarray) -> None:
        self.actions_applied += rules.start_games(
            self.rows,
            self.K,
            self.ball,
            games.astype(np.int64),
            *self._luck(),
            *self._log(64),
            self.player,
        )
        self._play_chance_left()

    def _apply(self, actions: np.ndarray, active: np.ndarray) -> None:
        self.actions_applied += rules.step_games(
            self.rows,
            self.K,
            self.ball,
            actions,
            active,
            *self._luck(),
            *self._log(64),
            self.player,
        )
        self._play_chance_left()

    def _load(self, games: np.ndarray, states: list) -> None:
        for g, state in zip(games.tolist(), states, strict=True):
            self.rows[g] = row_of(state, self.K)
            self.player[g] = state.current_player()

    # -- the batch API ---------------------------------------------------------------------
    def current_player(self) -> np.ndarray:
        return self.player

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros((self.batch_size, self.num_distinct_actions), dtype=bool)
        rules.legal_masks(self.rows, self.K, self.player, mask, self._moves)
        return mask

    def sample_legal(self, uniform: np.ndarray) -> np.ndarray:
        """A legal move drawn uniformly by ``uniform``, without the mask: the ``int(u * count)``
        -th in the engine's own order of listing, which in a meeting is not the order of the
        action numbers (so not always the base's pick there)."""
        actions = np.zeros(self.batch_size, dtype=np.int64)
        rules.sample_actions(
            self.rows,
            self.K,
            self.player,
            np.asarray(uniform, dtype=np.float64),
            actions,
            self._moves,
        )
        return actions

    def returns(self) -> np.ndarray:
        """1 for the winning centre's seats, the others share -1; 0 for all in a draw and
        for the watching fifth seat (``CountDownState.returns``)."""
        centre = self.rows[:, rules.CENTRE : rules.CENTRE + self.num_players]
        winner = self.rows[:, rules.WINNER][:, None]
        won = (winner >= 0) & (centre == winner)
        playing = centre >= 0
        winners = won.sum(axis=1, keepdims=True)
        losers = np.maximum(playing.sum(axis=1, keepdims=True) - winners, 1)
        loss = -winners / losers
        return np.where(won, 1.0, np.where(playing & (winner >= 0), loss, 0.0))

    def ended_by_turn_cap(self) -> np.ndarray:
        return (self.rows[:, rules.PHASE] == phases.OVER) & (self.rows[:, rules.WINNER] < 0)

    def observation_tensor(self, seat: int) -> np.ndarray:
        self.check_seat(seat)
        shape = self.game.observation_tensor_shape()
        out = np.zeros((self.batch_size, *shape), dtype=np.float32)
        rules.observation_tensors(self.rows, self.K, seat, out)
        return out


def aligned_rows(count: int) -> np.ndarray:
    """``count`` rows of zeros, each starting a cache line (64 bytes): a row's fields read
    together share as few lines as can be."""
    row_bytes = rules.ROW * 4
    memory = np.zeros(count * row_bytes + 64, dtype=np.uint8)
    start = -memory.ctypes.data % 64
    return memory[start : start + count * row_bytes].view(np.int32).reshape(count, rules.ROW)


def row_of(s: CountDownState, K: Any) -> np.ndarray:
    """A reference position as a row of the compiled rules."""
    r = rules
    row = np.zeros(r.ROW, dtype=np.int32)

    def put(offset: int, values: Any) -> None:
        values = list(values)
        row[offset : offset + len(values)] = values

    turn, seating, meeting, piles = s.turn, s.seating, s.meeting, s.piles
    put(r.PHASE, [s._phase, s._player, s._winner])
    put(r.NUMBER, [turn.number, turn.at, turn.mover, turn.roll, int(turn.again)])
    put(r.POS, turn.pos)
    put(r.SKIP, turn.skip)
    put(r.CENTRE, seating.centre)
    for c, seats in enumerate(seating.seats_of):
        put(r.SEATS_OF + 2 * c, seats)
        row[r.NSEATS + c] = len(seats)
    put(r.ORDER, seating.order)
    row[r.NORDER] = len(seating.order)
    put(r.IN_SERVICE, [int(x) for x in seating.in_service])
    for c, held in enumerate(s.holdings):
        row[r.MONEY + c] = held.money
        put(r.PHOTOS + c * r.MAX_PHOTOS, held.photos)
        row[r.PHOTO_BITS + c] = sum(1 << p for p, n in enumerate(held.photos) if n)
        put(r.HELD_PARTS + c * r.PARTS, held.parts)
        put(r.AGENTS + c * r.MAX_AGENTS, held.agents)
        row[r.SATURN_V + c] = held.saturn_v
    row[r.BANK_BALANCE] = s.leader.bank
    put(r.STOCK, s.leader.photos)
    put(r.PART_STOCK, s.leader.parts)
    put(r.PILE, piles.agents)
    row[r.DRAW_GREEN] = int(piles.draw_green)
    put(r.UNSEEN, piles.surprises_unseen)
    row[r.NUNSEEN] = len(piles.surprises_unseen)
    put(r.QUEUE, piles.surprise_queue)
    row[r.NQUEUE] = len(piles.surprise_queue)
    row[r.LAST_SURPRISE] = piles.last_surprise
    put(r.DEBTS, [x for debt in s.debts for x in debt])
    row[r.NDEBTS] = len(s.debts)
    put(r.PARTNERS, meeting.partners)
    row[r.NPARTNERS] = len(meeting.partners)
    put(r.SAY, [meeting.say, meeting.proposals_left, meeting.zone_owner, int(meeting.justified)])
    put(r.DEAL, meeting.deal)
    row[r.ASKED], row[r.COUNTERED] = meeting.ask, meeting.counter
    put(r.MISSION, meeting.mission)
    auction = s.auction
    row[r.AUCTION_DONE] = int(auction.done)
    put(r.LOTS, auction.lots)
    row[r.NLOTS] = len(auction.lots)
    put(r.BIDDERS, auction.bidders)
    row[r.NBIDDERS] = len(auction.bidders)
    row[r.BID_AT], row[r.PRICE], row[r.HIGH] = auction.at, auction.price, auction.high
    count = s.countdown
    row[r.WAITS], row[r.TOTAL], row[r.COUNTED] = count.waits, count.total, count.rolls
    rolls = s.roll_off
    for u, capital in enumerate(rolls.capital_rolls):
        put(r.CAPITAL + 2 * u, capital)
        row[r.NCAPITAL + u] = len(capital)
    at = 0
    for group in rolls.groups:
        put(r.UNITS + at, group)
        row[r.GROUP_START + at] = 1
        if group == rolls.contenders:
            row[r.CONTENDERS], row[r.CONTENDERS + 1] = at, at + len(group)
        at += len(group)
    put(r.TIES, rolls.tie_rolls)
    row[r.NTIES] = len(rolls.tie_rolls)
    row[r.FIRST_ROUND] = int(rolls.first_round)
    return row


def cached(function: Any) -> bool:
    """Whether Numba's cache holds a build of ``function`` (a dispatcher compiled with
    ``cache=True``) for its file as it is now and for this machine's processor: its index,
    read as Numba reads it (empty when missing or written for another version of the file;
    each build keyed by its processor). As Numba's own check, it does not see a change made
    only in a module the function calls. Numba's internals, not its public API (the version
    is pinned in constraints.txt): should they change, the engine counts as compiled, as it
    did before this was asked."""
    try:
        here = function.targetctx.codegen().magic_tuple()
        index = function._cache._cache_file._load_index()
        return any(key[1] == here for key in index)
    except Exception:
        return True


def main() -> None:
    """``python -m tminus.batch.count_down``: compile the engine and its greedy player (Numba
    keeps them on disk: every later process loads them in a second or two)."""
    from tminus.batch.count_down_greedy import CountDownBatchGreedy

    if not CountDownBatch.compiled():
        print("Compiling Count Down's batch engine and its greedy player (once: a minute or so)")
    env = CountDownBatch(2, seed=0, players=4, max_turns=20)
    env.legal_mask()
    env.observation_tensor(0)
    env.step(CountDownBatchGreedy(env).act())
    env.step(env.sample_legal(np.zeros(2)))
    print("Count Down's batch engine is compiled and ready")


if __name__ == "__main__":
    main()
