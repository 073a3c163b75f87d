"""Hand-written heuristic agents, one module per game."""
