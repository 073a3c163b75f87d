"""How big a loss is: blunder, mistake, inaccuracy.

A loss is in chance-to-win points (0 to 1) that the move played gave away against the best
move. The thresholds follow lichess's (10, 20 and 30 points of its winning-chances scale,
which runs from -1 to 1: 5, 10 and 15 points of a chance to win), doubled, because a roll of
the dice or a draw of the cards swings these games far more than a move swings chess:

    blunder      the move gave away at least 0.30 of a chance to win
    mistake      at least 0.15
    inaccuracy   at least 0.05

An estimated loss is graded by evidence: it earns a grade only when it exceeds that grade's
threshold by more than two standard errors of the paired difference (best move less move
played, on the same worlds and luck). A loss whose interval still reaches below a threshold
is not called by it: 0.40 ± 0.10 is a mistake (0.20 > 0.15), not yet a blunder, and
0.12 ± 0.05 is no inaccuracy at all. Exact values are graded as they are.
"""

from __future__ import annotations

GRADES = (("blunder", 0.30), ("mistake", 0.15), ("inaccuracy", 0.05))
SIGNIFICANT = 2.0  # standard errors by which a loss must pass a threshold to earn its grade


def grade(loss: float, error: float = 0.0) -> str | None:
    """The grade of a loss (None: a good move, or not shown to be a worse one), ``error`` its
    standard error (0: exact)."""
    surely = loss - SIGNIFICANT * error  # the loss the evidence is sure of
    for name, threshold in GRADES:
        passed = surely > threshold if error else surely >= threshold - 1e-12
        if passed:
            return name
    return None
