"""3-2-1 Countdown: the rules as pure functions of hands, totals and scores.

A hand (and the draw pile) is a list of 11 counts: ``hand[v]`` copies of the card value v.
The state machine that calls these is in ``game.py``; the deck is data in ``deck.json``.
"""

from __future__ import annotations

from tminus.games.three_two_one.deck import load_deck

COUNTDOWN_LIMIT = 5  # "if the face value of a player's hand totals 5 or less"
POINTS_BY_RANK = (3, 2, 1)  # "The lowest hand total gets 3 points, the second-lowest 2, ..."
COUNTDOWN_BONUS = 1  # "they get 3 points + 1 bonus point"
ROUND_WIN_POINTS = 3  # a round is won by scoring at least 3 in it (RULINGS.md)
ROUND_WINS_NEEDED = 3  # "In a game with 2 or 3 players, the first player to win 3 rounds wins."
FIRST_TO_THREE_MAX_PLAYERS = 3
MAX_EXTRA_ROUNDS = 5  # extra rounds for tied leaders: at most 5, then they share the win

COUNTDOWN = "countdown"
BLASTOFF = "blastoff"

DECK, HAND_SIZES = load_deck()
VALUES = range(len(DECK))  # the card values, 0 to 10
DECK_SIZE = sum(DECK)
MIN_PLAYERS, MAX_PLAYERS = min(HAND_SIZES), max(HAND_SIZES)


def hand_size(players_in_round: int) -> int:
    """Cards per hand: "2-6 players: 12 cards each; 7-8 players: 10 cards each"."""
    return HAND_SIZES[players_in_round]


def hand_total(hand: list[int]) -> int:
    return sum(v * c for v, c in enumerate(hand))


def hand_values(hand: list[int]) -> list[int]:
    """The hand as sorted card values ("organize cards numerically from smallest to largest")."""
    values: list[int] = []
    for v, c in enumerate(hand):
        if c:
            values += [v] * c
    return values


def can_countdown(total: int) -> bool:
    """Countdown! is open "if the face value of a player's hand totals 5 or less"."""
    return total <= COUNTDOWN_LIMIT


def can_blastoff(hand: list[int], size: int) -> bool:
    """Blastoff! is open "if a player's hand consists entirely of cards with the same number"."""
    return size > 0 and max(hand) == size


def largest_discard(count: int, size: int) -> int:
    """How many of a number held ``count`` times may go: all of them, but never the last card."""
    return count if count < size else size - 1


def dense_ranks(totals: list[int]) -> list[int]:
    """Rank 1 for the lowest total; equal totals share a rank and the next total is next rank."""
    order = {total: rank for rank, total in enumerate(sorted(set(totals)), start=1)}
    return [order[t] for t in totals]


def points_for_rank(rank: int) -> int:
    """3, 2 and 1 points for ranks 1, 2 and 3; "Everyone else gets 0"."""
    return POINTS_BY_RANK[rank - 1] if rank <= len(POINTS_BY_RANK) else 0


def score_plain(totals: list[int]) -> list[int]:
    """A round with no declarer: points by dense rank of the totals."""
    return [points_for_rank(r) for r in dense_ranks(totals)]


def score_countdown(totals: list[int], declarer: int) -> list[int]:
    """Scores when player index ``declarer`` (into ``totals``) declared Countdown!."""
    points = score_plain(totals)
    mine = totals[declarer]
    if any(t < mine for t in totals):
        # "If any player's hand total is lower than the 'Countdown!' declarer, the declarer
        # gets 0." The declarer's total still takes its rank for the others.
        points[declarer] = 0
    elif totals.count(mine) == 1:
        # "If the 'Countdown!' declarer has the lowest hand total, ... 3 points + 1 bonus."
        points[declarer] += COUNTDOWN_BONUS
    # Tied for the lowest: "all tied players get 3 points", no bonus (score_plain).
    return points


def score_blastoff(totals: list[int], declarer: int) -> list[int]:
    """Blastoff!: "the player who declares it gets 3 points, second-lowest 2, third-lowest 1"."""
    others = [t for i, t in enumerate(totals) if i != declarer]
    ranks = iter(dense_ranks(others))
    return [POINTS_BY_RANK[0] if i == declarer else points_for_rank(next(ranks) + 1)
            for i in range(len(totals))]  # fmt: skip


def score_round(totals: list[int], declarer: int | None, declaration: str | None) -> list[int]:
    """Points for each player of the round, in the order of ``totals``."""
    if declarer is None:  # the round ran out of cards: nobody declared
        return score_plain(totals)
    if declaration == COUNTDOWN:
        return score_countdown(totals, declarer)
    if declaration == BLASTOFF:
        return score_blastoff(totals, declarer)
    return score_plain(totals)


def won_round(points: int) -> bool:
    """Winning a round means scoring at least 3 in it (ties at the lowest all win)."""
    return points >= ROUND_WIN_POINTS


def uses_first_to_three(players: int) -> bool:
    return players <= FIRST_TO_THREE_MAX_PLAYERS


def first_to_three_winner(round_wins: list[int]) -> int | None:
    """The first to win 3 rounds; several at 3 or more: only one with more wins than all."""
    best = max(round_wins)
    if best < ROUND_WINS_NEEDED or round_wins.count(best) > 1:
        return None
    return round_wins.index(best)


def leaders(scores: list[int], among: list[int]) -> list[int]:
    """The seats of ``among`` with the highest score."""
    best = max(scores[s] for s in among)
    return [s for s in among if scores[s] == best]


def after_points_round(
    scores: list[int], contenders: list[int], regular_left: int, extra_played: int
) -> tuple[list[int] | None, list[int]]:
    """(winners or None, who plays next) in a game won on points (4 or more players).

    "The player with the highest score after 5 rounds wins. In a tie, play one more round
    with only the tied players." Still tied after ``MAX_EXTRA_ROUNDS`` extra rounds: they share.
    """
    if regular_left > 0:
        return None, contenders
    best = leaders(scores, contenders)
    if len(best) == 1 or extra_played >= MAX_EXTRA_ROUNDS:
        return best, best
    return None, best
