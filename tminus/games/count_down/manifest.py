"""Count Down in T-minus: everything beyond the engine, in one place (read by the
registries; see ``tminus.core.manifest``). Nothing named here is imported until used."""

from tminus.core.manifest import GameManifest, Levels

MANIFEST = GameManifest(
    name="count_down",
    game="tminus.games.count_down.game:CountDownGame",
    description="Build a rocket, collect your photo cards and win the countdown to fly to "
    "the Moon. 2–6 players.",
    luck="every roll of the ball and every card drawn",
    agents={"greedy": "tminus.agents.greedy.count_down:CountDownGreedy"},
    solvers=("tminus.agents.solvers.count_down:report",),
    facts="tminus.games.count_down.analysis:facts",
    figures=("tminus.sim.report:count_down_ready",),
    # Timed on the development machine (README, "Levels": 90th percentile of a decision
    # at 3-6 players 0.40-0.57 s at 100 simulations, 1.11-1.62 s at 300); hidden cards:
    # ismcts. Two players' games are shorter, so each simulation costs less: 0.42 s at 200,
    # 1.74 s at 800.
    levels=Levels(
        hard="ismcts:simulations=100",
        expert="ismcts:simulations=300",
        hards_by_players={2: "ismcts:simulations=200"},
        experts_by_players={2: ("ismcts:simulations=800", "Deep search (expert)")},
    ),
    board="/static/js/boards/count_down.js",
    batch={"numpy": "tminus.batch.count_down:CountDownBatch"},
    batch_agents={"greedy": "tminus.batch.count_down_greedy:CountDownBatchGreedy"},
    # The review's playouts: the greedy player, as on the reference engine (the same moves).
    batch_rollout="greedy",
)
