"""Count Down's rules over a row of integers, compiled by Numba: the batch engine's core.

Each function is the reference rule of the same name (``tminus/games/count_down``), written
over one game's row ``s`` (int32, its fields at the offsets below) and the board's tables
``k`` (int64, ``count_down.tables``). A list of the reference (the seats met, the debts, the
lots) is a block of the row with a count beside it. The reference stays the specification:
``tminus.batch.differential`` replays every batch game there, move by move.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from tminus.batch.base import GOLDEN64
from tminus.core.game import CHANCE, TERMINAL
from tminus.games.count_down.actions import (
    ACCEPT,
    ASK_FOR,
    BACKWARD,
    BUY,
    BUY_PART_FROM,
    BUY_SATURN,
    BUY_SATURN_FROM,
    COUNT_DOWN,
    DECLINE,
    DEMAND,
    DONE,
    END_TURN,
    FORWARD,
    ONCE_MORE,
    PASS,
    PAY_FINE,
    PAY_RANSOM,
    REFUSE,
    ROLL,
    SELL,
    SELL_PART,
    SELL_SATURN,
    SIT_OUT,
    SQUATS,
    START_COUNT,
    SWAP,
    WAIT,
)
from tminus.games.count_down.data import SQUARE_KINDS, SURPRISE_KINDS
from tminus.games.count_down.phases import (
    AGENT_DRAW,
    ARREST_ROLL,
    ARRESTED,
    ASK,
    BID,
    COUNT_CHOICE,
    COUNT_ROLL,
    COUNTER,
    COUNTER_REPLY,
    DEBT,
    DIRECTION,
    MEETING,
    OVER,
    PLAY_AGAIN,
    REPLY,
    ROLL_OFF,
    SATURN,
    SURPRISE_DRAW,
    TARGET,
    TRAINING,
    TURN_START,
)
from tminus.games.count_down.phases import BUY_PHOTO as BUYING_PHOTO
from tminus.games.count_down.phases import ROLL as ROLLING

# The most a row has room for (a board with more is refused by ``count_down.tables``).
SEATS, CENTRES, PARTS = 6, 4, 4
MAX_PHOTOS, MAX_AGENTS, MAX_SURPRISES, MAX_LOTS, MAX_DEBTS = 16, 4, 16, 8, 16
BANK = -1

# Square, surprise and agent card kinds: their index in the board data's own lists.
square, card = SQUARE_KINDS.index, SURPRISE_KINDS.index
FORBIDDEN, PHOTO_SQ, PART_SQ = square("forbidden"), square("photo"), square("part")
SATURN_SQ, SURPRISE_SQ, FUNDING_SQ = square("saturn"), square("surprise"), square("funding")
ESPIONAGE_SQ, SABOTAGE_SQ, TRAINING_SQ = square("espionage"), square("sabotage"), square("training")
MONEY_CARD, COLLECT_EACH, PAY_EACH = card("money"), card("collect_each"), card("pay_each")
PHOTO_CARD, PART_CARD, MOVE_TO = card("photo"), card("part"), card("move_to")
GO_HOME, PLAY_AGAIN_CARD, LOSE_TURN = card("go_home"), card("play_again"), card("lose_turn")
del square, card
AGENT_KINDS = ("photo", "part", "turn")  # what a mission hits (``AgentSpec.kind``)
AGENT_PHOTO, AGENT_PART, AGENT_TURN = range(len(AGENT_KINDS))

_offsets: dict[str, tuple[int, int]] = {}


def _field(name: str, size: int = 1) -> int:
    start = sum(n for _, n in _offsets.values())
    _offsets[name] = (start, size)
    return start


# -- the row, its fields most read first (what a move reads and writes in few cache lines) --
# The node and the turn; the counts of the lists below; the meeting (``trading.Meeting``),
# the auction (``auction.Auction``) and the COUNTDOWN (``countdown.Countdown``).
PHASE, PLAYER, WINNER = _field("phase"), _field("player"), _field("winner")
NUMBER, AT, MOVER, ROLLED, AGAIN = (_field(f) for f in ("number", "at", "mover", "roll", "again"))
NORDER, NDEBTS, NUNSEEN, NQUEUE = (_field(f) for f in ("norder", "ndebts", "nunseen", "nqueue"))
DRAW_GREEN, LAST_SURPRISE = _field("draw_green"), _field("last_surprise")
NPARTNERS = _field("npartners")
SAY, LEFT, ZONE, JUSTIFIED = (_field(f) for f in ("say", "left", "zone", "justified"))
DEAL, ASKED, COUNTERED = _field("deal", 3), _field("ask"), _field("counter")
MISSION = _field("mission", 2)
AUCTION_DONE, NLOTS, NBIDDERS = _field("auction_done"), _field("nlots"), _field("nbidders")
BID_AT, PRICE, HIGH = _field("bid_at"), _field("price"), _field("high")
WAITS, TOTAL, COUNTED = _field("waits"), _field("total"), _field("counted")
BANK_BALANCE = _field("bank")
# The seats: where each stands, turns to skip, its centre; the turn order; who is met.
POS, SKIP = _field("pos", SEATS), _field("skip", SEATS)
CENTRE = _field("centre", SEATS)
ORDER = _field("order", SEATS)
SEATS_OF, NSEATS = _field("seats_of", CENTRES * 2), _field("nseats", CENTRES)
IN_SERVICE = _field("in_service", CENTRES)
PARTNERS = _field("partners", CENTRES)
MET = _field("met", CENTRES)  # (scratch: the seat met for each centre, while a meeting opens)
OFFERS_TO = _field("offers_to", SEATS)  # (scratch: each target's offers, ``meeting_move_count``)
# What each centre and the leader hold (``ledger``), and the agent cards' pile.
MONEY, SATURN_V = _field("money", CENTRES), _field("saturn_v", CENTRES)
PHOTO_BITS = _field("photo_bits", CENTRES)  # the cards each centre holds, as bits (bit p: p)
PHOTOS = _field("photos", CENTRES * MAX_PHOTOS)
HELD_PARTS = _field("parts", CENTRES * PARTS)
STOCK = _field("stock", MAX_PHOTOS)
PART_STOCK = _field("part_stock", PARTS)
AGENTS = _field("agents", CENTRES * MAX_AGENTS)
PILE = _field("pile", MAX_AGENTS)
# Lists read now and then: the surprise pile (``squares.Piles``), debts (``payments``), the
# auction's lots and bidders, the roll-off (``setup.RollOff``).
UNSEEN, QUEUE = _field("unseen", MAX_SURPRISES), _field("queue", MAX_SURPRISES)  # (ascending)
DEBTS = _field("debts", MAX_DEBTS * 3)
LOTS, BIDDERS = _field("lots", MAX_LOTS), _field("bidders", CENTRES)
CAPITAL, NCAPITAL = _field("capital_rolls", CENTRES * 2), _field("ncapital", CENTRES)
UNITS, GROUP_START = _field("units", CENTRES), _field("group_start", CENTRES)  # ordered groups
CONTENDERS, TIES, NTIES = _field("contenders", 2), _field("tie_rolls", CENTRES), _field("nties")
FIRST_ROUND = _field("first_round")
ROW = -(-sum(n for _, n in _offsets.values()) // 16) * 16  # (whole cache lines: 64 bytes)
ALL = 1 << 30  # (``meeting_move_count``: count them all)
AHEAD = 4  # rows prefetched ahead of the one played (``fetch_ahead``)


# -- the board's tables (``count_down.tables``): one int64 array ``k``, at these offsets ------
MAX_TRACK, MAX_PRICES = 400, 6
MAX_TEMPLATES = 2 * MAX_PRICES * MAX_PHOTOS + MAX_PHOTOS * MAX_PHOTOS + MAX_PHOTOS + 14
_tables: dict[str, tuple[int, int, int]] = {}


def _table(name: str, size: int = 1, width: int = 0) -> int:
    """A table of ``size`` entries (rows of ``width`` each, for a table of rows)."""
    start = sum(n for _, n, _ in _tables.values())
    _tables[name] = (start, size, width)
    return start


T_PLAYERS = _table("players")
T_UNITS = _table("units")
T_PHOTOS = _table("photos")
T_AGENTS = _table("agents")
T_SURPRISES = _table("surprises")
T_TRACK_LEN = _table("track_len")
T_MAX_TURNS = _table("max_turns")
T_ARREST_MAX = _table("arrest_max")
T_CAPITAL_PER_PIP = _table("capital_per_pip")
T_SATURN_PRICE = _table("saturn_price")
T_RANSOM = _table("ransom")
T_TURNS_OUT = _table("turns_out")
T_SQUAT_FINE = _table("squat_fine")
T_COUNTDOWN_TARGET = _table("countdown_target")
T_COUNTDOWN_ROLLS = _table("countdown_rolls")
T_LATEST_START = _table("latest_start")
T_AUCTION_THRESHOLD = _table("auction_threshold")
T_AUCTION_LOTS = _table("auction_lots")
T_OFFERS_PER_MEETING = _table("offers_per_meeting")
T_STEP = _table("step")
T_ONCE_MORE_FOR_UNNEEDED = _table("once_more_for_unneeded")
T_INITIAL_PARTS = _table("initial_parts")
T_LAST_FACE = _table("last_face")
T_PHASES = _table("phases")
T_MENU = _table("menu")
T_PROPOSE = _table("propose")
T_OFFER_SATURN = _table("offer_saturn")
T_SELL_SATURN = _table("sell_saturn")
T_MONEY = _table("money")
T_BUY_PHOTO = _table("buy_photo")
T_BUY_PART = _table("buy_part")
T_SELL_PHOTO = _table("sell_photo")
T_SELL_PART = _table("sell_part")
T_MISSION = _table("mission")
T_TAKE_PHOTO = _table("take_photo")
T_TAKE_PART = _table("take_part")
T_IN_SERVICE = _table("in_service", CENTRES)
T_INITIAL_STOCK = _table("initial_stock", MAX_PHOTOS)
T_AGENT_COPIES = _table("agent_copies", MAX_AGENTS)
T_AGENT_GREEN = _table("agent_green", MAX_AGENTS)
T_AGENT_KIND = _table("agent_kind", MAX_AGENTS)
T_UNIT_SIZE = _table("unit_size", CENTRES)
T_UNIT_SEATS = _table("unit_seats", CENTRES * 2, 2)
T_RAMP = _table("ramp", CENTRES)
T_ZONE_OF = _table("zone_of", MAX_TRACK)
T_SQUARE_KIND = _table("square_kind", MAX_TRACK)
T_SQUARE_ARG = _table("square_arg", MAX_TRACK)
T_PHOTO_VALUES = _table("photo_values", MAX_PHOTOS)
T_PART_PRICES = _table("part_prices", PARTS)
T_NEEDED_IN_PLAY = _table("needed_in_play", MAX_PHOTOS)
T_ASTRONAUT = _table("astronaut", MAX_PHOTOS)
T_CONTROL_BITS = _table("control_bits", CENTRES)  # each control card's photo cards, as bits
T_SURPRISE_KIND = _table("surprise_kind", MAX_SURPRISES)
T_SURPRISE_AMOUNT = _table("surprise_amount", MAX_SURPRISES)
T_SURPRISE_PHOTO = _table("surprise_photo", MAX_SURPRISES)
T_SURPRISE_PART = _table("surprise_part", MAX_SURPRISES)
T_SURPRISE_SQUARE = _table("surprise_square", MAX_SURPRISES)
T_PRICE_COUNT = _table("price_count", MAX_PHOTOS)
T_OFFER_PRICES = _table("offer_prices", MAX_PHOTOS * MAX_PRICES, MAX_PRICES)
T_SELL_T = _table("sell_t", MAX_PHOTOS * MAX_PRICES, MAX_PRICES)
T_BUY_T = _table("buy_t", MAX_PHOTOS * MAX_PRICES, MAX_PRICES)
T_SWAP_T = _table("swap_t", MAX_PHOTOS * MAX_PHOTOS, MAX_PHOTOS)
T_PART_SELL_T = _table("part_sell_t", PARTS)
T_PART_BUY_T = _table("part_buy_t", PARTS)
T_ASK_T = _table("ask_t", MAX_PHOTOS)
T_DEMAND_T = _table("demand_t", PARTS)
T_TEMPLATE_KIND = _table("template_kind", MAX_TEMPLATES)
T_TEMPLATE_A = _table("template_a", MAX_TEMPLATES)
T_TEMPLATE_B = _table("template_b", MAX_TEMPLATES)
TABLE = sum(n for _, n, _ in _tables.values())
TABLES = dict(_tables)  # name -> (offset, size, width of a row or 0)

# Every rule is compiled without Numba's reference counts (``_nrt=False``): the rules allocate
# nothing, and counting the references of the row and the tables at each call of a rule took
# more than half of the time (measured with perf). Without the GIL (``nogil``): a review plays
# its playouts on two batches in two threads (``review.batch_playouts``).
rule = njit(cache=True, _nrt=False, nogil=True)  # type: ignore[call-overload]  # (_nrt: Numba's own)

GOLDEN = GOLDEN64  # (``base.mix64``'s constants: a row's stream is the base's)
MIX1, MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
S30, S27, S31, S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
ONE = np.uint64(1)


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the processor to bring ``array[index]``'s cache line in (LLVM's prefetch, for a
    read, kept in every cache level): rows ahead are fetched while this one is played."""
    signature = types.void(array, types.intp)

    def codegen(context, builder, sig, args):
        array_type = sig.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        item = cgutils.get_item_pointer(context, builder, array_type, data, [args[1]])
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [byte_pointer, int32, int32, int32])
        function = cgutils.get_or_insert_function(builder.module, function_type, "llvm.prefetch.p0")
        builder.call(
            function,
            [builder.bitcast(item, byte_pointer), int32(0), int32(3), int32(1)],
        )
        return context.get_dummy_value()

    return signature, codegen


def _bit_count_intrinsic(name: str, *flags: int):  # (LLVM's ctpop and cttz on an int64)
    @intrinsic
    def bit_function(typingctx, bits):
        signature = types.int64(types.int64)

        def codegen(context, builder, sig, args):
            int64 = ir.IntType(64)
            extra = [ir.IntType(1)(flag) for flag in flags]
            function_type = ir.FunctionType(int64, [int64] + [ir.IntType(1)] * len(flags))
            function = cgutils.get_or_insert_function(builder.module, function_type, name)
            return builder.call(function, [args[0], *extra])

        return signature, codegen

    return bit_function


count_bits = _bit_count_intrinsic("llvm.ctpop.i64")  # how many bits are set
lowest_bit = _bit_count_intrinsic("llvm.cttz.i64", 1)  # the index of the lowest set bit


@rule
def fetch_ahead(S, g, end):
    """Prefetch the row ``AHEAD`` rows after ``g``, its cache lines up to field ``end`` (a
    move reads the fields at the front of the row; the lists at its end now and then)."""
    if g + AHEAD < S.shape[0]:
        row = S[g + AHEAD]
        for i in range(0, end, 16):
            prefetch(row, i)


# -- small helpers -------------------------------------------------------------------------
@rule
def part_at(centre, part):
    return HELD_PARTS + centre * PARTS + part


@rule
def agent_at(centre, card):
    return AGENTS + centre * MAX_AGENTS + card


@rule
def transfer(s, payer, payee, amount):
    if payer == BANK:
        s[BANK_BALANCE] -= amount
    else:
        s[MONEY + payer] -= amount
    if payee == BANK:
        s[BANK_BALANCE] += amount
    else:
        s[MONEY + payee] += amount


@rule
def add_photo(s, centre, p, copies):
    """``copies`` (+1 or -1) of photo card ``p`` to a centre (its bits kept in step)."""
    s[PHOTOS + centre * MAX_PHOTOS + p] += copies
    if s[PHOTOS + centre * MAX_PHOTOS + p]:
        s[PHOTO_BITS + centre] |= 1 << p
    else:
        s[PHOTO_BITS + centre] &= ~(1 << p)


@rule
def lose_part(s, centre, part):
    s[part_at(centre, part)] -= 1
    if s[part_at(centre, part)] < s[SATURN_V + centre]:
        s[SATURN_V + centre] -= 1


@rule
def move_saturn_v(s, giver, taker):
    for part in range(PARTS):
        s[part_at(giver, part)] -= 1
        s[part_at(taker, part)] += 1
    s[SATURN_V + giver] -= 1
    s[SATURN_V + taker] += 1


@rule
def mover_centre(s):
    return s[CENTRE + s[MOVER]]


@rule
def speaker(s, centre):
    mover = s[MOVER]
    if mover >= 0 and s[CENTRE + mover] == centre:
        return mover
    return s[SEATS_OF + 2 * centre]


@rule
def set_node(s, phase, player):
    s[PHASE] = phase
    s[PLAYER] = player


@rule
def end_in_draw(s):
    set_node(s, OVER, TERMINAL)


@rule
def end_in_win(s, centre):
    s[WINNER] = centre
    set_node(s, OVER, TERMINAL)


# -- setting up (``setup``) ----------------------------------------------------------------
@rule
def new_game(s, k):
    s[:] = 0
    s[PLAYER] = CHANCE
    s[WINNER] = -1
    s[MOVER] = -1
    s[AT] = -1
    s[LAST_SURPRISE] = -1
    s[HIGH] = -1
    s[DRAW_GREEN] = 1
    s[ZONE] = -1
    s[SAY] = -1
    s[DEAL], s[DEAL + 1], s[DEAL + 2] = -1, -1, -1
    s[MISSION], s[MISSION + 1] = -1, -1
    for seat in range(SEATS):
        s[CENTRE + seat] = -1
        s[POS + seat] = -1
    for c in range(CENTRES):
        s[IN_SERVICE + c] = k[T_IN_SERVICE + c]
        for p in range(k[T_PHOTOS]):
            s[STOCK + p] = k[T_INITIAL_STOCK + p]
    for part in range(PARTS):
        s[PART_STOCK + part] = k[T_INITIAL_PARTS]
    for t in range(k[T_AGENTS]):
        s[PILE + t] = k[T_AGENT_COPIES + t]
    for card in range(k[T_SURPRISES]):
        s[UNSEEN + card] = card
    s[NUNSEEN] = k[T_SURPRISES]
    start_roll_off(s, k)


@rule
def start_roll_off(s, k):
    for u in range(k[T_UNITS]):
        s[UNITS + u] = u
        s[GROUP_START + u] = 1 if u == 0 else 0
    s[CONTENDERS], s[CONTENDERS + 1] = 0, k[T_UNITS]
    s[FIRST_ROUND] = 1
    s[NTIES] = 0
    s[PHASE] = ROLL_OFF


@rule
def roll_off(s, k, face):
    unit = s[UNITS + s[CONTENDERS] + s[NTIES]]
    s[TIES + s[NTIES]] = face
    s[NTIES] += 1
    if s[FIRST_ROUND]:
        s[CAPITAL + 2 * unit + s[NCAPITAL + unit]] = face
        s[NCAPITAL + unit] += 1
        if s[NCAPITAL + unit] < k[T_UNIT_SIZE + unit]:
            s[NTIES] -= 1  # the unit's key is complete only with its last seat
            return
        s[TIES + s[NTIES] - 1] = s[CAPITAL + 2 * unit] + (
            s[CAPITAL + 2 * unit + 1] if k[T_UNIT_SIZE + unit] == 2 else 0
        )
    if s[NTIES] < s[CONTENDERS + 1] - s[CONTENDERS]:
        return
    split_tied_group(s, k)


@rule
def split_tied_group(s, k):
    low, high = s[CONTENDERS], s[CONTENDERS + 1]
    # A stable sort of the group by its keys, highest first (insertion sort: 4 at most).
    for i in range(low + 1, high):
        unit, key = s[UNITS + i], s[TIES + i - low]
        j = i - 1
        while j >= low and s[TIES + j - low] < key:
            s[UNITS + j + 1] = s[UNITS + j]
            s[TIES + j + 1 - low] = s[TIES + j - low]
            j -= 1
        s[UNITS + j + 1] = unit
        s[TIES + j + 1 - low] = key
    for i in range(low + 1, high):
        s[GROUP_START + i] = 1 if s[TIES + i - low] != s[TIES + i - 1 - low] else 0
    s[FIRST_ROUND] = 0
    s[NTIES] = 0
    s[NUMBER] += 1  # a round of the roll-off counts towards the turn cap
    start = 0
    for i in range(1, k[T_UNITS] + 1):
        if i == k[T_UNITS] or s[GROUP_START + i]:
            if i - start > 1:  # the first tied group rolls again
                s[CONTENDERS], s[CONTENDERS + 1] = start, i
                if s[NUMBER] >= k[T_MAX_TURNS]:
                    end_in_draw(s)
                return
            start = i
    assign_centres(s, k)


@rule
def assign_centres(s, k):
    for centre in range(k[T_UNITS]):
        unit = s[UNITS + centre]
        size = k[T_UNIT_SIZE + unit]
        for i in range(size):
            seat = k[T_UNIT_SEATS + unit * 2 + i]
            s[CENTRE + seat] = centre
            s[POS + seat] = k[T_RAMP + centre]
            s[SEATS_OF + 2 * centre + i] = seat
        s[NSEATS + centre] = size
        capital = s[CAPITAL + 2 * unit] + (s[CAPITAL + 2 * unit + 1] if size == 2 else 0)
        transfer(s, BANK, centre, capital * k[T_CAPITAL_PER_PIP])
    n = 0
    for c in range(CENTRES):
        if s[NSEATS + c]:
            s[ORDER + n] = s[SEATS_OF + 2 * c]
            n += 1
    for c in range(CENTRES):
        if s[NSEATS + c] > 1:
            s[ORDER + n] = s[SEATS_OF + 2 * c + 1]
            n += 1
    s[NORDER] = n
    s[AT] = -1
    s[CONTENDERS], s[CONTENDERS + 1] = 0, 0
    start_next_turn(s, k)


# -- the turn (``turns``) ------------------------------------------------------------------
@rule
def ready_for_countdown(s, k, centre):
    for part in range(PARTS):
        if not s[part_at(centre, part)]:
            return False
    control = k[T_CONTROL_BITS + centre]
    return s[PHOTO_BITS + centre] & control == control


@rule
def start_next_turn(s, k):
    while True:
        if s[NUMBER] >= k[T_MAX_TURNS]:
            end_in_draw(s)
            return
        s[NUMBER] += 1
        s[AT] = (s[AT] + 1) % s[NORDER]
        seat = s[ORDER + s[AT]]
        if s[SKIP + seat] > 0:
            s[SKIP + seat] -= 1
            continue
        break
    s[MOVER] = seat
    s[AGAIN] = 0
    if ready_for_countdown(s, k, s[CENTRE + seat]):
        set_node(s, TURN_START, seat)
    else:
        set_node(s, ROLLING, CHANCE)


@rule
def end_move(s, k):
    if s[AGAIN] and s[NUMBER] < k[T_MAX_TURNS]:
        set_node(s, PLAY_AGAIN, s[MOVER])
    else:
        end_turn(s, k)


@rule
def play_once_more(s, k, again):
    s[AGAIN] = 0
    if again:
        s[NUMBER] += 1
        set_node(s, ROLLING, CHANCE)
    else:
        end_turn(s, k)


@rule
def end_turn(s, k):
    s[AGAIN] = 0
    s[ZONE] = -1
    s[NPARTNERS] = 0
    if should_start_auction(s, k):
        start_auction(s, k)
    else:
        start_next_turn(s, k)


# -- moving and the squares (``movement``, ``squares``) -------------------------------------
@rule
def ball_roll(s, k, face):
    s[ROLLED] = face
    if face >= 10:
        set_node(s, DIRECTION, s[MOVER])
    else:
        move(s, k, face)


@rule
def move(s, k, steps):
    seat = s[MOVER]
    s[POS + seat] = (s[POS + seat] + steps + k[T_TRACK_LEN]) % k[T_TRACK_LEN]
    land(s, k)


@rule
def land(s, k):
    """Do what the square says (a surprise card may send the mover to another square: the
    loop lands there; the rules call nothing that calls them back, so Numba caches them)."""
    square = s[POS + s[MOVER]]
    kind, arg = k[T_SQUARE_KIND + square], k[T_SQUARE_ARG + square]
    while kind == SURPRISE_SQ and surprise_square(s, k):
        square = s[POS + s[MOVER]]
        kind, arg = k[T_SQUARE_KIND + square], k[T_SQUARE_ARG + square]
    if kind == SURPRISE_SQ:
        return
    if kind == PHOTO_SQ:
        photo_square(s, k, arg)
    elif kind == PART_SQ:
        rocket_part_square(s, k, arg)
    elif kind == SATURN_SQ:
        saturn_v_square(s, k)
    elif kind == FUNDING_SQ:
        transfer(s, BANK, mover_centre(s), arg)
        after_square(s, k)
    elif kind == ESPIONAGE_SQ or kind == SABOTAGE_SQ:
        agent_square(s, k, kind == ESPIONAGE_SQ)
    elif kind == TRAINING_SQ:
        set_node(s, TRAINING, s[MOVER])
    else:
        after_square(s, k)


@rule
def after_square(s, k):
    if s[NDEBTS]:
        settle_debts(s, k)
    else:
        open_meeting(s, k)


@rule
def exhausted(s, k):
    s[AGAIN] = 1
    after_square(s, k)


@rule
def photo_square(s, k, p):
    if not s[STOCK + p]:
        exhausted(s, k)
    elif s[MONEY + mover_centre(s)] >= k[T_PHOTO_VALUES + p]:
        set_node(s, BUYING_PHOTO, s[MOVER])
    else:
        after_square(s, k)


@rule
def buy_photo(s, k, p):
    centre = mover_centre(s)
    transfer(s, centre, BANK, k[T_PHOTO_VALUES + p])
    receive_photo(s, k, centre, p)
    after_square(s, k)


@rule
def receive_photo(s, k, centre, p):
    s[STOCK + p] -= 1
    add_photo(s, centre, p, 1)
    if k[T_ONCE_MORE_FOR_UNNEEDED] and not k[T_NEEDED_IN_PLAY + p]:
        s[AGAIN] = 1


@rule
def rocket_part_square(s, k, part):
    if not s[PART_STOCK + part]:
        exhausted(s, k)
        return
    s[PART_STOCK + part] -= 1
    s[part_at(mover_centre(s), part)] += 1
    after_square(s, k)


@rule
def saturn_v_square(s, k):
    stock = 0
    for part in range(PARTS):
        stock += s[PART_STOCK + part]
    if not stock:
        exhausted(s, k)
    elif saturn_v_purchases(s, k) != 0:
        set_node(s, SATURN, s[MOVER])
    else:
        after_square(s, k)


@rule
def complete_rocket_in_stock(s):
    for part in range(PARTS):
        if not s[PART_STOCK + part]:
            return False
    return True


@rule
def saturn_v_purchases(s, k):
    """As the reference's list, a bit set: bit 4 the complete rocket, bit p part p."""
    money = s[MONEY + mover_centre(s)]
    if complete_rocket_in_stock(s):
        return 16 if money >= k[T_SATURN_PRICE] else 0
    bits = 0
    for part in range(PARTS):
        if s[PART_STOCK + part] and money >= k[T_PART_PRICES + part]:
            bits |= 1 << part
    return bits


@rule
def buy_saturn(s, k, part):
    centre = mover_centre(s)
    if part < 0:
        price = k[T_SATURN_PRICE]
        for p in range(PARTS):
            s[PART_STOCK + p] -= 1
            s[part_at(centre, p)] += 1
        s[SATURN_V + centre] += 1
    else:
        price = k[T_PART_PRICES + part]
        s[PART_STOCK + part] -= 1
        s[part_at(centre, part)] += 1
    transfer(s, centre, BANK, price)
    if part < 0 or saturn_v_purchases(s, k) == 0:
        after_square(s, k)


@rule
def add_debt(s, debtor, creditor, amount):
    at = DEBTS + 3 * s[NDEBTS]
    s[at], s[at + 1], s[at + 2] = debtor, creditor, amount
    s[NDEBTS] += 1


@rule
def astronaut_training(s, k, squats):
    if not squats:
        add_debt(s, mover_centre(s), BANK, k[T_SQUAT_FINE])
    after_square(s, k)


@rule
def surprise_square(s, k):
    """The top card, drawn (a chance node while unseen cards are left) and followed; True
    when it sends the mover to another square to land on."""
    if s[NUNSEEN]:
        set_node(s, SURPRISE_DRAW, CHANCE)
        return False
    card = s[QUEUE]
    for i in range(1, s[NQUEUE]):
        s[QUEUE + i - 1] = s[QUEUE + i]
    s[NQUEUE] -= 1
    return follow_surprise(s, k, card)


@rule
def follow_surprise(s, k, card):
    n = s[NUNSEEN]
    for i in range(n):
        if s[UNSEEN + i] == card:
            for j in range(i + 1, n):
                s[UNSEEN + j - 1] = s[UNSEEN + j]
            s[NUNSEEN] = n - 1
            break
    s[QUEUE + s[NQUEUE]] = card
    s[NQUEUE] += 1
    s[LAST_SURPRISE] = card
    kind, amount = k[T_SURPRISE_KIND + card], k[T_SURPRISE_AMOUNT + card]
    centre = mover_centre(s)
    if kind == MONEY_CARD:
        if amount >= 0:
            transfer(s, BANK, centre, amount)
        else:
            add_debt(s, centre, BANK, -amount)
    elif kind == COLLECT_EACH or kind == PAY_EACH:
        for c in range(CENTRES):
            if s[NSEATS + c] and c != centre:
                if kind == COLLECT_EACH:
                    add_debt(s, c, centre, amount)
                else:
                    add_debt(s, centre, c, amount)
    elif kind == PHOTO_CARD:
        p = k[T_SURPRISE_PHOTO + card]
        if s[STOCK + p]:
            receive_photo(s, k, centre, p)
    elif kind == PART_CARD:
        part = k[T_SURPRISE_PART + card]
        if s[PART_STOCK + part]:
            s[PART_STOCK + part] -= 1
            s[part_at(centre, part)] += 1
    elif kind == MOVE_TO:
        s[POS + s[MOVER]] = k[T_SURPRISE_SQUARE + card]
        return True  # (landing there is the caller's: ``land``)
    elif kind == GO_HOME:
        s[POS + s[MOVER]] = k[T_RAMP + centre]
    elif kind == PLAY_AGAIN_CARD:
        s[AGAIN] = 1
    elif kind == LOSE_TURN:
        for i in range(s[NSEATS + centre]):
            s[SKIP + s[SEATS_OF + 2 * centre + i]] += 1
    after_square(s, k)
    return False


@rule
def agent_square(s, k, green):
    left = 0
    for t in range(k[T_AGENTS]):
        if k[T_AGENT_GREEN + t] == green:
            left += s[PILE + t]
    if not left:
        exhausted(s, k)
        return
    s[DRAW_GREEN] = 1 if green else 0
    set_node(s, AGENT_DRAW, CHANCE)


@rule
def draw_agent_card(s, k, card):
    s[PILE + card] -= 1
    s[agent_at(mover_centre(s), card)] += 1
    after_square(s, k)


# -- payments a player cannot make (``payments``) ------------------------------------------
@rule
def has_holdings(s, k, centre):
    for p in range(k[T_PHOTOS]):
        if s[PHOTOS + centre * MAX_PHOTOS + p]:
            return True
    for part in range(PARTS):
        if s[part_at(centre, part)]:
            return True
    return False


@rule
def settle_debts(s, k):
    while s[NDEBTS]:
        debtor, creditor, amount = s[DEBTS], s[DEBTS + 1], s[DEBTS + 2]
        if s[MONEY + debtor] >= amount:
            transfer(s, debtor, creditor, amount)
        elif has_holdings(s, k, debtor):
            set_node(s, DEBT, speaker(s, debtor))
            return
        else:
            transfer(s, debtor, creditor, s[MONEY + debtor])
        for i in range(3, 3 * s[NDEBTS]):
            s[DEBTS + i - 3] = s[DEBTS + i]
        s[NDEBTS] -= 1
    open_meeting(s, k)


@rule
def sell_photo_to_leader(s, k, p):
    debtor = s[DEBTS]
    add_photo(s, debtor, p, -1)
    s[STOCK + p] += 1
    transfer(s, BANK, debtor, k[T_PHOTO_VALUES + p])
    settle_debts(s, k)


@rule
def sell_part_to_leader(s, k, part):
    debtor = s[DEBTS]
    lose_part(s, debtor, part)
    s[PART_STOCK + part] += 1
    transfer(s, BANK, debtor, k[T_PART_PRICES + part])
    settle_debts(s, k)


@rule
def sell_saturn_to_leader(s, k):
    debtor = s[DEBTS]
    for part in range(PARTS):
        s[part_at(debtor, part)] -= 1
        s[PART_STOCK + part] += 1
    s[SATURN_V + debtor] -= 1
    transfer(s, BANK, debtor, k[T_SATURN_PRICE])
    settle_debts(s, k)


# -- meetings (``trading``) ----------------------------------------------------------------
@rule
def turn_order_after_mover(s, i):
    """The i-th seat in turn order from the one after the mover."""
    n = s[NORDER]
    at = 0
    for j in range(n):
        if s[ORDER + j] == s[MOVER]:
            at = j
    return s[ORDER + (at + 1 + i) % n]


@rule
def open_meeting(s, k):
    centre = mover_centre(s)
    square = s[POS + s[MOVER]]
    s[JUSTIFIED] = 0
    s[ZONE] = -1
    met = MET  # (the seat met for each centre, -1 none: scratch room in the row)
    for c in range(CENTRES):
        s[met + c] = -1
    owner = k[T_ZONE_OF + square]
    if owner >= 0 and s[IN_SERVICE + owner] and owner != centre:
        s[ZONE] = owner
        s[met + owner] = speaker(s, owner)
    others = s[NORDER] - 1
    for i in range(others):
        seat = turn_order_after_mover(s, i)
        other = s[CENTRE + seat]
        if s[POS + seat] == square and other != centre and other != -1 and s[met + other] < 0:
            s[met + other] = seat
    n = 0
    for i in range(others):
        seat = turn_order_after_mover(s, i)
        for c in range(CENTRES):
            if s[met + c] == seat:
                s[PARTNERS + n] = seat
                n += 1
                break
    s[NPARTNERS] = n
    s[SAY] = 0
    s[LEFT] = k[T_OFFERS_PER_MEETING]
    continue_meeting(s, k)


@rule
def has_the_say(s):
    say = s[SAY]
    return s[MOVER] if say == 0 else s[PARTNERS + say - 1]


@rule
def continue_meeting(s, k):
    while s[SAY] <= s[NPARTNERS]:
        if meeting_move_count(s, k, 2) > 1:  # (a move besides done)
            set_node(s, MEETING, has_the_say(s))
            return
        pass_the_say(s, k)
    close_meeting(s, k)


@rule
def pass_the_say(s, k):
    s[SAY] += 1
    s[LEFT] = k[T_OFFERS_PER_MEETING]


@rule
def done(s, k):
    pass_the_say(s, k)
    continue_meeting(s, k)


@rule
def close_meeting(s, k):
    if s[ZONE] >= 0 and not s[JUSTIFIED]:
        s[POS + s[MOVER]] = k[T_RAMP + mover_centre(s)]  # sent home
    s[NPARTNERS] = 0
    s[ZONE] = -1
    s[SAY] = -1
    end_move(s, k)


@rule
def visit_to_the_owner(s, proposer, target):
    owner = s[ZONE]
    return owner >= 0 and proposer == s[MOVER] and s[CENTRE + target] == owner


@rule
def justify(s, proposer, target):
    if visit_to_the_owner(s, proposer, target):
        s[JUSTIFIED] = 1


@rule
def unneeded(s, k, centre, p):
    held = s[PHOTOS + centre * MAX_PHOTOS + p]
    return held >= 2 or (held == 1 and not (k[T_CONTROL_BITS + centre] >> p) & 1)


@rule
def emit(out, n, action):
    """Put ``action`` at ``out[n]`` if ``out`` has room: the moves are only counted into an
    empty ``out`` (``s[:0]``, a view: no allocation on the rules' hot path)."""
    if n < len(out):
        out[n] = action
    return n + 1


@rule
def photo_bits(s, centre):
    """The photo cards a centre holds, as bits (bit p: card p)."""
    return s[PHOTO_BITS + centre]


@rule
def offers(s, k, a, b, first, out, n):
    """The offers centre ``a`` can make centre ``b`` (``trading.feasible_offers``), as the
    actions ``first + template``, from ``out[n]``; returns the new count. (``offer_count``
    counts them and ``offer_at`` finds one, walking them in this order.)"""
    mine, theirs = photo_bits(s, a), photo_bits(s, b)
    held = mine
    while held:  # sell p at each price b can pay; swap p for each card b holds
        p = lowest_bit(held)
        held &= held - 1
        for i in range(affordable(k, p, s[MONEY + b])):
            n = emit(out, n, first + k[T_SELL_T + p * MAX_PRICES + i])
        others = theirs & ~(1 << p)
        while others:
            q = lowest_bit(others)
            others &= others - 1
            n = emit(out, n, first + k[T_SWAP_T + p * MAX_PHOTOS + q])
    held = theirs
    while held:  # buy p at each price a can pay; claim p (a forced sale)
        p = lowest_bit(held)
        held &= held - 1
        for i in range(affordable(k, p, s[MONEY + a])):
            n = emit(out, n, first + k[T_BUY_T + p * MAX_PRICES + i])
        if may_ask_for(s, k, a, b, mine, p):
            n = emit(out, n, first + k[T_ASK_T + p])
    for part in range(PARTS):  # sell a single part, buy one, claim a spare
        bits = part_offers(s, k, a, b, part)
        if bits & 1:
            n = emit(out, n, first + k[T_PART_SELL_T + part])
        if bits & 2:
            n = emit(out, n, first + k[T_PART_BUY_T + part])
        if bits & 4:
            n = emit(out, n, first + k[T_DEMAND_T + part])
    return n


@rule
def affordable(k, p, money):
    """How many of photo card ``p``'s offer prices (rising) ``money`` pays."""
    n = 0
    while n < k[T_PRICE_COUNT + p] and money >= k[T_OFFER_PRICES + p * MAX_PRICES + n]:
        n += 1
    return n


@rule
def may_ask_for(s, k, a, b, mine, p):
    """May centre ``a`` claim photo card ``p`` from ``b`` (a forced sale)? It is on ``a``'s
    control card, ``a`` lacks it (``mine``: ``a``'s cards as bits) and ``b`` does not
    need it."""
    return (k[T_CONTROL_BITS + a] >> p) & 1 and not (mine >> p) & 1 and unneeded(s, k, b, p)


@rule
def part_offers(s, k, a, b, part):
    """The part offers of ``part`` centre ``a`` can make ``b``, as bits: 1 sell it, 2 buy
    it, 4 claim b's spare (the order of their numbers)."""
    price = k[T_PART_PRICES + part]
    mine, theirs = s[part_at(a, part)], s[part_at(b, part)]
    sets_b = s[SATURN_V + b]
    bits = 0
    if mine > s[SATURN_V + a] and s[MONEY + b] >= price:
        bits |= 1
    if theirs > sets_b and s[MONEY + a] >= price:
        bits |= 2
    if not mine and theirs >= 2 and theirs > sets_b:
        bits |= 4
    return bits


@rule
def offer_count(s, k, a, b, enough):
    """How many offers ``offers`` lists, counted without listing them; once ``enough`` are
    found, that many or more (whether there is any offer: ``enough`` 1)."""
    mine, theirs = photo_bits(s, a), photo_bits(s, b)
    n = count_bits(mine) * count_bits(theirs) - count_bits(mine & theirs)  # the swaps
    if n >= enough:
        return n
    for part in range(PARTS):
        n += count_bits(part_offers(s, k, a, b, part))
    if n >= enough:
        return n
    held = mine
    while held:
        p = lowest_bit(held)
        held &= held - 1
        n += affordable(k, p, s[MONEY + b])
    held = theirs
    while held:
        p = lowest_bit(held)
        held &= held - 1
        n += affordable(k, p, s[MONEY + a])
    lacking = k[T_CONTROL_BITS + a] & ~mine & theirs  # (the cards a may claim if b spares them)
    while lacking:
        p = lowest_bit(lacking)
        lacking &= lacking - 1
        n += unneeded(s, k, b, p)
    return n


@rule
def offer_at(s, k, a, b, first, j):
    """The ``j``-th offer ``offers`` lists, found by counting past the others."""
    mine, theirs = photo_bits(s, a), photo_bits(s, b)
    held = mine
    while held:
        p = lowest_bit(held)
        held &= held - 1
        count = affordable(k, p, s[MONEY + b])
        if j < count:
            return first + k[T_SELL_T + p * MAX_PRICES + j]
        j -= count
        others = theirs & ~(1 << p)
        count = count_bits(others)
        if j < count:
            for _ in range(j):
                others &= others - 1
            return first + k[T_SWAP_T + p * MAX_PHOTOS + lowest_bit(others)]
        j -= count
    held = theirs
    while held:
        p = lowest_bit(held)
        held &= held - 1
        count = affordable(k, p, s[MONEY + a])
        if j < count:
            return first + k[T_BUY_T + p * MAX_PRICES + j]
        j -= count
        if may_ask_for(s, k, a, b, mine, p):
            if j == 0:
                return first + k[T_ASK_T + p]
            j -= 1
    for part in range(PARTS):
        bits = part_offers(s, k, a, b, part)
        for kind in range(3):
            if (bits >> kind) & 1:
                if j == 0:
                    if kind == 0:
                        return first + k[T_PART_SELL_T + part]
                    if kind == 1:
                        return first + k[T_PART_BUY_T + part]
                    return first + k[T_DEMAND_T + part]
                j -= 1
    return -1


@rule
def saturn_offer_bits(s, k, a, b):
    """The offers of a whole Saturn V centre ``a`` can make ``b``, as bits: 1 sell, 2 buy."""
    bits = 0
    if s[SATURN_V + a] and s[MONEY + b] >= k[T_SATURN_PRICE]:
        bits |= 1
    if s[SATURN_V + b] and s[MONEY + a] >= k[T_SATURN_PRICE]:
        bits |= 2
    return bits


@rule
def saturn_offers(s, k, a, b, first, out, n):
    """The offers of a whole Saturn V (numbered after the others: ``first + 0, + 1``)."""
    bits = saturn_offer_bits(s, k, a, b)
    if bits & 1:
        n = emit(out, n, first)
    if bits & 2:
        n = emit(out, n, first + 1)
    return n


@rule
def meeting_moves(s, k, out):
    """``trading.meeting_actions`` into ``out``: ``done``, missions (the mover, in a
    forbidden zone), offers to each target in seat order, then each target's whole Saturn V
    offers; returns how many."""
    seat = has_the_say(s)
    centre = s[CENTRE + seat]
    n = emit(out, 0, DONE)
    if seat == s[MOVER] and s[ZONE] >= 0:
        for t in range(k[T_AGENTS]):
            if s[agent_at(centre, t)]:
                n = emit(out, n, k[T_MISSION] + t)
    if s[LEFT] > 0:
        for target in range(SEATS):
            if is_target(s, seat, target):
                first = k[T_PROPOSE] + target * k[T_MENU]
                n = offers(s, k, centre, s[CENTRE + target], first, out, n)
        for target in range(SEATS):
            if is_target(s, seat, target):
                first = k[T_OFFER_SATURN] + 2 * target
                n = saturn_offers(s, k, centre, s[CENTRE + target], first, out, n)
    return n


@rule
def meeting_move_count(s, k, enough):
    """How many moves ``meeting_moves`` lists, counted without listing them, or ``enough``
    or more once that many are found. Counted in full, each target's offers are noted in
    ``OFFERS_TO`` for ``meeting_move_at``."""
    seat = has_the_say(s)
    centre = s[CENTRE + seat]
    n = 1 + missions_at_hand(s, k, seat)
    if s[LEFT] > 0:
        for target in range(SEATS):
            if n >= enough:
                return n
            if is_target(s, seat, target):
                offers = offer_count(s, k, centre, s[CENTRE + target], enough - n)
                s[OFFERS_TO + target] = offers
                n += offers + count_bits(saturn_offer_bits(s, k, centre, s[CENTRE + target]))
    return n


@rule
def meeting_move_at(s, k, j):
    """The ``j``-th move ``meeting_moves`` lists, found by counting past the others (right
    after ``meeting_move_count``, whose counts it reads)."""
    seat = has_the_say(s)
    centre = s[CENTRE + seat]
    if j == 0:
        return DONE
    j -= 1
    if seat == s[MOVER] and s[ZONE] >= 0:
        for t in range(k[T_AGENTS]):
            if s[agent_at(centre, t)]:
                if j == 0:
                    return k[T_MISSION] + t
                j -= 1
    for target in range(SEATS):
        if is_target(s, seat, target):
            count = s[OFFERS_TO + target]
            if j < count:
                first = k[T_PROPOSE] + target * k[T_MENU]
                return offer_at(s, k, centre, s[CENTRE + target], first, j)
            j -= count
    for target in range(SEATS):
        if is_target(s, seat, target):
            bits = saturn_offer_bits(s, k, centre, s[CENTRE + target])
            for kind in range(2):
                if (bits >> kind) & 1:
                    if j == 0:
                        return k[T_OFFER_SATURN] + 2 * target + kind
                    j -= 1
    return -1


@rule
def missions_at_hand(s, k, seat):
    """The missions ``seat`` may carry out: the mover's agent card types, in a forbidden
    zone."""
    n = 0
    if seat == s[MOVER] and s[ZONE] >= 0:
        for t in range(k[T_AGENTS]):
            n += s[agent_at(s[CENTRE + seat], t)] > 0
    return n


@rule
def is_target(s, seat, target):
    """May ``seat`` (with the say) propose to ``target``? The mover to anyone met, the
    others to the mover."""
    mover = s[MOVER]
    if seat != mover:
        return target == mover
    for i in range(s[NPARTNERS]):
        if s[PARTNERS + i] == target:
            return True
    return False


@rule
def split_proposal(k, action):
    if action >= k[T_OFFER_SATURN]:
        return (action - k[T_OFFER_SATURN]) // 2, k[T_MENU] + (action - k[T_OFFER_SATURN]) % 2
    return (action - k[T_PROPOSE]) // k[T_MENU], (action - k[T_PROPOSE]) % k[T_MENU]


@rule
def propose(s, k, action):
    target, t = split_proposal(k, action)
    kind, x, y = k[T_TEMPLATE_KIND + t], k[T_TEMPLATE_A + t], k[T_TEMPLATE_B + t]
    proposer = has_the_say(s)
    s[LEFT] -= 1
    s[DEAL], s[DEAL + 1], s[DEAL + 2] = proposer, target, t
    if kind == DEMAND:
        claim_spare_part(s, k, proposer, target, x, y)
    elif kind == ASK_FOR:
        claim_photo(s, k, proposer, target, x)
    else:
        set_node(s, REPLY, target)


@rule
def claim_spare_part(s, k, buyer, seller, part, price):
    a, b = s[CENTRE + buyer], s[CENTRE + seller]
    if s[MONEY + a] >= price:
        lose_part(s, b, part)
        s[part_at(a, part)] += 1
        transfer(s, a, b, price)
    justify(s, buyer, seller)
    continue_meeting(s, k)


@rule
def claim_photo(s, k, buyer, seller, p):
    justify(s, buyer, seller)
    if s[MONEY + s[CENTRE + buyer]] >= k[T_PHOTO_VALUES + p]:
        set_node(s, ASK, seller)
    else:
        continue_meeting(s, k)


@rule
def reply(s, k, accept):
    proposer, target, t = s[DEAL], s[DEAL + 1], s[DEAL + 2]
    if accept:
        exchange(s, k, s[CENTRE + proposer], s[CENTRE + target], t)
        justify(s, proposer, target)
        continue_meeting(s, k)
    elif visit_to_the_owner(s, proposer, target):
        done(s, k)
    elif s[LEFT] > 0:
        set_node(s, MEETING, proposer)
    else:
        continue_meeting(s, k)


@rule
def move_photo(s, giver, taker, p):
    add_photo(s, giver, p, -1)
    add_photo(s, taker, p, 1)


@rule
def exchange(s, k, a, b, t):
    kind, x, y = k[T_TEMPLATE_KIND + t], k[T_TEMPLATE_A + t], k[T_TEMPLATE_B + t]
    if kind == SELL:
        move_photo(s, a, b, x)
        transfer(s, b, a, y)
    elif kind == BUY:
        move_photo(s, b, a, x)
        transfer(s, a, b, y)
    elif kind == SWAP:
        move_photo(s, a, b, x)
        move_photo(s, b, a, y)
    elif kind == SELL_PART:
        lose_part(s, a, x)
        s[part_at(b, x)] += 1
        transfer(s, b, a, y)
    elif kind == BUY_PART_FROM:
        lose_part(s, b, x)
        s[part_at(a, x)] += 1
        transfer(s, a, b, y)
    elif kind == SELL_SATURN:
        move_saturn_v(s, a, b)
        transfer(s, b, a, y)
    elif kind == BUY_SATURN_FROM:
        move_saturn_v(s, b, a)
        transfer(s, a, b, y)


@rule
def ask_range(s, k):
    buyer, t = s[DEAL], s[DEAL + 2]
    value = k[T_PHOTO_VALUES + k[T_TEMPLATE_A + t]]
    return value, min(2 * value, s[MONEY + s[CENTRE + buyer]])


@rule
def counter(s, k, price):
    if price < 0:
        settle_forced_sale(s, k, s[ASKED])
    else:
        s[COUNTERED] = price
        set_node(s, COUNTER_REPLY, s[DEAL + 1])


@rule
def counter_reply(s, k, accept):
    if accept:
        settle_forced_sale(s, k, s[COUNTERED])
    else:
        settle_forced_sale(s, k, (s[ASKED] + s[COUNTERED]) // 2 // k[T_STEP] * k[T_STEP])


@rule
def settle_forced_sale(s, k, price):
    buyer, seller, t = s[DEAL], s[DEAL + 1], s[DEAL + 2]
    a, b = s[CENTRE + buyer], s[CENTRE + seller]
    move_photo(s, b, a, k[T_TEMPLATE_A + t])
    transfer(s, a, b, price)
    s[ASKED] = 0
    s[COUNTERED] = 0
    continue_meeting(s, k)


# -- missions (``missions``) ---------------------------------------------------------------
@rule
def start_mission(s, k, card):
    centre = mover_centre(s)
    s[agent_at(centre, card)] -= 1
    s[PILE + card] += 1
    s[MISSION], s[MISSION + 1] = card, s[ZONE]
    s[JUSTIFIED] = 1
    set_node(s, ARREST_ROLL, CHANCE)


@rule
def arrest_roll(s, k, face):
    s[ROLLED] = face
    if face <= k[T_ARREST_MAX]:
        set_node(s, ARRESTED, s[MOVER])
    else:
        carry_out_mission(s, k)


@rule
def arrested(s, k, pay):
    if pay:
        transfer(s, mover_centre(s), s[MISSION + 1], k[T_RANSOM])
    else:
        s[SKIP + s[MOVER]] += k[T_TURNS_OUT]
    end_mission(s, k)


@rule
def mission_targets(s, k, out):
    card, target = s[MISSION], s[MISSION + 1]
    kind = k[T_AGENT_KIND + card]
    n = 0
    if kind == AGENT_PHOTO:
        for p in range(k[T_PHOTOS]):
            if s[PHOTOS + target * MAX_PHOTOS + p]:
                if not k[T_AGENT_GREEN + card] or s[STOCK + p]:
                    n = emit(out, n, k[T_TAKE_PHOTO] + p)
    elif kind == AGENT_PART:
        for part in range(PARTS):
            if s[part_at(target, part)]:
                n = emit(out, n, k[T_TAKE_PART] + part)
    return n


@rule
def carry_out_mission(s, k):
    card, target = s[MISSION], s[MISSION + 1]
    if k[T_AGENT_KIND + card] == AGENT_TURN:
        for i in range(s[NSEATS + target]):
            s[SKIP + s[SEATS_OF + 2 * target + i]] += 1
        end_mission(s, k)
    elif mission_targets(s, k, s[:0]):
        set_node(s, TARGET, s[MOVER])
    else:
        end_mission(s, k)


@rule
def hit_target(s, k, action):
    card, target = s[MISSION], s[MISSION + 1]
    if action >= k[T_TAKE_PART]:
        part = action - k[T_TAKE_PART]
        lose_part(s, target, part)
        s[PART_STOCK + part] += 1
    else:
        p = action - k[T_TAKE_PHOTO]
        if k[T_AGENT_GREEN + card]:
            s[STOCK + p] -= 1
            add_photo(s, mover_centre(s), p, 1)
        else:
            add_photo(s, target, p, -1)
            s[STOCK + p] += 1
    end_mission(s, k)


@rule
def end_mission(s, k):
    s[MISSION], s[MISSION + 1] = -1, -1
    done(s, k)  # a mission ends the visitor's say


# -- the auction (``auction``) -------------------------------------------------------------
@rule
def should_start_auction(s, k):
    if s[AUCTION_DONE]:
        return False
    stock = 0
    for p in range(k[T_PHOTOS]):
        stock += s[STOCK + p]
    return stock <= k[T_AUCTION_THRESHOLD]


@rule
def choose_lots(s, k):
    """The cards most needed by the centres in play, ties by value; never astronaut cards."""
    n = 0
    while n < k[T_AUCTION_LOTS]:
        best, best_need = -1, 0
        for p in range(k[T_PHOTOS]):
            chosen = 0  # (copies of p already among the lots: taken from stock and need)
            for i in range(n):
                chosen += s[LOTS + i] == p
            if s[STOCK + p] - chosen > 0 and not k[T_ASTRONAUT + p]:
                need = centres_needing(s, k, p) - chosen
                if (
                    best < 0
                    or need > best_need
                    or (need == best_need and k[T_PHOTO_VALUES + p] > k[T_PHOTO_VALUES + best])
                ):
                    best, best_need = p, need
        if best < 0:
            break
        s[LOTS + n] = best
        n += 1
    s[NLOTS] = n


@rule
def centres_needing(s, k, p):
    """The centres in play whose control card lists photo card ``p`` and who lack it."""
    need = 0
    for c in range(CENTRES):
        if s[NSEATS + c] and (k[T_CONTROL_BITS + c] >> p) & 1:
            need += not s[PHOTOS + c * MAX_PHOTOS + p]
    return need


@rule
def start_auction(s, k):
    s[AUCTION_DONE] = 1
    choose_lots(s, k)
    if s[NLOTS]:
        begin_lot(s, k)
    else:
        start_next_turn(s, k)


@rule
def begin_lot(s, k):
    set_up_lot(s, k)
    next_bidder(s, k)


@rule
def set_up_lot(s, k):
    """Centres bid in turn, starting with the centre whose turn just ended."""
    first = mover_centre(s)
    at, count = 0, 0
    for c in range(CENTRES):
        if s[NSEATS + c]:
            if c == first:
                at = count
            count += 1
    i = 0
    for c in range(CENTRES):
        if s[NSEATS + c]:
            s[BIDDERS + (i - at + count) % count] = c
            i += 1
    s[NBIDDERS] = count
    s[BID_AT] = 0
    s[PRICE] = 0
    s[HIGH] = -1


@rule
def bid_range(s, k):
    p = s[LOTS]
    if s[HIGH] < 0:
        low = max(k[T_STEP], k[T_PHOTO_VALUES + p] // 2 // k[T_STEP] * k[T_STEP])
    else:
        low = s[PRICE] + k[T_STEP]
    high = min(2 * k[T_PHOTO_VALUES + p], s[MONEY + s[BIDDERS + s[BID_AT]]])
    return low, high


@rule
def bid(s, k, price):
    s[PRICE] = price
    s[HIGH] = s[BIDDERS + s[BID_AT]]
    s[BID_AT] += 1
    next_bidder(s, k)


@rule
def pass_bid(s, k):
    for i in range(s[BID_AT] + 1, s[NBIDDERS]):
        s[BIDDERS + i - 1] = s[BIDDERS + i]
    s[NBIDDERS] -= 1
    next_bidder(s, k)


@rule
def next_bidder(s, k):
    """Bidding goes round until all but one have passed; then the next lot, if any."""
    n = s[NBIDDERS]
    while n == 0 or (s[HIGH] >= 0 and n == 1 and s[BIDDERS] == s[HIGH]):
        if not end_lot(s, k):
            return
        n = s[NBIDDERS]
    s[BID_AT] = s[BID_AT] % n
    if s[BIDDERS + s[BID_AT]] == s[HIGH]:
        s[BID_AT] = (s[BID_AT] + 1) % n
    set_node(s, BID, speaker(s, s[BIDDERS + s[BID_AT]]))


@rule
def end_lot(s, k):
    p = s[LOTS]
    for i in range(1, s[NLOTS]):
        s[LOTS + i - 1] = s[LOTS + i]
    s[NLOTS] -= 1
    high = s[HIGH]
    if high >= 0:
        s[STOCK + p] -= 1
        add_photo(s, high, p, 1)
        transfer(s, high, BANK, s[PRICE])
    if s[NLOTS]:
        set_up_lot(s, k)
        return True
    start_next_turn(s, k)
    return False


# -- the COUNTDOWN (``countdown``) ---------------------------------------------------------
@rule
def begin_countdown(s):
    s[WAITS], s[TOTAL], s[COUNTED] = 0, 0, 0
    set_node(s, COUNT_ROLL, CHANCE)


@rule
def countdown_roll(s, k, face):
    if s[COUNTED] == 0:
        s[WAITS] += 1
        if s[WAITS] >= k[T_LATEST_START]:
            start_count(s, k, face)
        else:
            s[ROLLED] = face
            set_node(s, COUNT_CHOICE, s[MOVER])
        return
    add_to_count(s, k, face)


@rule
def start_count(s, k, face):
    s[COUNTED] = 0
    s[TOTAL] = 0
    add_to_count(s, k, face)


@rule
def add_to_count(s, k, face):
    s[TOTAL] += face
    s[COUNTED] += 1
    if s[COUNTED] < k[T_COUNTDOWN_ROLLS]:
        set_node(s, COUNT_ROLL, CHANCE)
        return
    if s[TOTAL] >= k[T_COUNTDOWN_TARGET]:
        end_in_win(s, mover_centre(s))
        return
    s[COUNTED] = 0
    end_turn(s, k)


# -- a decision, a chance outcome (``game.CountDownState._apply``) --------------------------
@rule
def apply_decision(s, k, action):
    phase = s[PHASE]
    if phase == TURN_START:
        if action == COUNT_DOWN:
            begin_countdown(s)
        else:
            set_node(s, ROLLING, CHANCE)
    elif phase == DIRECTION:
        move(s, k, s[ROLLED] if action == FORWARD else -s[ROLLED])
    elif phase == BUYING_PHOTO:
        if action == DECLINE:
            after_square(s, k)
        else:
            buy_photo(s, k, action - k[T_BUY_PHOTO])
    elif phase == SATURN:
        if action == DECLINE:
            after_square(s, k)
        else:
            buy_saturn(s, k, -1 if action == BUY_SATURN else action - k[T_BUY_PART])
    elif phase == TRAINING:
        astronaut_training(s, k, action == SQUATS)
    elif phase == DEBT:
        if action == k[T_SELL_SATURN]:
            sell_saturn_to_leader(s, k)
        elif action < k[T_SELL_PART]:
            sell_photo_to_leader(s, k, action - k[T_SELL_PHOTO])
        else:
            sell_part_to_leader(s, k, action - k[T_SELL_PART])
    elif phase == PLAY_AGAIN:
        play_once_more(s, k, action == ONCE_MORE)
    elif phase == MEETING:
        if action == DONE:
            done(s, k)
        elif action < k[T_PROPOSE]:
            start_mission(s, k, action - k[T_MISSION])
        else:
            propose(s, k, action)
    elif phase == REPLY:
        reply(s, k, action == ACCEPT)
    elif phase == ASK:
        s[ASKED] = (action - k[T_MONEY]) * k[T_STEP]
        set_node(s, COUNTER, s[DEAL])
    elif phase == COUNTER:
        counter(s, k, -1 if action == ACCEPT else (action - k[T_MONEY]) * k[T_STEP])
    elif phase == COUNTER_REPLY:
        counter_reply(s, k, action == ACCEPT)
    elif phase == TARGET:
        hit_target(s, k, action)
    elif phase == ARRESTED:
        arrested(s, k, action == PAY_RANSOM)
    elif phase == COUNT_CHOICE:
        if action == START_COUNT:
            start_count(s, k, s[ROLLED])
        else:
            set_node(s, COUNT_ROLL, CHANCE)
    elif phase == BID:
        if action == PASS:
            pass_bid(s, k)
        else:
            bid(s, k, (action - k[T_MONEY]) * k[T_STEP])


@rule
def apply_chance(s, k, outcome):
    phase = s[PHASE]
    face = outcome + 1
    if phase == ROLLING:
        ball_roll(s, k, face)
    elif phase == SURPRISE_DRAW:
        if follow_surprise(s, k, outcome):
            land(s, k)
    elif phase == AGENT_DRAW:
        draw_agent_card(s, k, outcome)
    elif phase == ARREST_ROLL:
        arrest_roll(s, k, face)
    elif phase == COUNT_ROLL:
        countdown_roll(s, k, face)
    else:
        roll_off(s, k, face)


@rule
def chance_outcome(s, k, ball, u):
    """The outcome a uniform number ``u`` draws at this chance node, at the reference's odds
    (``chance_outcomes``: the ball's faces, an unseen surprise card, an agent card)."""
    phase = s[PHASE]
    if phase == SURPRISE_DRAW:
        return s[UNSEEN + min(int(u * s[NUNSEEN]), s[NUNSEEN] - 1)]
    if phase == AGENT_DRAW:
        green = s[DRAW_GREEN] == 1
        total = 0
        for t in range(k[T_AGENTS]):
            if k[T_AGENT_GREEN + t] == green:
                total += s[PILE + t]
        pick = u * total
        last = -1
        for t in range(k[T_AGENTS]):
            if k[T_AGENT_GREEN + t] == green and s[PILE + t]:
                last = t
                pick -= s[PILE + t]
                if pick < 0:
                    return t
        return last
    for face in range(12):
        if u < ball[face]:
            return face
    return k[T_LAST_FACE]


@rule
def uniform(keys, drawn, g):
    """The next number in [0, 1) of row ``g``'s stream (``base.mix64`` of a counter)."""
    z = keys[g] + drawn[g] * GOLDEN
    drawn[g] += ONE
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    z = z ^ (z >> S31)
    return np.float64(z >> S11) * (1.0 / 9007199254740992.0)


@rule
def play_chance(s, k, ball, keys, drawn, g, log, length):
    """Draw and apply chance outcomes of game ``g`` up to its next decision or end, logging
    each (when ``log`` has columns). Returns how many; stops early when the log is full."""
    made = 0
    width = log.shape[1]
    while s[PLAYER] == CHANCE:
        if width and length[g] >= width:
            return made
        outcome = chance_outcome(s, k, ball, uniform(keys, drawn, g))
        if width:
            log[g, length[g]] = outcome
            length[g] += 1
        apply_chance(s, k, outcome)
        made += 1
    return made


# -- the legal moves (``game.CountDownState._decisions``) -----------------------------------
@rule
def money_actions(k, low, high, out, n):
    for i in range(low // k[T_STEP], high // k[T_STEP] + 1):
        n = emit(out, n, k[T_MONEY] + i)
    return n


@rule
def legal_actions(s, k, out):
    """The legal moves at a decision into ``out`` (a meeting's offers not in order of their
    numbers); returns how many."""
    phase = s[PHASE]
    if phase == MEETING:
        return meeting_moves(s, k, out)
    if phase == TURN_START:
        return pair(out, ROLL, COUNT_DOWN)
    if phase == DIRECTION:
        return pair(out, FORWARD, BACKWARD)
    if phase == TRAINING:
        return pair(out, SQUATS, PAY_FINE)
    if phase == PLAY_AGAIN:
        return pair(out, ONCE_MORE, END_TURN)
    if phase == REPLY or phase == COUNTER_REPLY:
        return pair(out, ACCEPT, REFUSE)
    if phase == COUNT_CHOICE:
        return pair(out, START_COUNT, WAIT)
    if phase == BUYING_PHOTO:
        return pair(out, DECLINE, k[T_BUY_PHOTO] + k[T_SQUARE_ARG + s[POS + s[MOVER]]])
    if phase == SATURN:
        bits = saturn_v_purchases(s, k)
        n = emit(out, 0, DECLINE)
        if bits == 16:
            return emit(out, n, BUY_SATURN)
        for part in range(PARTS):
            if bits & (1 << part):
                n = emit(out, n, k[T_BUY_PART] + part)
        return n
    if phase == DEBT:
        debtor = s[DEBTS]
        n = 0
        for p in range(k[T_PHOTOS]):
            if s[PHOTOS + debtor * MAX_PHOTOS + p]:
                n = emit(out, n, k[T_SELL_PHOTO] + p)
        sets = s[SATURN_V + debtor]
        for part in range(PARTS):
            if s[part_at(debtor, part)] > sets:
                n = emit(out, n, k[T_SELL_PART] + part)
        if sets:
            n = emit(out, n, k[T_SELL_SATURN])
        return n
    if phase == ASK:
        low, high = ask_range(s, k)
        return money_actions(k, low, high, out, 0)
    if phase == COUNTER:
        low, _ = ask_range(s, k)
        n = emit(out, 0, ACCEPT)
        return money_actions(k, low, s[ASKED] - k[T_STEP], out, n)
    if phase == TARGET:
        return mission_targets(s, k, out)
    if phase == ARRESTED:
        if s[MONEY + mover_centre(s)] >= k[T_RANSOM]:
            return pair(out, SIT_OUT, PAY_RANSOM)
        return emit(out, 0, SIT_OUT)
    if phase == BID:
        low, high = bid_range(s, k)
        n = emit(out, 0, PASS)
        return money_actions(k, low, high, out, n)
    return 0


@rule
def pair(out, first, second):
    out[0], out[1] = first, second
    return 2


# -- over a batch --------------------------------------------------------------------------
@rule
def start_games(S, k, ball, games, keys, drawn, log, length, player):
    """New games in the rows ``games``, played to their first decision."""
    made = 0
    for g in games:
        new_game(S[g], k)
        made += play_chance(S[g], k, ball, keys, drawn, g, log, length)
        player[g] = S[g, PLAYER]
    return made


@rule
def step_games(S, k, ball, actions, active, keys, drawn, log, length, player):
    """Each active game's action (logged), then its chance up to its next decision; each
    game's player to move, copied to ``player`` (read at every step: one array, not a
    column of the rows)."""
    made = 0
    width = log.shape[1]
    for g in range(len(actions)):
        if not active[g]:
            continue
        fetch_ahead(S, g, UNSEEN)
        if width:
            log[g, length[g]] = actions[g]
            length[g] += 1
        apply_decision(S[g], k, actions[g])
        made += 1 + play_chance(S[g], k, ball, keys, drawn, g, log, length)
        player[g] = S[g, PLAYER]
    return made


@rule
def resume_chance(S, k, ball, keys, drawn, log, length, player):
    """The games left at a chance node when their log filled up, played on."""
    made = 0
    for g in range(S.shape[0]):
        if player[g] == CHANCE:
            made += play_chance(S[g], k, ball, keys, drawn, g, log, length)
            player[g] = S[g, PLAYER]
    return made


@rule
def sample_actions(S, k, player, u, out, moves):
    """A legal action per game, the ``int(u * count)``-th of its legal moves (0 if over);
    ``moves``: room for one game's legal moves."""
    for g in range(S.shape[0]):
        if player[g] < 0:
            out[g] = 0
            continue
        fetch_ahead(S, g, STOCK)  # (a move is picked from the fields before the stock)
        s = S[g]
        if s[PHASE] == MEETING:  # (the longest lists: counted, and one move found)
            n = meeting_move_count(s, k, ALL)
            out[g] = meeting_move_at(s, k, min(int(u[g] * n), n - 1))
        else:
            n = legal_actions(s, k, moves)
            out[g] = moves[min(int(u[g] * n), n - 1)]


@rule
def legal_masks(S, k, player, mask, moves):
    for g in range(S.shape[0]):
        if player[g] >= 0:
            n = legal_actions(S[g], k, moves)
            for i in range(n):
                mask[g, moves[i]] = True


@rule
def observation_tensors(S, k, seat, out):
    """``views.tensor`` of ``seat`` for every game: positions, money, holdings, stock, own
    agent cards, phase, roll, turns; the observer's centre first."""
    n, length, photos, agents = k[T_PLAYERS], k[T_TRACK_LEN], k[T_PHOTOS], k[T_AGENTS]
    for g in range(S.shape[0]):
        s = S[g]
        row = out[g]
        for offset in range(n):
            pos = s[POS + (seat + offset) % n]
            if pos >= 0:
                row[offset * length + pos] = 1.0
        i = n * length
        mine = max(s[CENTRE + seat], 0)
        for j in range(CENTRES):
            c = (mine + j) % CENTRES
            row[i] = s[MONEY + c] / 1000
            for p in range(photos):
                row[i + 1 + p] = s[PHOTOS + c * MAX_PHOTOS + p]
            for part in range(PARTS):
                row[i + 1 + photos + part] = s[part_at(c, part)]
            green, red = 0, 0
            for t in range(agents):
                if k[T_AGENT_GREEN + t]:
                    green += s[agent_at(c, t)]
                else:
                    red += s[agent_at(c, t)]
            row[i + 5 + photos] = green
            row[i + 6 + photos] = red
            i += 7 + photos
        for p in range(photos):
            row[i + p] = s[STOCK + p]
        for part in range(PARTS):
            row[i + photos + part] = s[PART_STOCK + part]
        i += photos + 4
        if s[CENTRE + seat] >= 0:
            for t in range(agents):
                row[i + t] = s[agent_at(mine, t)]
        i += agents
        row[i + s[PHASE]] = 1.0
        i += k[T_PHASES]
        row[i + min(s[ROLLED], 12)] = 1.0
        row[i + 13] = s[NUMBER] / k[T_MAX_TURNS]
