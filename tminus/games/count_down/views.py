"""What each seat sees (observations, tensor), the debugging text and the terminal drawing.

Money, positions, parts and photo cards are public; agent cards are secret to their
holder (the watching fifth seat sees everything the leader sees).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tminus.games.count_down import phases
from tminus.games.count_down.countdown import missing_photos, rocket_complete

if TYPE_CHECKING:
    from tminus.games.count_down.data import BoardData
    from tminus.games.count_down.game import CountDownState


def _named(names: tuple[str, ...], counts: list[int]) -> dict[str, int]:
    return {names[i]: n for i, n in enumerate(counts) if n}


def centre_view(s: CountDownState, centre: int, seat: int | None) -> dict[str, Any]:
    board = s.game.board
    agents = s._agents[centre]
    view: dict[str, Any] = {
        "centre": centre + 1,
        "seats": list(s._seats_of[centre]),
        "in_service": s._in_service[centre],
        "money": s._money[centre],
        "photos": _named(board.photo_names, s._photos[centre]),
        "parts": _named(board.part_names, s._parts[centre]),
        "control_card": [board.photo_names[p] for p in board.control[centre]],
        "missing_photos": [board.photo_names[p] for p in missing_photos(s, centre)],
        "rocket_complete": rocket_complete(s, centre),
        "green_cards": sum(n for t, n in enumerate(agents) if board.agent_green[t]),
        "red_cards": sum(n for t, n in enumerate(agents) if not board.agent_green[t]),
    }
    if s.sees_agents(seat, centre):
        view["agent_cards"] = _named(board.agent_names, agents)
    return view


def board_layout(board: BoardData) -> dict[str, Any]:
    """What is printed on the board and the cards, as in the board file (no server path)."""
    return board.spec.model_dump(mode="json")


def observe(s: CountDownState, seat: int | None) -> dict[str, Any]:
    board = s.game.board
    space = s.game.space
    template = space.templates[s._deal[2]] if s._deal[2] >= 0 else None
    obs: dict[str, Any] = {
        "game": s.game.name,
        "players": s.game.num_players,
        "phase": phases.NAMES[s._phase],
        "current_player": s._player,
        "mover": s._mover,
        "turn": s._turns,
        "max_turns": s.game.max_turns,
        "roll": s._roll,
        "positions": list(s._pos),
        "turns_to_sit_out": list(s._skip),
        "centres": [centre_view(s, c, seat) for c in range(4)],
        "stock": {
            "photos": _named(board.photo_names, s._photo_stock),
            "parts": _named(board.part_names, s._part_stock),
            "green_pile": sum(n for t, n in enumerate(s._pile) if board.agent_green[t]),
            "red_pile": sum(n for t, n in enumerate(s._pile) if not board.agent_green[t]),
            "surprise_known_order": [board.surprises[c][0] for c in s._surprise_queue],
            "surprise_unseen": len(s._surprise_unseen),
        },
        "bank": s._bank,
        "last_surprise": board.surprises[s._last_surprise][0] if s._last_surprise >= 0 else None,
        "roll_off": {
            "capital_rolls": [list(r) for r in s._capital_rolls],
            # Units tied for a place roll again: everyone sees those rolls too.
            "order_so_far": [list(group) for group in s._groups],
            "contenders": list(s._contenders),
            "tie_rolls": list(s._tie_rolls),
        },
        "debts": [list(d) for d in s._debts],
        "meeting": {
            "with": list(s._partners),
            "forbidden_zone_of": s._fz_owner + 1 if s._fz_owner >= 0 else None,
            "offers_left": s._proposals_left,
            "deal_made": s._dealt,
        },
        "deal": (
            {
                "by": s._deal[0],
                "to": s._deal[1],
                "what": space.template_name(s._deal[1], template) if template else None,
                "ask": s._ask,
                "counter": s._counter,
            }
            if s._phase in (phases.REPLY, phases.ASK, phases.COUNTER, phases.COUNTER_REPLY)
            else None
        ),
        "mission": (
            {"card": board.agent_names[s._mission[0]], "target_centre": s._mission[1] + 1}
            if s._mission[0] >= 0
            else None
        ),
        "auction": {
            "done": s._auction_done,
            "lots": [board.photo_names[p] for p in s._lots],
            "price": s._lot_price,
            "high_bidder_centre": s._lot_high + 1 if s._lot_high >= 0 else None,
            "bidders": [c + 1 for c in s._bidders],
        },
        "countdown": {"waits": s._count_waits, "sum": s._count_sum, "rolls": s._count_rolls},
        "winner": s.winner(),
    }
    if seat is not None:
        obs["seat"] = seat
        obs["centre"] = s._centre[seat] + 1 if s._centre[seat] >= 0 else None
    return obs


def tensor(s: CountDownState, seat: int) -> np.ndarray:
    """Positions, money, holdings, stock, own agent cards, phase; observer's centre first."""
    board = s.game.board
    n, length = s.game.num_players, board.track_len
    photos, agents = len(board.photo_names), len(board.agent_names)
    size = n * length + 4 * (1 + photos + 4 + 2) + photos + 4 + agents + len(phases.NAMES) + 14
    out = np.zeros(size, dtype=np.float32)
    for offset in range(n):
        pos = s._pos[(seat + offset) % n]
        if pos >= 0:
            out[offset * length + pos] = 1.0
    i = n * length
    mine = max(s._centre[seat], 0)
    for k in range(4):
        c = (mine + k) % 4
        out[i] = s._money[c] / 1000
        out[i + 1 : i + 1 + photos] = s._photos[c]
        out[i + 1 + photos : i + 5 + photos] = s._parts[c]
        agents_c = s._agents[c]
        out[i + 5 + photos] = sum(x for t, x in enumerate(agents_c) if board.agent_green[t])
        out[i + 6 + photos] = sum(x for t, x in enumerate(agents_c) if not board.agent_green[t])
        i += 7 + photos
    out[i : i + photos] = s._photo_stock
    out[i + photos : i + photos + 4] = s._part_stock
    i += photos + 4
    if s._centre[seat] >= 0:
        out[i : i + agents] = s._agents[s._centre[seat]]
    i += agents
    out[i + s._phase] = 1.0
    i += len(phases.NAMES)
    out[i + min(s._roll, 12)] = 1.0
    out[i + 13] = s._turns / s.game.max_turns
    return out


def state_text(s: CountDownState) -> str:
    """Everything, hidden cards included (for debugging and the conformance checks)."""
    lines = [
        f"Count Down ({s.game.num_players} players), {phases.NAMES[s._phase]}, "
        f"turn {s._turns}/{s.game.max_turns}, player {s._player}, mover {s._mover}, "
        f"roll {s._roll}, bank {s._bank}"
    ]
    for c in range(4):
        lines.append(
            f"centre {c + 1} seats {s._seats_of[c]} money {s._money[c]} "
            f"photos {s._photos[c]} parts {s._parts[c]} agents {s._agents[c]}"
        )
    lines.append(f"positions {s._pos} skip {s._skip} order {s._order} at {s._turn_at}")
    lines.append(f"stock {s._photo_stock} parts {s._part_stock} pile {s._pile}")
    lines.append(f"surprise unseen {s._surprise_unseen} queue {s._surprise_queue}")
    lines.append(
        f"again {s._again} debts {s._debts} meeting {s._partners} fz {s._fz_owner} "
        f"left {s._proposals_left} dealt {s._dealt} deal {s._deal} ask {s._ask} "
        f"counter {s._counter} mission {s._mission} green {s._draw_green}"
    )
    lines.append(
        f"auction {s._auction_done} lots {s._lots} bidders {s._bidders} at {s._bid_at} "
        f"price {s._lot_price} high {s._lot_high} count {s._count_waits}/{s._count_sum}/"
        f"{s._count_rolls} winner {s._winner}"
    )
    lines.append(
        f"roll-off {s._capital_rolls} groups {s._groups} contenders {s._contenders} "
        f"rolls {s._tie_rolls} first {s._first_round} last surprise {s._last_surprise}"
    )
    return "\n".join(lines)


SQUARE_MARKS = {
    "ramp": "R", "forbidden": "F", "photo": "P", "part": "S", "saturn": "V",
    "surprise": "?", "funding": "$", "espionage": "E", "sabotage": "X", "training": "T",
}  # fmt: skip


def render_state(s: CountDownState, seat: int | None = None) -> str:
    """The track as a strip of squares with the pieces, then each centre (Rich markup)."""
    board = s.game.board
    obs = observe(s, seat)
    lines = [f"[bold]Count Down[/] · turn {obs['turn']} · {obs['phase']}"]
    marks = []
    for i, kind in enumerate(board.kinds):
        pieces = "".join(str(p) for p, at in enumerate(s._pos) if at == i)
        marks.append(f"{SQUARE_MARKS[kind]}{pieces}" if pieces else SQUARE_MARKS[kind])
    lines.append("track: " + " ".join(marks))
    lines.append(
        "[dim]R ramp F forbidden zone P photo S rocket part V Saturn V ? surprise $ funding "
        "E espionage X sabotage T training; digits are seats[/]"
    )
    for seat_no, at in enumerate(s._pos):
        if at >= 0:
            kind = board.kinds[at]
            what = _square_name(s, at)
            who = "you" if seat_no == seat else f"seat {seat_no}"
            lines.append(f"  {who} on square {at} ({kind}{what})")
    for view in obs["centres"]:
        if not view["seats"]:
            continue
        mark = "▶ " if s._mover in view["seats"] else "  "
        parts = ", ".join(f"{k}×{v}" for k, v in view["parts"].items()) or "none"
        lines.append(
            f"{mark}[bold]centre {view['centre']}[/] seats {view['seats']} · "
            f"{view['money']} million · rocket: {parts}"
            + (" [green](complete)[/]" if view["rocket_complete"] else "")
        )
        have = ", ".join(f"{k}×{v}" if v > 1 else k for k, v in view["photos"].items())
        lines.append(f"    photos: {have or 'none'}")
        lines.append(f"    missing: {', '.join(view['missing_photos']) or '[green]none[/]'}")
        secret = view.get("agent_cards")
        agents = f"{view['green_cards']} green, {view['red_cards']} red"
        if secret:
            agents += " (" + ", ".join(f"{k}×{v}" for k, v in secret.items()) + ")"
        lines.append(f"    agent cards: {agents}")
    stock = obs["stock"]
    lines.append(
        f"leader: {sum(stock['photos'].values())} photo cards, parts "
        + (", ".join(f"{k}×{v}" for k, v in stock["parts"].items()) or "none")
    )
    if obs["deal"]:
        lines.append(f"deal: {obs['deal']}")
    if s._phase == phases.BID:
        lines.append(f"auction: {obs['auction']}")
    if s._count_rolls or s._count_waits:
        lines.append(f"countdown: {obs['countdown']}")
    return "\n".join(lines)


def _square_name(s: CountDownState, square: int) -> str:
    board = s.game.board
    kind, arg = board.kinds[square], board.args[square]
    if kind == "photo":
        return f": {board.photo_names[arg]}"
    if kind == "part":
        return f": {board.part_names[arg]}"
    if kind in ("ramp", "forbidden"):
        return f" of centre {arg + 1}"
    if kind == "funding":
        return f": {arg}"
    return ""
