"""Adapters to the research ecosystem: OpenSpiel, PettingZoo, Gymnasium (extra `tminus[rl]`)."""
