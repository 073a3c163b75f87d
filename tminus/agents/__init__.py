"""Agents: random, per-game heuristics, and (later) search and exact solvers."""

from tminus.agents.base import Agent
from tminus.agents.random_agent import RandomAgent
from tminus.agents.registry import list_agents, make_agent

__all__ = ["Agent", "RandomAgent", "list_agents", "make_agent"]
