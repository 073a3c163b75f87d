"""The phases of a Count Down turn: who acts at each node and what for."""

from __future__ import annotations

# Chance nodes.
ROLL_OFF = 0  # a ball roll for starting capital and centre order
ROLL = 1  # the ball rolled for a move
SURPRISE_DRAW = 2  # the top surprise card, never seen before
AGENT_DRAW = 3  # an agent card from the green or red pile
ARREST_ROLL = 4  # the centre's owner rolls for an arrest
COUNT_ROLL = 5  # a countdown roll
# Decisions.
TURN_START = 6  # a player ready for the countdown: roll to move, or count down
DIRECTION = 7  # 10, 11 or 12: forward or backward
BUY_PHOTO = 8
SATURN = 9
TRAINING = 10
DEBT = 11  # sell holdings back to the leader to pay a debt
PLAY_AGAIN = 12
MEETING = 13  # offers, forced-sale requests, missions
REPLY = 14  # accept or refuse an offer
ASK = 15  # the forced seller names a price
COUNTER = 16  # the buyer accepts the ask or counters
COUNTER_REPLY = 17  # the seller accepts the counter or not (midpoint)
TARGET = 18  # a successful agent picks what the mission hits
ARRESTED = 19  # sit out three turns or pay the ransom
COUNT_CHOICE = 20  # start counting with this roll, or wait
BID = 21  # auction
OVER = 22

CHANCE_PHASES = frozenset({ROLL_OFF, ROLL, SURPRISE_DRAW, AGENT_DRAW, ARREST_ROLL, COUNT_ROLL})
NAMES = (
    "roll-off", "roll", "surprise draw", "agent draw", "arrest roll", "countdown roll",
    "turn start", "direction", "buy photo", "Saturn V", "training", "debt", "play again",
    "meeting", "reply", "ask", "counter", "counter reply", "target", "arrested",
    "count choice", "bid", "over",
)  # fmt: skip
# What the player to move is doing in each phase, as a status line says it to players
# (the names above are for programs: "turn start" means nothing at the table).
DOING = (
    "rolling for the start", "rolling the ball", "drawing a surprise card",
    "drawing an agent card", "a roll for an arrest", "rolling the countdown",
    "count down or roll", "choosing a direction", "buying a photo card?", "at the Saturn V",
    "astronaut training", "paying a debt", "playing again", "a meeting",
    "answering an offer", "naming a price", "answering a price", "answering a counter-offer",
    "choosing the mission's target", "arrested: sit out or pay", "counting down",
    "an auction", "game over",
)  # fmt: skip
# The code of each phase by its name (``State.phase()`` gives names).
CODES = {name: code for code, name in enumerate(NAMES)}
