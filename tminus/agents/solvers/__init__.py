"""Exact solvers and the agents that play their solutions."""
