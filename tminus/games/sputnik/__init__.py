"""Sputnik: the hex-board elimination game (rules, state machine, rendering, rules page)."""
