"""A game whose bots get into trouble in the bots' worker process, never in the server's.

``trouble`` picks how: "crash" (the bot raises, every turn), "spin" (it thinks forever) or
"die" (its worker process exits), both on the bot's first turn only. The state misbehaves
only when copied in a worker process (the bot thinks on a copy), so the server itself plays
the game as usual.
"""

from __future__ import annotations

import multiprocessing
import os

from tminus.core.params import Param

from .secret_game import SecretGame, SecretState


class TroubledGame(SecretGame):
    name = "troubled"
    title = "Troubled"
    parameters = {
        **SecretGame.parameters,
        "trouble": Param("crash", "how the bots get into trouble",
                         choices=("crash", "spin", "die", "none")),
    }  # fmt: skip

    def new_initial_state(self) -> TroubledState:
        return TroubledState(self)


class TroubledState(SecretState):
    def clone(self) -> TroubledState:
        if multiprocessing.parent_process() is not None:  # in a bots' worker
            trouble = self.game.params["trouble"]
            if trouble == "crash":
                raise RuntimeError("the bot tripped")
            first_turn = self.moves < self.game.num_players
            if trouble == "spin" and first_turn:
                while True:
                    pass
            if trouble == "die" and first_turn:
                os._exit(3)
        copy = TroubledState(self.game)
        copy._history = list(self._history)
        copy.words = list(self.words)
        copy.turn, copy.moves, copy.winner = self.turn, self.moves, self.winner
        return copy
