"""Drive Count Down through its readable action strings, and set up positions to test."""

from __future__ import annotations

import tminus
from tminus.games.count_down import phases
from tminus.games.count_down.game import CountDownState

# Square numbers on the default board (see board.toml).
RAMP = (0, 16, 32, 48)
FORBIDDEN = (8, 24, 40, 56)
LAUNCH_TOWER, STAGE_1, ROCKET_TRANSPORT, FUNDING_100, ASTRONAUTS, SURPRISE = 1, 2, 3, 4, 5, 6
IN_SPACE, SUCCESSFUL_LAUNCH, ESPIONAGE, STAGE_2, TRAINING = 7, 9, 10, 12, 14
RADAR, SABOTAGE, CAPSULE, SATURN_V, LUNAR_TAKE_OFF = 17, 26, 28, 30, 33
TRACK = 64


def new_game(players: int = 4, **params) -> CountDownState:
    return tminus.load_game("count_down", players=players, **params).new_initial_state()


def play(state: CountDownState, *moves: str) -> CountDownState:
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def started(players: int = 4, **params) -> CountDownState:
    """Seat i (team i for 6 players) rolled highest but i: it holds centre i + 1.

    4 players start with 1200, 1100, 1000 and 900 million; seat 0 is to roll.
    """
    state = new_game(players, **params)
    if players == 6:
        return play(state, "ball 12", "ball 12", "ball 11", "ball 11", "ball 10", "ball 10")
    units = 4 if players == 5 else players
    return play(state, *[f"ball {12 - i}" for i in range(units)])


def legal_strings(state: CountDownState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def photo_id(state: CountDownState, name: str) -> int:
    return state.game.board.photo_names.index(name)


def part_id(state: CountDownState, name: str) -> int:
    return state.game.board.part_names.index(name)


def changed(state: CountDownState, **fields) -> CountDownState:
    """``state`` with some position fields replaced (validated; its history starts there)."""
    return state.with_position(fields)


def place(state: CountDownState, seat: int, square: int) -> CountDownState:
    pos = list(state.turn.pos)
    pos[seat] = square
    return changed(state, pos=pos)


def give_photo(state: CountDownState, centre: int, name: str, copies: int = 1) -> CountDownState:
    """Move photo cards from the leader's stock to a centre (1-4)."""
    p = photo_id(state, name)
    position = state.position_dict()
    stock, photos = position["photo_stock"], position["photos"]
    assert stock[p] >= copies, f"no {name} left in stock"
    stock[p] -= copies
    photos[centre - 1][p] += copies
    return changed(state, photo_stock=stock, photos=photos)


def give_part(state: CountDownState, centre: int, name: str, copies: int = 1) -> CountDownState:
    p = part_id(state, name)
    position = state.position_dict()
    stock, parts = position["part_stock"], position["parts"]
    assert stock[p] >= copies and parts[centre - 1][p] >= -copies
    stock[p] -= copies
    parts[centre - 1][p] += copies
    return changed(state, part_stock=stock, parts=parts)


def take_part(state: CountDownState, centre: int, name: str) -> CountDownState:
    """A part of a centre (1-4) back to the leader's stock, as a sabotage would send it."""
    return give_part(state, centre, name, -1)


def give_agent(state: CountDownState, centre: int, card: int, copies: int = 1) -> CountDownState:
    """Agent cards of type ``card`` from their pile to a centre (1-4)."""
    position = state.position_dict()
    pile, agents = position["pile"], position["agents"]
    assert pile[card] >= copies
    pile[card] -= copies
    agents[centre - 1][card] += copies
    return changed(state, pile=pile, agents=agents)


def set_money(state: CountDownState, centre: int, amount: int) -> CountDownState:
    """Set a centre's money, the difference coming from (or going to) the leader."""
    money = list(state.position_dict()["money"])
    bank = state.leader.bank + money[centre - 1] - amount
    money[centre - 1] = amount
    return changed(state, money=money, bank=bank)


def reopen_turn(state: CountDownState, seat: int = 0) -> CountDownState:
    """The turn of ``seat`` (the mover) begins again: a ready player chooses to count down."""
    return changed(state, phase=phases.CODES["turn start"], player=seat)


def make_ready(state: CountDownState, centre: int) -> CountDownState:
    """A complete rocket and every photo card of the control card."""
    for part in state.game.board.part_names:
        state = give_part(state, centre, part)
    for p in state.game.board.control[centre - 1]:
        state = give_photo(state, centre, state.game.board.photo_names[p])
    return state


def money(state: CountDownState, centre: int) -> int:
    return state.money(centre - 1)


def photos(state: CountDownState, centre: int) -> dict[str, int]:
    return state.observation(0)["centres"][centre - 1]["photos"]


def parts(state: CountDownState, centre: int) -> dict[str, int]:
    return state.observation(0)["centres"][centre - 1]["parts"]


def conserved(state: CountDownState) -> bool:
    """The bank plus the players hold every card, part and the money issued."""
    board = state.game.board
    leader, held = state.leader, state.holdings
    ok_money = sum(h.money for h in held) + leader.bank == 0
    at_start = board_stock_at_start(state)
    removed = [board.photo_copies[p] - at_start[p] for p in range(len(board.photo_names))]
    ok_photos = all(
        leader.photos[p] + sum(h.photos[p] for h in held) + removed[p] == board.photo_copies[p]
        for p in range(len(board.photo_names))
    )
    start_parts = sum(state.game.in_service)
    ok_parts = all(leader.parts[p] + sum(h.parts[p] for h in held) == start_parts for p in range(4))
    pile = state.position_dict()["pile"]
    ok_agents = all(
        pile[t] + sum(h.agents[t] for h in held) == board.agent_copies[t]
        for t in range(len(board.agent_names))
    )
    return ok_money and ok_photos and ok_parts and ok_agents


def board_stock_at_start(state: CountDownState) -> list[int]:
    return state.game.new_initial_state().photo_stock()


def take_turn(state: CountDownState, roll: int = 1) -> CountDownState:
    """The mover rolls ``roll`` and takes the first choice at each decision of the turn."""
    mover = state.observation(0)["mover"]
    play(state, f"ball {roll}")
    while not state.is_terminal() and state.observation(0)["mover"] == mover:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = legal_strings(state)
            choice = next((m for m in ("decline", "end turn", "done") if m in legal), legal[0])
            play(state, choice)
    return state


def end_meeting(state: CountDownState) -> CountDownState:
    """Everyone with a say in the meeting under way says "done"."""
    while state.phase() == "meeting":
        play(state, "done")
    return state


def arrive(state: CountDownState, square: int, roll: int = 1) -> CountDownState:
    """The mover, placed ``roll`` squares before ``square``, rolls ``roll`` and stops there."""
    mover = state.observation(0)["mover"]
    state = place(state, mover, (square - roll) % TRACK)
    return play(state, f"ball {roll}")
