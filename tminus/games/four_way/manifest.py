"""4-Way CountDown in T-minus: everything beyond the engine, in one place (read by the
registries; see ``tminus.core.manifest``). Nothing named here is imported until used."""

from tminus.core.manifest import GameManifest, Levels

MANIFEST = GameManifest(
    name="four_way",
    game="tminus.games.four_way.game:FourWayGame",
    description="Roll two dice, make a number and flip that key up: the first with all ten "
    "keys up wins. 2–4 players.",
    luck="every roll of the dice",
    agents={
        "greedy": "tminus.agents.greedy.four_way:FourWayGreedy",
        "solver": "tminus.agents.solvers.four_way:FourWaySolverAgent",  # the solved duel
    },
    solvers=(
        "tminus.agents.solvers.four_way:report",  # alone: the fewest turns to finish
        "tminus.agents.solvers.four_way_duel:report",  # two players, both perfect
    ),
    figures=("tminus.sim.report:four_way_turns_to_finish",),
    # Calibrated on the development machine (README, "Levels"); with two players the
    # expert is the exact solver.
    levels=Levels(
        hard="mcts:simulations=800",
        expert="mcts:simulations=3000",
        experts_by_players={2: ("solver", "Solver (expert, perfect with two)")},
    ),
    board="/static/js/boards/four_way.js",
    batch={
        "numpy": "tminus.batch.four_way:FourWayBatch",
        "jax": "tminus.batch.jax_four_way:FourWayJax",
    },
    batch_agents={"greedy": "tminus.batch.greedy:FourWayBatchGreedy"},
)
