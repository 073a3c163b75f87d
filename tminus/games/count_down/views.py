"""What each seat sees (observations, tensor), the debugging text and the terminal drawing.

Money, positions, parts and photo cards are public; agent cards are secret to their
holder (the watching fifth seat sees everything the leader sees).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from rich.markup import escape

from tminus.games.count_down import phases
from tminus.games.count_down.actions import ASK_FOR
from tminus.games.count_down.countdown import missing_photos, rocket_complete
from tminus.games.count_down.trading import has_the_say
from tminus.games.count_down.words import deal_terms, prompt, square_name
from tminus.games.layout import fit
from tminus.games.phrasing import board_name, join, piece_marks, seat_labels

if TYPE_CHECKING:
    from tminus.games.count_down.data import BoardData
    from tminus.games.count_down.game import CountDownState


def _named(names: tuple[str, ...], counts: list[int]) -> dict[str, int]:
    return {names[i]: n for i, n in enumerate(counts) if n}


def centre_view(s: CountDownState, centre: int, seat: int | None) -> dict[str, Any]:
    board = s.game.board
    held = s.holdings[centre]
    agents = held.agents
    view: dict[str, Any] = {
        "centre": centre + 1,
        "seats": list(s.seating.seats_of[centre]),
        "in_service": s.seating.in_service[centre],
        "money": held.money,
        "photos": _named(board.photo_names, held.photos),
        "parts": _named(board.part_names, held.parts),
        "control_card": [board.photo_names[p] for p in board.control[centre]],
        "missing_photos": [board.photo_names[p] for p in missing_photos(s, centre)],
        "rocket_complete": rocket_complete(s, centre),
        "saturn_v_bought": held.saturn_v,  # bought complete and still whole
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
    meeting, auction, rolls, piles = s.meeting, s.auction, s.roll_off, s.piles
    deal, mission = meeting.deal, meeting.mission
    template = space.templates[deal[2]] if deal[2] >= 0 else None
    obs: dict[str, Any] = {
        "game": s.game.name,
        "players": s.game.num_players,
        "phase": phases.NAMES[s._phase],
        "doing": phases.DOING[s._phase],  # the phase as a status line says it to players
        "current_player": s._player,
        "mover": s.turn.mover,
        "turn": s.turn.number,
        "max_turns": s.game.max_turns,
        "roll": s.turn.roll,
        "positions": list(s.turn.pos),
        "turns_to_sit_out": list(s.turn.skip),
        "centres": [centre_view(s, c, seat) for c in range(4)],
        "stock": {
            "photos": _named(board.photo_names, s.leader.photos),
            "parts": _named(board.part_names, s.leader.parts),
            "green_pile": sum(n for t, n in enumerate(piles.agents) if board.agent_green[t]),
            "red_pile": sum(n for t, n in enumerate(piles.agents) if not board.agent_green[t]),
            "surprise_known_order": [board.surprises[c][0] for c in piles.surprise_queue],
            "surprise_unseen": len(piles.surprises_unseen),
        },
        "bank": s.leader.bank,
        "last_surprise": (
            board.surprises[piles.last_surprise][0] if piles.last_surprise >= 0 else None
        ),
        "roll_off": {
            "capital_rolls": [list(r) for r in rolls.capital_rolls],
            # Units tied for a place roll again: everyone sees those rolls too.
            "order_so_far": [list(group) for group in rolls.groups],
            "contenders": list(rolls.contenders),
            "tie_rolls": list(rolls.tie_rolls),
        },
        "debts": [list(d) for d in s.debts],
        "meeting": {
            "with": list(meeting.partners),  # in the order they have the say, after the mover
            "say": has_the_say(s) if meeting.say >= 0 else None,
            "forbidden_zone_of": meeting.zone_owner + 1 if meeting.zone_owner >= 0 else None,
            "offers_left": meeting.proposals_left,  # of the player with the say
            "visit_justified": meeting.justified,  # in a forbidden zone: a deal or a mission
        },
        "deal": (
            {
                "by": deal[0],
                "to": deal[1],
                "what": space.template_name(deal[1], template) if template else None,
                "terms": deal_terms(s) if template else None,
                "photo": (
                    board.photo_names[template[1]] if template and template[0] == ASK_FOR else None
                ),
                "ask": meeting.ask,
                "counter": meeting.counter,
            }
            if s._phase in (phases.REPLY, phases.ASK, phases.COUNTER, phases.COUNTER_REPLY)
            else None
        ),
        "mission": (
            {"card": board.agent_names[mission[0]], "target_centre": mission[1] + 1}
            if mission[0] >= 0
            else None
        ),
        "auction": {
            "done": auction.done,
            "lots": [board.photo_names[p] for p in auction.lots],
            "price": auction.price,
            "high_bidder_centre": auction.high + 1 if auction.high >= 0 else None,
            "bidders": [c + 1 for c in auction.bidders],
        },
        "countdown": {
            "waits": s.countdown.waits,
            "sum": s.countdown.total,
            "rolls": s.countdown.rolls,
        },
        "winner": list(s.seating.seats_of[s._winner]) if s._winner >= 0 else None,
        # Partners who play as one centre and win together (6 players), known from the start.
        "teams": [list(team) for team in teams(s)],
    }
    if seat is not None:
        obs["seat"] = seat
        centre = s.seating.centre[seat]
        obs["centre"] = centre + 1 if centre >= 0 else None
    return obs


def teams(s: CountDownState) -> list[tuple[int, ...]]:
    """The teams of partners (``game.allies``), in centre order once the roll-off has
    seated them: none unless 6 play."""
    units = [unit for unit in s.game.units if len(unit) > 1]
    return sorted(units, key=lambda unit: s.seating.centre[unit[0]] % 4)


def tensor(s: CountDownState, seat: int) -> np.ndarray:
    """Positions, money, holdings, stock, own agent cards, phase; observer's centre first."""
    board = s.game.board
    n, length = s.game.num_players, board.track_len
    photos, agents = len(board.photo_names), len(board.agent_names)
    size = n * length + 4 * (1 + photos + 4 + 2) + photos + 4 + agents + len(phases.NAMES) + 14
    out = np.zeros(size, dtype=np.float32)
    for offset in range(n):
        pos = s.turn.pos[(seat + offset) % n]
        if pos >= 0:
            out[offset * length + pos] = 1.0
    i = n * length
    mine = max(s.seating.centre[seat], 0)
    for k in range(4):
        held = s.holdings[(mine + k) % 4]
        out[i] = held.money / 1000
        out[i + 1 : i + 1 + photos] = held.photos
        out[i + 1 + photos : i + 5 + photos] = held.parts
        agents_c = held.agents
        out[i + 5 + photos] = sum(x for t, x in enumerate(agents_c) if board.agent_green[t])
        out[i + 6 + photos] = sum(x for t, x in enumerate(agents_c) if not board.agent_green[t])
        i += 7 + photos
    out[i : i + photos] = s.leader.photos
    out[i + photos : i + photos + 4] = s.leader.parts
    i += photos + 4
    if s.seating.centre[seat] >= 0:
        out[i : i + agents] = s.holdings[mine].agents
    i += agents
    out[i + s._phase] = 1.0
    i += len(phases.NAMES)
    out[i + min(s.turn.roll, 12)] = 1.0
    out[i + 13] = s.turn.number / s.game.max_turns
    return out


def state_text(s: CountDownState) -> str:
    """Everything, hidden cards included (for debugging and the conformance checks)."""
    turn, meeting, auction, count, rolls = s.turn, s.meeting, s.auction, s.countdown, s.roll_off
    lines = [
        f"Count Down ({s.game.num_players} players), {phases.NAMES[s._phase]}, "
        f"turn {turn.number}/{s.game.max_turns}, player {s._player}, mover {turn.mover}, "
        f"roll {turn.roll}, bank {s.leader.bank}"
    ]
    for c, held in enumerate(s.holdings):
        lines.append(
            f"centre {c + 1} seats {s.seating.seats_of[c]} money {held.money} "
            f"photos {held.photos} parts {held.parts} agents {held.agents}"
        )
    lines.append(f"positions {turn.pos} skip {turn.skip} order {s.seating.order} at {turn.at}")
    piles = s.piles
    lines.append(f"stock {s.leader.photos} parts {s.leader.parts} pile {piles.agents}")
    lines.append(f"surprise unseen {piles.surprises_unseen} queue {piles.surprise_queue}")
    lines.append(
        f"again {turn.again} debts {[list(debt) for debt in s.debts]} "
        f"meeting {meeting.partners} say {meeting.say} "
        f"fz {meeting.zone_owner} saturn {[held.saturn_v for held in s.holdings]} "
        f"left {meeting.proposals_left} dealt {meeting.justified} deal {list(meeting.deal)} "
        f"ask {meeting.ask} counter {meeting.counter} mission {list(meeting.mission)} "
        f"green {piles.draw_green}"
    )
    lines.append(
        f"auction {auction.done} lots {auction.lots} bidders {auction.bidders} "
        f"at {auction.at} price {auction.price} high {auction.high} count {count.waits}/"
        f"{count.total}/{count.rolls} winner {s._winner}"
    )
    lines.append(
        f"roll-off {rolls.capital_rolls} groups {rolls.groups} contenders {rolls.contenders} "
        f"rolls {rolls.tie_rolls} first {rolls.first_round} last surprise {piles.last_surprise}"
    )
    return "\n".join(lines)


PIECE_COLOURS = ("red", "blue", "green", "magenta", "cyan", "yellow")


def render_state(
    s: CountDownState,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    width: int | None = None,
) -> str:
    """The track, square by square with the pieces on it, then each centre (Rich markup),
    as ``seat`` sees it, in ``width`` columns; seats called by ``names`` (default: "you",
    "seat N")."""
    obs = observe(s, seat)
    labels = seat_labels(s, seat, names)
    marks = piece_marks(s, names)
    to_move = f" · {escape(labels[s._player])} to play" if s._player >= 0 else ""
    lines = [
        f"[bold]Count Down[/] · turn {obs['turn']} · {obs['doing']}{to_move}",
        *team_lines(s, labels),
        "track:",
        *track_lines(s, marks, width),
    ]
    # Partners' pieces next to each other.
    in_teams = [seat for team in teams(s) for seat in team]
    for who in in_teams + [w for w in range(s.game.num_players) if w not in in_teams]:
        at = s.turn.pos[who]
        if at >= 0:
            piece = f"[bold {PIECE_COLOURS[who]}]{marks[who]}[/]"
            where = f"{at} {square_name(s.game.board, at)}"
            name = board_name(labels[who], who == seat and names is not None)
            lines.append(f"  {piece} {name} is on {escape(where)}")
    for view in obs["centres"]:
        if view["seats"]:
            lines += centre_lines(s, view, labels)
    stock = obs["stock"]
    lines.append(
        f"leader: {sum(stock['photos'].values())} photo cards, parts "
        + (", ".join(f"{k}×{v}" for k, v in stock["parts"].items()) or "none")
    )
    lines += situation_lines(s, labels)
    return "\n".join(fit(lines, width))


def team_lines(s: CountDownState, labels: Sequence[str]) -> list[str]:
    """ "teams: Ann and Dan (centre 1) · Bob and Eve (centre 2) · ..." (6 players)."""
    said = []
    for team in teams(s):
        centre = s.seating.centre[team[0]]
        where = f" (centre {centre + 1})" if centre >= 0 else ""
        said.append(escape(join([labels[seat] for seat in team])) + where)
    return [f"teams: {' · '.join(said)}"] if said else []


TRACK_COLUMNS = (4, 2, 1)  # the most that fit: a quarter, a half or all of the loop each
TRACK_GAP = 2  # columns between the track's columns


def track_lines(s: CountDownState, marks: Sequence[str], width: int | None = None) -> list[str]:
    """The track in four columns, a quarter of the loop each (a centre's launch ramp
    first), or in two or one where ``width`` is narrower: every square by number and name,
    the pieces on it after the name."""
    board = s.game.board
    length = board.track_len
    here: list[list[int]] = [[] for _ in range(length)]
    for who, at in enumerate(s.turn.pos):
        if at >= 0:
            here[at].append(who)
    names = [square_name(board, i) for i in range(length)]
    name_width = max(len(n) for n in names)
    pieces_width = max(1, *(sum(len(marks[w]) for w in seats) for seats in here))
    cell_width = 2 + 1 + name_width + 1 + pieces_width  # "12 Stage 2 1"

    def fits(columns: int) -> bool:
        return width is None or columns * cell_width + (columns - 1) * TRACK_GAP <= width

    columns = next((n for n in TRACK_COLUMNS if fits(n)), TRACK_COLUMNS[-1])
    rows = -(-length // columns)

    def cell(i: int) -> str:
        pieces = "".join(f"[bold {PIECE_COLOURS[w]}]{marks[w]}[/]" for w in here[i])
        used = sum(len(marks[w]) for w in here[i])
        name = escape(names[i].ljust(name_width))
        if here[i]:
            name = f"[reverse]{name}[/]"
        return f"[dim]{i:>2}[/] {name} {pieces}{' ' * (pieces_width - used)}"

    gap = " " * TRACK_GAP
    return [gap.join(cell(i) for i in range(row, length, rows)).rstrip() for row in range(rows)]


def centre_lines(s: CountDownState, view: dict[str, Any], labels: Sequence[str]) -> list[str]:
    mark = "▶ " if s.turn.mover in view["seats"] else "  "
    players = escape(join([labels[w] for w in view["seats"]]))
    parts = ", ".join(f"{k}×{v}" if v > 1 else k for k, v in view["parts"].items()) or "none"
    complete = " [green](complete)[/]" if view["rocket_complete"] else ""
    have = ", ".join(f"{k}×{v}" if v > 1 else k for k, v in view["photos"].items())
    missing = ", ".join(view["missing_photos"]) or "[green]none[/]"
    agents = f"{view['green_cards']} green, {view['red_cards']} red"
    secret = view.get("agent_cards")
    if secret:
        agents += " (" + ", ".join(f"{k}×{v}" if v > 1 else k for k, v in secret.items()) + ")"
    return [
        f"{mark}[bold]centre {view['centre']}[/] {players} · {view['money']} million · "
        f"rocket: {parts}{complete} · agent cards: {agents}",
        f"    photos: {have or 'none'} · [dim]missing:[/] {missing}",
    ]


def situation_lines(s: CountDownState, labels: Sequence[str]) -> list[str]:
    """The roll-off, what a meeting asks ("Bob asks Ann to sell Radar"), the auction, the
    COUNTDOWN under way."""
    board = s.game.board
    lines = []
    if s._winner >= 0:  # a team's partners win together
        players = join([labels[seat] for seat in s.seating.seats_of[s._winner]])
        lines.append(f"[bold]won by centre {s._winner + 1}: {escape(players)}[/]")
    elif s._phase == phases.OVER:
        lines.append("[bold]a draw: the turn limit is reached[/]")
    if s._phase == phases.ROLL_OFF:
        units, roll_off = s.game.units, s.roll_off
        rolls = ", ".join(
            f"{escape(labels[seat])} {rolled[i] if i < len(rolled) else '…'}"
            for unit, rolled in zip(units, roll_off.capital_rolls, strict=True)
            for i, seat in enumerate(unit)
        )
        lines.append(f"rolls for capital and the order of play: {rolls}")
        if not roll_off.first_round:
            tied = join([labels[units[u][0]] for u in roll_off.contenders])
            lines.append(f"to break the tie: {escape(tied)} roll again")
    asked = prompt(s, labels)
    if asked:
        lines.append(f"[bold]{escape(asked)}[/]")
    if s._phase == phases.BID:
        auction = s.auction
        bidders = ", ".join(f"centre {c + 1}" for c in auction.bidders)
        high = f"{auction.price} by centre {auction.high + 1}" if auction.high >= 0 else "none"
        lot = board.photo_names[auction.lots[0]]
        lines.append(f"auction: the {lot} · highest bid {high} · bidding: {bidders}")
    count = s.countdown
    if count.rolls or count.waits:
        if count.rolls:
            done = f"count {count.total} after {count.rolls} of {board.countdown_rolls} rolls"
        else:
            done = f"roll {count.waits} of {board.latest_start} to start the count"
        lines.append(f"COUNTDOWN: {done} (needs {board.countdown_target})")
    return lines
