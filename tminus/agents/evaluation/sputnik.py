"""How good a Sputnik position is for a seat: the mobility and reachable area of each rocket.

Every side (a player, or a team) spreads out from its rockets over the galaxies they can
fly over; a cell belongs to the side that reaches it first (a Voronoi split in steps).
A side that owns more of the board can outlast the others, since each turn takes away
one galaxy. Mobility (the steps a rocket has now) and rockets still in play count too.
"""

from __future__ import annotations

from tminus.games.sputnik.game import SputnikState
from tminus.games.sputnik.rules import BASE, GALAXY, NOBODY, OUT

ROCKET = 100.0  # a rocket still in play
AREA = 1.0  # a cell that the side reaches first
MOBILITY = 2.0  # a step the rocket can take now
TRAPPED = 30.0  # a rocket with no step (only its base's help, if any, can save it)
HELP = 3.0  # an unused base help


def side_distances(state: SputnikState, side: int) -> list[int]:
    """Steps from the side's rockets to every cell over free galaxies (and own bases)."""
    game = state.game
    board, at, pos, _, _ = state.position()
    neighbours = game.board.neighbours
    far = len(board)
    distance = [far] * len(board)
    frontier = []
    own_bases = set()
    for rocket, cell in enumerate(pos):
        if cell != OUT and game.side_of_rocket[rocket] == side:
            distance[cell] = 0
            frontier.append(cell)
            own_bases.add(BASE + rocket)
    step = 0
    while frontier:
        step += 1
        following = []
        for cell in frontier:
            for n in neighbours[cell]:
                if distance[n] == far and at[n] == NOBODY:
                    content = board[n]
                    if content == GALAXY or content in own_bases:
                        distance[n] = step
                        following.append(n)
        frontier = following
    return distance


def side_scores(state: SputnikState) -> dict[int, float]:
    """A score for every side still in play."""
    game = state.game
    board, at, pos, base, _ = state.position()
    neighbours = game.board.neighbours
    sides = sorted({game.side_of_rocket[r] for r, cell in enumerate(pos) if cell != OUT})
    scores = dict.fromkeys(sides, 0.0)
    for rocket, cell in enumerate(pos):
        if cell == OUT:
            continue
        side = game.side_of_rocket[rocket]
        steps = 0
        for n in neighbours[cell]:
            if at[n] == NOBODY and (board[n] == GALAXY or board[n] == BASE + rocket):
                steps += 1
        score = ROCKET + MOBILITY * min(steps, 4)
        if steps == 0:
            score -= TRAPPED
        if base[rocket] != OUT:
            score += HELP
        scores[side] += score
    if len(sides) > 1:
        distances = [side_distances(state, side) for side in sides]
        far = len(board)
        for cell in range(len(board)):
            best = far
            owner = -1
            for i, row in enumerate(distances):
                d = row[cell]
                if d < best:
                    best, owner = d, i
                elif d == best:
                    owner = -1  # a tie: nobody's
            if owner >= 0 and best > 0:
                scores[sides[owner]] += AREA
    return scores


def evaluate(state: SputnikState, seat: int) -> float:
    """The seat's side's score minus the best other side's score."""
    scores = side_scores(state)
    mine = state.game.side_of_seat[seat]
    own = scores.pop(mine, 0.0)
    return own - max(scores.values(), default=0.0)


def order_actions(state: SputnikState, actions: list[int]) -> list[int]:
    """Removals next to other sides' rockets first (and far from one's own); moves to the
    roomiest cells first."""
    game = state.game
    board, at, pos, _, _ = state.position()
    neighbours = game.board.neighbours
    player = state.current_player()
    side = game.side_of_seat[player]
    cells = game.cells
    near_enemy = [0] * cells
    near_own = [0] * cells
    for rocket, cell in enumerate(pos):
        if cell == OUT:
            continue
        marks = near_own if game.side_of_rocket[rocket] == side else near_enemy
        for n in neighbours[cell]:
            marks[n] += 1
    if state.phase() == "remove":
        offset = game.remove_offset
        return sorted(actions, key=lambda a: near_own[a - offset] - 2 * near_enemy[a - offset])

    def room(action: int) -> int:
        cell = action % cells
        free = sum(1 for n in neighbours[cell] if board[n] == GALAXY and at[n] == NOBODY)
        helping = action >= game.help_offset
        return -(free - near_enemy[cell]) + (3 if helping else 0)

    return sorted(actions, key=room)
